/* The water-submersion C API: availability, errors with their statuses and messages, invalid
 * handles and arguments, and live updates on the simulated dive (boards/sim-ms5837.board: 6 s
 * in air, 2 s of splashing, then down at 1 m/s), watched for 12 s: the submerged event, the
 * states in order, depths against the profile, the water temperature. Built and run by
 * tools/test-c-library.sh (no arguments: it uses the source checkout's boards). */
#define _POSIX_C_SOURCE 200809L
#include <opencoremotion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"

static void sleep_ms(long milliseconds) {
    struct timespec remaining = {milliseconds / 1000, (milliseconds % 1000) * 1000000L};
    while (nanosleep(&remaining, &remaining) != 0) {}
}

static int64_t unix_now_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

static double absolute(double x) { return x < 0 ? -x : x; }

/* What the callback saw: written on the engine thread, read after the stop. */
typedef struct {
    int64_t start_unix_ns;
    int measurements, events, temperatures, failures;
    int64_t event_unix_ns[4];
    int event_submerged[4];
    ocm_water_depth_state states[16];
    int state_count;
    double worst_depth_error_m;
    int depths_checked;
    double coldest_c, warmest_c, uncertainty_c;
} dive_seen;

static void keep_update(const ocm_water_submersion_update *update, ocm_status status, void *user_data) {
    dive_seen *seen = user_data;
    if (status != OCM_STATUS_OK) {
        seen->failures++;
        return;
    }
    double seconds = (double)(update->date_unix_ns - seen->start_unix_ns) / 1e9;
    switch (update->kind) {
    case OCM_WATER_SUBMERSION_EVENT:
        if (seen->events < 4) {
            seen->event_unix_ns[seen->events] = update->date_unix_ns;
            seen->event_submerged[seen->events] = update->submerged;
        }
        seen->events++;
        break;
    case OCM_WATER_SUBMERSION_MEASUREMENT:
        seen->measurements++;
        if ((seen->state_count == 0 || seen->states[seen->state_count - 1] != update->state) && seen->state_count < 16) {
            seen->states[seen->state_count++] = update->state;
        }
        /* Descending at 1 m/s from 8 s: compare where the profile is exact (not the splash). */
        if (seconds > 9 && seconds < 11.8) {
            double error = absolute(update->depth_m - (seconds - 8));
            if (error > seen->worst_depth_error_m) seen->worst_depth_error_m = error;
            seen->depths_checked++;
        }
        break;
    case OCM_WATER_SUBMERSION_TEMPERATURE:
        if (seen->temperatures == 0 || update->temperature_c < seen->coldest_c) seen->coldest_c = update->temperature_c;
        if (seen->temperatures == 0 || update->temperature_c > seen->warmest_c) seen->warmest_c = update->temperature_c;
        seen->uncertainty_c = update->temperature_uncertainty_c;
        seen->temperatures++;
        break;
    }
}

static void test_errors_and_availability(void) {
    ocm_water_submersion_manager *manager = NULL;
    CHECK(ocm_water_submersion_open(NULL, OCM_WATER_DENSITY_FRESH, 0, NULL) == OCM_STATUS_INVALID_ARGUMENT, "NULL out");
    CHECK(ocm_water_submersion_open(NULL, 0, 0, &manager) == OCM_STATUS_INVALID_ARGUMENT && manager == NULL, "density 0");
    CHECK(strstr(ocm_last_error_message(), "is not water's") != NULL, "density message: %s", ocm_last_error_message());
    CHECK(ocm_water_submersion_open(NULL, OCM_WATER_DENSITY_FRESH, -3, &manager) == OCM_STATUS_INVALID_ARGUMENT, "negative depth");
    CHECK(ocm_water_submersion_open("boards/no-such.board", OCM_WATER_DENSITY_FRESH, 0, &manager) == OCM_STATUS_IO_ERROR, "missing board");

    /* The simulated MPU-9250 has no depth sensor. */
    CHECK(ocm_water_submersion_open("boards/sim-mpu-9250.board", OCM_WATER_DENSITY_FRESH, 0, &manager) == OCM_STATUS_OK, "open");
    CHECK(ocm_water_submersion_is_available(manager) == 0, "no depth sensor");
    CHECK(ocm_water_submersion_maximum_depth(manager) != ocm_water_submersion_maximum_depth(manager), "NaN maximum depth");
    CHECK(ocm_water_submersion_start_updates(manager, NULL, NULL) == OCM_STATUS_NOT_AVAILABLE, "start without a depth sensor");
    CHECK(strstr(ocm_last_error_message(), "has no depth sensor, which water submersion needs") != NULL, "message: %s", ocm_last_error_message());
    CHECK(ocm_water_submersion_error_message(manager) != NULL, "kept message");
    ocm_water_submersion_close(manager);

    /* Invalid handles. */
    CHECK(ocm_water_submersion_stop_updates(NULL) == OCM_STATUS_INVALID_HANDLE, "stop NULL");
    CHECK(ocm_water_submersion_is_available(NULL) == 0, "available NULL");
    ocm_water_submersion_close(NULL);

    /* The sensor's range in sea water: 30 bar less an atmosphere is 288.4 m. */
    CHECK(ocm_water_submersion_open("boards/sim-ms5837.board", OCM_WATER_DENSITY_SALT, 0, &manager) == OCM_STATUS_OK, "open the dive");
    CHECK(ocm_water_submersion_is_available(manager) == 1, "depth sensor");
    CHECK(absolute(ocm_water_submersion_maximum_depth(manager) - 288.4) < 0.1, "range %f", ocm_water_submersion_maximum_depth(manager));
    ocm_water_submersion_update latest;
    CHECK(ocm_water_submersion_copy_latest(manager, &latest) == OCM_STATUS_NO_DATA, "no data before start");
    ocm_water_submersion_close(manager);
}

