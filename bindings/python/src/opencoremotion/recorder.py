"""``SensorRecorder``: Core Motion's CMSensorRecorder over ``ocm_sensor_recorder_*``.

motiond records the accelerometer at 50 Hz into its 3-day history; a recorder asks it to keep
recording (up to 12 h a call) and reads samples back by time range. Without motiond nothing is
available and requests raise :class:`~opencoremotion.errors.NotAvailableError` saying how to
start it.
"""

from __future__ import annotations

import ctypes
import enum
import os
from datetime import datetime

from . import _library
from . import _structs as s
from ._native import NativeObject
from ._time import unix_ns
from .types import RecordedAccelerometerData, datetime_from_unix_ns


class AuthorizationStatus(enum.IntEnum):
    """Core Motion's CMAuthorizationStatus, as motiond grants it."""

    NOT_DETERMINED = 0
    RESTRICTED = 1
    DENIED = 2
    AUTHORIZED = 3


class SensorRecorder(NativeObject):
    """A connection to motiond for recorded accelerometer data.

    ``socket_path``: motiond's socket (``None``: ``$OPENCOREMOTION_SOCKET``, else
    ``/run/opencoremotion/motiond.sock``). Opens without a daemon too.
    """

    _open_function = "ocm_sensor_recorder_open"
    _close_function = "ocm_sensor_recorder_close"
    _kind = "sensor recorder"

    def __init__(self, socket_path: str | os.PathLike[str] | None = None) -> None:
        description = "motiond's socket" if socket_path is None else os.fspath(socket_path)
        super().__init__(None if socket_path is None else os.fsencode(socket_path), description=description)

    @property
    def is_accelerometer_recording_available(self) -> bool:
        """Core Motion's isAccelerometerRecordingAvailable: motiond runs with an accelerometer."""
        return bool(self._lib.ocm_sensor_recorder_is_available(self._handle))

    @property
    def authorization_status(self) -> AuthorizationStatus:
        """What motiond grants this user."""
        return AuthorizationStatus(self._lib.ocm_sensor_recorder_authorization_status(self._handle))

    def record_accelerometer(self, duration_seconds: float) -> datetime:
        """Core Motion's recordAccelerometer(forDuration:): records from now for up to 12 h
        (call again to extend); returns when recording ends."""
        until = ctypes.c_int64()
        _library.check(
            self._lib.ocm_sensor_recorder_record_accelerometer(self._handle, duration_seconds, ctypes.byref(until))
        )
        return datetime_from_unix_ns(until.value)

    def accelerometer_data(self, start: datetime, end: datetime | None = None) -> list[RecordedAccelerometerData]:
        """Core Motion's accelerometerData(from:to:): the samples from ``start`` to ``end``
        (``None``: now), oldest first."""
        pointer = ctypes.POINTER(s.RecordedAccelerometerData)()
        count = ctypes.c_size_t()
        _library.check(
            self._lib.ocm_sensor_recorder_copy_accelerometer_data(
                self._handle, unix_ns(start), unix_ns(end), ctypes.byref(pointer), ctypes.byref(count)
            )
        )
        try:
            return [RecordedAccelerometerData._from_c(pointer[index]) for index in range(count.value)]
        finally:
            self._lib.ocm_sensor_recorder_free_data(pointer)
