/* Core Motion's motion activity from C: opens the simulated walker (boards/sim-walker.board:
 * 2 s still, 18 steps in 10 s, 6 s still, over and over), prints each live update from a
 * callback for 8 s, then the history of those seconds, and exits 0 if it saw walking.
 *
 *   gcc -std=c11 -Wall -Wextra -Werror activity_example.c $(pkg-config --cflags --libs opencoremotion)
 *   ./a.out [BOARD_FILE [SECONDS]]     (a real board: boards/bmi160-bmp280.board, 60)
 *
 * Updates come as Core Motion's do: the current activity at once (unknown for the first 2 s),
 * then one per transition, with a confidence that climbs while the activity goes on. The
 * callback runs on the library's engine thread: it only prints. tools/test-c-library.sh builds
 * and runs it. */
#define _POSIX_C_SOURCE 200809L
#include <opencoremotion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int64_t unix_now_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

static int64_t monotonic_now_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

static int64_t started_ns, started_monotonic_ns;
static int saw_walking; /* written by the callback; read after ocm_activity_manager_stop_updates() */

static double seconds_since_start(int64_t unix_ns) { return (double)(unix_ns - started_ns) / 1e9; }

/* "walking", "stationary automotive", or "no call" (enough data, no activity it can name). */
static const char *describe(const ocm_motion_activity *activity, char *text, size_t size) {
    const struct { int set; const char *name; } flags[] = {
        {activity->unknown, "unknown"},       {activity->stationary, "stationary"}, {activity->walking, "walking"},
        {activity->running, "running"},       {activity->automotive, "automotive"}, {activity->cycling, "cycling"},
    };
    text[0] = '\0';
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++) {
        if (!flags[i].set) continue;
        if (text[0]) strncat(text, " ", size - strlen(text) - 1);
        strncat(text, flags[i].name, size - strlen(text) - 1);
    }
    return text[0] ? text : "no call";
}

static const char *confidence_name(ocm_activity_confidence confidence) {
    return confidence == OCM_ACTIVITY_CONFIDENCE_HIGH ? "high" : confidence == OCM_ACTIVITY_CONFIDENCE_MEDIUM ? "medium" : "low";
}

static void on_activity(const ocm_motion_activity *activity, ocm_status status, void *user_data) {
    (void)user_data;
    if (status != OCM_STATUS_OK) {
        fprintf(stderr, "activity updates stopped: %s\n", ocm_last_error_message());
        return;
    }
    char text[64];
    /* timestamp_ns (CLOCK_MONOTONIC) is when it was decided; start_unix_ns when it began. */
    printf("at %6.2f s: %-22s since %6.2f s, %s confidence\n", (double)(activity->timestamp_ns - started_monotonic_ns) / 1e9,
           describe(activity, text, sizeof text), seconds_since_start(activity->start_unix_ns), confidence_name(activity->confidence));
    if (activity->walking) saw_walking = 1;
}

static int fail(const char *what, ocm_status status) {
    fprintf(stderr, "%s: %s: %s\n", what, ocm_status_string(status), ocm_last_error_message());
    return 1;
}

int main(int argc, char **argv) {
    const char *board = argc > 1 ? argv[1] : "boards/sim-walker.board";
    const long seconds = argc > 2 ? atol(argv[2]) : 8;
    started_ns = unix_now_ns();
    started_monotonic_ns = monotonic_now_ns();
    ocm_activity_manager *manager = NULL;
    ocm_status status = ocm_activity_manager_open(board, &manager); /* classifying starts */
    if (status != OCM_STATUS_OK) return fail("open", status);
    if (!ocm_activity_manager_is_available(manager)) {
        fprintf(stderr, "%s has no accelerometer: no activity\n", board);
        ocm_activity_manager_close(manager);
        return 1;
    }
    if ((status = ocm_activity_manager_start_updates(manager, on_activity, NULL)) != OCM_STATUS_OK) return fail("updates", status);

    struct timespec wait = {seconds, 0};
    while (nanosleep(&wait, &wait) != 0) {}

    /* Stopped: the callback is not running any more. */
    if ((status = ocm_activity_manager_stop_updates(manager)) != OCM_STATUS_OK) return fail("stop", status);
    ocm_motion_activity history[16];
    size_t count = 0;
    status = ocm_activity_manager_query(manager, started_ns, unix_now_ns(), history, sizeof history / sizeof history[0], &count);
    if (status == OCM_STATUS_NOT_AVAILABLE) {  /* no motiond, so no history: say why and end */
        printf("no history: %s\n", ocm_last_error_message());
        ocm_activity_manager_close(manager);
        return saw_walking ? 0 : 1;
    }
    if (status != OCM_STATUS_OK) return fail("query", status);
    printf("history of these %ld s (smoothed):\n", seconds);
    for (size_t i = 0; i < count && i < sizeof history / sizeof history[0]; i++) {
        char text[64];
        printf("from %6.2f s: %-22s %s confidence\n", seconds_since_start(history[i].start_unix_ns), describe(&history[i], text, sizeof text),
               confidence_name(history[i].confidence));
    }
    ocm_activity_manager_close(manager);
    return saw_walking ? 0 : 1;
}
