/*
 * opencoremotion.h: the C API of OpenCoreMotion, Core Motion for Linux boards.
 *
 * Link with: gcc app.c $(pkg-config --cflags --libs opencoremotion)
 *
 * Conventions, for every function in this header:
 *  - Functions that can fail return an ocm_status: OCM_STATUS_OK (0) on success, a positive
 *    value for a normal outcome that is not a value (OCM_STATUS_END: a stream has ended), and a
 *    negative OCM_STATUS_* on failure. ocm_status_string() names every status. They are marked
 *    warn_unused_result: check them.
 *  - Objects are opaque handles created by ocm_<object>_open and released by
 *    ocm_<object>_close. Passing NULL, a closed handle or a pointer that is not a handle returns
 *    OCM_STATUS_INVALID_HANDLE (or NULL for functions returning pointers); it never crashes.
 *  - After a failure, ocm_last_error_message() returns the full text for a person: what
 *    happened, where (file, line, column), and what to do. Errors on a handle are also kept on
 *    it (for example ocm_recording_error_message()).
 *  - Threads: a handle is used by one thread at a time; different handles may be used from
 *    different threads at once. ocm_last_error_message() is per thread. Motion managers are
 *    the exception: see "Motion manager" below (their callbacks run on an engine thread).
 *  - Units are SI and in the names: timestamps in nanoseconds (_ns), rates in hertz (_hz).
 */
#ifndef OPENCOREMOTION_H
#define OPENCOREMOTION_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define OCM_WARN_UNUSED_RESULT __attribute__((warn_unused_result))
#else
#define OCM_WARN_UNUSED_RESULT
#endif

/* The version this header describes; ocm_version_string() is the library's, which matches. */
#define OCM_VERSION_MAJOR 0
#define OCM_VERSION_MINOR 1
#define OCM_VERSION_PATCH 0
#define OCM_VERSION_STRING "0.1.0"

typedef enum ocm_status {
    OCM_STATUS_OK = 0,
    /** A stream (a recording) has no more samples. */
    OCM_STATUS_END = 1,
    /** An argument is NULL or out of range. */
    OCM_STATUS_INVALID_ARGUMENT = -1,
    /** The handle is NULL, closed, or not a handle of this library. */
    OCM_STATUS_INVALID_HANDLE = -2,
    /** A file could not be opened, read or written (see ocm_last_error_message()). */
    OCM_STATUS_IO_ERROR = -3,
    /** A recording is malformed or truncated (the message names file, line and column). */
    OCM_STATUS_MALFORMED_RECORDING = -4,
    /** The board has no such sensor, or not the sensors a reference frame needs (the message
     *  names the board file, the missing sensor and its chips). */
    OCM_STATUS_NOT_AVAILABLE = -5,
    /** A board file is malformed (the message names file and line and what to write instead). */
    OCM_STATUS_MALFORMED_BOARD = -6,
    /** The board's chips could not be brought up or stopped answering (bus, permissions,
     *  wrong chip: the message says which chip and what to do). */
    OCM_STATUS_DEVICE_ERROR = -7,
    /** motiond does not let this user have motion data (not in group motion, or denied by its
     *  policy file: the message says what to do). */
    OCM_STATUS_NOT_AUTHORIZED = -8,
    /** A stream has no sample yet (not started, or started too recently): not a failure. */
    OCM_STATUS_NO_DATA = 2
} ocm_status;

/** The kinds of sensor, with the values of the recording format's `sensor` column. */
typedef enum ocm_sensor {
    OCM_SENSOR_ACCELEROMETER = 0, /**< specific force, gravity included, m/s² (x, y, z) */
    OCM_SENSOR_GYROSCOPE = 1,     /**< angular rate, rad/s, right-handed (x, y, z) */
    OCM_SENSOR_MAGNETOMETER = 2,  /**< magnetic flux density as measured, µT (x, y, z) */
    OCM_SENSOR_BAROMETER = 3,     /**< static pressure, Pa (x) */
    OCM_SENSOR_THERMOMETER = 4    /**< temperature, °C (x) */
} ocm_sensor;

/** One sample in device axes (x right, y up the screen, z out of the screen). */
typedef struct ocm_sample {
    /** Time on a monotonic clock in nanoseconds (CLOCK_MONOTONIC live; the recording's clock). */
    int64_t timestamp_ns;
    ocm_sensor sensor;
    /** The value in the sensor's unit; scalar sensors use x, with y and z set to 0. */
    double x, y, z;
} ocm_sample;

/** A recording file (format version 1, .csv or .csv.gz) opened for reading. */
typedef struct ocm_recording ocm_recording;

/** The library's version, "MAJOR.MINOR.PATCH". Static storage: never freed, never NULL. */
const char *ocm_version_string(void);

/** A short English name of `status`, e.g. "malformed recording". Static storage, never NULL
 *  (unknown values give "unknown status"). */
const char *ocm_status_string(ocm_status status);

/** The recording format's name of `sensor` ("acc", "gyr", "mag", "baro", "temp"), or NULL
 *  for a value that is not an ocm_sensor. Static storage. */
const char *ocm_sensor_name(ocm_sensor sensor);

/** The message of the last failure on the calling thread, for a person; "" if none yet.
 *  Valid until the next failing call on this thread. */
const char *ocm_last_error_message(void);

/**
 * Opens a recording and reads its header. Streams the file: memory stays constant.
 * @param path  the file; .gz files are decompressed.
 * @param out   receives the handle on success (NULL on failure). Close it with
 *              ocm_recording_close().
 * @return OCM_STATUS_OK, OCM_STATUS_INVALID_ARGUMENT (NULL path or out), OCM_STATUS_IO_ERROR,
 *         or OCM_STATUS_MALFORMED_RECORDING (the message names the line).
 */
OCM_WARN_UNUSED_RESULT
ocm_status ocm_recording_open(const char *path, ocm_recording **out);

/**
 * Reads the next sample into *out.
 * @return OCM_STATUS_OK (a sample was stored), OCM_STATUS_END (no more samples; *out is
 *         unchanged), OCM_STATUS_MALFORMED_RECORDING or OCM_STATUS_IO_ERROR (the first bad
 *         line stops the recording: every later call returns the same status), or
 *         OCM_STATUS_INVALID_HANDLE / OCM_STATUS_INVALID_ARGUMENT.
 */
OCM_WARN_UNUSED_RESULT
ocm_status ocm_recording_next(ocm_recording *recording, ocm_sample *out);

/** The value of metadata line `# key: value`, or NULL if the key is absent or an argument is
 *  invalid. Owned by the recording: valid until ocm_recording_close(). */
const char *ocm_recording_metadata(const ocm_recording *recording, const char *key);

/** The message of the recording's failure (file:line: column: problem), or NULL if it has not
 *  failed or the handle is invalid. Owned by the recording: valid until ocm_recording_close(). */
const char *ocm_recording_error_message(const ocm_recording *recording);

/** 1-based number of the line last read (header lines included); 0 for an invalid handle. */
int64_t ocm_recording_line_number(const ocm_recording *recording);

/** Closes the recording and frees everything it owns. NULL and invalid handles are ignored. */
void ocm_recording_close(ocm_recording *recording);

/* ---------------------------------------------------------------------------------------------
 * Motion manager: Core Motion's CMMotionManager on a board (a board file, boards/README.md).
 *
 * Streams: the accelerometer, gyroscope and magnetometer as measured, and device motion (the
 * fused attitude). Each is started with a callback (push), or with NULL to poll it with
 * ocm_motion_manager_copy_latest() (pull), and delivers one update per update interval.
 *
 * Every manager of the same board file in a process shares one engine: a thread, started by
 * the first ocm_motion_manager_start() and ended by the last stop, that reads the chips as
 * their samples become ready (a simulated board runs in real time and starts its recording
 * over when it ends). Threads:
 *  - CALLBACKS RUN ON THE ENGINE THREAD, one at a time, never on the thread that started the
 *    stream. Keep them short (copy the data, signal your thread): the engine reads no sensor
 *    while a callback runs. Data a callback shares with other threads needs your own locking.
 *  - A callback may call ocm_motion_manager_copy_latest(), _stop() and _start() on any manager,
 *    and ocm_last_error_message() (which then reads the engine thread's message).
 *  - Other manager functions may be called from any thread, also while callbacks run; only
 *    ocm_motion_manager_close() must not race with other calls on the same handle.
 *  - When ocm_motion_manager_stop() or _close() returns, the stream's callback is not running
 *    and is not called again (from a callback, the stop takes effect when it returns).
 * ------------------------------------------------------------------------------------------- */

