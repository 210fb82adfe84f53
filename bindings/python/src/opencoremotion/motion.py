"""``MotionManager``: Core Motion's CMMotionManager over ``ocm_motion_manager_*``.

Four streams: the accelerometer, gyroscope and magnetometer as measured, and device motion (the
fused attitude). Each can be started with a handler (``handler(data, error)``, run on the
library's engine thread: keep it short), polled (start without a handler, read the latest with
``device_motion`` & co.), or iterated (``for motion in manager.device_motion_updates(): ...``,
also ``async for``).
"""

from __future__ import annotations

import ctypes
import enum
import os
from typing import Any, Callable

from . import _library
from . import _structs as s
from ._native import NativeObject, describe_board, in_callback
from .errors import error_for
from .types import AccelerometerData, DeviceMotion, GyroData, MagnetometerData, ReferenceFrame
from .updates import Handler, Updates

_NO_DATA = 2


class Stream(enum.IntEnum):
    """``ocm_stream``: a motion manager's update streams."""

    ACCELEROMETER = 0
    GYROSCOPE = 1
    MAGNETOMETER = 2
    DEVICE_MOTION = 3


_CONVERTERS: dict[Stream, Callable[[s.MotionData], Any]] = {
    Stream.ACCELEROMETER: lambda data: AccelerometerData._from_c(data.accelerometer),
    Stream.GYROSCOPE: lambda data: GyroData._from_c(data.gyro),
    Stream.MAGNETOMETER: lambda data: MagnetometerData._from_c(data.magnetometer),
    Stream.DEVICE_MOTION: lambda data: DeviceMotion._from_c(data.device_motion),
}

_DEFAULT_INTERVAL_S = 0.01


