"""OpenCoreMotion for Python: Apple's Core Motion for Linux boards.

A thin binding of the C library ``libopencoremotion.so.0`` (through ctypes, no second
implementation): :class:`MotionManager`, :class:`Pedometer`, :class:`ActivityManager`,
:class:`Altimeter`, :class:`BatchedSensorManager`, :class:`SensorRecorder` and
:class:`WaterSubmersionManager`, with Core
Motion's semantics and Python's idioms (handlers, iterators, ``async for``, context managers,
exceptions). :mod:`opencoremotion.easy` is a Sense HAT-style layer for beginners.

The C library is found as ``$OPENCOREMOTION_LIBRARY`` (a file) or the installed
``libopencoremotion.so.0``; it is loaded at the first manager opened.
"""

from __future__ import annotations

from . import _library
from .activity import ActivityManager
from .altimeter import Altimeter, AltitudeKind
from .batched import AccelerometerBatch, BatchDrops, BatchedSensorManager, BatchedStream, DeviceMotionBatch
from .errors import (
    DeviceError,
    FileAccessError,
    InvalidArgumentError,
    InvalidHandleError,
    LibraryNotFoundError,
    MalformedBoardError,
    MalformedRecordingError,
    NotAuthorizedError,
    NotAvailableError,
    OpenCoreMotionError,
)
from .motion import MotionManager, Stream
from .pedometer import Pedometer, PedometerFeature
from .recorder import AuthorizationStatus, SensorRecorder
from .recording import Recording, Sample, Sensor
from .types import (
    AccelerometerData,
    ActivityConfidence,
    AltitudeData,
    Attitude,
    DeviceMotion,
    EulerAngles,
    GyroData,
    MagneticFieldCalibrationAccuracy,
    MagnetometerData,
    MotionActivity,
    PedometerData,
    PedometerEvent,
    PedometerEventType,
    Quaternion,
    RecordedAccelerometerData,
    ReferenceFrame,
    Vector3,
)
from .updates import Updates
from .water import FRESH_WATER_DENSITY, SALT_WATER_DENSITY, DepthState, WaterSubmersionManager, WaterSubmersionUpdate, WaterSubmersionUpdateKind

__version__ = "0.1.0"


def library_version() -> str:
    """The loaded C library's version, "MAJOR.MINOR.PATCH" (loads it)."""
    return str(_library.library().ocm_version_string().decode())


__all__ = [
    "AccelerometerBatch",
    "AccelerometerData",
    "ActivityConfidence",
    "ActivityManager",
    "Altimeter",
    "AltitudeData",
    "AltitudeKind",
    "Attitude",
    "AuthorizationStatus",
    "BatchDrops",
    "BatchedSensorManager",
    "BatchedStream",
    "DeviceError",
    "DeviceMotion",
    "DeviceMotionBatch",
    "EulerAngles",
    "FileAccessError",
    "GyroData",
    "InvalidArgumentError",
    "InvalidHandleError",
    "LibraryNotFoundError",
    "MagneticFieldCalibrationAccuracy",
    "MagnetometerData",
    "MalformedBoardError",
    "MalformedRecordingError",
    "MotionActivity",
    "MotionManager",
    "NotAuthorizedError",
    "NotAvailableError",
    "OpenCoreMotionError",
    "Pedometer",
    "PedometerData",
    "PedometerEvent",
    "PedometerEventType",
    "PedometerFeature",
    "Quaternion",
    "RecordedAccelerometerData",
    "Recording",
    "ReferenceFrame",
    "Sample",
    "Sensor",
    "SensorRecorder",
    "Stream",
    "Updates",
    "Vector3",
    "DepthState",
    "FRESH_WATER_DENSITY",
    "SALT_WATER_DENSITY",
    "WaterSubmersionManager",
    "WaterSubmersionUpdate",
    "WaterSubmersionUpdateKind",
    "library_version",
]
