/* The motion manager's C API beyond the happy path: availability per board, errors with their
 * statuses and messages, invalid handles and arguments, pull updates with copy_latest, and stop.
 * Built and run by tools/test-c-library.sh (no arguments: it uses the source checkout's boards). */
#define _POSIX_C_SOURCE 200809L
#include <opencoremotion.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "test_clock.h"

static void count_update(const ocm_motion_data *data, ocm_status status, void *user_data) {
    if (status == OCM_STATUS_OK && data && data->stream == OCM_STREAM_GYROSCOPE) ++*(long *)user_data;
}

static void test_availability_and_errors(void) {
    ocm_motion_manager *gy521 = NULL;
    ocm_status status = ocm_motion_manager_open("boards/sim-gy-521.board", &gy521);
    CHECK(status == OCM_STATUS_OK && gy521, "open: %s (%s)", ocm_status_string(status), ocm_last_error_message());
    if (!gy521) return;
    CHECK(ocm_motion_manager_is_available(gy521, OCM_STREAM_ACCELEROMETER) == 1, "accelerometer");
    CHECK(ocm_motion_manager_is_available(gy521, OCM_STREAM_DEVICE_MOTION) == 1, "device motion");
    CHECK(ocm_motion_manager_is_available(gy521, OCM_STREAM_MAGNETOMETER) == 0, "no magnetometer");
    CHECK(ocm_motion_manager_available_reference_frames(gy521) == OCM_REFERENCE_FRAME_X_ARBITRARY_Z_VERTICAL, "frames");

    status = ocm_motion_manager_start(gy521, OCM_STREAM_MAGNETOMETER, OCM_REFERENCE_FRAME_X_ARBITRARY_Z_VERTICAL, NULL, NULL);
    CHECK(status == OCM_STATUS_NOT_AVAILABLE, "%s", ocm_status_string(status));
    CHECK(strstr(ocm_last_error_message(), "sim-gy-521.board") && strstr(ocm_last_error_message(), "no magnetometer"),
          "%s", ocm_last_error_message());
    CHECK(ocm_motion_manager_is_active(gy521, OCM_STREAM_MAGNETOMETER) == 0, "not started");
    status = ocm_motion_manager_start(gy521, OCM_STREAM_DEVICE_MOTION, OCM_REFERENCE_FRAME_X_MAGNETIC_NORTH_Z_VERTICAL, NULL, NULL);
    CHECK(status == OCM_STATUS_NOT_AVAILABLE, "north without a magnetometer: %s", ocm_status_string(status));
    status = ocm_motion_manager_start(gy521, OCM_STREAM_DEVICE_MOTION, (ocm_reference_frame)3, NULL, NULL);
    CHECK(status == OCM_STATUS_INVALID_ARGUMENT, "two frames: %s", ocm_status_string(status));
    status = ocm_motion_manager_start(gy521, (ocm_stream)7, OCM_REFERENCE_FRAME_X_ARBITRARY_Z_VERTICAL, NULL, NULL);
    CHECK(status == OCM_STATUS_INVALID_ARGUMENT, "not a stream: %s", ocm_status_string(status));
    CHECK(ocm_motion_manager_set_update_interval(gy521, OCM_STREAM_GYROSCOPE, 0) == OCM_STATUS_INVALID_ARGUMENT, "interval 0");
    ocm_motion_data data;
    CHECK(ocm_motion_manager_copy_latest(gy521, OCM_STREAM_GYROSCOPE, &data) == OCM_STATUS_NO_DATA, "nothing yet");
    CHECK(ocm_motion_manager_copy_latest(gy521, OCM_STREAM_GYROSCOPE, NULL) == OCM_STATUS_INVALID_ARGUMENT, "NULL out");
    CHECK(ocm_motion_manager_error_message(gy521) == NULL, "no failure");
    uint64_t lost = 99, repeated = 99;
    CHECK(ocm_motion_manager_lost_samples(gy521, OCM_STREAM_DEVICE_MOTION, &lost, &repeated) == OCM_STATUS_OK && lost == 0 && repeated == 0,
          "nothing lost before the board ran: %llu, %llu", (unsigned long long)lost, (unsigned long long)repeated);
    CHECK(ocm_motion_manager_lost_samples(gy521, (ocm_stream)7, &lost, NULL) == OCM_STATUS_INVALID_ARGUMENT, "not a stream");
    ocm_motion_manager_close(gy521);
    CHECK(ocm_motion_manager_lost_samples(gy521, OCM_STREAM_GYROSCOPE, NULL, NULL) == OCM_STATUS_INVALID_HANDLE, "closed handle");

    /* Closed, NULL and stray handles are answered, never dereferenced. */
    CHECK(ocm_motion_manager_stop(gy521, OCM_STREAM_GYROSCOPE) == OCM_STATUS_INVALID_HANDLE, "closed handle");
    CHECK(ocm_motion_manager_is_available(NULL, OCM_STREAM_GYROSCOPE) == 0, "NULL handle");
    int not_a_handle = 0;
    CHECK(ocm_motion_manager_copy_latest((ocm_motion_manager *)&not_a_handle, OCM_STREAM_GYROSCOPE, &data) == OCM_STATUS_INVALID_HANDLE,
          "stray pointer");
    ocm_motion_manager_close(NULL);

    ocm_motion_manager *missing = NULL;
    status = ocm_motion_manager_open("/nonexistent/imu.board", &missing);
    CHECK(status == OCM_STATUS_IO_ERROR && missing == NULL, "%s", ocm_status_string(status));
    CHECK(strstr(ocm_last_error_message(), "/nonexistent/imu.board") != NULL, "%s", ocm_last_error_message());
    CHECK(ocm_motion_manager_open(NULL, NULL) == OCM_STATUS_INVALID_ARGUMENT, "NULL out");
    CHECK(strcmp(ocm_status_string(OCM_STATUS_NOT_AVAILABLE), "not available") == 0, "status name");
    CHECK(strcmp(ocm_status_string(OCM_STATUS_NO_DATA), "no data yet") == 0, "status name");
}

