/* The batched sensor manager's C API: support and rates per board, errors, accelerometer
 * batches at the FIFO's full rate (1 kHz, MPU-6050) and device-motion batches at 200 Hz (BMI160)
 * side by side for 3.5 s: a second of samples per batch, FIFO-period timestamp steps within and
 * across batches, nothing dropped; stop ends the callbacks; invalid handles and arguments.
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

/* What a stream's callback saw (written on its delivery thread; read after stop, which joins it). */
typedef struct batches_seen {
    int batches;
    size_t smallest, largest;
    int64_t last_timestamp_ns;
    int64_t period_ns;
    long bad_steps; /* consecutive timestamps not exactly one period apart */
    long failures;
} batches_seen;

static void see(batches_seen *seen, const int64_t *timestamps, size_t stride, size_t count) {
    if (seen->batches == 0 || count < seen->smallest) seen->smallest = count;
    if (count > seen->largest) seen->largest = count;
    seen->batches++;
    for (size_t index = 0; index < count; index++) {
        int64_t time = *(const int64_t *)((const char *)timestamps + index * stride);
        if (seen->last_timestamp_ns != 0 && time - seen->last_timestamp_ns != seen->period_ns) seen->bad_steps++;
        seen->last_timestamp_ns = time;
    }
}

static void on_accelerometer(const ocm_accelerometer_data *samples, size_t count, ocm_status status, void *user_data) {
    batches_seen *seen = user_data;
    if (status != OCM_STATUS_OK || !samples) { seen->failures++; return; }
    see(seen, &samples[0].timestamp_ns, sizeof samples[0], count);
}

static void on_device_motion(const ocm_device_motion_data *samples, size_t count, ocm_status status, void *user_data) {
    batches_seen *seen = user_data;
    if (status != OCM_STATUS_OK || !samples) { seen->failures++; return; }
    see(seen, &samples[0].timestamp_ns, sizeof samples[0], count);
    double gz = samples[count - 1].gravity_g.z, gx = samples[count - 1].gravity_g.x, gy = samples[count - 1].gravity_g.y;
    if (gx * gx + gy * gy + gz * gz < 0.98 || gx * gx + gy * gy + gz * gz > 1.02) seen->failures++;
}

static void test_support_and_errors(void) {
    ocm_batched_sensor_manager *gy521 = NULL, *bmi160 = NULL, *sense_hat = NULL;
    CHECK(ocm_batched_sensor_manager_open("boards/sim-gy-521.board", &gy521) == OCM_STATUS_OK && gy521, "%s", ocm_last_error_message());
    CHECK(ocm_batched_sensor_manager_open("boards/sim-bmi160-bmp280.board", &bmi160) == OCM_STATUS_OK, "%s", ocm_last_error_message());
    CHECK(ocm_batched_sensor_manager_open("boards/sim-sense-hat.board", &sense_hat) == OCM_STATUS_OK, "%s", ocm_last_error_message());
    CHECK(ocm_batched_sensor_manager_is_supported(gy521) == 1, "MPU-6050 has a FIFO");
    CHECK(ocm_batched_sensor_manager_frequency(gy521, OCM_BATCHED_ACCELEROMETER) == 1000, "MPU-6050 at 1 kHz");
    CHECK(ocm_batched_sensor_manager_frequency(bmi160, OCM_BATCHED_ACCELEROMETER) == 1600, "BMI160 at 1.6 kHz");
    CHECK(ocm_batched_sensor_manager_frequency(bmi160, OCM_BATCHED_DEVICE_MOTION) == 200, "device motion at 200 Hz");
    CHECK(ocm_batched_sensor_manager_is_supported(sense_hat) == 0, "the LSM9DS1 is polled");
    CHECK(ocm_batched_sensor_manager_frequency(sense_hat, OCM_BATCHED_ACCELEROMETER) == 0, "no rate");
    batches_seen seen = {0};
    ocm_status status = ocm_batched_sensor_manager_start_accelerometer(sense_hat, on_accelerometer, &seen);
    CHECK(status == OCM_STATUS_NOT_AVAILABLE, "%s", ocm_status_string(status));
    CHECK(strstr(ocm_last_error_message(), "FIFO") && strstr(ocm_last_error_message(), "lsm9ds1"), "%s", ocm_last_error_message());
    CHECK(ocm_batched_sensor_manager_is_active(sense_hat, OCM_BATCHED_ACCELEROMETER) == 0, "not started");
    CHECK(ocm_batched_sensor_manager_start_accelerometer(gy521, NULL, NULL) == OCM_STATUS_INVALID_ARGUMENT, "NULL callback");
    CHECK(ocm_batched_sensor_manager_stop(gy521, (ocm_batched_stream)5) == OCM_STATUS_INVALID_ARGUMENT, "not a stream");
    ocm_batch_drops drops;
    CHECK(ocm_batched_sensor_manager_drops(gy521, OCM_BATCHED_ACCELEROMETER, NULL) == OCM_STATUS_INVALID_ARGUMENT, "NULL out");
    CHECK(ocm_batched_sensor_manager_drops(gy521, OCM_BATCHED_ACCELEROMETER, &drops) == OCM_STATUS_OK && drops.delivered_samples == 0,
          "zeros before any start");
    ocm_batched_sensor_manager_close(gy521);
    ocm_batched_sensor_manager_close(bmi160);
    ocm_batched_sensor_manager_close(sense_hat);
    CHECK(ocm_batched_sensor_manager_stop(gy521, OCM_BATCHED_ACCELEROMETER) == OCM_STATUS_INVALID_HANDLE, "closed handle");
    CHECK(ocm_batched_sensor_manager_is_supported(NULL) == 0, "NULL handle");
    ocm_batched_sensor_manager_close(NULL);
    ocm_batched_sensor_manager *missing = NULL;
    CHECK(ocm_batched_sensor_manager_open("/nonexistent/imu.board", &missing) == OCM_STATUS_IO_ERROR && !missing, "missing file");
}

