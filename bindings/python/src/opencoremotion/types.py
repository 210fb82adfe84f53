"""Core Motion's values as immutable Python objects, converted from the C structs.

Times: ``timestamp_ns`` is CLOCK_MONOTONIC in nanoseconds (Core Motion's ``timestamp``; also as
``timestamp`` in seconds); dates are wall-clock ``datetime`` objects in UTC (Core Motion's
``NSDate``), with the raw ``..._unix_ns`` beside them. Axes are the device's (x right, y up the
screen, z out of the screen). Accelerations are in g with Core Motion's sign (lying face up at
rest reads (0, 0, −1)).
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import NamedTuple

from . import _structs as s


def datetime_from_unix_ns(unix_ns: int) -> datetime:
    """A UTC ``datetime`` from nanoseconds since 1970 (microsecond resolution)."""
    return datetime.fromtimestamp(unix_ns / 1e9, tz=timezone.utc)


def unix_ns_from_datetime(date: datetime) -> int:
    """Nanoseconds since 1970 of ``date`` (a naive ``datetime`` is taken as local time)."""
    return round(date.timestamp() * 1e9)


def _optional(value: float) -> float | None:
    return None if math.isnan(value) else value


class ReferenceFrame(enum.IntFlag):
    """Core Motion's CMAttitudeReferenceFrame: where an attitude's x axis points (z is up)."""

    X_ARBITRARY_Z_VERTICAL = 1
    X_ARBITRARY_CORRECTED_Z_VERTICAL = 2
    X_MAGNETIC_NORTH_Z_VERTICAL = 4
    X_TRUE_NORTH_Z_VERTICAL = 8


class MagneticFieldCalibrationAccuracy(enum.IntEnum):
    """Core Motion's CMMagneticFieldCalibrationAccuracy."""

    UNCALIBRATED = -1
    LOW = 0
    MEDIUM = 1
    HIGH = 2


class ActivityConfidence(enum.IntEnum):
    """Core Motion's CMMotionActivityConfidence."""

    LOW = 0
    MEDIUM = 1
    HIGH = 2


class PedometerEventType(enum.IntEnum):
    """Core Motion's CMPedometerEventType."""

    PAUSE = 0
    RESUME = 1


class Vector3(NamedTuple):
    """A vector in device axes; its unit is in the name of the field holding it."""

    x: float
    y: float
    z: float

    @classmethod
    def _from_c(cls, vector: s.Vector3) -> Vector3:
        return cls(vector.x, vector.y, vector.z)


class Quaternion(NamedTuple):
    """A unit quaternion w + xi + yj + zk."""

    w: float
    x: float
    y: float
    z: float


class EulerAngles(NamedTuple):
    """Core Motion's Euler angles in radians: R = Rz(yaw) · Rx(pitch) · Ry(roll)."""

    roll: float
    pitch: float
    yaw: float


RotationMatrix = tuple[tuple[float, float, float], tuple[float, float, float], tuple[float, float, float]]


@dataclass(frozen=True, slots=True)
class Attitude:
    """Core Motion's CMAttitude: rotates device-axes vectors into ``reference_frame``.

    The same rotation three ways, all computed by the C library: ``quaternion``,
    ``rotation_matrix`` (row-major, ``rotation_matrix[row][column]``) and the Euler angles
    ``roll`` (about the device's y, [−π, π]), ``pitch`` (about x, [−π/2, π/2]) and ``yaw``
    (about the vertical, [−π, π]), in radians.
    """

    quaternion: Quaternion
    rotation_matrix: RotationMatrix
    roll: float
    pitch: float
    yaw: float
    reference_frame: ReferenceFrame

    @property
    def euler_angles(self) -> EulerAngles:
        """(roll, pitch, yaw) in radians."""
        return EulerAngles(self.roll, self.pitch, self.yaw)

    @property
    def euler_angles_degrees(self) -> EulerAngles:
        """(roll, pitch, yaw) in degrees."""
        return EulerAngles(math.degrees(self.roll), math.degrees(self.pitch), math.degrees(self.yaw))


