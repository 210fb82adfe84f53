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
 *    different threads at once. ocm_last_error_message() is per thread.
 *  - Units are SI and in the names: timestamps in nanoseconds (_ns), rates in hertz (_hz).
 */
#ifndef OPENCOREMOTION_H
#define OPENCOREMOTION_H

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
    OCM_STATUS_MALFORMED_RECORDING = -4
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

#ifdef __cplusplus
}
#endif

#endif /* OPENCOREMOTION_H */