/** A board opened for motion updates. */
typedef struct ocm_motion_manager ocm_motion_manager;

/** The update streams of a motion manager. */
typedef enum ocm_stream {
    OCM_STREAM_ACCELEROMETER = 0, /**< ocm_accelerometer_data */
    OCM_STREAM_GYROSCOPE = 1,     /**< ocm_gyro_data */
    OCM_STREAM_MAGNETOMETER = 2,  /**< ocm_magnetometer_data */
    OCM_STREAM_DEVICE_MOTION = 3  /**< ocm_device_motion_data */
} ocm_stream;

/** Core Motion's CMAttitudeReferenceFrame, with its raw values (so that a mask of them is
 *  ocm_motion_manager_available_reference_frames()): where an attitude's x axis points; z is
 *  always vertical, up. */
typedef enum ocm_reference_frame {
    /** x where the device's x pointed at start; accelerometer + gyroscope. The default. */
    OCM_REFERENCE_FRAME_X_ARBITRARY_Z_VERTICAL = 1,
    /** The same x, with the magnetometer stopping yaw drift. */
    OCM_REFERENCE_FRAME_X_ARBITRARY_CORRECTED_Z_VERTICAL = 2,
    /** x to magnetic north. */
    OCM_REFERENCE_FRAME_X_MAGNETIC_NORTH_Z_VERTICAL = 4,
    /** x to true north: magnetic north turned by the declination where the board is
     *  (/etc/opencoremotion/location, by the World Magnetic Model); without that file
     *  starting fails with OCM_STATUS_NOT_AVAILABLE and a message saying what to write. */
    OCM_REFERENCE_FRAME_X_TRUE_NORTH_Z_VERTICAL = 8
} ocm_reference_frame;

/** Core Motion's CMMagneticFieldCalibrationAccuracy. */
typedef enum ocm_magnetic_accuracy {
    OCM_MAGNETIC_ACCURACY_UNCALIBRATED = -1,
    OCM_MAGNETIC_ACCURACY_LOW = 0,
    OCM_MAGNETIC_ACCURACY_MEDIUM = 1,
    OCM_MAGNETIC_ACCURACY_HIGH = 2
} ocm_magnetic_accuracy;

/** A vector in device axes (x right, y up the screen, z out of the screen); its unit is in the
 *  name of the field holding it. */
typedef struct ocm_vector3 {
    double x, y, z;
} ocm_vector3;

/** A unit quaternion w + xi + yj + zk. */
typedef struct ocm_quaternion {
    double w, x, y, z;
} ocm_quaternion;

/** One accelerometer sample, as Core Motion gives it. */
typedef struct ocm_accelerometer_data {
    /** When the sample was taken, CLOCK_MONOTONIC, nanoseconds. */
    int64_t timestamp_ns;
    /** In g (9.80665 m/s²), Core Motion's sign: −specific force / g, so a device lying face up
     *  at rest reads (0, 0, −1). */
    ocm_vector3 acceleration_g;
} ocm_accelerometer_data;

/** One gyroscope sample, as measured (bias included). */
typedef struct ocm_gyro_data {
    int64_t timestamp_ns;          /**< CLOCK_MONOTONIC, nanoseconds */
    ocm_vector3 rotation_rate_rad_s; /**< rad/s, right-handed about the device's axes */
} ocm_gyro_data;

/** One magnetometer sample, as measured (hard and soft iron included). */
typedef struct ocm_magnetometer_data {
    int64_t timestamp_ns;          /**< CLOCK_MONOTONIC, nanoseconds */
    ocm_vector3 magnetic_field_ut; /**< µT */
} ocm_magnetometer_data;

/** One device-motion sample: Core Motion's CMDeviceMotion. */
typedef struct ocm_device_motion_data {
    int64_t timestamp_ns;              /**< CLOCK_MONOTONIC, nanoseconds (a gyroscope sample's) */
    ocm_reference_frame reference_frame; /**< the frame of the attitude */
    /** The attitude: rotates device-axes vectors into the reference frame. */
    ocm_quaternion attitude;
    /** The same rotation as a matrix, row-major: rotation_matrix[row][column]. */
    double rotation_matrix[3][3];
    /** Core Motion's Euler angles, radians: R = Rz(yaw) · Rx(pitch) · Ry(roll); roll about
     *  the device's y axis in [−π, π], pitch about x in [−π/2, π/2], yaw about the vertical
     *  in [−π, π]. */
    double roll_rad, pitch_rad, yaw_rad;
    /** Unit vector toward the ground, device axes, g, Core Motion's sign (face up: (0, 0, −1)). */
    ocm_vector3 gravity_g;
    /** Acceleration the user gives the device (the accelerometer minus gravity), g. */
    ocm_vector3 user_acceleration_g;
    /** rad/s, gyroscope bias removed. */
    ocm_vector3 rotation_rate_rad_s;
    /** The calibrated magnetic field, µT, and how well it is calibrated. */
    ocm_vector3 magnetic_field_ut;
    ocm_magnetic_accuracy magnetic_accuracy;
    /** Degrees clockwise from north of the device's top (+y), [0, 360), in the two north
     *  frames; negative (−1) in the others. */
    double heading_deg;
} ocm_device_motion_data;

/** An update of any stream: `stream` says which member of the union holds it. */
typedef struct ocm_motion_data {
    ocm_stream stream;
    union {
        ocm_accelerometer_data accelerometer;
        ocm_gyro_data gyro;
        ocm_magnetometer_data magnetometer;
        ocm_device_motion_data device_motion;
    };
} ocm_motion_data;

/**
 * A stream's callback, run ON THE ENGINE THREAD (see above).
 * @param data       the update, valid only during the call (copy what you keep); NULL when
 *                   `status` is a failure.
 * @param status     OCM_STATUS_OK with data; or, once, the failure that stopped the board
 *                   (OCM_STATUS_DEVICE_ERROR), after which the stream delivers nothing more
 *                   (stop it; starting it again brings the board up again). The message is in
 *                   ocm_last_error_message() during the call and in
 *                   ocm_motion_manager_error_message().
 * @param user_data  what was given to ocm_motion_manager_start().
 */
typedef void (*ocm_motion_callback)(const ocm_motion_data *data, ocm_status status, void *user_data);

/**
 * Opens a board for motion updates. Reads and checks the board file only: the chips are
 * brought up by the first ocm_motion_manager_start().
 * @param board_path  a board file: absolute, relative to the current directory (or its boards/
 *                    folder), or the name of one installed with the library
 *                    (PREFIX/share/opencoremotion/boards: "sim-gy-521.board"); NULL for the
 *                    system's board: motiond's when it answers ($OPENCOREMOTION_SOCKET, else
 *                    /run/opencoremotion/motiond.sock; OPENCOREMOTION_NO_DAEMON=1 never), else
 *                    in-process the board file $OPENCOREMOTION_BOARD or /etc/opencoremotion/board
 *                    names, else what a probe of the I2C buses finds (an IMU), else none: the
 *                    manager opens and every start fails with OCM_STATUS_NOT_AVAILABLE and a
 *                    message saying what to do. Never a simulated board unless one is named. A
 *                    board file given is served by motiond only if it is the daemon's own.
 * @param out         receives the handle on success (NULL on failure). Close it with
 *                    ocm_motion_manager_close().
 * @return OCM_STATUS_OK, OCM_STATUS_INVALID_ARGUMENT (NULL out), OCM_STATUS_IO_ERROR (the
 *         file cannot be read) or OCM_STATUS_MALFORMED_BOARD (the message names the line).
 */
OCM_WARN_UNUSED_RESULT
ocm_status ocm_motion_manager_open(const char *board_path, ocm_motion_manager **out);

/** Stops every stream (see ocm_motion_manager_stop()) and frees the manager. NULL and invalid
 *  handles are ignored. */
void ocm_motion_manager_close(ocm_motion_manager *manager);

/** 1 if the board has what `stream` needs (device motion: an accelerometer and a gyroscope),
 *  else 0 (also for an invalid handle or stream). */
int ocm_motion_manager_is_available(const ocm_motion_manager *manager, ocm_stream stream);

/** 1 if motiond serves this manager (opened with NULL or the daemon's own board file while
 *  motiond answers), 0 for the in-process engine (also for an invalid handle). */
