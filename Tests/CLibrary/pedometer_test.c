/* The pedometer's C API: availability per board, errors with their statuses and messages,
 * invalid handles and arguments, polled updates, events, and queries that add up, on the
 * simulated walker (boards/sim-walker.board: 2 s still, then 1.8 steps/s for 10 s).
 * Built and run by tools/test-c-library.sh (no arguments: it uses the source checkout's boards). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <opencoremotion.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "test_clock.h"

typedef struct {
    int resumes, pauses, failures;
    int64_t first_resume_ns;
} events_seen;

static void count_event(const ocm_pedometer_event *event, ocm_status status, void *user_data) {
    events_seen *seen = user_data;
    if (status != OCM_STATUS_OK) {
        seen->failures++;
        return;
    }
    if (event->type == OCM_PEDOMETER_EVENT_RESUME && seen->resumes++ == 0) seen->first_resume_ns = event->date_unix_ns;
    if (event->type == OCM_PEDOMETER_EVENT_PAUSE) seen->pauses++;
}

static void test_availability_and_errors(void) {
    ocm_pedometer *mpu9250 = NULL;
    ocm_status status = ocm_pedometer_open("boards/sim-mpu-9250.board", &mpu9250); /* no barometer */
    CHECK(status == OCM_STATUS_OK && mpu9250, "open the simulated MPU-9250: %s (%s)", ocm_status_string(status), ocm_last_error_message());
    if (!mpu9250) return;
    CHECK(ocm_pedometer_is_available(mpu9250, OCM_PEDOMETER_STEP_COUNTING) == 1, "steps");
    CHECK(ocm_pedometer_is_available(mpu9250, OCM_PEDOMETER_EVENT_TRACKING) == 1, "events");
    CHECK(ocm_pedometer_is_available(mpu9250, OCM_PEDOMETER_FLOOR_COUNTING) == 0, "no barometer, no floors");
    CHECK(ocm_pedometer_is_available(mpu9250, (ocm_pedometer_feature)9) == 0, "not a feature");
    ocm_pedometer_data data;
    CHECK(ocm_pedometer_copy_latest(mpu9250, &data) == OCM_STATUS_NO_DATA, "nothing before start");
    int64_t now = unix_now_ns();
    status = ocm_pedometer_query(mpu9250, now, now - 1000000000, &data);
    CHECK(status == OCM_STATUS_INVALID_ARGUMENT && strstr(ocm_last_error_message(), "earlier time first"), "%s: %s",
          ocm_status_string(status), ocm_last_error_message());
    CHECK(ocm_pedometer_query(mpu9250, now - 1000000000, now, NULL) == OCM_STATUS_INVALID_ARGUMENT, "NULL out");
    /* In-process there is no history to query: motiond keeps it, and the message says so. */
    status = ocm_pedometer_query(mpu9250, now - 1000000000, now, &data);
    CHECK(status == OCM_STATUS_NOT_AVAILABLE && strstr(ocm_last_error_message(), "motiond"), "query in-process: %s: %s",
          ocm_status_string(status), ocm_last_error_message());
    CHECK(ocm_pedometer_start_event_updates(mpu9250, NULL, NULL) == OCM_STATUS_INVALID_ARGUMENT, "NULL event callback");
    CHECK(ocm_pedometer_error_message(mpu9250) == NULL, "no failure");
    ocm_pedometer_close(mpu9250);

    /* Closed, NULL and stray handles are answered, never dereferenced. */
    CHECK(ocm_pedometer_stop_updates(mpu9250) == OCM_STATUS_INVALID_HANDLE, "closed handle");
    CHECK(ocm_pedometer_is_available(NULL, OCM_PEDOMETER_STEP_COUNTING) == 0, "NULL handle");
    int not_a_handle = 0;
    CHECK(ocm_pedometer_query((ocm_pedometer *)&not_a_handle, 0, 1, &data) == OCM_STATUS_INVALID_HANDLE, "stray pointer");
    ocm_pedometer_close(NULL);

    ocm_pedometer *missing = NULL;
    status = ocm_pedometer_open("/nonexistent/walker.board", &missing);
    CHECK(status == OCM_STATUS_IO_ERROR && missing == NULL, "%s", ocm_status_string(status));
    CHECK(strstr(ocm_last_error_message(), "/nonexistent/walker.board") != NULL, "%s", ocm_last_error_message());
    CHECK(ocm_pedometer_open(NULL, NULL) == OCM_STATUS_INVALID_ARGUMENT, "NULL out");
}