static void test_live_dive(void) {
    ocm_water_submersion_manager *manager = NULL;
    CHECK(ocm_water_submersion_open("boards/sim-ms5837.board", OCM_WATER_DENSITY_FRESH, 6, &manager) == OCM_STATUS_OK, "open");
    CHECK(absolute(ocm_water_submersion_maximum_depth(manager) - 6) < 1e-9, "rated 6 m");
    static dive_seen seen;
    seen.start_unix_ns = unix_now_ns();
    CHECK(ocm_water_submersion_start_updates(manager, keep_update, &seen) == OCM_STATUS_OK, "start: %s", ocm_last_error_message());
    sleep_ms(12000);
    CHECK(ocm_water_submersion_stop_updates(manager) == OCM_STATUS_OK, "stop");
    ocm_water_submersion_update latest;
    CHECK(ocm_water_submersion_copy_latest(manager, &latest) == OCM_STATUS_OK && latest.kind == OCM_WATER_SUBMERSION_MEASUREMENT, "latest");
    CHECK(latest.depth_m > 3 && latest.state == OCM_WATER_DEPTH_SUBMERGED_DEEP, "latest %f m, state %d", latest.depth_m, (int)latest.state);
    CHECK(absolute(latest.surface_pressure_pa - 100800) < 20, "surface %f Pa", latest.surface_pressure_pa);
    ocm_water_submersion_close(manager);

    CHECK(seen.failures == 0, "failures: %d", seen.failures);
    CHECK(seen.measurements > 11 * 25, "25 measurements a second: %d", seen.measurements);
    CHECK(seen.events == 1 && seen.event_submerged[0] == 1, "one submerged event: %d", seen.events);
    double event_seconds = (double)(seen.event_unix_ns[0] - seen.start_unix_ns) / 1e9;
    CHECK(absolute(event_seconds - 8.3) < 0.5, "submerged at %.2f s", event_seconds);
    ocm_water_depth_state expected[] = {OCM_WATER_DEPTH_UNKNOWN, OCM_WATER_DEPTH_NOT_SUBMERGED, OCM_WATER_DEPTH_SUBMERGED_SHALLOW,
                                        OCM_WATER_DEPTH_SUBMERGED_DEEP};
    CHECK(seen.state_count == 4 && memcmp(seen.states, expected, sizeof expected) == 0, "states: %d of them", seen.state_count);
    /* Against the profile: the 30BA's 2 mm of noise, plus when the board's clock started. */
    CHECK(seen.depths_checked > 50 && seen.worst_depth_error_m < 0.05, "worst depth error %.3f m over %d", seen.worst_depth_error_m,
          seen.depths_checked);
    CHECK(seen.temperatures > 0 && absolute(seen.coldest_c - 14) < 0.011 && absolute(seen.warmest_c - 14) < 0.011,
          "water %.2f…%.2f °C", seen.coldest_c, seen.warmest_c);
    CHECK(seen.uncertainty_c == 2, "uncertainty %f", seen.uncertainty_c);
    printf("dive: submerged at %.2f s, worst depth error %.1f mm while descending\n", event_seconds, seen.worst_depth_error_m * 1000);
}

int main(void) {
    test_errors_and_availability();
    test_live_dive();
    printf("water_submersion_test: %d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
