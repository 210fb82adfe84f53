/* The motion-activity C API: availability, errors with their statuses and messages, invalid
 * handles and arguments, live updates by callback and by polling, and queries into a caller's
 * array, on the simulated walker (boards/sim-walker.board: 2 s still, then 1.8 steps/s for
 * 10 s). Built and run by tools/test-c-library.sh (no arguments: it uses the source checkout's
 * boards). */
#define _POSIX_C_SOURCE 200809L
#include <opencoremotion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "test_clock.h"

/* What the callback saw, in order: written on the engine thread, read after the stop. */
typedef struct {
    ocm_motion_activity activities[32];
    int count, failures;
} activities_seen;

static void keep_activity(const ocm_motion_activity *activity, ocm_status status, void *user_data) {
    activities_seen *seen = user_data;
    if (status != OCM_STATUS_OK) {
        seen->failures++;
        return;
    }
    if (seen->count < 32) seen->activities[seen->count++] = *activity;
}

/* A board file with a barometer only (no accelerometer: no activity), in a fresh folder. */
static int write_barometer_board(char *path, size_t size) {
    char folder[] = "/tmp/ocm-activity-XXXXXX";
    if (!mkdtemp(folder)) return 0;
    snprintf(path, size, "%s/barometer.board", folder);
    FILE *file = fopen(path, "w");
    if (!file) return 0;
    fputs("board = barometer only\n[chip barometer]\ndriver = bmp280\nbus = emulated\naddress = 0x76\n", file);
    return fclose(file) == 0;
}

static void test_availability_and_errors(void) {
    char path[128];
    CHECK(write_barometer_board(path, sizeof path), "write a board file");
    ocm_activity_manager *barometer = NULL;
    ocm_status status = ocm_activity_manager_open(path, &barometer);
    CHECK(status == OCM_STATUS_OK && barometer, "open %s: %s (%s)", path, ocm_status_string(status), ocm_last_error_message());
    if (barometer) {
        CHECK(ocm_activity_manager_is_available(barometer) == 0, "no accelerometer, no activity");
        status = ocm_activity_manager_start_updates(barometer, keep_activity, NULL);
        CHECK(status == OCM_STATUS_NOT_AVAILABLE && strstr(ocm_last_error_message(), "no accelerometer"), "%s: %s", ocm_status_string(status),
              ocm_last_error_message());
        size_t count = 7;
        status = ocm_activity_manager_query(barometer, 0, unix_now_ns(), NULL, 0, &count);
        CHECK(status == OCM_STATUS_NOT_AVAILABLE && count == 7, "query: %s", ocm_status_string(status));
        ocm_motion_activity latest;
        CHECK(ocm_activity_manager_copy_latest(barometer, &latest) == OCM_STATUS_NO_DATA, "nothing to poll");
        CHECK(ocm_activity_manager_error_message(barometer) == NULL, "no failure");
        ocm_activity_manager_close(barometer);
        unlink(path);
        *strrchr(path, '/') = '\0';
        rmdir(path);
    }

    /* Closed, NULL and stray handles are answered, never dereferenced. */
    CHECK(ocm_activity_manager_stop_updates(barometer) == OCM_STATUS_INVALID_HANDLE, "closed handle");
    CHECK(ocm_activity_manager_is_available(NULL) == 0, "NULL handle");
    int not_a_handle = 0;
    size_t count = 0;
    CHECK(ocm_activity_manager_query((ocm_activity_manager *)&not_a_handle, 0, 1, NULL, 0, &count) == OCM_STATUS_INVALID_HANDLE, "stray pointer");
    ocm_activity_manager_close(NULL);

    ocm_activity_manager *missing = NULL;
    status = ocm_activity_manager_open("/nonexistent/walker.board", &missing);
    CHECK(status == OCM_STATUS_IO_ERROR && missing == NULL, "%s", ocm_status_string(status));
    CHECK(strstr(ocm_last_error_message(), "/nonexistent/walker.board") != NULL, "%s", ocm_last_error_message());
    CHECK(ocm_activity_manager_open(NULL, NULL) == OCM_STATUS_INVALID_ARGUMENT, "NULL out");
}

