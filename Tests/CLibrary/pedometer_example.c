/* Core Motion's pedometer from C: opens the simulated walker (boards/sim-walker.board: 2 s
 * still, 18 steps in 10 s, 6 s still, over and over), prints each live update and each
 * pause/resume from callbacks for 8 s, then asks for the total, and exits 0 if it counted steps.
 *
 *   gcc -std=c11 -Wall -Wextra -Werror pedometer_example.c $(pkg-config --cflags --libs opencoremotion)
 *   ./a.out [BOARD_FILE [SECONDS]]     (a real board: boards/bmi160-bmp280.board, 60)
 *
 * Updates come as Core Motion's do: one at once, then about every 2.5 s while steps are taken.
 * The callbacks run on the library's engine thread: they only print. tools/test-c-library.sh
 * builds and runs it. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <opencoremotion.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int64_t unix_now_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

static int64_t started_ns;

static double seconds_since_start(int64_t unix_ns) { return (double)(unix_ns - started_ns) / 1e9; }

static void on_update(const ocm_pedometer_data *data, ocm_status status, void *user_data) {
    (void)user_data;
    if (status != OCM_STATUS_OK) {
        fprintf(stderr, "pedometer failed: %s\n", ocm_last_error_message());
        return;
    }
    printf("%6.2f s  %3lld steps  %6.2f m", seconds_since_start(data->end_unix_ns), (long long)data->number_of_steps, data->distance_m);
    if (!isnan(data->current_cadence_steps_per_s))
        printf("  %.2f steps/s  %.2f s/m", data->current_cadence_steps_per_s, data->current_pace_s_per_m);
    if (data->has_floors) printf("  floors +%d -%d", data->floors_ascended, data->floors_descended);
    printf("\n");
}

static void on_event(const ocm_pedometer_event *event, ocm_status status, void *user_data) {
    (void)user_data;
    if (status != OCM_STATUS_OK) return;  /* on_update says why */
    printf("%6.2f s  %s\n", seconds_since_start(event->date_unix_ns), event->type == OCM_PEDOMETER_EVENT_PAUSE ? "pause" : "resume");
}

static int fail(const char *what, ocm_status status) {
    fprintf(stderr, "%s: %s: %s\n", what, ocm_status_string(status), ocm_last_error_message());
    return 1;
}

int main(int argc, char **argv) {
    const char *board = argc > 1 ? argv[1] : "boards/sim-walker.board";
    const long seconds = argc > 2 ? atol(argv[2]) : 8;
    ocm_pedometer *pedometer = NULL;
    ocm_status status = ocm_pedometer_open(board, &pedometer); /* counting starts */
    if (status != OCM_STATUS_OK) return fail("open", status);
    if (!ocm_pedometer_is_available(pedometer, OCM_PEDOMETER_STEP_COUNTING)) {
        fprintf(stderr, "%s has no accelerometer: no steps\n", board);
        ocm_pedometer_close(pedometer);
        return 1;
    }
    started_ns = unix_now_ns();
    if ((status = ocm_pedometer_start_event_updates(pedometer, on_event, NULL)) != OCM_STATUS_OK) return fail("events", status);
    if ((status = ocm_pedometer_start_updates(pedometer, started_ns, on_update, NULL)) != OCM_STATUS_OK) return fail("updates", status);

    struct timespec wait = {seconds, 0};
    while (nanosleep(&wait, &wait) != 0) {}

    /* Stopped: the callbacks are not running any more. */
    if ((status = ocm_pedometer_stop_updates(pedometer)) != OCM_STATUS_OK) return fail("stop", status);
    if ((status = ocm_pedometer_stop_event_updates(pedometer)) != OCM_STATUS_OK) return fail("stop events", status);
    ocm_pedometer_data total;
    /* The last live update holds the total since the start (a query needs motiond's history). */
    if ((status = ocm_pedometer_copy_latest(pedometer, &total)) != OCM_STATUS_OK) return fail("latest", status);
    printf("in %ld s: %lld steps, %.2f m", seconds, (long long)total.number_of_steps, total.distance_m);
    if (!isnan(total.average_active_pace_s_per_m)) printf(", %.2f s/m while walking", total.average_active_pace_s_per_m);
    printf("\n");
    ocm_pedometer_close(pedometer);
    return total.number_of_steps > 0 ? 0 : 1;
}