int ocm_motion_manager_uses_daemon(const ocm_motion_manager *manager);

/** The reference frames device motion can use on this board, a mask of ocm_reference_frame
 *  values: all four with a magnetometer, OCM_REFERENCE_FRAME_X_ARBITRARY_Z_VERTICAL without;
 *  0 without device motion or for an invalid handle. */
uint32_t ocm_motion_manager_available_reference_frames(const ocm_motion_manager *manager);

/** 1 if `stream` is started (from ocm_motion_manager_start() to _stop()), else 0. */
int ocm_motion_manager_is_active(const ocm_motion_manager *manager, ocm_stream stream);

/**
 * Sets the time between two updates of `stream`, in seconds (default 0.01). Values below 0.01
 * (live streams run at up to 100 Hz) are raised to 0.01; a started stream changes at once.
 * @return OCM_STATUS_OK, OCM_STATUS_INVALID_HANDLE, or OCM_STATUS_INVALID_ARGUMENT (not a
 *         stream; interval_s not a positive number).
 */
OCM_WARN_UNUSED_RESULT
ocm_status ocm_motion_manager_set_update_interval(ocm_motion_manager *manager, ocm_stream stream, double interval_s);

/**
 * Starts `stream` (restarting it if started: the new callback replaces the old one). Returns
 * once the engine runs it (bringing the board up first if no stream of this board runs yet).
 * @param reference_frame  for OCM_STREAM_DEVICE_MOTION: one of the available frames; ignored
 *                         for the other streams (pass OCM_REFERENCE_FRAME_X_ARBITRARY_Z_VERTICAL).
 * @param callback         called with each update on the engine thread; NULL to poll with
 *                         ocm_motion_manager_copy_latest() instead.
 * @param user_data        passed to the callback untouched.
 * @return OCM_STATUS_OK; OCM_STATUS_INVALID_HANDLE; OCM_STATUS_INVALID_ARGUMENT (not a
 *         stream, not exactly one frame); OCM_STATUS_NOT_AVAILABLE (the board lacks the sensor
 *         or the frame's magnetometer); OCM_STATUS_MALFORMED_BOARD / OCM_STATUS_IO_ERROR (the
 *         board file could not be loaded); OCM_STATUS_DEVICE_ERROR (the chips could not be
 *         brought up). The stream is not started on failure.
 */
OCM_WARN_UNUSED_RESULT
ocm_status ocm_motion_manager_start(ocm_motion_manager *manager, ocm_stream stream, ocm_reference_frame reference_frame,
                                    ocm_motion_callback callback, void *user_data);

/**
 * Stops `stream`. When this returns (outside a callback), its callback is not running and will
 * not be called again. Stopping a stream that is not started does nothing.
 * @return OCM_STATUS_OK, OCM_STATUS_INVALID_HANDLE or OCM_STATUS_INVALID_ARGUMENT (not a stream).
 */
OCM_WARN_UNUSED_RESULT
ocm_status ocm_motion_manager_stop(ocm_motion_manager *manager, ocm_stream stream);

/**
 * Copies the latest update of `stream` (started with or without a callback) into *out; the
 * last one stays available after the stream stops.
 * @return OCM_STATUS_OK (out->stream says which member is set), OCM_STATUS_NO_DATA (no update
 *         yet; *out unchanged), OCM_STATUS_INVALID_HANDLE or OCM_STATUS_INVALID_ARGUMENT.
 */
OCM_WARN_UNUSED_RESULT
ocm_status ocm_motion_manager_copy_latest(const ocm_motion_manager *manager, ocm_stream stream, ocm_motion_data *out);

/**
 * Samples of `stream`'s sensors that the board lost before any stream saw them (a chip's FIFO
 * overflowed, a data-ready edge was missed, a chip was read too late) and samples it read twice
 * (withheld, so timestamps strictly increase), since the process first started the board:
 * shared by every manager of the board file. Device motion counts its accelerometer's and
 * gyroscope's together. Either out pointer may be NULL.
 * @return OCM_STATUS_OK, OCM_STATUS_INVALID_HANDLE or OCM_STATUS_INVALID_ARGUMENT (not a stream).
 */
OCM_WARN_UNUSED_RESULT
ocm_status ocm_motion_manager_lost_samples(const ocm_motion_manager *manager, ocm_stream stream, uint64_t *dropped,
                                           uint64_t *duplicated);

/** The message of the failure that stopped the manager's board (what the callbacks got with
 *  OCM_STATUS_DEVICE_ERROR), or NULL if none or the handle is invalid. Owned by the manager:
 *  valid until ocm_motion_manager_close(). */
const char *ocm_motion_manager_error_message(const ocm_motion_manager *manager);

/* ---------------------------------------------------------------------------------------------
 * Pedometer: Core Motion's CMPedometer on a board (a board file, boards/README.md).
 *
 * Steps, distance, pace and cadence from the accelerometer, floors from the barometer, and
 * pause/resume events. Every pedometer of the same board file in a process shares the board's
 * engine and its count: the board counts from the first ocm_pedometer_open() of it until the
 * last ocm_pedometer_close(), and keeps what it counted in memory (half a million steps, more
 * than a week of walking) for queries and for updates that start in the past.
 *
 * Dates are wall-clock times, as Core Motion's NSDate: nanoseconds since 1970-01-01 00:00 UTC
 * (clock_gettime(CLOCK_REALTIME)), in parameters and fields named _unix_ns.
 *
 * Callbacks run ON THE ENGINE THREAD, with the motion manager's rules (see above): keep them
 * short; they may call ocm_pedometer_query(), _copy_latest() and the stop functions; when
 * ocm_pedometer_stop_updates(), _stop_event_updates() or _close() returns (outside a callback),
 * the callback is not running and is not called again.
 * ------------------------------------------------------------------------------------------- */

/** A board opened for pedometer data. */
typedef struct ocm_pedometer ocm_pedometer;

/** What a pedometer can give (Core Motion's is…Available class methods). */
typedef enum ocm_pedometer_feature {
    OCM_PEDOMETER_STEP_COUNTING = 0,  /**< needs an accelerometer */
    OCM_PEDOMETER_DISTANCE = 1,       /**< from the steps (a stride model) */
    OCM_PEDOMETER_FLOOR_COUNTING = 2, /**< needs a barometer */
    OCM_PEDOMETER_PACE = 3,
    OCM_PEDOMETER_CADENCE = 4,
    OCM_PEDOMETER_EVENT_TRACKING = 5  /**< pause and resume events */
} ocm_pedometer_feature;

/** Core Motion's CMPedometerData: what was counted from start to end. Where Core Motion gives
 *  nil, the double fields are NaN (test with isnan()) and has_floors is 0. */
typedef struct ocm_pedometer_data {
    int64_t start_unix_ns;
    int64_t end_unix_ns;
    int64_t number_of_steps;
    /** Metres (from a stride model for a 1.70 m tall user). */
    double distance_m;
    /** 1 if the board has a barometer and the two counts are floors (about 3 m each, climbed
     *  while stepping); 0 otherwise (nil in Core Motion), the counts then 0. */
    int32_t has_floors;
    int32_t floors_ascended;
    int32_t floors_descended;
    /** Seconds per metre now; NaN in queries and while the user is not walking. */
    double current_pace_s_per_m;
    /** Steps per second now; NaN in queries and while the user is not walking. */
    double current_cadence_steps_per_s;
    /** Seconds per metre while stepping, over the span; NaN before any stepping in it. */
    double average_active_pace_s_per_m;
} ocm_pedometer_data;

/** Core Motion's CMPedometerEventType. */
typedef enum ocm_pedometer_event_type {
    OCM_PEDOMETER_EVENT_PAUSE = 0,  /**< the user stopped walking */
    OCM_PEDOMETER_EVENT_RESUME = 1  /**< the user started walking again */
} ocm_pedometer_event_type;

/** Core Motion's CMPedometerEvent. */
typedef struct ocm_pedometer_event {
    /** When the user actually stopped (their last step) or started (their first step); the
     *  event is delivered about a second later. */
    int64_t date_unix_ns;
    ocm_pedometer_event_type type;
} ocm_pedometer_event;

/**
 * A pedometer update's callback, run ON THE ENGINE THREAD.
 * @param data       the update, cumulative from the start date, valid only during the call;
 *                   NULL when `status` is a failure.
 * @param status     OCM_STATUS_OK with data; or, once, OCM_STATUS_DEVICE_ERROR: the board
 *                   stopped (message in ocm_last_error_message() during the call and in
 *                   ocm_pedometer_error_message()); nothing more comes until updates are
 *                   started again, which brings the board up again.
 * @param user_data  what was given to ocm_pedometer_start_updates().
 */
