/* The C side of the Python package's tests: built by conftest.py with the system's C compiler
 * against opencoremotion.h and the library under test, and loaded into the same process.
 *
 *  - ref_layout_*: every struct's size and every field's offset and size, as the compiler sees
 *    the header (the Python ctypes mirrors must match them byte for byte);
 *  - ref_recording_read: a recording read through the C API;
 *  - ref_motion_*: a motion manager of its own on a board, its C callback keeping each update's
 *    values as doubles (rows), to compare with what Python got for the same timestamps from the
 *    same engine;
 *  - ref_batch_*: the same for device-motion batches;
 *  - ref_pedometer_query, ref_activity_query: the same queries through the C API.
 */
#include <opencoremotion.h>
#include <pthread.h>
#include <stddef.h>
#include <string.h>

/* ---- layout ---------------------------------------------------------------------------------- */

typedef struct ref_field {
    const char *structure;
    const char *field; /* "" for the struct's own size */
    size_t offset;
    size_t size;
} ref_field;

#define SIZE(type) {#type, "", 0, sizeof(type)}
#define FIELD(type, member) {#type, #member, offsetof(type, member), sizeof(((type *)0)->member)}

static const ref_field layout[] = {
    SIZE(ocm_sample), FIELD(ocm_sample, timestamp_ns), FIELD(ocm_sample, sensor), FIELD(ocm_sample, x),
    FIELD(ocm_sample, y), FIELD(ocm_sample, z),
    SIZE(ocm_vector3), FIELD(ocm_vector3, x), FIELD(ocm_vector3, y), FIELD(ocm_vector3, z),
    SIZE(ocm_quaternion), FIELD(ocm_quaternion, w), FIELD(ocm_quaternion, x), FIELD(ocm_quaternion, y),
    FIELD(ocm_quaternion, z),
    SIZE(ocm_accelerometer_data), FIELD(ocm_accelerometer_data, timestamp_ns), FIELD(ocm_accelerometer_data, acceleration_g),
    SIZE(ocm_gyro_data), FIELD(ocm_gyro_data, timestamp_ns), FIELD(ocm_gyro_data, rotation_rate_rad_s),
    SIZE(ocm_magnetometer_data), FIELD(ocm_magnetometer_data, timestamp_ns), FIELD(ocm_magnetometer_data, magnetic_field_ut),
    SIZE(ocm_device_motion_data), FIELD(ocm_device_motion_data, timestamp_ns), FIELD(ocm_device_motion_data, reference_frame),
    FIELD(ocm_device_motion_data, attitude), FIELD(ocm_device_motion_data, rotation_matrix),
    FIELD(ocm_device_motion_data, roll_rad), FIELD(ocm_device_motion_data, pitch_rad), FIELD(ocm_device_motion_data, yaw_rad),
    FIELD(ocm_device_motion_data, gravity_g), FIELD(ocm_device_motion_data, user_acceleration_g),
    FIELD(ocm_device_motion_data, rotation_rate_rad_s), FIELD(ocm_device_motion_data, magnetic_field_ut),
    FIELD(ocm_device_motion_data, magnetic_accuracy), FIELD(ocm_device_motion_data, heading_deg),
    SIZE(ocm_motion_data), FIELD(ocm_motion_data, stream), FIELD(ocm_motion_data, accelerometer), FIELD(ocm_motion_data, gyro),
    FIELD(ocm_motion_data, magnetometer), FIELD(ocm_motion_data, device_motion),
    SIZE(ocm_pedometer_data), FIELD(ocm_pedometer_data, start_unix_ns), FIELD(ocm_pedometer_data, end_unix_ns),
    FIELD(ocm_pedometer_data, number_of_steps), FIELD(ocm_pedometer_data, distance_m), FIELD(ocm_pedometer_data, has_floors),
    FIELD(ocm_pedometer_data, floors_ascended), FIELD(ocm_pedometer_data, floors_descended),
    FIELD(ocm_pedometer_data, current_pace_s_per_m), FIELD(ocm_pedometer_data, current_cadence_steps_per_s),
    FIELD(ocm_pedometer_data, average_active_pace_s_per_m),
    SIZE(ocm_pedometer_event), FIELD(ocm_pedometer_event, date_unix_ns), FIELD(ocm_pedometer_event, type),
    SIZE(ocm_motion_activity), FIELD(ocm_motion_activity, start_unix_ns), FIELD(ocm_motion_activity, timestamp_ns),
    FIELD(ocm_motion_activity, confidence), FIELD(ocm_motion_activity, stationary), FIELD(ocm_motion_activity, walking),
    FIELD(ocm_motion_activity, running), FIELD(ocm_motion_activity, automotive), FIELD(ocm_motion_activity, cycling),
    FIELD(ocm_motion_activity, unknown),
    SIZE(ocm_altitude_data), FIELD(ocm_altitude_data, timestamp_ns), FIELD(ocm_altitude_data, relative_altitude_m),
    FIELD(ocm_altitude_data, pressure_kpa), FIELD(ocm_altitude_data, altitude_m), FIELD(ocm_altitude_data, accuracy_m),
    FIELD(ocm_altitude_data, precision_m),
    SIZE(ocm_batch_drops), FIELD(ocm_batch_drops, delivered_samples), FIELD(ocm_batch_drops, queue_full_samples),
    FIELD(ocm_batch_drops, fifo_samples), FIELD(ocm_batch_drops, fifo_overflows),
    SIZE(ocm_recorded_accelerometer_data), FIELD(ocm_recorded_accelerometer_data, start_unix_ns),
    FIELD(ocm_recorded_accelerometer_data, x), FIELD(ocm_recorded_accelerometer_data, y), FIELD(ocm_recorded_accelerometer_data, z),
    FIELD(ocm_recorded_accelerometer_data, identifier),
    SIZE(ocm_water_submersion_update), FIELD(ocm_water_submersion_update, kind), FIELD(ocm_water_submersion_update, submerged),
    FIELD(ocm_water_submersion_update, date_unix_ns), FIELD(ocm_water_submersion_update, depth_m),
    FIELD(ocm_water_submersion_update, pressure_pa), FIELD(ocm_water_submersion_update, surface_pressure_pa),
    FIELD(ocm_water_submersion_update, state), FIELD(ocm_water_submersion_update, temperature_c),
    FIELD(ocm_water_submersion_update, temperature_uncertainty_c),
};

