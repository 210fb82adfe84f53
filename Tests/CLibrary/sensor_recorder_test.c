/* The sensor-recorder C API (CMSensorRecorder) and the other handles on motiond. Without
 * motiond the recorder is not available, and says so; with the real motiond (started here on a
 * temporary socket with the simulated walker): recording, samples at 50 Hz in g with one
 * continuity identifier, argument and handle errors; a pedometer opened with NULL uses the
 * daemon (and its history), so does an altimeter (its relative altitude from the daemon's
 * stage), and so do batched sensors (the walker's BMI160 at 1600 Hz); another board file or
 * OPENCOREMOTION_NO_DAEMON=1 the in-process engine. Built and run by tools/test-c-library.sh with motiond's path and a scratch folder. */
#define _POSIX_C_SOURCE 200809L
#include <opencoremotion.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "test_clock.h"

extern char **environ;

/* What the batched accelerometer callback saw (its delivery thread writes; read after stop, which joins it). */
typedef struct batch_seen {
    int batches;
    long samples;
    long off_period; /* consecutive timestamps not exactly 625 µs apart */
} batch_seen;

static void on_batch(const ocm_accelerometer_data *samples, size_t count, ocm_status status, void *user_data) {
    batch_seen *seen = user_data;
    if (status != OCM_STATUS_OK || !samples) return;
    seen->batches++;
    seen->samples += (long)count;
    for (size_t index = 1; index < count; index++) {
        if (samples[index].timestamp_ns - samples[index - 1].timestamp_ns != 625000) seen->off_period++;
    }
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s MOTIOND SCRATCH_FOLDER\n", argv[0]);
        return 2;
    }
    char socket_path[512], history[512], policy[512];
    snprintf(socket_path, sizeof socket_path, "%s/recorder.sock", argv[2]);
    snprintf(history, sizeof history, "%s/recorder-history", argv[2]);
    snprintf(policy, sizeof policy, "%s/recorder-policy", argv[2]);
    FILE *empty = fopen(policy, "w");
    if (empty) fclose(empty);

    /* No daemon: the recorder opens, but nothing is available, and it says why. */
    ocm_sensor_recorder *recorder = NULL;
    CHECK(ocm_sensor_recorder_open(socket_path, &recorder) == OCM_STATUS_OK && recorder != NULL, "open without a daemon");
    CHECK(ocm_sensor_recorder_is_available(recorder) == 0, "not available without motiond");
    CHECK(ocm_sensor_recorder_record_accelerometer(recorder, 60, NULL) == OCM_STATUS_NOT_AVAILABLE, "record without motiond");
    CHECK(strstr(ocm_last_error_message(), "needs motiond") != NULL, "message: %s", ocm_last_error_message());
    ocm_sensor_recorder_close(recorder);

    /* The real motiond. */
    char *arguments[] = {argv[1], "--board", "boards/sim-walker.board", "--socket", socket_path, "--history", history, "--policy", policy, NULL};
    pid_t daemon;
    if (posix_spawn(&daemon, argv[1], NULL, NULL, arguments, environ) != 0) {
        fprintf(stderr, "FAIL could not start %s\n", argv[1]);
        return 1;
    }
    int64_t start = unix_now_ns();
    recorder = NULL;
    for (int tries = 0; tries < 200; tries++) {  /* up to 10 s for motiond to answer */
        if (ocm_sensor_recorder_open(socket_path, &recorder) != OCM_STATUS_OK) break;
        if (ocm_sensor_recorder_is_available(recorder)) break;
        ocm_sensor_recorder_close(recorder);
        recorder = NULL;
        sleep_ms(50);
    }
    CHECK(recorder != NULL && ocm_sensor_recorder_is_available(recorder) == 1, "motiond answers");
    if (getuid() == 0) CHECK(ocm_sensor_recorder_authorization_status(recorder) == 3, "root is authorized");

    int64_t until = 0;
    CHECK(ocm_sensor_recorder_record_accelerometer(recorder, 600, &until) == OCM_STATUS_OK, "record: %s", ocm_last_error_message());
    CHECK(absolute((double)(until - unix_now_ns()) / 1e9 - 600) < 5, "records until 600 s from now (%lld)", (long long)until);
    CHECK(ocm_sensor_recorder_record_accelerometer(recorder, 13 * 3600, NULL) == OCM_STATUS_INVALID_ARGUMENT, "over 12 h is refused");
    sleep_ms(1500);

    ocm_recorded_accelerometer_data *samples = NULL;
    size_t count = 0;
    CHECK(ocm_sensor_recorder_copy_accelerometer_data(recorder, start, unix_now_ns(), &samples, &count) == OCM_STATUS_OK,
          "copy: %s", ocm_last_error_message());
    CHECK(count >= 40 && samples != NULL, "%zu samples in about 1.5 s at 50 Hz", count);
    int same_run = 1, increasing = 1, about_one_g = 1;
    for (size_t index = 0; index < count; index++) {
        const ocm_recorded_accelerometer_data *sample = &samples[index];
        if (sample->identifier != samples[0].identifier) same_run = 0;
        if (index > 0 && sample->start_unix_ns <= samples[index - 1].start_unix_ns) increasing = 0;
        double squared = sample->x * sample->x + sample->y * sample->y + sample->z * sample->z;
        if (squared < 0.16 || squared > 2.56) about_one_g = 0;  /* 0.4 … 1.6 g: a walker's accelerometer */
    }
    CHECK(same_run, "one continuity identifier");
    CHECK(increasing, "times increase");
    CHECK(about_one_g, "the walker's acceleration is about 1 g");
    if (count > 1) {
        double rate = (double)(count - 1) / ((double)(samples[count - 1].start_unix_ns - samples[0].start_unix_ns) / 1e9);
        CHECK(absolute(rate - 50) < 2, "50 Hz, got %.2f Hz", rate);
    }
    ocm_sensor_recorder_free_data(samples);

    CHECK(ocm_sensor_recorder_copy_accelerometer_data(recorder, unix_now_ns(), start, &samples, &count) == OCM_STATUS_INVALID_ARGUMENT, "from after to");
    CHECK(ocm_sensor_recorder_copy_accelerometer_data(recorder, start, unix_now_ns(), NULL, &count) == OCM_STATUS_INVALID_ARGUMENT, "NULL out");
    CHECK(ocm_sensor_recorder_copy_accelerometer_data(NULL, start, unix_now_ns(), &samples, &count) == OCM_STATUS_INVALID_HANDLE, "NULL handle");
    CHECK(ocm_sensor_recorder_authorization_status(NULL) == -1, "NULL handle's status");
    ocm_sensor_recorder_close(recorder);
    ocm_sensor_recorder_close(recorder); /* twice: ignored */

    /* The other APIs opened on the system's board (NULL) use motiond when it answers: the
     * pedometer's query comes from its history; a board file that is not the daemon's runs
     * in-process; OPENCOREMOTION_NO_DAEMON=1 always does. */
    setenv("OPENCOREMOTION_SOCKET", socket_path, 1);
    ocm_pedometer *pedometer = NULL;
    ocm_motion_manager *other = NULL;
    CHECK(ocm_pedometer_open(NULL, &pedometer) == OCM_STATUS_OK && ocm_pedometer_uses_daemon(pedometer) == 1, "pedometer on motiond");
    ocm_pedometer_data steps;
    CHECK(ocm_pedometer_query(pedometer, start, unix_now_ns(), &steps) == OCM_STATUS_OK, "query: %s", ocm_last_error_message());
    ocm_pedometer_close(pedometer);
    CHECK(ocm_motion_manager_open("boards/sim-gy-521.board", &other) == OCM_STATUS_OK && ocm_motion_manager_uses_daemon(other) == 0, "another board in-process");
    ocm_motion_manager_close(other);
    /* The altimeter too: the daemon owns the walker's BMP280 and runs the altitude stage; the
     * first relative update comes a second after the start, at 0 m. */
    ocm_altimeter *altimeter = NULL;
    CHECK(ocm_altimeter_open(NULL, &altimeter) == OCM_STATUS_OK && ocm_altimeter_uses_daemon(altimeter) == 1, "altimeter on motiond");
    CHECK(ocm_altimeter_is_available(altimeter) == 1, "motiond's board has a barometer");
    CHECK(ocm_altimeter_start_updates(altimeter, OCM_ALTITUDE_RELATIVE, NULL, NULL) == OCM_STATUS_OK, "start: %s", ocm_last_error_message());
    ocm_altitude_data altitude;
    ocm_status latest = OCM_STATUS_NOT_AVAILABLE;
    for (int tries = 0; tries < 60 && latest != OCM_STATUS_OK; tries++) {  /* up to 3 s */
        sleep_ms(50);
        latest = ocm_altimeter_copy_latest(altimeter, OCM_ALTITUDE_RELATIVE, &altitude);
    }
    CHECK(latest == OCM_STATUS_OK && altitude.relative_altitude_m == 0 && altitude.pressure_kpa > 80 && altitude.pressure_kpa < 110,
          "first relative update through motiond: %d, %.3f m, %.3f kPa", latest, altitude.relative_altitude_m, altitude.pressure_kpa);
    ocm_altimeter_close(altimeter);
    CHECK(ocm_altimeter_uses_daemon(NULL) == 0, "NULL altimeter");
    /* Batched sensors too: the daemon switches the walker's BMI160 to its FIFO's 1600 Hz and
     * sends a second of samples a batch, each 625 µs after the one before. */
    ocm_batched_sensor_manager *batched = NULL;
    CHECK(ocm_batched_sensor_manager_open(NULL, &batched) == OCM_STATUS_OK && ocm_batched_sensor_manager_uses_daemon(batched) == 1,
          "batched sensors on motiond: %s", ocm_last_error_message());
    CHECK(ocm_batched_sensor_manager_is_supported(batched) == 1 && ocm_batched_sensor_manager_frequency(batched, OCM_BATCHED_ACCELEROMETER) == 1600
          && ocm_batched_sensor_manager_frequency(batched, OCM_BATCHED_DEVICE_MOTION) == 200, "the daemon's FIFO rates");
    batch_seen seen = {0, 0, 0};
    CHECK(ocm_batched_sensor_manager_start_accelerometer(batched, on_batch, &seen) == OCM_STATUS_OK, "start: %s", ocm_last_error_message());
    for (int tries = 0; tries < 100 && ocm_batched_sensor_manager_is_active(batched, OCM_BATCHED_ACCELEROMETER) && seen.batches < 2; tries++) sleep_ms(50);
    CHECK(ocm_batched_sensor_manager_stop(batched, OCM_BATCHED_ACCELEROMETER) == OCM_STATUS_OK, "stop");
    CHECK(seen.batches >= 2 && seen.samples == 1600L * seen.batches && seen.off_period == 0,
          "%d batches of 1600 samples 625 µs apart: %ld samples, %ld off-period steps", seen.batches, seen.samples, seen.off_period);
    ocm_batch_drops drops;
    CHECK(ocm_batched_sensor_manager_drops(batched, OCM_BATCHED_ACCELEROMETER, &drops) == OCM_STATUS_OK && drops.queue_full_samples == 0
          && drops.fifo_samples == 0 && drops.delivered_samples == (uint64_t)seen.samples, "nothing dropped");
    ocm_batched_sensor_manager_close(batched);
    CHECK(ocm_batched_sensor_manager_uses_daemon(NULL) == 0, "NULL batched manager");
    setenv("OPENCOREMOTION_NO_DAEMON", "1", 1);
    ocm_activity_manager *activity = NULL;
    CHECK(ocm_activity_manager_open(NULL, &activity) == OCM_STATUS_OK && ocm_activity_manager_uses_daemon(activity) == 0, "forced in-process");
    ocm_activity_manager_close(activity);
    CHECK(ocm_altimeter_open(NULL, &altimeter) == OCM_STATUS_OK && ocm_altimeter_uses_daemon(altimeter) == 0, "altimeter forced in-process");
    ocm_altimeter_close(altimeter);
    CHECK(ocm_batched_sensor_manager_open(NULL, &batched) == OCM_STATUS_OK && ocm_batched_sensor_manager_uses_daemon(batched) == 0,
          "batched sensors forced in-process");
    ocm_batched_sensor_manager_close(batched);
    CHECK(ocm_pedometer_uses_daemon(NULL) == 0, "NULL handle");

    kill(daemon, SIGTERM);
    int status = 0;
    waitpid(daemon, &status, 0);
    printf("sensor recorder: %d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
