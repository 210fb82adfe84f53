/* The altimeter's C API: availability per board, errors with their statuses and messages
 * (the missing barometer named), invalid handles, kinds and arguments, callbacks at about one
 * a second and polling, on the simulated GY-521 + BMP280 (boards/sim-gy-521-bmp280.board: a
 * BMP280 at sea-level pressure with its datasheet noise, 1.3 Pa).
 * Built and run by tools/test-c-library.sh (no arguments: it uses the source checkout's boards). */
#define _POSIX_C_SOURCE 200809L
#include <opencoremotion.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "check.h"

static void sleep_ms(long milliseconds) {
    struct timespec remaining = {milliseconds / 1000, (milliseconds % 1000) * 1000000L};
    while (nanosleep(&remaining, &remaining) != 0) {}
}

/* |x| without libm (the build links only the library). */
static double absolute(double x) { return x < 0 ? -x : x; }

typedef struct {
    int updates, failures;
    int64_t first_ns, last_ns;
    double worst_relative_m;
} updates_seen;

static void count_update(const ocm_altitude_data *data, ocm_status status, void *user_data) {
    updates_seen *seen = user_data;
    if (status != OCM_STATUS_OK) {
        seen->failures++;
        return;
    }
    if (seen->updates++ == 0) seen->first_ns = data->timestamp_ns;
    seen->last_ns = data->timestamp_ns;
    if (absolute(data->relative_altitude_m) > seen->worst_relative_m) seen->worst_relative_m = absolute(data->relative_altitude_m);
}

static void test_availability_and_errors(void) {
    ocm_altimeter *mpu9250 = NULL;
    ocm_status status = ocm_altimeter_open("boards/sim-mpu-9250.board", &mpu9250); /* no barometer */
    CHECK(status == OCM_STATUS_OK && mpu9250, "open the simulated MPU-9250: %s (%s)", ocm_status_string(status), ocm_last_error_message());
    if (!mpu9250) return;
    CHECK(ocm_altimeter_is_available(mpu9250) == 0, "no barometer");
    status = ocm_altimeter_start_updates(mpu9250, OCM_ALTITUDE_RELATIVE, NULL, NULL);
    CHECK(status == OCM_STATUS_NOT_AVAILABLE && strstr(ocm_last_error_message(), "no barometer") && strstr(ocm_last_error_message(), "bmp280"),
          "%s: %s", ocm_status_string(status), ocm_last_error_message());
    CHECK(ocm_altimeter_error_message(mpu9250) && strstr(ocm_altimeter_error_message(mpu9250), "no barometer"), "kept for the handle");
    ocm_altitude_data data;
    CHECK(ocm_altimeter_copy_latest(mpu9250, OCM_ALTITUDE_RELATIVE, &data) == OCM_STATUS_NO_DATA, "nothing before start");
    CHECK(ocm_altimeter_copy_latest(mpu9250, OCM_ALTITUDE_ABSOLUTE, NULL) == OCM_STATUS_INVALID_ARGUMENT, "NULL out");
    status = ocm_altimeter_start_updates(mpu9250, (ocm_altitude_kind)7, NULL, NULL);
    CHECK(status == OCM_STATUS_INVALID_ARGUMENT && strstr(ocm_last_error_message(), "kind 7"), "%s", ocm_last_error_message());
    status = ocm_altimeter_set_sea_level_pressure(mpu9250, 1013.25, 0.1); /* hPa given for kPa */
    CHECK(status == OCM_STATUS_INVALID_ARGUMENT && strstr(ocm_last_error_message(), "80…110 kPa"), "%s", ocm_last_error_message());
    CHECK(ocm_altimeter_set_sea_level_pressure(mpu9250, 101.5, -1) == OCM_STATUS_INVALID_ARGUMENT, "negative uncertainty");
    ocm_altimeter_close(mpu9250);

    CHECK(ocm_altimeter_stop_updates(mpu9250, OCM_ALTITUDE_RELATIVE) == OCM_STATUS_INVALID_HANDLE, "closed handle");
    CHECK(ocm_altimeter_is_available(NULL) == 0, "NULL handle");
    ocm_altimeter *missing = NULL;
    status = ocm_altimeter_open("/nonexistent/baro.board", &missing);
    CHECK(status == OCM_STATUS_IO_ERROR && missing == NULL && strstr(ocm_last_error_message(), "/nonexistent/baro.board"), "%s: %s",
          ocm_status_string(status), ocm_last_error_message());
    CHECK(ocm_altimeter_open("boards/sim-gy-521-bmp280.board", NULL) == OCM_STATUS_INVALID_ARGUMENT, "NULL out");
}

