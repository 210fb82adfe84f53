"""Finds and loads ``libopencoremotion.so.0`` and declares the C functions this package calls.

Where the library comes from, first match wins:

1. ``$OPENCOREMOTION_LIBRARY``: a path to the library file (the tests point it at a fresh build);
2. the installed soname ``libopencoremotion.so.0`` through the dynamic loader (``ldconfig``'s
   cache, ``LD_LIBRARY_PATH``), where ``sudo tools/install-c-library.sh /usr/local`` puts it.

The library is loaded once, on first use, with ``ctypes.CDLL``: every call releases the GIL, so
the library's engine thread can run Python callbacks while another thread waits in a stop.
"""

from __future__ import annotations

import ctypes
import os
import threading
from ctypes import POINTER, c_char_p, c_double, c_int, c_int64, c_size_t, c_uint32, c_uint64, c_void_p

from . import _structs as s
from .errors import LibraryNotFoundError, error_for

#: The soname this package binds: major version 0 of the C API.
SONAME = "libopencoremotion.so.0"
#: The environment variable naming a library file to load instead of the installed one.
LIBRARY_VARIABLE = "OPENCOREMOTION_LIBRARY"
_SUPPORTED_MAJOR = "0"

_lock = threading.Lock()
_library: ctypes.CDLL | None = None

_handle = c_void_p
_out_handle = POINTER(c_void_p)

# name: (restype, argtypes), exactly as opencoremotion.h declares them.
_PROTOTYPES: dict[str, tuple[object, list[object]]] = {
    "ocm_version_string": (c_char_p, []),
    "ocm_status_string": (c_char_p, [c_int]),
    "ocm_sensor_name": (c_char_p, [c_int]),
    "ocm_last_error_message": (c_char_p, []),
    # Recordings
    "ocm_recording_open": (c_int, [c_char_p, _out_handle]),
    "ocm_recording_next": (c_int, [_handle, POINTER(s.Sample)]),
    "ocm_recording_metadata": (c_char_p, [_handle, c_char_p]),
    "ocm_recording_error_message": (c_char_p, [_handle]),
    "ocm_recording_line_number": (c_int64, [_handle]),
    "ocm_recording_close": (None, [_handle]),
    # Motion manager
    "ocm_motion_manager_open": (c_int, [c_char_p, _out_handle]),
    "ocm_motion_manager_close": (None, [_handle]),
    "ocm_motion_manager_is_available": (c_int, [_handle, c_int]),
    "ocm_motion_manager_uses_daemon": (c_int, [_handle]),
    "ocm_motion_manager_available_reference_frames": (c_uint32, [_handle]),
    "ocm_motion_manager_is_active": (c_int, [_handle, c_int]),
    "ocm_motion_manager_set_update_interval": (c_int, [_handle, c_int, c_double]),
    "ocm_motion_manager_start": (c_int, [_handle, c_int, c_int, s.MotionCallback, c_void_p]),
    "ocm_motion_manager_stop": (c_int, [_handle, c_int]),
    "ocm_motion_manager_copy_latest": (c_int, [_handle, c_int, POINTER(s.MotionData)]),
    "ocm_motion_manager_lost_samples": (c_int, [_handle, c_int, POINTER(c_uint64), POINTER(c_uint64)]),
    "ocm_motion_manager_error_message": (c_char_p, [_handle]),
    # Pedometer
    "ocm_pedometer_open": (c_int, [c_char_p, _out_handle]),
    "ocm_pedometer_close": (None, [_handle]),
    "ocm_pedometer_is_available": (c_int, [_handle, c_int]),
    "ocm_pedometer_uses_daemon": (c_int, [_handle]),
    "ocm_pedometer_start_updates": (c_int, [_handle, c_int64, s.PedometerCallback, c_void_p]),
    "ocm_pedometer_stop_updates": (c_int, [_handle]),
    "ocm_pedometer_copy_latest": (c_int, [_handle, POINTER(s.PedometerData)]),
    "ocm_pedometer_query": (c_int, [_handle, c_int64, c_int64, POINTER(s.PedometerData)]),
    "ocm_pedometer_start_event_updates": (c_int, [_handle, s.PedometerEventCallback, c_void_p]),
    "ocm_pedometer_stop_event_updates": (c_int, [_handle]),
    "ocm_pedometer_error_message": (c_char_p, [_handle]),
    # Motion activity
    "ocm_activity_manager_open": (c_int, [c_char_p, _out_handle]),
    "ocm_activity_manager_close": (None, [_handle]),
    "ocm_activity_manager_is_available": (c_int, [_handle]),
    "ocm_activity_manager_uses_daemon": (c_int, [_handle]),
    "ocm_activity_manager_start_updates": (c_int, [_handle, s.ActivityCallback, c_void_p]),
    "ocm_activity_manager_stop_updates": (c_int, [_handle]),
    "ocm_activity_manager_copy_latest": (c_int, [_handle, POINTER(s.MotionActivity)]),
    "ocm_activity_manager_query": (
        c_int,
        [_handle, c_int64, c_int64, POINTER(s.MotionActivity), c_size_t, POINTER(c_size_t)],
    ),
    "ocm_activity_manager_error_message": (c_char_p, [_handle]),
    # Altimeter
    "ocm_altimeter_open": (c_int, [c_char_p, _out_handle]),
    "ocm_altimeter_close": (None, [_handle]),
    "ocm_altimeter_uses_daemon": (c_int, [_handle]),
    "ocm_altimeter_is_available": (c_int, [_handle]),
    "ocm_altimeter_set_sea_level_pressure": (c_int, [_handle, c_double, c_double]),
    "ocm_altimeter_start_updates": (c_int, [_handle, c_int, s.AltitudeCallback, c_void_p]),
    "ocm_altimeter_stop_updates": (c_int, [_handle, c_int]),
    "ocm_altimeter_copy_latest": (c_int, [_handle, c_int, POINTER(s.AltitudeData)]),
    "ocm_altimeter_error_message": (c_char_p, [_handle]),
    # Batched sensors
    "ocm_batched_sensor_manager_open": (c_int, [c_char_p, _out_handle]),
    "ocm_batched_sensor_manager_close": (None, [_handle]),
    "ocm_batched_sensor_manager_is_supported": (c_int, [_handle]),
    "ocm_batched_sensor_manager_uses_daemon": (c_int, [_handle]),
    "ocm_batched_sensor_manager_frequency": (c_int, [_handle, c_int]),
    "ocm_batched_sensor_manager_is_active": (c_int, [_handle, c_int]),
    "ocm_batched_sensor_manager_start_accelerometer": (c_int, [_handle, s.AccelerometerBatchCallback, c_void_p]),
    "ocm_batched_sensor_manager_start_device_motion": (c_int, [_handle, s.DeviceMotionBatchCallback, c_void_p]),
    "ocm_batched_sensor_manager_stop": (c_int, [_handle, c_int]),
    "ocm_batched_sensor_manager_drops": (c_int, [_handle, c_int, POINTER(s.BatchDrops)]),
    # Water submersion
    "ocm_water_submersion_open": (c_int, [c_char_p, c_double, c_double, _out_handle]),
    "ocm_water_submersion_close": (None, [_handle]),
    "ocm_water_submersion_is_available": (c_int, [_handle]),
    "ocm_water_submersion_maximum_depth": (c_double, [_handle]),
    "ocm_water_submersion_start_updates": (c_int, [_handle, s.WaterSubmersionCallback, c_void_p]),
    "ocm_water_submersion_stop_updates": (c_int, [_handle]),
    "ocm_water_submersion_copy_latest": (c_int, [_handle, POINTER(s.WaterSubmersionUpdate)]),
    "ocm_water_submersion_error_message": (c_char_p, [_handle]),
    # Sensor recorder
    "ocm_sensor_recorder_open": (c_int, [c_char_p, _out_handle]),
    "ocm_sensor_recorder_close": (None, [_handle]),
    "ocm_sensor_recorder_is_available": (c_int, [_handle]),
    "ocm_sensor_recorder_authorization_status": (c_int, [_handle]),
    "ocm_sensor_recorder_record_accelerometer": (c_int, [_handle, c_double, POINTER(c_int64)]),
    "ocm_sensor_recorder_copy_accelerometer_data": (
        c_int,
        [_handle, c_int64, c_int64, POINTER(POINTER(s.RecordedAccelerometerData)), POINTER(c_size_t)],
    ),
    "ocm_sensor_recorder_free_data": (None, [POINTER(s.RecordedAccelerometerData)]),
}


