// The C library's ABI, checked when the library is built: these layouts are promised to C
// programs compiled against opencoremotion.h, and the Swift implementation uses the same
// header (through this target), so a change here is an ABI change.
#include <stddef.h>
#include "opencoremotion.h"

_Static_assert(sizeof(ocm_status) == 4, "ocm_status is an int-sized enum");
_Static_assert(offsetof(ocm_sample, timestamp_ns) == 0, "ocm_sample layout");
_Static_assert(offsetof(ocm_sample, x) == 16, "ocm_sample layout");
_Static_assert(sizeof(ocm_sample) == 40, "ocm_sample layout");
_Static_assert(sizeof(ocm_stream) == 4 && sizeof(ocm_reference_frame) == 4, "enums are int-sized");
_Static_assert(sizeof(ocm_vector3) == 24 && sizeof(ocm_quaternion) == 32, "ocm_vector3, ocm_quaternion layout");
_Static_assert(sizeof(ocm_accelerometer_data) == 32 && offsetof(ocm_accelerometer_data, acceleration_g) == 8, "ocm_accelerometer_data layout");
_Static_assert(sizeof(ocm_gyro_data) == 32 && sizeof(ocm_magnetometer_data) == 32, "ocm_gyro_data, ocm_magnetometer_data layout");
_Static_assert(offsetof(ocm_device_motion_data, attitude) == 16, "ocm_device_motion_data layout");
_Static_assert(offsetof(ocm_device_motion_data, rotation_matrix) == 48, "ocm_device_motion_data layout");
_Static_assert(offsetof(ocm_device_motion_data, roll_rad) == 120, "ocm_device_motion_data layout");
_Static_assert(offsetof(ocm_device_motion_data, gravity_g) == 144, "ocm_device_motion_data layout");
_Static_assert(offsetof(ocm_device_motion_data, magnetic_accuracy) == 240, "ocm_device_motion_data layout");
_Static_assert(offsetof(ocm_device_motion_data, heading_deg) == 248 && sizeof(ocm_device_motion_data) == 256, "ocm_device_motion_data layout");
_Static_assert(offsetof(ocm_motion_data, accelerometer) == 8 && sizeof(ocm_motion_data) == 264, "ocm_motion_data layout");
_Static_assert(offsetof(ocm_pedometer_data, has_floors) == 32 && offsetof(ocm_pedometer_data, current_pace_s_per_m) == 48, "ocm_pedometer_data layout");
_Static_assert(sizeof(ocm_pedometer_data) == 72 && sizeof(ocm_pedometer_event) == 16, "ocm_pedometer_data, ocm_pedometer_event layout");
_Static_assert(sizeof(ocm_pedometer_feature) == 4 && sizeof(ocm_pedometer_event_type) == 4, "enums are int-sized");
_Static_assert(offsetof(ocm_motion_activity, confidence) == 16 && offsetof(ocm_motion_activity, unknown) == 40 && sizeof(ocm_motion_activity) == 48, "ocm_motion_activity layout");
_Static_assert(offsetof(ocm_water_submersion_update, date_unix_ns) == 8 && offsetof(ocm_water_submersion_update, state) == 40, "ocm_water_submersion_update layout");
_Static_assert(offsetof(ocm_water_submersion_update, temperature_c) == 48 && sizeof(ocm_water_submersion_update) == 64, "ocm_water_submersion_update layout");
_Static_assert(sizeof(ocm_water_depth_state) == 4 && sizeof(ocm_water_submersion_update_kind) == 4, "enums are int-sized");
_Static_assert(offsetof(ocm_altitude_data, precision_m) == 40 && sizeof(ocm_altitude_data) == 48 && sizeof(ocm_altitude_kind) == 4, "ocm_altitude_data layout");