static void test_live_updates(void) {
    ocm_altimeter *altimeter = NULL;
    ocm_status status = ocm_altimeter_open("boards/sim-gy-521-bmp280.board", &altimeter);
    CHECK(status == OCM_STATUS_OK && altimeter, "open: %s (%s)", ocm_status_string(status), ocm_last_error_message());
    if (!altimeter) return;
    CHECK(ocm_altimeter_is_available(altimeter) == 1, "a BMP280");
    CHECK(ocm_altimeter_set_sea_level_pressure(altimeter, 102.0, 0.1) == OCM_STATUS_OK, "a QNH of 1020 hPa");
    updates_seen seen = {0};
    CHECK(ocm_altimeter_start_updates(altimeter, OCM_ALTITUDE_RELATIVE, count_update, &seen) == OCM_STATUS_OK, "start relative: %s",
          ocm_last_error_message());
    CHECK(ocm_altimeter_start_updates(altimeter, OCM_ALTITUDE_ABSOLUTE, NULL, NULL) == OCM_STATUS_OK, "start absolute (polled)");
    sleep_ms(4500);
    ocm_altitude_data relative, absolute_data;
    CHECK(ocm_altimeter_copy_latest(altimeter, OCM_ALTITUDE_RELATIVE, &relative) == OCM_STATUS_OK, "polled relative");
    CHECK(ocm_altimeter_copy_latest(altimeter, OCM_ALTITUDE_ABSOLUTE, &absolute_data) == OCM_STATUS_OK, "polled absolute");
    CHECK(ocm_altimeter_stop_updates(altimeter, OCM_ALTITUDE_RELATIVE) == OCM_STATUS_OK, "stop");
    /* Stopped: `seen` is ours again. The first a second after the first reading, then one a
     * second: 3 or 4 in 4.5 s. */
    CHECK(seen.updates >= 3 && seen.updates <= 5 && seen.failures == 0, "%d updates, %d failures", seen.updates, seen.failures);
    double span_s = (double)(seen.last_ns - seen.first_ns) / 1e9;
    CHECK(span_s >= 0.999 * (seen.updates - 1) && span_s < 1.3 * (seen.updates - 1), "%d updates over %f s", seen.updates, span_s);
    CHECK(seen.worst_relative_m < 0.15, "still: within %f m of 0", seen.worst_relative_m);
    CHECK(absolute(relative.pressure_kpa - 101.325) < 0.01, "pressure %f kPa", relative.pressure_kpa);
    /* 101 325 Pa against 102 000 Pa: 56.0 m up, known to 0.1 kPa: 8.26 m; noise of centimetres. */
    CHECK(absolute(absolute_data.altitude_m - 55.97) < 0.1 && absolute(absolute_data.accuracy_m - 8.26) < 0.02, "%f m ± %f m",
          absolute_data.altitude_m, absolute_data.accuracy_m);
    CHECK(absolute_data.precision_m > 0.002 && absolute_data.precision_m < 0.05, "precision %f m", absolute_data.precision_m);
    int counted = seen.updates;
    sleep_ms(1500);
    CHECK(seen.updates == counted, "nothing after stop");
    ocm_altimeter_close(altimeter); /* stops the absolute updates */
}

int main(void) {
    test_availability_and_errors();
    test_live_updates();
    printf("altimeter_test: %d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
