"""``BatchedSensorManager``: Core Motion's CMBatchedSensorManager over
``ocm_batched_sensor_manager_*``.

The accelerometer at the IMU FIFO's full rate (1000 Hz on the MPU-6050 family, 1600 Hz on the
BMI160) and device motion at 200 Hz, as one second of samples about once a second. A batch's
columns are NumPy arrays when NumPy is importable (``as_numpy=None``, the default), else lists;
``as_numpy=False`` always gives lists. Handlers run on a thread of their own per stream.
"""

from __future__ import annotations

import ctypes
import enum
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Callable

from . import _library
from . import _structs as s
from ._native import NativeObject, describe_board, in_callback
from .errors import error_for
from .types import (
    AccelerometerData,
    Attitude,
    DeviceMotion,
    MagneticFieldCalibrationAccuracy,
    Quaternion,
    ReferenceFrame,
    Vector3,
)
from .updates import Handler, Updates

try:
    import numpy
except ImportError:  # NumPy is optional: batches are lists without it
    numpy = None  # type: ignore[assignment]


class BatchedStream(enum.IntEnum):
    """``ocm_batched_stream``."""

    ACCELEROMETER = 0
    DEVICE_MOTION = 1


@dataclass(frozen=True, slots=True)
class BatchDrops:
    """What a batched stream delivered and lost since it was last started."""

    delivered_samples: int
    queue_full_samples: int
    fifo_samples: int
    fifo_overflows: int


def _use_numpy(as_numpy: bool | None) -> bool:
    if as_numpy and numpy is None:
        raise ImportError("as_numpy=True needs NumPy: `sudo apt-get install python3-numpy` or `pip install numpy`")
    return numpy is not None if as_numpy is None else as_numpy