@dataclass(frozen=True, slots=True)
class AccelerometerData:
    """Core Motion's CMAccelerometerData: ``acceleration_g`` in g, Core Motion's sign."""

    timestamp_ns: int
    acceleration_g: Vector3

    @property
    def timestamp(self) -> float:
        """CLOCK_MONOTONIC, seconds."""
        return self.timestamp_ns / 1e9

    @classmethod
    def _from_c(cls, data: s.AccelerometerData) -> AccelerometerData:
        return cls(data.timestamp_ns, Vector3._from_c(data.acceleration_g))


@dataclass(frozen=True, slots=True)
class GyroData:
    """Core Motion's CMGyroData: ``rotation_rate_rad_s`` as measured (bias included)."""

    timestamp_ns: int
    rotation_rate_rad_s: Vector3

    @property
    def timestamp(self) -> float:
        """CLOCK_MONOTONIC, seconds."""
        return self.timestamp_ns / 1e9

    @classmethod
    def _from_c(cls, data: s.GyroData) -> GyroData:
        return cls(data.timestamp_ns, Vector3._from_c(data.rotation_rate_rad_s))


@dataclass(frozen=True, slots=True)
class MagnetometerData:
    """Core Motion's CMMagnetometerData: ``magnetic_field_ut`` in µT as measured."""

    timestamp_ns: int
    magnetic_field_ut: Vector3

    @property
    def timestamp(self) -> float:
        """CLOCK_MONOTONIC, seconds."""
        return self.timestamp_ns / 1e9

    @classmethod
    def _from_c(cls, data: s.MagnetometerData) -> MagnetometerData:
        return cls(data.timestamp_ns, Vector3._from_c(data.magnetic_field_ut))


@dataclass(frozen=True, slots=True)
class DeviceMotion:
    """Core Motion's CMDeviceMotion.

    ``gravity_g`` and ``user_acceleration_g`` in g (Core Motion's sign), ``rotation_rate_rad_s``
    with the gyroscope's bias removed, the calibrated ``magnetic_field_ut`` with its
    ``magnetic_accuracy``, and ``heading_deg``: degrees clockwise from north of the device's
    top, [0, 360), in the two north frames; −1 in the others.
    """

    timestamp_ns: int
    attitude: Attitude
    gravity_g: Vector3
    user_acceleration_g: Vector3
    rotation_rate_rad_s: Vector3
    magnetic_field_ut: Vector3
    magnetic_accuracy: MagneticFieldCalibrationAccuracy
    heading_deg: float

    @property
    def timestamp(self) -> float:
        """CLOCK_MONOTONIC, seconds."""
        return self.timestamp_ns / 1e9

    @classmethod
    def _from_c(cls, data: s.DeviceMotionData) -> DeviceMotion:
        q = data.attitude
        m = data.rotation_matrix
        matrix: RotationMatrix = (
            (m[0][0], m[0][1], m[0][2]),
            (m[1][0], m[1][1], m[1][2]),
            (m[2][0], m[2][1], m[2][2]),
        )
        attitude = Attitude(
            Quaternion(q.w, q.x, q.y, q.z),
            matrix,
            data.roll_rad,
            data.pitch_rad,
            data.yaw_rad,
            ReferenceFrame(data.reference_frame),
        )
        return cls(
            data.timestamp_ns,
            attitude,
            Vector3._from_c(data.gravity_g),
            Vector3._from_c(data.user_acceleration_g),
            Vector3._from_c(data.rotation_rate_rad_s),
            Vector3._from_c(data.magnetic_field_ut),
            MagneticFieldCalibrationAccuracy(data.magnetic_accuracy),
            data.heading_deg,
        )