def _load() -> ctypes.CDLL:
    override = os.environ.get(LIBRARY_VARIABLE)
    target = override or SONAME
    try:
        library = ctypes.CDLL(target)
    except OSError as error:
        if override:
            raise LibraryNotFoundError(
                f"Could not load the OpenCoreMotion C library from ${LIBRARY_VARIABLE}={override}: {error}. "
                f"Point {LIBRARY_VARIABLE} at a built libopencoremotion.so, or unset it to use the installed one."
            ) from None
        raise LibraryNotFoundError(
            f"Could not load {SONAME}, the OpenCoreMotion C library this package calls: {error}. "
            "Install it from the source checkout with `sudo tools/install-c-library.sh /usr/local` "
            f"(it runs ldconfig), or set {LIBRARY_VARIABLE} to the library file."
        ) from None
    for name, (restype, argtypes) in _PROTOTYPES.items():
        try:
            function = getattr(library, name)
        except AttributeError:
            raise LibraryNotFoundError(
                f"{target} has no function {name}: it is older than this Python package. "
                "Install the C library from the same checkout (tools/install-c-library.sh)."
            ) from None
        function.restype = restype
        function.argtypes = argtypes
    version = library.ocm_version_string().decode()
    if version.split(".")[0] != _SUPPORTED_MAJOR:
        raise LibraryNotFoundError(
            f"{target} is OpenCoreMotion {version}; this package needs major version {_SUPPORTED_MAJOR}. "
            "Install the C library from the same checkout as this package."
        )
    return library


def library() -> ctypes.CDLL:
    """The loaded C library, loading it on first use (raises :class:`LibraryNotFoundError`)."""
    global _library
    with _lock:
        if _library is None:
            _library = _load()
        return _library


def board_argument(board: str | os.PathLike[str] | None) -> bytes | None:
    """A board path as the C library takes it (``None``: the system's board)."""
    return None if board is None else os.fsencode(board)


def last_error_message() -> str:
    """The C library's message of the last failure on this thread ("" if none)."""
    raw = library().ocm_last_error_message()
    return raw.decode(errors="replace") if raw else ""


def check(status: int) -> int:
    """Returns a non-failing ``status``; raises the matching exception with the library's message."""
    if status < 0:
        raise error_for(status, last_error_message())
    return status


def handle_message(raw: bytes | None) -> str | None:
    """A message owned by a handle (``ocm_*_error_message``), decoded."""
    return raw.decode(errors="replace") if raw else None