def _columns(pointer: Any, count: int, structure: type[ctypes.Structure]) -> Any:
    """The ``count`` structs at ``pointer`` copied into a (count, size/8) float64 array: every
    field of these structs starts on an 8-byte boundary (checked by the layout test)."""
    size = ctypes.sizeof(structure)
    raw = ctypes.string_at(pointer, size * count)
    return numpy.frombuffer(raw, dtype=numpy.float64).reshape(count, size // 8), raw


def _column(structure: type[ctypes.Structure], field: str) -> int:
    return int(getattr(structure, field).offset) // 8


def _int_columns(raw: bytes, count: int, structure: type[ctypes.Structure], field: str, dtype: Any) -> Any:
    words = numpy.frombuffer(raw, dtype=dtype).reshape(count, -1)
    return words[:, getattr(structure, field).offset // numpy.dtype(dtype).itemsize].copy()


@dataclass(frozen=True, slots=True)
class AccelerometerBatch:
    """One batch of accelerometer samples in time order.

    ``timestamps_ns``: CLOCK_MONOTONIC ns, shape (n,); ``acceleration_g``: g, Core Motion's
    sign, shape (n, 3): NumPy arrays, or a list of ints and a list of :class:`Vector3`.
    """

    timestamps_ns: Any
    acceleration_g: Any

    def __len__(self) -> int:
        return len(self.timestamps_ns)

    def __iter__(self) -> Iterator[AccelerometerData]:
        for timestamp, vector in zip(self.timestamps_ns, self.acceleration_g):
            yield AccelerometerData(int(timestamp), Vector3(float(vector[0]), float(vector[1]), float(vector[2])))

    @classmethod
    def _from_c(cls, pointer: Any, count: int, as_numpy: bool) -> AccelerometerBatch:
        if as_numpy:
            floats, raw = _columns(pointer, count, s.AccelerometerData)
            first = _column(s.AccelerometerData, "acceleration_g")
            timestamps = _int_columns(raw, count, s.AccelerometerData, "timestamp_ns", numpy.int64)
            return cls(timestamps, floats[:, first : first + 3].copy())
        samples = [AccelerometerData._from_c(pointer[index]) for index in range(count)]
        return cls([sample.timestamp_ns for sample in samples], [sample.acceleration_g for sample in samples])


@dataclass(frozen=True, slots=True)
class DeviceMotionBatch:
    """One batch of device motion at 200 Hz (frame ``X_ARBITRARY_Z_VERTICAL``), in time order.

    Columns (NumPy arrays, or lists of tuples): ``timestamps_ns`` (n,), ``quaternions`` (n, 4)
    as (w, x, y, z), ``rotation_matrices`` (n, 3, 3), ``euler_angles`` (n, 3) as (roll, pitch,
    yaw) in radians, ``gravity_g``, ``user_acceleration_g``, ``rotation_rate_rad_s``,
    ``magnetic_field_ut`` (n, 3), ``heading_deg`` (n,). Iterating gives :class:`DeviceMotion`.
    """

    timestamps_ns: Any
    quaternions: Any
    rotation_matrices: Any
    euler_angles: Any
    gravity_g: Any
    user_acceleration_g: Any
    rotation_rate_rad_s: Any
    magnetic_field_ut: Any
    heading_deg: Any
    magnetic_accuracy: Any

    def __len__(self) -> int:
        return len(self.timestamps_ns)

    def __iter__(self) -> Iterator[DeviceMotion]:
        def vector(row: Sequence[float]) -> Vector3:
            return Vector3(float(row[0]), float(row[1]), float(row[2]))

        for index in range(len(self)):
            matrix = self.rotation_matrices[index]
            roll, pitch, yaw = (float(angle) for angle in self.euler_angles[index])
            attitude = Attitude(
                Quaternion(*(float(part) for part in self.quaternions[index])),
                tuple(tuple(float(value) for value in row) for row in matrix),  # type: ignore[arg-type]
                roll,
                pitch,
                yaw,
                ReferenceFrame.X_ARBITRARY_Z_VERTICAL,
            )
            yield DeviceMotion(
                int(self.timestamps_ns[index]),
                attitude,
                vector(self.gravity_g[index]),
                vector(self.user_acceleration_g[index]),
                vector(self.rotation_rate_rad_s[index]),
                vector(self.magnetic_field_ut[index]),
                MagneticFieldCalibrationAccuracy(int(self.magnetic_accuracy[index])),
                float(self.heading_deg[index]),
            )

    @classmethod
    def _from_c(cls, pointer: Any, count: int, as_numpy: bool) -> DeviceMotionBatch:
        structure = s.DeviceMotionData
        if as_numpy:
            floats, raw = _columns(pointer, count, structure)

            def block(field: str, width: int) -> Any:
                first = _column(structure, field)
                return floats[:, first : first + width].copy()

            return cls(
                _int_columns(raw, count, structure, "timestamp_ns", numpy.int64),
                block("attitude", 4),
                block("rotation_matrix", 9).reshape(count, 3, 3),
                numpy.column_stack([block("roll_rad", 1), block("pitch_rad", 1), block("yaw_rad", 1)]),
                block("gravity_g", 3),
                block("user_acceleration_g", 3),
                block("rotation_rate_rad_s", 3),
                block("magnetic_field_ut", 3),
                block("heading_deg", 1).reshape(count),
                _int_columns(raw, count, structure, "magnetic_accuracy", numpy.int32),
            )
        motions = [DeviceMotion._from_c(pointer[index]) for index in range(count)]
        return cls(
            [motion.timestamp_ns for motion in motions],
            [motion.attitude.quaternion for motion in motions],
            [motion.attitude.rotation_matrix for motion in motions],
            [motion.attitude.euler_angles for motion in motions],
            [motion.gravity_g for motion in motions],
            [motion.user_acceleration_g for motion in motions],
            [motion.rotation_rate_rad_s for motion in motions],
            [motion.magnetic_field_ut for motion in motions],
            [motion.heading_deg for motion in motions],
            [int(motion.magnetic_accuracy) for motion in motions],
        )


class BatchedSensorManager(NativeObject):
    """A board opened for batched sensors (Core Motion's CMBatchedSensorManager).

    ``board``: a board file whose IMU has a FIFO (``"boards/sim-gy-521.board"``) or ``None``
    for the system's board (motiond's, else the configured or probed one).
    """

    _open_function = "ocm_batched_sensor_manager_open"
    _close_function = "ocm_batched_sensor_manager_close"
    _kind = "batched sensor manager"

    def __init__(self, board: str | os.PathLike[str] | None = None) -> None:
        super().__init__(_library.board_argument(board), description=describe_board(board))
        self.board = board

    @property
    def is_accelerometer_supported(self) -> bool:
        """Core Motion's isAccelerometerSupported (an IMU read through a FIFO)."""
        return bool(self._lib.ocm_batched_sensor_manager_is_supported(self._handle))

    @property
    def is_device_motion_supported(self) -> bool:
        """Core Motion's isDeviceMotionSupported."""
        return self.is_accelerometer_supported

    @property
    def uses_daemon(self) -> bool:
        """Whether motiond serves this manager."""
        return bool(self._lib.ocm_batched_sensor_manager_uses_daemon(self._handle))

    @property
    def accelerometer_data_frequency(self) -> int:
        """Samples per second (and per batch) of the accelerometer; 0 when not supported."""
        return int(self._lib.ocm_batched_sensor_manager_frequency(self._handle, BatchedStream.ACCELEROMETER))

    @property
    def device_motion_data_frequency(self) -> int:
        """Samples per second (and per batch) of device motion: 200; 0 when not supported."""
        return int(self._lib.ocm_batched_sensor_manager_frequency(self._handle, BatchedStream.DEVICE_MOTION))

    def is_active(self, stream: BatchedStream) -> bool:
        """Whether ``stream`` is started."""
        return bool(self._lib.ocm_batched_sensor_manager_is_active(self._handle, stream))

    def _start(self, stream: BatchedStream, handler: Handler[Any], as_numpy: bool | None) -> None:
        numpy_wanted = _use_numpy(as_numpy)
        batch_type: Callable[[Any, int, bool], Any]
        if stream == BatchedStream.ACCELEROMETER:
            batch_type, callback_type = AccelerometerBatch._from_c, s.AccelerometerBatchCallback
            start = self._lib.ocm_batched_sensor_manager_start_accelerometer
        else:
            batch_type, callback_type = DeviceMotionBatch._from_c, s.DeviceMotionBatchCallback
            start = self._lib.ocm_batched_sensor_manager_start_device_motion

        def on_batch(samples: Any, count: int, status: int, _user: object) -> None:
            if status == 0 and samples:
                handler(batch_type(samples, count, numpy_wanted), None)
            elif status < 0:
                handler(None, error_for(status, _library.last_error_message()))

        function = callback_type(in_callback(on_batch))
        self._keep_callback(stream, function)
        _library.check(start(self._handle, function, None))

    def start_accelerometer_updates(self, handler: Handler[AccelerometerBatch], *, as_numpy: bool | None = None) -> None:
        """Core Motion's startAccelerometerUpdates: ``handler(batch, error)`` about once a
        second on the stream's own thread. Raises NotAvailableError without a FIFO IMU."""
        self._start(BatchedStream.ACCELEROMETER, handler, as_numpy)

    def start_device_motion_updates(self, handler: Handler[DeviceMotionBatch], *, as_numpy: bool | None = None) -> None:
        """Core Motion's startDeviceMotionUpdates: 200 Hz device motion in batches."""
        self._start(BatchedStream.DEVICE_MOTION, handler, as_numpy)

    def stop(self, stream: BatchedStream) -> None:
        """Stops ``stream``: once it returns, its handler is not called again."""
        _library.check(self._lib.ocm_batched_sensor_manager_stop(self._handle, stream))
        self._release_callbacks(BatchedStream(stream))

    def stop_accelerometer_updates(self) -> None:
        """Core Motion's stopAccelerometerUpdates."""
        self.stop(BatchedStream.ACCELEROMETER)

    def stop_device_motion_updates(self) -> None:
        """Core Motion's stopDeviceMotionUpdates."""
        self.stop(BatchedStream.DEVICE_MOTION)

    def accelerometer_batches(
        self, *, as_numpy: bool | None = None, timeout: float | None = 10.0
    ) -> Updates[AccelerometerBatch]:
        """Accelerometer batches to iterate (``for`` / ``async for``); at most 16 wait."""
        return Updates(
            lambda handler: self._start(BatchedStream.ACCELEROMETER, handler, as_numpy),
            self._stopper(self.stop_accelerometer_updates),
            timeout=timeout,
            max_pending=16,
            description=f"accelerometer batches from {self._description}",
        )

    def device_motion_batches(
        self, *, as_numpy: bool | None = None, timeout: float | None = 10.0
    ) -> Updates[DeviceMotionBatch]:
        """Device-motion batches to iterate (``for`` / ``async for``); at most 16 wait."""
        return Updates(
            lambda handler: self._start(BatchedStream.DEVICE_MOTION, handler, as_numpy),
            self._stopper(self.stop_device_motion_updates),
            timeout=timeout,
            max_pending=16,
            description=f"device motion batches from {self._description}",
        )

    def drops(self, stream: BatchedStream) -> BatchDrops:
        """What ``stream`` delivered and lost since it was last started."""
        out = s.BatchDrops()
        _library.check(self._lib.ocm_batched_sensor_manager_drops(self._handle, stream, ctypes.byref(out)))
        return BatchDrops(out.delivered_samples, out.queue_full_samples, out.fifo_samples, out.fifo_overflows)