static void test_full_rate_batches(void) {
    ocm_batched_sensor_manager *gy521 = NULL, *bmi160 = NULL;
    if (ocm_batched_sensor_manager_open("boards/sim-gy-521.board", &gy521) != OCM_STATUS_OK ||
        ocm_batched_sensor_manager_open("boards/sim-bmi160-bmp280.board", &bmi160) != OCM_STATUS_OK) {
        CHECK(0, "open: %s", ocm_last_error_message());
        return;
    }
    batches_seen accelerometer = {.period_ns = 1000000}, device_motion = {.period_ns = 5000000};
    ocm_status status = ocm_batched_sensor_manager_start_accelerometer(gy521, on_accelerometer, &accelerometer);
    CHECK(status == OCM_STATUS_OK, "%s: %s", ocm_status_string(status), ocm_last_error_message());
    status = ocm_batched_sensor_manager_start_device_motion(bmi160, on_device_motion, &device_motion);
    CHECK(status == OCM_STATUS_OK, "%s: %s", ocm_status_string(status), ocm_last_error_message());
    CHECK(ocm_batched_sensor_manager_is_active(gy521, OCM_BATCHED_ACCELEROMETER) == 1, "active");
    sleep_ms(3500);
    CHECK(ocm_batched_sensor_manager_stop(gy521, OCM_BATCHED_ACCELEROMETER) == OCM_STATUS_OK, "stop");
    CHECK(ocm_batched_sensor_manager_stop(bmi160, OCM_BATCHED_DEVICE_MOTION) == OCM_STATUS_OK, "stop");
    CHECK(ocm_batched_sensor_manager_is_active(gy521, OCM_BATCHED_ACCELEROMETER) == 0, "stopped");
    int batches_at_stop = accelerometer.batches;

    CHECK(accelerometer.batches >= 3, "accelerometer: %d batches in 3.5 s", accelerometer.batches);
    CHECK(accelerometer.smallest == 1000 && accelerometer.largest == 1000, "a second each: %zu…%zu", accelerometer.smallest,
          accelerometer.largest);
    CHECK(accelerometer.bad_steps == 0 && accelerometer.failures == 0, "%ld steps not 1 ms", accelerometer.bad_steps);
    CHECK(device_motion.batches >= 3, "device motion: %d batches in 3.5 s", device_motion.batches);
    CHECK(device_motion.smallest == 200 && device_motion.largest == 200, "200 Hz: %zu…%zu", device_motion.smallest, device_motion.largest);
    CHECK(device_motion.bad_steps == 0 && device_motion.failures == 0, "%ld steps not 5 ms, %ld failures", device_motion.bad_steps,
          device_motion.failures);
    ocm_batch_drops drops;
    CHECK(ocm_batched_sensor_manager_drops(gy521, OCM_BATCHED_ACCELEROMETER, &drops) == OCM_STATUS_OK, "drops");
    CHECK(drops.queue_full_samples == 0 && drops.fifo_samples == 0 && drops.fifo_overflows == 0, "nothing lost: %llu %llu %llu",
          (unsigned long long)drops.queue_full_samples, (unsigned long long)drops.fifo_samples, (unsigned long long)drops.fifo_overflows);
    CHECK(drops.delivered_samples >= 3000, "%llu delivered", (unsigned long long)drops.delivered_samples);
    printf("accelerometer: %d batches of %zu at 1 kHz; device motion: %d batches of %zu at 200 Hz; 0 dropped\n",
           accelerometer.batches, accelerometer.largest, device_motion.batches, device_motion.largest);
    sleep_ms(1200);
    CHECK(accelerometer.batches == batches_at_stop, "no callback after stop");
    ocm_batched_sensor_manager_close(gy521);
    ocm_batched_sensor_manager_close(bmi160);
}

int main(void) {
    test_support_and_errors();
    test_full_rate_batches();
    printf("batched_sensor_test: %d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