size_t ref_layout_count(void) { return sizeof layout / sizeof layout[0]; }

const ref_field *ref_layout_entry(size_t index) { return index < ref_layout_count() ? &layout[index] : NULL; }

/* ---- recordings ------------------------------------------------------------------------------ */

/* Reads up to `capacity` samples; returns the status that ended the reading (OCM_STATUS_END at
 * the end, OCM_STATUS_OK when the capacity was reached) and the count in *count. */
int ref_recording_read(const char *path, int64_t *timestamps_ns, int *sensors, double *xyz, size_t capacity, size_t *count) {
    ocm_recording *recording = NULL;
    ocm_status status = ocm_recording_open(path, &recording);
    *count = 0;
    if (status != OCM_STATUS_OK) return status;
    ocm_sample sample;
    while (*count < capacity && (status = ocm_recording_next(recording, &sample)) == OCM_STATUS_OK) {
        timestamps_ns[*count] = sample.timestamp_ns;
        sensors[*count] = (int)sample.sensor;
        xyz[3 * *count] = sample.x;
        xyz[3 * *count + 1] = sample.y;
        xyz[3 * *count + 2] = sample.z;
        (*count)++;
    }
    ocm_recording_close(recording);
    return status;
}

/* ---- motion rows ----------------------------------------------------------------------------- */

/* One update as doubles: device motion's w x y z, matrix (9, row-major), roll pitch yaw,
 * gravity (3), user acceleration (3), rotation rate (3), magnetic field (3), accuracy, heading,
 * frame: 31 values; the other streams' vector in the first 3. */
#define REF_VALUES 31
#define REF_ROWS 4096

typedef struct ref_row {
    int64_t timestamp_ns;
    double values[REF_VALUES];
} ref_row;