static void test_a_walk(void) {
    ocm_activity_manager *walker = NULL, *poller = NULL;
    ocm_status status = ocm_activity_manager_open("boards/sim-walker.board", &walker); /* board time 0 */
    int64_t start = unix_now_ns();
    CHECK(status == OCM_STATUS_OK && walker, "open walker: %s (%s)", ocm_status_string(status), ocm_last_error_message());
    if (!walker) return;
    CHECK(ocm_activity_manager_is_available(walker) == 1, "an accelerometer");
    activities_seen seen = {.count = 0, .failures = 0};
    CHECK(ocm_activity_manager_start_updates(walker, keep_activity, &seen) == OCM_STATUS_OK, "start: %s", ocm_last_error_message());
    /* A second manager of the board, polled: no callback. */
    CHECK(ocm_activity_manager_open("boards/sim-walker.board", &poller) == OCM_STATUS_OK, "open poller");
    CHECK(ocm_activity_manager_start_updates(poller, NULL, NULL) == OCM_STATUS_OK, "start polling");

    sleep_ms(500);
    ocm_motion_activity latest;
    status = ocm_activity_manager_copy_latest(poller, &latest);
    CHECK(status == OCM_STATUS_OK && latest.unknown == 1 && latest.walking == 0, "at first: unknown (%s)", ocm_status_string(status));

    /* Walking from its first step at about 2.2 s, reported within 5 s: by 7.5 s, walking. */
    sleep_ms(7000);
    status = ocm_activity_manager_copy_latest(poller, &latest);
    CHECK(status == OCM_STATUS_OK && latest.walking == 1 && latest.stationary == 0 && latest.unknown == 0, "walking by 7.5 s");
    CHECK(latest.confidence == OCM_ACTIVITY_CONFIDENCE_MEDIUM, "medium confidence after 2.5 s of walking: %d", latest.confidence);
    double walk_start_s = (double)(latest.start_unix_ns - start) / 1e9;
    CHECK(absolute(walk_start_s - 2.2) < 0.6, "walking since %f s", walk_start_s);
    CHECK(ocm_activity_manager_stop_updates(walker) == OCM_STATUS_OK && ocm_activity_manager_stop_updates(poller) == OCM_STATUS_OK, "stop");

    /* Stopped: `seen` is ours again. unknown at once, stationary (the still first 2 s), walking. */
    CHECK(seen.failures == 0 && seen.count >= 3, "%d updates, %d failures", seen.count, seen.failures);
    if (seen.count >= 3) {
        CHECK(seen.activities[0].unknown && seen.activities[0].confidence == OCM_ACTIVITY_CONFIDENCE_LOW, "first: unknown, low");
        CHECK(seen.activities[1].stationary && !seen.activities[1].unknown, "then stationary");
        CHECK(seen.activities[2].walking && seen.activities[2].confidence == OCM_ACTIVITY_CONFIDENCE_LOW, "then walking, low");
        CHECK(seen.activities[2].timestamp_ns > 0, "a CLOCK_MONOTONIC timestamp");
    }
    for (int i = 0; i < seen.count; i++) {
        CHECK(!seen.activities[i].running && !seen.activities[i].automotive && !seen.activities[i].cycling, "update %d: a pedestrian", i);
    }

    /* Queries need motiond's history (sensor_recorder_test.c queries it): in-process, even after
     * the walk just classified live, an error that says to start motiond. */
    int64_t end = unix_now_ns();
    size_t count = 0;
    ocm_motion_activity history[8];
    status = ocm_activity_manager_query(walker, start, end, history, 8, &count);
    CHECK(status == OCM_STATUS_NOT_AVAILABLE && strstr(ocm_last_error_message(), "motiond"), "query in-process: %s: %s", ocm_status_string(status),
          ocm_last_error_message());
    status = ocm_activity_manager_query(walker, end, start, history, 8, &count);
    CHECK(status == OCM_STATUS_INVALID_ARGUMENT && strstr(ocm_last_error_message(), "earlier time first"), "%s: %s", ocm_status_string(status),
          ocm_last_error_message());
    CHECK(ocm_activity_manager_query(walker, start, end, NULL, 8, &count) == OCM_STATUS_INVALID_ARGUMENT, "NULL out with a capacity");
    CHECK(ocm_activity_manager_query(walker, start, end, history, 8, NULL) == OCM_STATUS_INVALID_ARGUMENT, "NULL count");
    CHECK(ocm_activity_manager_copy_latest(walker, NULL) == OCM_STATUS_INVALID_ARGUMENT, "NULL out");
    ocm_activity_manager_close(poller);
    ocm_activity_manager_close(walker);
}

int main(void) {
    test_availability_and_errors();
    test_a_walk();
    printf("activity_test: %d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