class MotionManager(NativeObject):
    """A board opened for motion updates (Core Motion's CMMotionManager).

    ``board`` is a board file (absolute, relative to the current directory or to the source
    checkout, e.g. ``"boards/sim-mpu-9250.board"``), or ``None`` for the system's board:
    motiond's when it runs, else the configured or probed one (boards/README.md). Opening reads the board file only; the
    chips come up when the first stream starts. Use it as a context manager (``with``): leaving
    the block stops every stream.
    """

    _open_function = "ocm_motion_manager_open"
    _close_function = "ocm_motion_manager_close"
    _kind = "motion manager"

    def __init__(self, board: str | os.PathLike[str] | None = None) -> None:
        super().__init__(_library.board_argument(board), description=describe_board(board))
        self.board = board
        self._intervals = {stream: _DEFAULT_INTERVAL_S for stream in Stream}

    # -- what the board has -------------------------------------------------------------------

    def is_available(self, stream: Stream) -> bool:
        """Whether the board has what ``stream`` needs."""
        return bool(self._lib.ocm_motion_manager_is_available(self._handle, stream))

    @property
    def is_accelerometer_available(self) -> bool:
        """Core Motion's isAccelerometerAvailable."""
        return self.is_available(Stream.ACCELEROMETER)

    @property
    def is_gyro_available(self) -> bool:
        """Core Motion's isGyroAvailable."""
        return self.is_available(Stream.GYROSCOPE)

    @property
    def is_magnetometer_available(self) -> bool:
        """Core Motion's isMagnetometerAvailable."""
        return self.is_available(Stream.MAGNETOMETER)

    @property
    def is_device_motion_available(self) -> bool:
        """Core Motion's isDeviceMotionAvailable (an accelerometer and a gyroscope)."""
        return self.is_available(Stream.DEVICE_MOTION)

    @property
    def available_reference_frames(self) -> ReferenceFrame:
        """The frames device motion can use here (all four with a magnetometer)."""
        return ReferenceFrame(self._lib.ocm_motion_manager_available_reference_frames(self._handle))

    @property
    def uses_daemon(self) -> bool:
        """Whether motiond serves this manager (else the engine runs in this process)."""
        return bool(self._lib.ocm_motion_manager_uses_daemon(self._handle))

    def is_active(self, stream: Stream) -> bool:
        """Whether ``stream`` is started."""
        return bool(self._lib.ocm_motion_manager_is_active(self._handle, stream))

    # -- update intervals (seconds; below 0.01 is raised to 0.01 by the library) ---------------

    def update_interval(self, stream: Stream) -> float:
        """The interval set for ``stream``, seconds (default 0.01)."""
        return self._intervals[Stream(stream)]

    def set_update_interval(self, stream: Stream, seconds: float) -> None:
        """Sets the time between two updates of ``stream``; a started stream changes at once."""
        _library.check(self._lib.ocm_motion_manager_set_update_interval(self._handle, stream, seconds))
        self._intervals[Stream(stream)] = max(seconds, _DEFAULT_INTERVAL_S)

    accelerometer_update_interval = property(
        lambda self: self.update_interval(Stream.ACCELEROMETER),
        lambda self, seconds: self.set_update_interval(Stream.ACCELEROMETER, seconds),
        doc="Core Motion's accelerometerUpdateInterval, seconds.",
    )
    gyro_update_interval = property(
        lambda self: self.update_interval(Stream.GYROSCOPE),
        lambda self, seconds: self.set_update_interval(Stream.GYROSCOPE, seconds),
        doc="Core Motion's gyroUpdateInterval, seconds.",
    )
    magnetometer_update_interval = property(
        lambda self: self.update_interval(Stream.MAGNETOMETER),
        lambda self, seconds: self.set_update_interval(Stream.MAGNETOMETER, seconds),
        doc="Core Motion's magnetometerUpdateInterval, seconds.",
    )
    device_motion_update_interval = property(
        lambda self: self.update_interval(Stream.DEVICE_MOTION),
        lambda self, seconds: self.set_update_interval(Stream.DEVICE_MOTION, seconds),
        doc="Core Motion's deviceMotionUpdateInterval, seconds.",
    )

    # -- starting, stopping, polling ----------------------------------------------------------

    def start(
        self,
        stream: Stream,
        handler: Handler[Any] | None = None,
        reference_frame: ReferenceFrame = ReferenceFrame.X_ARBITRARY_Z_VERTICAL,
    ) -> None:
        """Starts ``stream`` (restarting it if started). Returns once the engine runs it.

        Args:
            handler: ``handler(data, error)`` on the engine thread for each update (``error``
                once, if the board fails); ``None`` to poll with :meth:`latest`.
            reference_frame: device motion's frame (one of :attr:`available_reference_frames`).
        Raises:
            NotAvailableError: the board lacks the sensor or the frame's magnetometer.
            DeviceError: the chips could not be brought up.
        """
        stream = Stream(stream)
        function = None
        if handler is not None:
            convert = _CONVERTERS[stream]

            def on_update(data: Any, status: int, _user: object) -> None:
                if status == 0 and data:
                    handler(convert(data.contents), None)
                elif status < 0:
                    handler(None, error_for(status, _library.last_error_message()))

            function = s.MotionCallback(in_callback(on_update))
        self._keep_callback(stream, function)
        pointer = function if function is not None else s.MotionCallback()  # NULL: poll instead
        _library.check(self._lib.ocm_motion_manager_start(self._handle, stream, int(reference_frame), pointer, None))

    def stop(self, stream: Stream) -> None:
        """Stops ``stream``: once this returns, its handler is not running and not called again."""
        _library.check(self._lib.ocm_motion_manager_stop(self._handle, stream))
        self._release_callbacks(Stream(stream))

    def latest(self, stream: Stream) -> Any:
        """The latest update of ``stream`` (it stays after a stop), or ``None`` before the first."""
        out = s.MotionData()
        status = _library.check(self._lib.ocm_motion_manager_copy_latest(self._handle, stream, ctypes.byref(out)))
        if status == _NO_DATA:
            return None
        return _CONVERTERS[Stream(stream)](out)

    def updates(
        self,
        stream: Stream,
        reference_frame: ReferenceFrame = ReferenceFrame.X_ARBITRARY_Z_VERTICAL,
        *,
        timeout: float | None = 5.0,
        max_pending: int = 1024,
    ) -> Updates[Any]:
        """``stream``'s updates to iterate (``for`` or ``async for``); started at the first
        ``next``, stopped when the returned object is closed (``with``)."""
        stream = Stream(stream)
        return Updates(
            lambda handler: self.start(stream, handler, reference_frame),
            self._stopper(lambda: self.stop(stream)),
            timeout=timeout,
            max_pending=max_pending,
            description=f"{stream.name.lower().replace('_', ' ')} updates from {self._description}",
        )

    def lost_samples(self, stream: Stream) -> tuple[int, int]:
        """(dropped, duplicated) samples of ``stream``'s sensors since the board first started."""
        dropped, duplicated = ctypes.c_uint64(), ctypes.c_uint64()
        _library.check(
            self._lib.ocm_motion_manager_lost_samples(self._handle, stream, ctypes.byref(dropped), ctypes.byref(duplicated))
        )
        return dropped.value, duplicated.value

    @property
    def error_message(self) -> str | None:
        """The message of the failure that stopped the board, if any."""
        return _library.handle_message(self._lib.ocm_motion_manager_error_message(self._handle))

    # -- Core Motion's per-stream names -------------------------------------------------------

    def start_accelerometer_updates(self, handler: Handler[AccelerometerData] | None = None) -> None:
        """Core Motion's startAccelerometerUpdates (see :meth:`start`)."""
        self.start(Stream.ACCELEROMETER, handler)

    def stop_accelerometer_updates(self) -> None:
        """Core Motion's stopAccelerometerUpdates."""
        self.stop(Stream.ACCELEROMETER)

    @property
    def accelerometer_data(self) -> AccelerometerData | None:
        """Core Motion's accelerometerData: the latest sample, or ``None``."""
        return self.latest(Stream.ACCELEROMETER)  # type: ignore[no-any-return]

    def accelerometer_updates(self, *, timeout: float | None = 5.0) -> Updates[AccelerometerData]:
        """Accelerometer samples to iterate (see :meth:`updates`)."""
        return self.updates(Stream.ACCELEROMETER, timeout=timeout)

    def start_gyro_updates(self, handler: Handler[GyroData] | None = None) -> None:
        """Core Motion's startGyroUpdates (see :meth:`start`)."""
        self.start(Stream.GYROSCOPE, handler)

    def stop_gyro_updates(self) -> None:
        """Core Motion's stopGyroUpdates."""
        self.stop(Stream.GYROSCOPE)

    @property
    def gyro_data(self) -> GyroData | None:
        """Core Motion's gyroData: the latest sample, or ``None``."""
        return self.latest(Stream.GYROSCOPE)  # type: ignore[no-any-return]

    def gyro_updates(self, *, timeout: float | None = 5.0) -> Updates[GyroData]:
        """Gyroscope samples to iterate (see :meth:`updates`)."""
        return self.updates(Stream.GYROSCOPE, timeout=timeout)

    def start_magnetometer_updates(self, handler: Handler[MagnetometerData] | None = None) -> None:
        """Core Motion's startMagnetometerUpdates (see :meth:`start`)."""
        self.start(Stream.MAGNETOMETER, handler)

    def stop_magnetometer_updates(self) -> None:
        """Core Motion's stopMagnetometerUpdates."""
        self.stop(Stream.MAGNETOMETER)

    @property
    def magnetometer_data(self) -> MagnetometerData | None:
        """Core Motion's magnetometerData: the latest sample, or ``None``."""
        return self.latest(Stream.MAGNETOMETER)  # type: ignore[no-any-return]

    def magnetometer_updates(self, *, timeout: float | None = 5.0) -> Updates[MagnetometerData]:
        """Magnetometer samples to iterate (see :meth:`updates`)."""
        return self.updates(Stream.MAGNETOMETER, timeout=timeout)

    def start_device_motion_updates(
        self,
        handler: Handler[DeviceMotion] | None = None,
        reference_frame: ReferenceFrame = ReferenceFrame.X_ARBITRARY_Z_VERTICAL,
    ) -> None:
        """Core Motion's startDeviceMotionUpdates(using:) (see :meth:`start`)."""
        self.start(Stream.DEVICE_MOTION, handler, reference_frame)

    def stop_device_motion_updates(self) -> None:
        """Core Motion's stopDeviceMotionUpdates."""
        self.stop(Stream.DEVICE_MOTION)

    @property
    def device_motion(self) -> DeviceMotion | None:
        """Core Motion's deviceMotion: the latest update, or ``None``."""
        return self.latest(Stream.DEVICE_MOTION)  # type: ignore[no-any-return]

    def device_motion_updates(
        self,
        reference_frame: ReferenceFrame = ReferenceFrame.X_ARBITRARY_Z_VERTICAL,
        *,
        timeout: float | None = 5.0,
    ) -> Updates[DeviceMotion]:
        """Device motion to iterate in ``reference_frame`` (see :meth:`updates`)."""
        return self.updates(Stream.DEVICE_MOTION, reference_frame, timeout=timeout)


