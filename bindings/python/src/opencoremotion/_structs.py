"""ctypes mirrors of the structs in ``opencoremotion.h``, field for field.

Enums are C ``int`` (``c_int``). Units follow the header: the suffix of each field's name
(``_ns`` nanoseconds, ``_g`` standard gravity, ``_rad_s`` rad/s, ``_ut`` µT, ``_m`` metres,
``_kpa`` kPa). ``tests/test_layout.py`` checks every offset and size here against the header,
compiled by the C compiler.
"""

from __future__ import annotations

import ctypes

c_status = ctypes.c_int
c_enum = ctypes.c_int


class Sample(ctypes.Structure):
    """``ocm_sample``: one recording sample in device axes."""

    _fields_ = [
        ("timestamp_ns", ctypes.c_int64),
        ("sensor", c_enum),
        ("x", ctypes.c_double),
        ("y", ctypes.c_double),
        ("z", ctypes.c_double),
    ]


class Vector3(ctypes.Structure):
    """``ocm_vector3``."""

    _fields_ = [("x", ctypes.c_double), ("y", ctypes.c_double), ("z", ctypes.c_double)]


class Quaternion(ctypes.Structure):
    """``ocm_quaternion``: w + xi + yj + zk."""

    _fields_ = [("w", ctypes.c_double), ("x", ctypes.c_double), ("y", ctypes.c_double), ("z", ctypes.c_double)]


class AccelerometerData(ctypes.Structure):
    """``ocm_accelerometer_data``."""

    _fields_ = [("timestamp_ns", ctypes.c_int64), ("acceleration_g", Vector3)]


class GyroData(ctypes.Structure):
    """``ocm_gyro_data``."""

    _fields_ = [("timestamp_ns", ctypes.c_int64), ("rotation_rate_rad_s", Vector3)]


class MagnetometerData(ctypes.Structure):
    """``ocm_magnetometer_data``."""

    _fields_ = [("timestamp_ns", ctypes.c_int64), ("magnetic_field_ut", Vector3)]


class DeviceMotionData(ctypes.Structure):
    """``ocm_device_motion_data``: Core Motion's CMDeviceMotion."""

    _fields_ = [
        ("timestamp_ns", ctypes.c_int64),
        ("reference_frame", c_enum),
        ("attitude", Quaternion),
        ("rotation_matrix", (ctypes.c_double * 3) * 3),
        ("roll_rad", ctypes.c_double),
        ("pitch_rad", ctypes.c_double),
        ("yaw_rad", ctypes.c_double),
        ("gravity_g", Vector3),
        ("user_acceleration_g", Vector3),
        ("rotation_rate_rad_s", Vector3),
        ("magnetic_field_ut", Vector3),
        ("magnetic_accuracy", c_enum),
        ("heading_deg", ctypes.c_double),
    ]


class _MotionUnion(ctypes.Union):
    _fields_ = [
        ("accelerometer", AccelerometerData),
        ("gyro", GyroData),
        ("magnetometer", MagnetometerData),
        ("device_motion", DeviceMotionData),
    ]


class MotionData(ctypes.Structure):
    """``ocm_motion_data``: ``stream`` says which member of the (anonymous) union is set."""

    _anonymous_ = ("data",)
    _fields_ = [("stream", c_enum), ("data", _MotionUnion)]


class PedometerData(ctypes.Structure):
    """``ocm_pedometer_data``: Core Motion's CMPedometerData (NaN where Core Motion gives nil)."""

    _fields_ = [
        ("start_unix_ns", ctypes.c_int64),
        ("end_unix_ns", ctypes.c_int64),
        ("number_of_steps", ctypes.c_int64),
        ("distance_m", ctypes.c_double),
        ("has_floors", ctypes.c_int32),
        ("floors_ascended", ctypes.c_int32),
        ("floors_descended", ctypes.c_int32),
        ("current_pace_s_per_m", ctypes.c_double),
        ("current_cadence_steps_per_s", ctypes.c_double),
        ("average_active_pace_s_per_m", ctypes.c_double),
    ]


class PedometerEvent(ctypes.Structure):
    """``ocm_pedometer_event``."""

    _fields_ = [("date_unix_ns", ctypes.c_int64), ("type", c_enum)]