static void test_pull_push_and_stop(void) {
    ocm_motion_manager *manager = NULL;
    ocm_status status = ocm_motion_manager_open("boards/sim-mpu-9250.board", &manager);
    CHECK(status == OCM_STATUS_OK, "open the simulated MPU-9250: %s (%s)", ocm_status_string(status), ocm_last_error_message());
    if (!manager) return;
    CHECK(ocm_motion_manager_available_reference_frames(manager) == 0xf, "all four frames");
    /* Pull: accelerometer without a callback. */
    status = ocm_motion_manager_start(manager, OCM_STREAM_ACCELEROMETER, OCM_REFERENCE_FRAME_X_ARBITRARY_Z_VERTICAL, NULL, NULL);
    CHECK(status == OCM_STATUS_OK, "start pull: %s (%s)", ocm_status_string(status), ocm_last_error_message());
    /* Push: gyroscope at 0.02 s. */
    long updates = 0;
    CHECK(ocm_motion_manager_set_update_interval(manager, OCM_STREAM_GYROSCOPE, 0.02) == OCM_STATUS_OK, "interval");
    status = ocm_motion_manager_start(manager, OCM_STREAM_GYROSCOPE, OCM_REFERENCE_FRAME_X_ARBITRARY_Z_VERTICAL, count_update, &updates);
    CHECK(status == OCM_STATUS_OK, "start push: %s", ocm_status_string(status));
    CHECK(ocm_motion_manager_is_active(manager, OCM_STREAM_GYROSCOPE) == 1, "active");
    sleep_ms(1000);
    CHECK(ocm_motion_manager_stop(manager, OCM_STREAM_GYROSCOPE) == OCM_STATUS_OK, "stop");
    long after_stop = updates; /* the callback is no longer running: safe to read */
    CHECK(after_stop >= 20 && after_stop <= 80, "%ld gyroscope updates in 1 s at 0.02 s", after_stop);
    uint64_t lost = 99, repeated = 99;
    status = ocm_motion_manager_lost_samples(manager, OCM_STREAM_GYROSCOPE, &lost, &repeated);
    CHECK(status == OCM_STATUS_OK && lost == 0 && repeated == 0, "a simulated board loses nothing: %s, %llu lost, %llu repeated",
          ocm_status_string(status), (unsigned long long)lost, (unsigned long long)repeated);
    ocm_motion_data data;
    status = ocm_motion_manager_copy_latest(manager, OCM_STREAM_ACCELEROMETER, &data);
    CHECK(status == OCM_STATUS_OK && data.stream == OCM_STREAM_ACCELEROMETER, "%s", ocm_status_string(status));
    if (status == OCM_STATUS_OK) {
        ocm_vector3 g = data.accelerometer.acceleration_g;
        double squared = g.x * g.x + g.y * g.y + g.z * g.z;
        CHECK(squared > 0.7 && squared < 1.3 && g.z < -0.7, "about 1 g, face up: (%f, %f, %f)", g.x, g.y, g.z);
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        int64_t now_ns = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
        CHECK(now_ns - data.accelerometer.timestamp_ns < 500000000 && data.accelerometer.timestamp_ns <= now_ns + 50000000,
              "timestamp on CLOCK_MONOTONIC: %lld ns ago", (long long)(now_ns - data.accelerometer.timestamp_ns));
    }
    sleep_ms(200);
    CHECK(updates == after_stop, "no update after stop: %ld then %ld", after_stop, updates);
    ocm_motion_manager_close(manager);
}

int main(void) {
    test_availability_and_errors();
    test_pull_push_and_stop();
    printf("motion-manager: %d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