typedef void (*ocm_pedometer_callback)(const ocm_pedometer_data *data, ocm_status status, void *user_data);

/** A pedometer event's callback, run ON THE ENGINE THREAD: `event` as `data` above. */
typedef void (*ocm_pedometer_event_callback)(const ocm_pedometer_event *event, ocm_status status, void *user_data);

/**
 * Opens a board's pedometer: brings the board up and starts counting (if the board has an
 * accelerometer or a barometer). A board whose chips cannot be brought up still opens; starting
 * updates then says why (OCM_STATUS_DEVICE_ERROR).
 * @param board_path  a board file, as for ocm_motion_manager_open() (NULL: the system's board;
 *                    "boards/sim-walker.board" simulates someone walking).
 * @param out         receives the handle (NULL on failure); close it with ocm_pedometer_close().
 * @return OCM_STATUS_OK, OCM_STATUS_INVALID_ARGUMENT (NULL out), OCM_STATUS_IO_ERROR or
 *         OCM_STATUS_MALFORMED_BOARD.
 */
OCM_WARN_UNUSED_RESULT
ocm_status ocm_pedometer_open(const char *board_path, ocm_pedometer **out);

/** Stops its updates and events and frees the pedometer (the last one of a board stops the
 *  board's counting). NULL and invalid handles are ignored. */
void ocm_pedometer_close(ocm_pedometer *pedometer);

/** 1 if the board gives `feature`, else 0 (also for an invalid handle or feature). */
int ocm_pedometer_is_available(const ocm_pedometer *pedometer, ocm_pedometer_feature feature);

/** 1 if motiond serves this pedometer (queries then answer from its 7-day history), 0 for the
 *  in-process engine (also for an invalid handle); the rule is ocm_motion_manager_open()'s. */
int ocm_pedometer_uses_daemon(const ocm_pedometer *pedometer);

/**
 * Starts live updates cumulative from `from_unix_ns` (in the past: what was counted since then
 * is included), replacing running ones: one at once, then about every 2.5 s while the user
 * walks, none while they are still.
 * @param callback   called with each update on the engine thread; NULL to poll with
 *                   ocm_pedometer_copy_latest() instead.
 * @return OCM_STATUS_OK; OCM_STATUS_INVALID_HANDLE; OCM_STATUS_NOT_AVAILABLE (no accelerometer
 *         or barometer); OCM_STATUS_DEVICE_ERROR (the chips could not be brought up).
 */
OCM_WARN_UNUSED_RESULT
ocm_status ocm_pedometer_start_updates(ocm_pedometer *pedometer, int64_t from_unix_ns, ocm_pedometer_callback callback,
                                       void *user_data);

/** Stops live updates (see "Callbacks" above). @return OCM_STATUS_OK or OCM_STATUS_INVALID_HANDLE. */
OCM_WARN_UNUSED_RESULT
ocm_status ocm_pedometer_stop_updates(ocm_pedometer *pedometer);

/** Copies the latest live update since updates last started into *out.
 *  @return OCM_STATUS_OK, OCM_STATUS_NO_DATA (none yet; *out unchanged),
 *          OCM_STATUS_INVALID_HANDLE or OCM_STATUS_INVALID_ARGUMENT (NULL out). */
OCM_WARN_UNUSED_RESULT
ocm_status ocm_pedometer_copy_latest(const ocm_pedometer *pedometer, ocm_pedometer_data *out);

/**
 * What was counted from `from_unix_ns` (included) to `to_unix_ns` (excluded), answered at once
 * from motiond's 7-day history: ranges that tile a span add up to the span. Pace and cadence are NaN.
 * @return OCM_STATUS_OK; OCM_STATUS_INVALID_HANDLE; OCM_STATUS_INVALID_ARGUMENT (NULL out, or
 *         from after to); OCM_STATUS_NOT_AVAILABLE (no accelerometer or barometer, or no
 *         motiond: in-process there is no history, and the message says how to start it).
 */
OCM_WARN_UNUSED_RESULT
ocm_status ocm_pedometer_query(const ocm_pedometer *pedometer, int64_t from_unix_ns, int64_t to_unix_ns, ocm_pedometer_data *out);

/**
 * Starts pause and resume events (replacing running ones), each within about a second.
 * @return OCM_STATUS_OK; OCM_STATUS_INVALID_HANDLE; OCM_STATUS_INVALID_ARGUMENT (NULL
 *         callback); OCM_STATUS_NOT_AVAILABLE (no accelerometer); OCM_STATUS_DEVICE_ERROR.
 */
OCM_WARN_UNUSED_RESULT
ocm_status ocm_pedometer_start_event_updates(ocm_pedometer *pedometer, ocm_pedometer_event_callback callback, void *user_data);

/** Stops events (see "Callbacks" above). @return OCM_STATUS_OK or OCM_STATUS_INVALID_HANDLE. */
OCM_WARN_UNUSED_RESULT
ocm_status ocm_pedometer_stop_event_updates(ocm_pedometer *pedometer);

/** The message of the failure that stopped the pedometer's board or kept it from coming up, or
 *  NULL if none or the handle is invalid. Owned by the pedometer: valid until
 *  ocm_pedometer_close(). */
const char *ocm_pedometer_error_message(const ocm_pedometer *pedometer);

/* ---------------------------------------------------------------------------------------------
 * Motion activity: Core Motion's CMMotionActivityManager on a board (a board file,
 * boards/README.md).
 *
 * What the user is doing: stationary, walking, running, automotive, cycling, each a 0/1 field
 * of ocm_motion_activity, with a confidence. Any combination may be set: stationary with
 * automotive is a car waiting at a light; unknown is set only for the first 2 s of data after
 * the board starts classifying; no field set means enough data, but no activity it can name (a
 * device being handled). Activity needs an accelerometer (a gyroscope helps).
 *
 * Every activity manager of the same board file in a process shares the board's engine and its
 * classifier: the board classifies from the first ocm_activity_manager_open() of it until the
 * last ocm_activity_manager_close(), and keeps the transitions in memory for queries.
 *
 * Dates are wall-clock times, as Core Motion's NSDate: nanoseconds since 1970-01-01 00:00 UTC
 * (clock_gettime(CLOCK_REALTIME)), in parameters and fields named _unix_ns.
 *
 * Callbacks run ON THE ENGINE THREAD, with the motion manager's rules (see above): keep them
 * short; they may call ocm_activity_manager_query(), _copy_latest() and _stop_updates(); when
 * ocm_activity_manager_stop_updates() or _close() returns (outside a callback), the callback is
 * not running and is not called again.
 * ------------------------------------------------------------------------------------------- */

/** A board opened for motion activity. */
typedef struct ocm_activity_manager ocm_activity_manager;

/** Core Motion's CMMotionActivityConfidence: climbs low → medium → high while the same
 *  activity goes on (walking and stationary: medium after about 2.5 s, high after 10 s;
 *  automotive and cycling start at medium, after 20–30 s of evidence). */
typedef enum ocm_activity_confidence {
    OCM_ACTIVITY_CONFIDENCE_LOW = 0,
    OCM_ACTIVITY_CONFIDENCE_MEDIUM = 1,
    OCM_ACTIVITY_CONFIDENCE_HIGH = 2
} ocm_activity_confidence;

/** Core Motion's CMMotionActivity. */
typedef struct ocm_motion_activity {
    /** When the activity started; for walking and running the bout's first step, which is
     *  before the update announcing it. */
    int64_t start_unix_ns;
    /** CLOCK_MONOTONIC, nanoseconds (Core Motion's timestamp): when it was decided (live
     *  updates), or its start (queries). */
    int64_t timestamp_ns;
    ocm_activity_confidence confidence;
    /** 1 if set, else 0 (see above for what combinations mean). */
    int32_t stationary, walking, running, automotive, cycling, unknown;
} ocm_motion_activity;

/**
 * An activity update's callback, run ON THE ENGINE THREAD.
 * @param activity   the activity, valid only during the call; NULL when `status` is a failure.
 * @param status     OCM_STATUS_OK with an activity; or, once, OCM_STATUS_DEVICE_ERROR: the
 *                   board stopped (message in ocm_last_error_message() during the call and in
 *                   ocm_activity_manager_error_message()); nothing more comes until updates are
 *                   started again, which brings the board up again.
 * @param user_data  what was given to ocm_activity_manager_start_updates().
 */