static pthread_mutex_t rows_lock = PTHREAD_MUTEX_INITIALIZER;
static ref_row rows[REF_ROWS];
static size_t row_count;

static void keep_device_motion(const ocm_device_motion_data *motion) {
    if (row_count >= REF_ROWS) return;
    ref_row *row = &rows[row_count++];
    double *value = row->values;
    row->timestamp_ns = motion->timestamp_ns;
    *value++ = motion->attitude.w;
    *value++ = motion->attitude.x;
    *value++ = motion->attitude.y;
    *value++ = motion->attitude.z;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) *value++ = motion->rotation_matrix[r][c];
    *value++ = motion->roll_rad;
    *value++ = motion->pitch_rad;
    *value++ = motion->yaw_rad;
    const ocm_vector3 *vectors[] = {&motion->gravity_g, &motion->user_acceleration_g, &motion->rotation_rate_rad_s,
                                    &motion->magnetic_field_ut};
    for (int v = 0; v < 4; v++) {
        *value++ = vectors[v]->x;
        *value++ = vectors[v]->y;
        *value++ = vectors[v]->z;
    }
    *value++ = (double)motion->magnetic_accuracy;
    *value++ = motion->heading_deg;
    *value++ = (double)motion->reference_frame;
}

static void keep_vector(int64_t timestamp_ns, ocm_vector3 vector) {
    if (row_count >= REF_ROWS) return;
    ref_row *row = &rows[row_count++];
    memset(row, 0, sizeof *row);
    row->timestamp_ns = timestamp_ns;
    row->values[0] = vector.x;
    row->values[1] = vector.y;
    row->values[2] = vector.z;
}

/* Keeps one update as a row; the caller holds rows_lock. */
static void keep_motion(const ocm_motion_data *data) {
    switch (data->stream) {
    case OCM_STREAM_ACCELEROMETER: keep_vector(data->accelerometer.timestamp_ns, data->accelerometer.acceleration_g); break;
    case OCM_STREAM_GYROSCOPE: keep_vector(data->gyro.timestamp_ns, data->gyro.rotation_rate_rad_s); break;
    case OCM_STREAM_MAGNETOMETER: keep_vector(data->magnetometer.timestamp_ns, data->magnetometer.magnetic_field_ut); break;
    case OCM_STREAM_DEVICE_MOTION: keep_device_motion(&data->device_motion); break;
    }
}

static void on_motion(const ocm_motion_data *data, ocm_status status, void *user_data) {
    (void)user_data;
    if (status != OCM_STATUS_OK || !data) return;
    pthread_mutex_lock(&rows_lock);
    keep_motion(data);
    pthread_mutex_unlock(&rows_lock);
}

static ocm_motion_manager *motion_manager;

int ref_motion_start(const char *board, int stream, int frame, double interval_s) {
    row_count = 0;
    ocm_status status = ocm_motion_manager_open(board, &motion_manager);
    if (status != OCM_STATUS_OK) return status;
    if ((status = ocm_motion_manager_set_update_interval(motion_manager, (ocm_stream)stream, interval_s)) != OCM_STATUS_OK) return status;
    return ocm_motion_manager_start(motion_manager, (ocm_stream)stream, (ocm_reference_frame)frame, on_motion, NULL);
}

/* Stops and closes the manager (its callback then no longer runs) and returns the rows kept. */
const ref_row *ref_motion_stop(size_t *count) {
    ocm_motion_manager_close(motion_manager);
    motion_manager = NULL;
    *count = row_count;
    return rows;
}

/* The latest update of `stream` on a manager the caller owns (a Python MotionManager's handle),
 * as a row: called from that manager's Python handler, on the engine thread, it is the update
 * being delivered (the engine reads no sensor while a callback runs). */
int ref_motion_latest(const ocm_motion_manager *manager, int stream, ref_row *out) {
    ocm_motion_data data;
    ocm_status status = ocm_motion_manager_copy_latest(manager, (ocm_stream)stream, &data);
    if (status != OCM_STATUS_OK) return status;
    pthread_mutex_lock(&rows_lock);
    size_t kept = row_count;
    row_count = 0;
    keep_motion(&data);
    *out = rows[0];
    row_count = kept;
    pthread_mutex_unlock(&rows_lock);
    return OCM_STATUS_OK;
}

