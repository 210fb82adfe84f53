/* Core Motion's altimeter from C: opens a board with a barometer (default the simulated
 * GY-521 + BMP280, boards/sim-gy-521-bmp280.board, at sea-level pressure), prints the relative
 * altitude from a callback and the absolute altitude by polling, about once a second for 5 s,
 * and exits 0 if updates came.
 *
 *   gcc -std=c11 -Wall -Wextra -Werror altimeter_example.c $(pkg-config --cflags --libs opencoremotion)
 *   ./a.out [BOARD_FILE [SECONDS [QNH_KPA]]]   (a real board: boards/bmi160-bmp280.board, 60, 101.8)
 *
 * The callback runs on the library's engine thread: it only prints. tools/test-c-library.sh
 * builds and runs it. */
#define _POSIX_C_SOURCE 200809L
#include <opencoremotion.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int updates;

static void on_relative(const ocm_altitude_data *data, ocm_status status, void *user_data) {
    (void)user_data;
    if (status != OCM_STATUS_OK) {
        fprintf(stderr, "altimeter failed: %s\n", ocm_last_error_message());
        return;
    }
    updates++;
    printf("%.3f s  relative %+7.3f m  %.4f kPa\n", (double)data->timestamp_ns / 1e9, data->relative_altitude_m, data->pressure_kpa);
}

static int fail(const char *what, ocm_status status) {
    fprintf(stderr, "%s: %s: %s\n", what, ocm_status_string(status), ocm_last_error_message());
    return 1;
}

int main(int argc, char **argv) {
    const char *board = argc > 1 ? argv[1] : "boards/sim-gy-521-bmp280.board";
    const long seconds = argc > 2 ? atol(argv[2]) : 5;
    ocm_altimeter *altimeter = NULL;
    ocm_status status = ocm_altimeter_open(board, &altimeter);
    if (status != OCM_STATUS_OK) return fail("open", status);
    if (argc > 3 && (status = ocm_altimeter_set_sea_level_pressure(altimeter, atof(argv[3]), 0.1)) != OCM_STATUS_OK)
        return fail("sea-level pressure", status);
    if ((status = ocm_altimeter_start_updates(altimeter, OCM_ALTITUDE_RELATIVE, on_relative, NULL)) != OCM_STATUS_OK)
        return fail("relative altitude", status);
    if ((status = ocm_altimeter_start_updates(altimeter, OCM_ALTITUDE_ABSOLUTE, NULL, NULL)) != OCM_STATUS_OK)
        return fail("absolute altitude", status);

    for (long second = 0; second < seconds; second++) {
        struct timespec wait = {1, 0};
        while (nanosleep(&wait, &wait) != 0) {}
        ocm_altitude_data absolute;
        if (ocm_altimeter_copy_latest(altimeter, OCM_ALTITUDE_ABSOLUTE, &absolute) == OCM_STATUS_OK)
            printf("%.3f s  absolute %8.2f m ± %.1f m (precision %.3f m)\n", (double)absolute.timestamp_ns / 1e9, absolute.altitude_m,
                   absolute.accuracy_m, absolute.precision_m);
    }
    ocm_altimeter_close(altimeter); /* stops both: the callback is not running any more */
    printf("%d relative altitude updates in %ld s\n", updates, seconds);
    return updates > 0 ? 0 : 1;
}