typedef void (*ocm_activity_callback)(const ocm_motion_activity *activity, ocm_status status, void *user_data);

/**
 * Opens a board's activity manager: brings the board up and starts classifying (if the board
 * has an accelerometer). A board whose chips cannot be brought up still opens; starting
 * updates then says why (OCM_STATUS_DEVICE_ERROR).
 * @param board_path  a board file, as for ocm_motion_manager_open() (NULL: the system's board;
 *                    "boards/sim-walker.board" simulates someone who stands and walks).
 * @param out         receives the handle (NULL on failure); close it with
 *                    ocm_activity_manager_close().
 * @return OCM_STATUS_OK, OCM_STATUS_INVALID_ARGUMENT (NULL out), OCM_STATUS_IO_ERROR or
 *         OCM_STATUS_MALFORMED_BOARD.
 */
OCM_WARN_UNUSED_RESULT
ocm_status ocm_activity_manager_open(const char *board_path, ocm_activity_manager **out);

/** Stops its updates and frees the manager (the last one of a board stops the board's
 *  classifying). NULL and invalid handles are ignored. */
void ocm_activity_manager_close(ocm_activity_manager *manager);

/** 1 if the board has an accelerometer (Core Motion's isActivityAvailable), else 0 (also for an
 *  invalid handle). */
int ocm_activity_manager_is_available(const ocm_activity_manager *manager);

/** 1 if motiond serves this manager (queries then answer from its 7-day history), 0 for the
 *  in-process engine (also for an invalid handle); the rule is ocm_motion_manager_open()'s. */
int ocm_activity_manager_uses_daemon(const ocm_activity_manager *manager);

/**
 * Starts live updates, replacing running ones: the current activity at once (unknown during the
 * first 2 s the board classifies), then one per transition (the activity or its confidence
 * changed).
 * @param callback   called with each update on the engine thread; NULL to poll with
 *                   ocm_activity_manager_copy_latest() instead.
 * @return OCM_STATUS_OK; OCM_STATUS_INVALID_HANDLE; OCM_STATUS_NOT_AVAILABLE (no
 *         accelerometer); OCM_STATUS_DEVICE_ERROR (the chips could not be brought up).
 */
OCM_WARN_UNUSED_RESULT
ocm_status ocm_activity_manager_start_updates(ocm_activity_manager *manager, ocm_activity_callback callback, void *user_data);

/** Stops live updates (see "Callbacks" above). @return OCM_STATUS_OK or OCM_STATUS_INVALID_HANDLE. */
OCM_WARN_UNUSED_RESULT
ocm_status ocm_activity_manager_stop_updates(ocm_activity_manager *manager);

/** Copies the latest live update since updates last started (the activity now) into *out.
 *  @return OCM_STATUS_OK, OCM_STATUS_NO_DATA (none yet; *out unchanged),
 *          OCM_STATUS_INVALID_HANDLE or OCM_STATUS_INVALID_ARGUMENT (NULL out). */
OCM_WARN_UNUSED_RESULT
ocm_status ocm_activity_manager_copy_latest(const ocm_activity_manager *manager, ocm_motion_activity *out);

/**
 * The activities from `from_unix_ns` to `to_unix_ns` (excluded), oldest first, answered at once
 * from motiond's 7-day history and smoothed as a history should read (stops under 10 s inside a
 * walk merged, other stretches under 5 s removed); the first may start before `from_unix_ns`.
 * @param out       an array of `capacity` activities (NULL if capacity is 0): receives the first
 *                  min(*count, capacity).
 * @param count     receives how many activities the range holds: more than `capacity` means
 *                  the array was too small (call again with a larger one).
 * @return OCM_STATUS_OK; OCM_STATUS_INVALID_HANDLE; OCM_STATUS_INVALID_ARGUMENT (NULL count,
 *         NULL out with a capacity, or from after to); OCM_STATUS_NOT_AVAILABLE (no
 *         accelerometer, or no motiond: in-process there is no history, the message says so).
 */
OCM_WARN_UNUSED_RESULT
ocm_status ocm_activity_manager_query(const ocm_activity_manager *manager, int64_t from_unix_ns, int64_t to_unix_ns,
                                      ocm_motion_activity *out, size_t capacity, size_t *count);

/** The message of the failure that stopped the manager's board or kept it from coming up, or
 *  NULL if none or the handle is invalid. Owned by the manager: valid until
 *  ocm_activity_manager_close(). */
const char *ocm_activity_manager_error_message(const ocm_activity_manager *manager);

/* ---------------------------------------------------------------------------------------------
 * Water submersion: Core Motion's CMWaterSubmersionManager on a board with a depth sensor (an
 * MS5837-30BA or -02BA; boards/sim-ms5837.board simulates a dive).
 *
 * Depth below the surface, the static and surface pressures, the submersion state, submerged /
 * not-submerged events and, while submerged, the water's temperature with its uncertainty. The
 * surface pressure is learned from the moment updates start: start them out of the water (at
 * least 4 s before going in). Depth = (pressure - surface pressure) / (density x 9.80665).
 * States (Core Motion's raw values): submerged from 0.25 m (two readings in a row), surfaced
 * below 0.10 m; deep from 1 m; approaching the maximum depth from 90 % of it; past it beyond
 * it; each boundary crossed going up 0.10 m above it.
 *
 * Each manager has its own density, maximum depth and surface; managers of one board file share
 * its engine. Dates are wall-clock times (nanoseconds since 1970, CLOCK_REALTIME), _unix_ns.
 * Callbacks run ON THE ENGINE THREAD, with the motion manager's rules (see above).
 * ------------------------------------------------------------------------------------------- */

/** A board opened for water submersion. */
typedef struct ocm_water_submersion_manager ocm_water_submersion_manager;

/** Water densities, kg/m3: fresh water, and mean sea-surface seawater. */
#define OCM_WATER_DENSITY_FRESH 1000.0
#define OCM_WATER_DENSITY_SALT 1025.0

/** Core Motion's CMWaterSubmersionMeasurement.DepthState, with its raw values. */
typedef enum ocm_water_depth_state {
    OCM_WATER_DEPTH_UNKNOWN = 0,              /**< the surface pressure is not known yet */
    OCM_WATER_DEPTH_NOT_SUBMERGED = 100,
    OCM_WATER_DEPTH_SUBMERGED_SHALLOW = 200,  /**< shallower than 1 m */
    OCM_WATER_DEPTH_SUBMERGED_DEEP = 300,
    OCM_WATER_DEPTH_APPROACHING_MAX = 400,    /**< within 10 % of the maximum depth */
    OCM_WATER_DEPTH_PAST_MAX = 500,
    OCM_WATER_DEPTH_SENSOR_ERROR = 600        /**< the pressure cannot be a depth */
} ocm_water_depth_state;

/** What an update carries. */
typedef enum ocm_water_submersion_update_kind {
    OCM_WATER_SUBMERSION_EVENT = 0,        /**< went under or came up: `submerged` */
    OCM_WATER_SUBMERSION_MEASUREMENT = 1,  /**< depth, pressures, state */
    OCM_WATER_SUBMERSION_TEMPERATURE = 2   /**< the water's temperature (only while submerged) */
} ocm_water_submersion_update_kind;

/** One update: the fields of its kind are set, the others 0 (NaN for doubles). */
typedef struct ocm_water_submersion_update {
    ocm_water_submersion_update_kind kind;
    /** EVENT: 1 submerged, 0 not submerged (Core Motion's CMWaterSubmersionEvent). */
    int32_t submerged;
    int64_t date_unix_ns;
    /** MEASUREMENT (Core Motion's CMWaterSubmersionMeasurement): depth in metres and the
     *  surface pressure in Pa, NaN until the surface is known; the static pressure in Pa. */
    double depth_m;
    double pressure_pa;
    double surface_pressure_pa;
    ocm_water_depth_state state;
    /** TEMPERATURE (Core Motion's CMWaterTemperature): degrees Celsius, and its uncertainty (±). */
    double temperature_c;
    double temperature_uncertainty_c;
} ocm_water_submersion_update;

/**
 * A water-submersion update's callback, run ON THE ENGINE THREAD.
 * @param update     valid only during the call; NULL when `status` is a failure.
 * @param status     OCM_STATUS_OK with an update; or, once, OCM_STATUS_DEVICE_ERROR: the board
 *                   stopped (message in ocm_water_submersion_error_message()).
 */
