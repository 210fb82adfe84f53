/* Core Motion's device motion from C: opens the simulated MPU-9250 board, prints the attitude
 * (roll, pitch, yaw in degrees) for 2 s from a callback, checks what it got and exits 0.
 *
 *   gcc -std=c11 -Wall -Wextra -Werror device_motion_example.c $(pkg-config --cflags --libs opencoremotion)
 *   ./a.out [BOARD_FILE]        (default: the system's board: OPENCOREMOTION_BOARD,
 *                                /etc/opencoremotion/board, else what answers on the I2C buses)
 *
 * The callback runs on the library's engine thread, not on main: it only prints and counts,
 * and main reads the count after ocm_motion_manager_stop(), which guarantees the callback is no
 * longer running. tools/test-c-library.sh builds and runs it. */
#define _POSIX_C_SOURCE 200809L
#include <opencoremotion.h>
#include <stdio.h>
#include <time.h>

typedef struct {
    long updates;
    long failures;
    int64_t previous_ns;
    int ordered;
    double last_gravity_squared; /* |gravity|², g² (no libm: the build links only the library) */
} progress;

static const double degrees_per_radian = 57.295779513082320876;

static void on_device_motion(const ocm_motion_data *data, ocm_status status, void *user_data) {
    progress *seen = user_data;
    if (status != OCM_STATUS_OK) {
        fprintf(stderr, "device motion failed: %s\n", ocm_last_error_message());
        seen->failures++;
        return;
    }
    const ocm_device_motion_data *motion = &data->device_motion;
    const double degrees = degrees_per_radian;
    if (motion->timestamp_ns <= seen->previous_ns) seen->ordered = 0;
    seen->previous_ns = motion->timestamp_ns;
    const ocm_vector3 g = motion->gravity_g;
    seen->last_gravity_squared = g.x * g.x + g.y * g.y + g.z * g.z;
    if (seen->updates++ % 10 == 0) {  /* every 10th of 20 per second: twice a second */
        printf("%8.3f s  roll %7.2f°  pitch %7.2f°  yaw %7.2f°  gravity (%5.2f, %5.2f, %5.2f) g\n",
               (double)motion->timestamp_ns / 1e9, motion->roll_rad * degrees, motion->pitch_rad * degrees,
               motion->yaw_rad * degrees, g.x, g.y, g.z);
    }
}

static int fail(const char *what, ocm_status status) {
    fprintf(stderr, "%s: %s: %s\n", what, ocm_status_string(status), ocm_last_error_message());
    return 1;
}

int main(int argc, char **argv) {
    const char *board = argc > 1 ? argv[1] : NULL; /* NULL: the system's board */
    ocm_motion_manager *manager = NULL;
    ocm_status status = ocm_motion_manager_open(board, &manager);
    if (status != OCM_STATUS_OK) return fail("open", status);
    if (!ocm_motion_manager_is_available(manager, OCM_STREAM_DEVICE_MOTION)) {
        fprintf(stderr, "this board has no device motion\n");
        ocm_motion_manager_close(manager);
        return 1;
    }
    printf("reference frames available: mask 0x%x\n", (unsigned)ocm_motion_manager_available_reference_frames(manager));

    progress seen = {0, 0, INT64_MIN, 1, 0};
    if ((status = ocm_motion_manager_set_update_interval(manager, OCM_STREAM_DEVICE_MOTION, 0.05)) != OCM_STATUS_OK)
        return fail("set_update_interval", status);
    status = ocm_motion_manager_start(manager, OCM_STREAM_DEVICE_MOTION, OCM_REFERENCE_FRAME_X_ARBITRARY_Z_VERTICAL,
                                      on_device_motion, &seen);
    if (status != OCM_STATUS_OK) return fail("start", status);

    struct timespec two_seconds = {2, 0};
    while (nanosleep(&two_seconds, &two_seconds) != 0) {}

    if ((status = ocm_motion_manager_stop(manager, OCM_STREAM_DEVICE_MOTION)) != OCM_STATUS_OK) return fail("stop", status);
    /* The callback has stopped: `seen` is ours again. Poll the last update too. */
    ocm_motion_data latest;
    status = ocm_motion_manager_copy_latest(manager, OCM_STREAM_DEVICE_MOTION, &latest);
    int ok = 1;
    if (status != OCM_STATUS_OK || latest.stream != OCM_STREAM_DEVICE_MOTION) { fail("copy_latest", status); ok = 0; }
    /* 20 updates a second for 2 s: accept anything from a quarter to twice that. */
    if (seen.updates < 10 || seen.updates > 80) { fprintf(stderr, "%ld updates in 2 s at 0.05 s\n", seen.updates); ok = 0; }
    if (seen.failures != 0 || !seen.ordered) { fprintf(stderr, "failures %ld, ordered %d\n", seen.failures, seen.ordered); ok = 0; }
    if (seen.last_gravity_squared < 0.98 || seen.last_gravity_squared > 1.02) {
        fprintf(stderr, "|gravity|² = %f g²\n", seen.last_gravity_squared);
        ok = 0;
    }
    printf("%ld updates; last: roll %.2f° pitch %.2f° yaw %.2f°\n", seen.updates, latest.device_motion.roll_rad * degrees_per_radian,
           latest.device_motion.pitch_rad * degrees_per_radian, latest.device_motion.yaw_rad * degrees_per_radian);
    ocm_motion_manager_close(manager);
    return ok ? 0 : 1;
}