static void test_a_walk(void) {
    ocm_pedometer *walker = NULL;
    ocm_status status = ocm_pedometer_open("boards/sim-walker.board", &walker); /* board time 0 */
    CHECK(status == OCM_STATUS_OK && walker, "open walker: %s (%s)", ocm_status_string(status), ocm_last_error_message());
    if (!walker) return;
    int64_t start = unix_now_ns();
    CHECK(ocm_pedometer_is_available(walker, OCM_PEDOMETER_FLOOR_COUNTING) == 1, "a barometer");
    events_seen seen = {0, 0, 0, 0};
    CHECK(ocm_pedometer_start_event_updates(walker, count_event, &seen) == OCM_STATUS_OK, "events");
    /* Polled: no callback. The first update comes at once: still standing, 0 steps. */
    CHECK(ocm_pedometer_start_updates(walker, start, NULL, NULL) == OCM_STATUS_OK, "start: %s", ocm_last_error_message());
    sleep_ms(500);
    ocm_pedometer_data data;
    status = ocm_pedometer_copy_latest(walker, &data);
    CHECK(status == OCM_STATUS_OK && data.number_of_steps == 0 && data.has_floors == 1 && data.floors_ascended == 0,
          "first update: %s, %lld steps", ocm_status_string(status), (long long)data.number_of_steps);
    CHECK(isnan(data.current_cadence_steps_per_s) && absolute((double)(data.start_unix_ns - start)) < 1000,
          "standing: no cadence; start date kept");

    /* Walking from 2 s at 1.8 steps/s: by 8 s about 10 steps counted, the latest update at
     * most 2.5 s old. */
    sleep_ms(7500);
    status = ocm_pedometer_copy_latest(walker, &data);
    CHECK(status == OCM_STATUS_OK && data.number_of_steps >= 5 && data.number_of_steps <= 14, "%lld steps by 8 s",
          (long long)data.number_of_steps);
    CHECK(absolute(data.current_cadence_steps_per_s - 1.8) < 0.3, "cadence %f steps/s", data.current_cadence_steps_per_s);
    CHECK(data.distance_m > 0.6 * (double)data.number_of_steps && data.distance_m < 0.8 * (double)data.number_of_steps,
          "%f m for %lld steps", data.distance_m, (long long)data.number_of_steps);
    CHECK(ocm_pedometer_stop_updates(walker) == OCM_STATUS_OK, "stop");
    CHECK(ocm_pedometer_stop_event_updates(walker) == OCM_STATUS_OK, "stop events");
    /* Stopped: `seen` is ours again. One resume, at the first step (about 2.1 s). */
    double resume_s = (double)(seen.first_resume_ns - start) / 1e9;
    CHECK(seen.resumes == 1 && seen.pauses == 0 && seen.failures == 0, "%d resumes, %d pauses, %d failures", seen.resumes, seen.pauses,
          seen.failures);
    CHECK(resume_s > 1.5 && resume_s < 3, "resume at %f s", resume_s);

    /* Queries need motiond's history (sensor_recorder_test.c queries it): in-process, even after
     * the walk just counted live, an error that says to start motiond, never an empty answer. */
    ocm_pedometer_data whole;
    ocm_status queried = ocm_pedometer_query(walker, start, unix_now_ns(), &whole);
    CHECK(queried == OCM_STATUS_NOT_AVAILABLE && strstr(ocm_last_error_message(), "motiond"), "query: %s: %s", ocm_status_string(queried),
          ocm_last_error_message());
    ocm_pedometer_close(walker);
}

int main(void) {
    test_availability_and_errors();
    test_a_walk();
    printf("pedometer_test: %d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