@dataclass(frozen=True, slots=True)
class PedometerData:
    """Core Motion's CMPedometerData: what was counted from ``start`` to ``end``.

    ``None`` where Core Motion gives nil: floors without a barometer, pace and cadence in
    queries and while the user is not walking.
    """

    start_unix_ns: int
    end_unix_ns: int
    number_of_steps: int
    distance_m: float | None
    floors_ascended: int | None
    floors_descended: int | None
    current_pace_s_per_m: float | None
    current_cadence_steps_per_s: float | None
    average_active_pace_s_per_m: float | None

    @property
    def start(self) -> datetime:
        """The start date, UTC."""
        return datetime_from_unix_ns(self.start_unix_ns)

    @property
    def end(self) -> datetime:
        """The end date, UTC."""
        return datetime_from_unix_ns(self.end_unix_ns)

    @classmethod
    def _from_c(cls, data: s.PedometerData) -> PedometerData:
        floors = bool(data.has_floors)
        return cls(
            data.start_unix_ns,
            data.end_unix_ns,
            data.number_of_steps,
            _optional(data.distance_m),
            data.floors_ascended if floors else None,
            data.floors_descended if floors else None,
            _optional(data.current_pace_s_per_m),
            _optional(data.current_cadence_steps_per_s),
            _optional(data.average_active_pace_s_per_m),
        )


@dataclass(frozen=True, slots=True)
class PedometerEvent:
    """Core Motion's CMPedometerEvent: when the user stopped (their last step) or started."""

    date_unix_ns: int
    type: PedometerEventType

    @property
    def date(self) -> datetime:
        """The event's date, UTC."""
        return datetime_from_unix_ns(self.date_unix_ns)

    @classmethod
    def _from_c(cls, event: s.PedometerEvent) -> PedometerEvent:
        return cls(event.date_unix_ns, PedometerEventType(event.type))


@dataclass(frozen=True, slots=True)
class MotionActivity:
    """Core Motion's CMMotionActivity: any combination of the flags may be set."""

    start_unix_ns: int
    timestamp_ns: int
    confidence: ActivityConfidence
    stationary: bool
    walking: bool
    running: bool
    automotive: bool
    cycling: bool
    unknown: bool

    @property
    def start_date(self) -> datetime:
        """When the activity started, UTC."""
        return datetime_from_unix_ns(self.start_unix_ns)

    @property
    def names(self) -> tuple[str, ...]:
        """The flags set, e.g. ``("walking",)`` or ``("stationary", "automotive")``."""
        flags = ("stationary", "walking", "running", "automotive", "cycling", "unknown")
        return tuple(name for name in flags if getattr(self, name))

    @classmethod
    def _from_c(cls, activity: s.MotionActivity) -> MotionActivity:
        return cls(
            activity.start_unix_ns,
            activity.timestamp_ns,
            ActivityConfidence(activity.confidence),
            bool(activity.stationary),
            bool(activity.walking),
            bool(activity.running),
            bool(activity.automotive),
            bool(activity.cycling),
            bool(activity.unknown),
        )


@dataclass(frozen=True, slots=True)
class AltitudeData:
    """Core Motion's CMAltitudeData and CMAbsoluteAltitudeData in one.

    ``relative_altitude_m`` since updates started (up positive) with the low-passed
    ``pressure_kpa``; ``altitude_m`` above sea level with ``accuracy_m`` and ``precision_m``
    (one standard deviation each).
    """

    timestamp_ns: int
    relative_altitude_m: float
    pressure_kpa: float
    altitude_m: float
    accuracy_m: float
    precision_m: float

    @property
    def timestamp(self) -> float:
        """CLOCK_MONOTONIC, seconds."""
        return self.timestamp_ns / 1e9

    @classmethod
    def _from_c(cls, data: s.AltitudeData) -> AltitudeData:
        return cls(
            data.timestamp_ns,
            data.relative_altitude_m,
            data.pressure_kpa,
            data.altitude_m,
            data.accuracy_m,
            data.precision_m,
        )


@dataclass(frozen=True, slots=True)
class RecordedAccelerometerData:
    """Core Motion's CMRecordedAccelerometerData: g, Core Motion's sign; ``identifier`` is the
    continuity run (samples with different identifiers have a gap between them)."""

    start_unix_ns: int
    acceleration_g: Vector3
    identifier: int

    @property
    def start_date(self) -> datetime:
        """When it was measured, UTC."""
        return datetime_from_unix_ns(self.start_unix_ns)

    @classmethod
    def _from_c(cls, data: s.RecordedAccelerometerData) -> RecordedAccelerometerData:
        return cls(data.start_unix_ns, Vector3(data.x, data.y, data.z), data.identifier)