typedef void (*ocm_water_submersion_callback)(const ocm_water_submersion_update *update, ocm_status status, void *user_data);

/**
 * Opens a board for water submersion (reads the board file only: the board comes up when
 * updates start).
 * @param board_path          a board file (NULL: the system's board, found in-process as
 *                            ocm_motion_manager_open() finds it; "boards/sim-ms5837.board" is a
 *                            simulated dive).
 * @param water_density_kg_m3 OCM_WATER_DENSITY_FRESH, OCM_WATER_DENSITY_SALT or a measured
 *                            density (500 to 2000).
 * @param maximum_depth_m     the depth the device is rated for, m; 0 (or NaN): the depth
 *                            sensor's range in this water.
 * @param out                 receives the handle (NULL on failure).
 * @return OCM_STATUS_OK, OCM_STATUS_INVALID_ARGUMENT (NULL out, a density or depth out of
 *         range), OCM_STATUS_IO_ERROR or OCM_STATUS_MALFORMED_BOARD.
 */
OCM_WARN_UNUSED_RESULT
ocm_status ocm_water_submersion_open(const char *board_path, double water_density_kg_m3, double maximum_depth_m,
                                     ocm_water_submersion_manager **out);

/** Stops its updates and frees the manager. NULL and invalid handles are ignored. */
void ocm_water_submersion_close(ocm_water_submersion_manager *manager);

/** 1 if the board has a depth sensor and no other barometer, else 0 (also for an invalid handle). */
int ocm_water_submersion_is_available(const ocm_water_submersion_manager *manager);

/** The maximum depth in metres; NaN without a depth sensor or for an invalid handle. */
double ocm_water_submersion_maximum_depth(const ocm_water_submersion_manager *manager);

/**
 * Starts updates (replacing running ones; the surface is learned anew): every measurement (25
 * a second on an MS5837 at its highest resolution), each event, and the water temperature while
 * submerged.
 * @param callback   called with each update on the engine thread; NULL to poll with
 *                   ocm_water_submersion_copy_latest() instead.
 * @return OCM_STATUS_OK; OCM_STATUS_INVALID_HANDLE; OCM_STATUS_NOT_AVAILABLE (no depth sensor);
 *         OCM_STATUS_DEVICE_ERROR (the chips could not be brought up).
 */
OCM_WARN_UNUSED_RESULT
ocm_status ocm_water_submersion_start_updates(ocm_water_submersion_manager *manager, ocm_water_submersion_callback callback,
                                              void *user_data);

/** Stops updates (see "Callbacks" above). @return OCM_STATUS_OK or OCM_STATUS_INVALID_HANDLE. */
OCM_WARN_UNUSED_RESULT
ocm_status ocm_water_submersion_stop_updates(ocm_water_submersion_manager *manager);

/** Copies the latest measurement (kind MEASUREMENT) since updates started.
 *  @return OCM_STATUS_OK; OCM_STATUS_NO_DATA before the first; OCM_STATUS_INVALID_HANDLE;
 *  OCM_STATUS_INVALID_ARGUMENT (NULL out). */
OCM_WARN_UNUSED_RESULT
ocm_status ocm_water_submersion_copy_latest(const ocm_water_submersion_manager *manager, ocm_water_submersion_update *out);

/** The message of the failure that stopped the manager's board or kept it from coming up, or
 *  NULL if none or the handle is invalid. Owned by the manager: valid until
 *  ocm_water_submersion_close(). */
const char *ocm_water_submersion_error_message(const ocm_water_submersion_manager *manager);

/* -------------------------------------------------------------------------------------------
 * Altimeter: Core Motion's CMAltimeter on a board with a barometer (BMP280/BME280, LPS25H).
 *
 * Relative altitude since updates started (metres, up positive, with the low-passed pressure in
 * kPa) and absolute altitude above sea level by the standard atmosphere (ICAO) with its accuracy
 * and precision. Updates come at Core Motion's pace: the first a second after the start (once the
 * low-pass has a second of readings; relative altitude 0), then about every second. Pressure is low-passed with a 1 s time
 * constant (a floor climb shows within a second, 1 s behind); height changes are scaled by the
 * board's thermometer (15 °C without one). Relative altitude follows the weather too (about 8 m
 * per hPa), as Core Motion's does. Nothing runs while no updates are on.
 *
 * Callbacks run ON THE ENGINE THREAD, with the motion manager's rules (see above): keep them
 * short; they may call ocm_altimeter_copy_latest() and the stop functions; when a stop function
 * or ocm_altimeter_close() returns (outside a callback), the callback is not running and is not
 * called again.
 * ------------------------------------------------------------------------------------------- */

/** A board opened for altitude. */
typedef struct ocm_altimeter ocm_altimeter;

/** Which altitude: Core Motion's two kinds of update. */
typedef enum ocm_altitude_kind {
    OCM_ALTITUDE_RELATIVE = 0,  /**< CMAltitudeData: relative_altitude_m and pressure_kpa */
    OCM_ALTITUDE_ABSOLUTE = 1   /**< CMAbsoluteAltitudeData: altitude_m, accuracy_m, precision_m */
} ocm_altitude_kind;

/** One altitude update: Core Motion's CMAltitudeData and CMAbsoluteAltitudeData in one (every
 *  field is filled for both kinds). */
typedef struct ocm_altitude_data {
    int64_t timestamp_ns;        /**< the pressure reading's, CLOCK_MONOTONIC, nanoseconds */
    double relative_altitude_m;  /**< metres since updates of this kind started, up positive */
    double pressure_kpa;         /**< low-passed pressure, kPa */
    double altitude_m;           /**< metres above the sea-level pressure's level */
    double accuracy_m;           /**< one standard deviation of altitude_m's error: the sea-level
                                      pressure's uncertainty as height (about 83 m for the standard
                                      atmosphere, 8 m for a QNH) */
    double precision_m;          /**< one standard deviation of the altitude's noise, measured */
} ocm_altitude_data;

/**
 * An altitude update's callback, run ON THE ENGINE THREAD.
 * @param data       the update, valid only during the call; NULL when `status` is a failure.
 * @param status     OCM_STATUS_OK with data; or, once, OCM_STATUS_DEVICE_ERROR: the board
 *                   stopped (message in ocm_last_error_message() during the call and in
 *                   ocm_altimeter_error_message()); nothing more comes until updates are started
 *                   again, which brings the board up again.
 * @param user_data  what was given to ocm_altimeter_start_updates().
 */
typedef void (*ocm_altitude_callback)(const ocm_altitude_data *data, ocm_status status, void *user_data);

/**
 * Opens a board's altimeter: reads the board file only (the board comes up at the first start).
 * @param board_path  a board file, as for ocm_motion_manager_open() (NULL: the system's board:
 *                    motiond's when it answers, which then runs the altitude stage for it;
 *                    "boards/sim-gy-521-bmp280.board" has a simulated barometer). The rule is ocm_motion_manager_open()'s.
 * @param out         receives the handle (NULL on failure); close it with ocm_altimeter_close().
 * @return OCM_STATUS_OK, OCM_STATUS_INVALID_ARGUMENT (NULL out), OCM_STATUS_IO_ERROR or
 *         OCM_STATUS_MALFORMED_BOARD.
 */
OCM_WARN_UNUSED_RESULT
ocm_status ocm_altimeter_open(const char *board_path, ocm_altimeter **out);

/** Stops its updates and frees the altimeter. NULL and invalid handles are ignored. */
void ocm_altimeter_close(ocm_altimeter *altimeter);

/** 1 if motiond serves this altimeter (it reconnects by itself after a daemon restart, relative
 *  altitude carrying on), 0 for the in-process engine (also for an invalid handle); the rule is
 *  ocm_motion_manager_open()'s. */
int ocm_altimeter_uses_daemon(const ocm_altimeter *altimeter);

/** 1 if the board has a barometer (relative and absolute altitude), else 0 (also for an invalid
 *  handle). */
int ocm_altimeter_is_available(const ocm_altimeter *altimeter);