/* ---- device-motion batches ------------------------------------------------------------------- */

/* The first batch as the library delivered it (the bytes), and as rows read by C. */
static ocm_device_motion_data first_batch[2048];
static size_t first_batch_count;

static void on_device_motion_batch(const ocm_device_motion_data *samples, size_t count, ocm_status status, void *user_data) {
    (void)user_data;
    if (status != OCM_STATUS_OK || !samples) return;
    pthread_mutex_lock(&rows_lock);
    if (first_batch_count == 0 && count <= 2048) {
        memcpy(first_batch, samples, count * sizeof *samples);
        first_batch_count = count;
        for (size_t index = 0; index < count; index++) keep_device_motion(&samples[index]);
    }
    pthread_mutex_unlock(&rows_lock);
}

/* The first batch's bytes (valid until the next ref_batch_start) and its length. */
const ocm_device_motion_data *ref_batch_first(size_t *count) {
    *count = first_batch_count;
    return first_batch;
}

static ocm_batched_sensor_manager *batched_manager;

int ref_batch_start(const char *board) {
    row_count = 0;
    first_batch_count = 0;
    ocm_status status = ocm_batched_sensor_manager_open(board, &batched_manager);
    if (status != OCM_STATUS_OK) return status;
    return ocm_batched_sensor_manager_start_device_motion(batched_manager, on_device_motion_batch, NULL);
}

const ref_row *ref_batch_stop(size_t *count) {
    ocm_batched_sensor_manager_close(batched_manager);
    batched_manager = NULL;
    *count = row_count;
    return rows;
}

/* ---- queries --------------------------------------------------------------------------------- */

/* The pedometer's query on its own handle of `board`: steps, has_floors, ascended, descended in
 * integers[4]; distance, pace, cadence, average active pace in reals[4]. */
int ref_pedometer_query(const char *board, int64_t from_unix_ns, int64_t to_unix_ns, int64_t *integers, double *reals) {
    ocm_pedometer *pedometer = NULL;
    ocm_status status = ocm_pedometer_open(board, &pedometer);
    if (status != OCM_STATUS_OK) return status;
    ocm_pedometer_data data;
    status = ocm_pedometer_query(pedometer, from_unix_ns, to_unix_ns, &data);
    if (status == OCM_STATUS_OK) {
        integers[0] = data.number_of_steps;
        integers[1] = data.has_floors;
        integers[2] = data.floors_ascended;
        integers[3] = data.floors_descended;
        reals[0] = data.distance_m;
        reals[1] = data.current_pace_s_per_m;
        reals[2] = data.current_cadence_steps_per_s;
        reals[3] = data.average_active_pace_s_per_m;
    }
    ocm_pedometer_close(pedometer);
    return status;
}

/* The activity query on its own handle: per activity (up to `capacity`) start, timestamp,
 * confidence and the six flags in integers[9 * i ...]; the range's count in *count. */
int ref_activity_query(const char *board, int64_t from_unix_ns, int64_t to_unix_ns, int64_t *integers, size_t capacity, size_t *count) {
    ocm_activity_manager *manager = NULL;
    ocm_status status = ocm_activity_manager_open(board, &manager);
    if (status != OCM_STATUS_OK) return status;
    ocm_motion_activity activities[256];
    if (capacity > 256) capacity = 256;
    status = ocm_activity_manager_query(manager, from_unix_ns, to_unix_ns, activities, capacity, count);
    for (size_t index = 0; status == OCM_STATUS_OK && index < *count && index < capacity; index++) {
        const ocm_motion_activity *activity = &activities[index];
        int64_t *row = &integers[9 * index];
        row[0] = activity->start_unix_ns;
        row[1] = activity->timestamp_ns;
        row[2] = activity->confidence;
        row[3] = activity->stationary;
        row[4] = activity->walking;
        row[5] = activity->running;
        row[6] = activity->automotive;
        row[7] = activity->cycling;
        row[8] = activity->unknown;
    }
    ocm_activity_manager_close(manager);
    return status;
}