class MotionActivity(ctypes.Structure):
    """``ocm_motion_activity``: Core Motion's CMMotionActivity."""

    _fields_ = [
        ("start_unix_ns", ctypes.c_int64),
        ("timestamp_ns", ctypes.c_int64),
        ("confidence", c_enum),
        ("stationary", ctypes.c_int32),
        ("walking", ctypes.c_int32),
        ("running", ctypes.c_int32),
        ("automotive", ctypes.c_int32),
        ("cycling", ctypes.c_int32),
        ("unknown", ctypes.c_int32),
    ]


class AltitudeData(ctypes.Structure):
    """``ocm_altitude_data``: CMAltitudeData and CMAbsoluteAltitudeData in one."""

    _fields_ = [
        ("timestamp_ns", ctypes.c_int64),
        ("relative_altitude_m", ctypes.c_double),
        ("pressure_kpa", ctypes.c_double),
        ("altitude_m", ctypes.c_double),
        ("accuracy_m", ctypes.c_double),
        ("precision_m", ctypes.c_double),
    ]


class BatchDrops(ctypes.Structure):
    """``ocm_batch_drops``."""

    _fields_ = [
        ("delivered_samples", ctypes.c_uint64),
        ("queue_full_samples", ctypes.c_uint64),
        ("fifo_samples", ctypes.c_uint64),
        ("fifo_overflows", ctypes.c_uint64),
    ]


class WaterSubmersionUpdate(ctypes.Structure):
    """``ocm_water_submersion_update``: the fields of ``kind`` are set, the others 0 or NaN."""

    _fields_ = [
        ("kind", c_enum),
        ("submerged", ctypes.c_int32),
        ("date_unix_ns", ctypes.c_int64),
        ("depth_m", ctypes.c_double),
        ("pressure_pa", ctypes.c_double),
        ("surface_pressure_pa", ctypes.c_double),
        ("state", c_enum),
        ("temperature_c", ctypes.c_double),
        ("temperature_uncertainty_c", ctypes.c_double),
    ]


class RecordedAccelerometerData(ctypes.Structure):
    """``ocm_recorded_accelerometer_data``."""

    _fields_ = [
        ("start_unix_ns", ctypes.c_int64),
        ("x", ctypes.c_double),
        ("y", ctypes.c_double),
        ("z", ctypes.c_double),
        ("identifier", ctypes.c_uint64),
    ]


# Callback types (the header's typedefs). ctypes takes the GIL when the library calls them
# from its engine or batch threads.
MotionCallback = ctypes.CFUNCTYPE(None, ctypes.POINTER(MotionData), c_status, ctypes.c_void_p)
PedometerCallback = ctypes.CFUNCTYPE(None, ctypes.POINTER(PedometerData), c_status, ctypes.c_void_p)
PedometerEventCallback = ctypes.CFUNCTYPE(None, ctypes.POINTER(PedometerEvent), c_status, ctypes.c_void_p)
ActivityCallback = ctypes.CFUNCTYPE(None, ctypes.POINTER(MotionActivity), c_status, ctypes.c_void_p)
AltitudeCallback = ctypes.CFUNCTYPE(None, ctypes.POINTER(AltitudeData), c_status, ctypes.c_void_p)
AccelerometerBatchCallback = ctypes.CFUNCTYPE(
    None, ctypes.POINTER(AccelerometerData), ctypes.c_size_t, c_status, ctypes.c_void_p
)
WaterSubmersionCallback = ctypes.CFUNCTYPE(None, ctypes.POINTER(WaterSubmersionUpdate), c_status, ctypes.c_void_p)
DeviceMotionBatchCallback = ctypes.CFUNCTYPE(
    None, ctypes.POINTER(DeviceMotionData), ctypes.c_size_t, c_status, ctypes.c_void_p
)

#: Every struct mirrored here, by its C name (for the layout test).
STRUCTS: dict[str, type[ctypes.Structure]] = {
    "ocm_sample": Sample,
    "ocm_vector3": Vector3,
    "ocm_quaternion": Quaternion,
    "ocm_accelerometer_data": AccelerometerData,
    "ocm_gyro_data": GyroData,
    "ocm_magnetometer_data": MagnetometerData,
    "ocm_device_motion_data": DeviceMotionData,
    "ocm_motion_data": MotionData,
    "ocm_pedometer_data": PedometerData,
    "ocm_pedometer_event": PedometerEvent,
    "ocm_motion_activity": MotionActivity,
    "ocm_altitude_data": AltitudeData,
    "ocm_batch_drops": BatchDrops,
    "ocm_recorded_accelerometer_data": RecordedAccelerometerData,
    "ocm_water_submersion_update": WaterSubmersionUpdate,
}