/**
 * Measures absolute altitude against a sea-level pressure of `kpa` (such as a nearby airfield's
 * QNH: 1013.2 hPa is 101.32 kPa) known to `uncertainty_kpa` (one standard deviation; 0.1 for a
 * recent QNH), from the next start. Until called: the standard atmosphere's 101.325 kPa, 1.0 kPa.
 * @return OCM_STATUS_OK; OCM_STATUS_INVALID_HANDLE; OCM_STATUS_INVALID_ARGUMENT (kpa outside
 *         80…110, or uncertainty outside 0…10).
 */
OCM_WARN_UNUSED_RESULT
ocm_status ocm_altimeter_set_sea_level_pressure(ocm_altimeter *altimeter, double kpa, double uncertainty_kpa);

/**
 * Starts `kind` updates, replacing running ones of that kind (relative altitude then counts from
 * zero again): the first a second after the start, then about every second.
 * @param callback   called with each update on the engine thread; NULL to poll with
 *                   ocm_altimeter_copy_latest() instead.
 * @return OCM_STATUS_OK; OCM_STATUS_INVALID_HANDLE; OCM_STATUS_INVALID_ARGUMENT (an unknown
 *         kind); OCM_STATUS_NOT_AVAILABLE (no barometer; the message names the board's chips);
 *         OCM_STATUS_DEVICE_ERROR (the chips could not be brought up).
 */
OCM_WARN_UNUSED_RESULT
ocm_status ocm_altimeter_start_updates(ocm_altimeter *altimeter, ocm_altitude_kind kind, ocm_altitude_callback callback,
                                       void *user_data);

/** Stops `kind` updates (see "Callbacks" above).
 *  @return OCM_STATUS_OK, OCM_STATUS_INVALID_HANDLE or OCM_STATUS_INVALID_ARGUMENT (an unknown kind). */
OCM_WARN_UNUSED_RESULT
ocm_status ocm_altimeter_stop_updates(ocm_altimeter *altimeter, ocm_altitude_kind kind);

/** Copies the latest `kind` update since those updates last started into *out.
 *  @return OCM_STATUS_OK, OCM_STATUS_NO_DATA (none yet; *out unchanged),
 *          OCM_STATUS_INVALID_HANDLE or OCM_STATUS_INVALID_ARGUMENT (NULL out, unknown kind). */
OCM_WARN_UNUSED_RESULT
ocm_status ocm_altimeter_copy_latest(const ocm_altimeter *altimeter, ocm_altitude_kind kind, ocm_altitude_data *out);

/** The message of the failure that stopped the altimeter's board or kept it from coming up, or
 *  NULL if none or the handle is invalid. Owned by the altimeter: valid until
 *  ocm_altimeter_close(). */
const char *ocm_altimeter_error_message(const ocm_altimeter *altimeter);

/* ---------------------------------------------------------------------------------------------
 * Batched sensors: Core Motion's CMBatchedSensorManager on a board with an IMU read through a
 * hardware FIFO (MPU-6050 family: accelerometer at 1000 Hz; BMI160: 1600 Hz).
 *
 * The accelerometer at the FIFO's highest rate and device motion at 200 Hz (fused at the FIFO
 * rate, attitude in OCM_REFERENCE_FRAME_X_ARBITRARY_Z_VERTICAL), delivered about once a second
 * as an array of one second of samples, each with its FIFO-derived timestamp (CLOCK_MONOTONIC,
 * strictly increasing at the FIFO's period). While a batched stream runs, the board's IMU runs
 * at that rate and is read in FIFO bursts (at most every 10 ms; its data-ready line is not
 * used); the board's other streams (motion manager, pedometer, activity) get one frame of
 * every N, what they got at the board file's rate. Starting the first batched stream and
 * stopping the last re-initialises the IMU (a simulated board starts its recording over).
 *
 * Callbacks run on a thread of their own per started stream, never the engine thread: a
 * callback slower than a second per batch lets batches wait, and once 4 wait, newer whole
 * batches are dropped and counted (ocm_batched_sensor_manager_drops()); the engine never waits.
 * A callback may call ocm_batched_sensor_manager_stop() (then that stream's thread ends after
 * the callback returns). ocm_batched_sensor_manager_close() must not race with other calls on
 * the same handle.
 * ------------------------------------------------------------------------------------------- */

typedef struct ocm_batched_sensor_manager ocm_batched_sensor_manager;

/** The two batched streams. */
typedef enum ocm_batched_stream {
    OCM_BATCHED_ACCELEROMETER = 0, /**< ocm_accelerometer_data at the FIFO's rate */
    OCM_BATCHED_DEVICE_MOTION = 1  /**< ocm_device_motion_data at 200 Hz */
} ocm_batched_stream;

/** What a batched stream delivered and lost since it was last started: nothing is lost silently. */
typedef struct ocm_batch_drops {
    /** Samples handed to the stream's queue (its callback gets them unless stopped first). */
    uint64_t delivered_samples;
    /** Samples of whole batches dropped because 4 batches waited for a slow callback. */
    uint64_t queue_full_samples;
    /** Samples missing between FIFO reads, from the gaps between their timestamps (the FIFO
     *  overflowed: the engine read the chip too late). */
    uint64_t fifo_samples;
    /** FIFO overflows the driver saw (each loses the FIFO's content). */
    uint64_t fifo_overflows;
} ocm_batch_drops;

/**
 * A batch callback, run on the stream's own thread.
 * @param samples    `count` samples in time order, valid only during the call (copy what you
 *                   keep); NULL when `status` is a failure.
 * @param status     OCM_STATUS_OK with samples; or, once, OCM_STATUS_DEVICE_ERROR (the board
 *                   stopped; the message in ocm_last_error_message() during the call), after
 *                   which the stream delivers nothing more.
 */
typedef void (*ocm_accelerometer_batch_callback)(const ocm_accelerometer_data *samples, size_t count, ocm_status status,
                                                 void *user_data);
typedef void (*ocm_device_motion_batch_callback)(const ocm_device_motion_data *samples, size_t count, ocm_status status,
                                                 void *user_data);

/**
 * Opens a board for batched sensors; in-process, reads the board file only.
 * @param board_path  a board file, as for ocm_motion_manager_open(); NULL for the system's
 *                    board: motiond's when it answers (the daemon switches its IMU to the FIFO's
 *                    rate while batched clients run, its other clients unchanged), else as
 *                    ocm_motion_manager_open() ("boards/sim-gy-521.board": a simulated MPU-6050
 *                    read through its FIFO).
 * @return as ocm_motion_manager_open().
 */
OCM_WARN_UNUSED_RESULT
ocm_status ocm_batched_sensor_manager_open(const char *board_path, ocm_batched_sensor_manager **out);

/** Stops both streams and frees the manager. NULL and invalid handles are ignored. */
void ocm_batched_sensor_manager_close(ocm_batched_sensor_manager *manager);

/** 1 if the board has an IMU read through a hardware FIFO (both streams), else 0. */
int ocm_batched_sensor_manager_is_supported(const ocm_batched_sensor_manager *manager);

/** 1 if motiond serves this manager (opened with NULL or the daemon's own board file while
 *  motiond answers), 0 for the in-process engine (also for an invalid handle). */
int ocm_batched_sensor_manager_uses_daemon(const ocm_batched_sensor_manager *manager);

/** Samples per second of `stream` (and per batch): 1000 or 1600 for the accelerometer, 200 for
 *  device motion; 0 when not supported or for an invalid handle or stream. */
int ocm_batched_sensor_manager_frequency(const ocm_batched_sensor_manager *manager, ocm_batched_stream stream);

/** 1 if `stream` is started, else 0. */
int ocm_batched_sensor_manager_is_active(const ocm_batched_sensor_manager *manager, ocm_batched_stream stream);

/**
 * Starts accelerometer batches (restarting them if started). Returns once the engine runs
 * them, the IMU switched to its FIFO's highest rate.
 * @return OCM_STATUS_OK; OCM_STATUS_INVALID_HANDLE; OCM_STATUS_INVALID_ARGUMENT (NULL
 *         callback); OCM_STATUS_NOT_AVAILABLE (no FIFO IMU: the message says which chips the
 *         board has); OCM_STATUS_DEVICE_ERROR (the chips could not be brought up).
 */
OCM_WARN_UNUSED_RESULT
ocm_status ocm_batched_sensor_manager_start_accelerometer(ocm_batched_sensor_manager *manager,
                                                          ocm_accelerometer_batch_callback callback, void *user_data);

/** Starts device-motion batches at 200 Hz, as ocm_batched_sensor_manager_start_accelerometer(). */
OCM_WARN_UNUSED_RESULT
ocm_status ocm_batched_sensor_manager_start_device_motion(ocm_batched_sensor_manager *manager,
                                                          ocm_device_motion_batch_callback callback, void *user_data);

/**
 * Stops `stream`. When this returns (outside its callback), the callback is not running and
 * will not be called again; batches still queued are discarded. Stopping a stream that is not
 * started does nothing.
 * @return OCM_STATUS_OK, OCM_STATUS_INVALID_HANDLE or OCM_STATUS_INVALID_ARGUMENT (not a stream).
 */
OCM_WARN_UNUSED_RESULT
ocm_status ocm_batched_sensor_manager_stop(ocm_batched_sensor_manager *manager, ocm_batched_stream stream);

/**
 * Copies what `stream` delivered and lost since it was last started (zeros before any start).
 * @return OCM_STATUS_OK, OCM_STATUS_INVALID_HANDLE or OCM_STATUS_INVALID_ARGUMENT (not a
 *         stream, NULL out).
 */
OCM_WARN_UNUSED_RESULT
ocm_status ocm_batched_sensor_manager_drops(const ocm_batched_sensor_manager *manager, ocm_batched_stream stream,
                                            ocm_batch_drops *out);

/* ---------------------------------------------------------------------------------------------
 * Sensor recorder: Core Motion's CMSensorRecorder. motiond records the accelerometer at 50 Hz
 * into its 3-day history; a recorder asks it to keep recording (up to 12 h a call) and reads the
 * samples back by time range. It needs motiond (Core Motion's recorder needs the motion
 * coprocessor, and here that is the daemon): without one, ocm_sensor_recorder_is_available()
 * is 0 and requests fail with OCM_STATUS_NOT_AVAILABLE and a message saying how to start it.
 * The connection reconnects by itself after a daemon restart.
 * ------------------------------------------------------------------------------------------- */

typedef struct ocm_sensor_recorder ocm_sensor_recorder;

/** One recorded accelerometer sample (CMRecordedAccelerometerData). */
typedef struct ocm_recorded_accelerometer_data {
    /** When it was measured: CLOCK_REALTIME, ns since 1970 (Core Motion's startDate). */
    int64_t start_unix_ns;
    /** g, Core Motion's sign (−specific force / 9.80665 m/s²), stored to 1/2048 g. */
    double x, y, z;
    /** The continuity run (its first sample's start_unix_ns): consecutive samples with
     *  different identifiers have a gap between them (motiond stopped, the board failed). */
    uint64_t identifier;
} ocm_recorded_accelerometer_data;

/**
 * Opens a recorder on motiond at `socket_path` (NULL: $OPENCOREMOTION_SOCKET, else
 * /run/opencoremotion/motiond.sock). Succeeds without a daemon too (nothing is then available).
 * @return OCM_STATUS_OK or OCM_STATUS_INVALID_ARGUMENT (NULL out).
 */
OCM_WARN_UNUSED_RESULT
ocm_status ocm_sensor_recorder_open(const char *socket_path, ocm_sensor_recorder **out);

/** Closes the recorder (NULL or an invalid handle is ignored); recording goes on in motiond. */
void ocm_sensor_recorder_close(ocm_sensor_recorder *recorder);

/** 1 when motiond runs and its board has an accelerometer, else 0. */
int ocm_sensor_recorder_is_available(const ocm_sensor_recorder *recorder);

/** What motiond grants this user, as Core Motion's CMAuthorizationStatus: 0 not determined,
 *  1 restricted (its policy file), 2 denied (not in group motion), 3 authorized (also without
 *  a daemon); -1 for an invalid handle. */
int ocm_sensor_recorder_authorization_status(const ocm_sensor_recorder *recorder);

/**
 * Records the accelerometer for `duration_seconds` from now (0 < duration ≤ 43 200: 12 h; call
 * again to extend). `until_unix_ns` (may be NULL) receives when recording ends.
 * @return OCM_STATUS_OK; OCM_STATUS_INVALID_HANDLE; OCM_STATUS_INVALID_ARGUMENT (duration out of
 *         range); OCM_STATUS_NOT_AVAILABLE (no motiond); OCM_STATUS_NOT_AUTHORIZED.
 */
OCM_WARN_UNUSED_RESULT
ocm_status ocm_sensor_recorder_record_accelerometer(ocm_sensor_recorder *recorder, double duration_seconds, int64_t *until_unix_ns);

/**
 * The recorded samples from `from_unix_ns` to `to_unix_ns` (excluded), oldest first, in an
 * array this library allocates: *out receives it (NULL when *count is 0), *count its length.
 * Free it with ocm_sensor_recorder_free_data().
 * @return OCM_STATUS_OK; OCM_STATUS_INVALID_HANDLE; OCM_STATUS_INVALID_ARGUMENT (NULL out or
 *         count, from after to); OCM_STATUS_NOT_AVAILABLE; OCM_STATUS_NOT_AUTHORIZED;
 *         OCM_STATUS_DEVICE_ERROR (motiond went away during the query: try again).
 */
OCM_WARN_UNUSED_RESULT
ocm_status ocm_sensor_recorder_copy_accelerometer_data(ocm_sensor_recorder *recorder, int64_t from_unix_ns, int64_t to_unix_ns,
                                                       ocm_recorded_accelerometer_data **out, size_t *count);

/** Frees an array from ocm_sensor_recorder_copy_accelerometer_data() (NULL is ignored). */
void ocm_sensor_recorder_free_data(ocm_recorded_accelerometer_data *data);

/* ---- Remote device motion (issue 10) --------------------------------------------------------
 * Device motion of a board that publishes to an MQTT broker (motionctl publish, motiond), with
 * Core Motion's CMHeadphoneMotionManager semantics: attitude relative to the first sample after
 * start; events when the board connects (its retained status "online") and disconnects
 * ("offline": a clean stop, or the last will of a board that died). Broker, credentials, TLS and
 * topic prefix come from an MQTT configuration file (Sources/MotionMQTT/PAYLOADS.md). */

/** One remote board followed through the broker. */
typedef struct ocm_remote_motion ocm_remote_motion;

/** What an ocm_remote_motion_callback reports. */
typedef enum ocm_remote_event {
    OCM_REMOTE_EVENT_SAMPLE = 0,       /**< `data` holds a sample (timestamp on this machine's CLOCK_MONOTONIC) */
    OCM_REMOTE_EVENT_CONNECTED = 1,    /**< the board is online; `data` is NULL */
    OCM_REMOTE_EVENT_DISCONNECTED = 2  /**< the board went away; `data` is NULL; ocm_last_error_message(), called in the callback, says why */
} ocm_remote_event;

/** Called on the MQTT client's network thread: return quickly. */
typedef void (*ocm_remote_motion_callback)(ocm_remote_event event, const ocm_device_motion_data *data, void *user_data);

/** Reads the MQTT configuration file at `config_path` and prepares to follow `board_id`
 *  (nothing is connected until ocm_remote_motion_start).
 * @return OCM_STATUS_OK, OCM_STATUS_INVALID_ARGUMENT (a NULL argument), or
 *         OCM_STATUS_NOT_AVAILABLE (the file cannot be read or has an error: the message names
 *         the file and line). */
OCM_WARN_UNUSED_RESULT
ocm_status ocm_remote_motion_open(const char *config_path, const char *board_id, ocm_remote_motion **out);

/** Connects (in the background; the broker is retried until reachable) and calls `callback`
 *  with each event; the next sample becomes the attitude reference. Replaces a running start.
 * @return OCM_STATUS_OK, OCM_STATUS_INVALID_HANDLE, OCM_STATUS_INVALID_ARGUMENT (NULL
 *         callback), or OCM_STATUS_NOT_AVAILABLE (the client could not start: the broker host
 *         does not resolve, a TLS file is unusable). */
OCM_WARN_UNUSED_RESULT
ocm_status ocm_remote_motion_start(ocm_remote_motion *remote, ocm_remote_motion_callback callback, void *user_data);

/** Disconnects; once it returns, the callback is not called again. */
void ocm_remote_motion_stop(ocm_remote_motion *remote);

/** 1 while the remote board is online, else 0 (also for an invalid handle). */
int ocm_remote_motion_is_connected(ocm_remote_motion *remote);

/** Stops (if running) and frees the handle. NULL or a closed handle is ignored. */
void ocm_remote_motion_close(ocm_remote_motion *remote);

#ifdef __cplusplus
}
#endif

#endif /* OPENCOREMOTION_H */
