"""A beginner's layer in the style of the Sense HAT library: plain functions returning numbers.

    from opencoremotion import easy
    print(easy.get_orientation())   # {'roll': 1.2, 'pitch': -0.4, 'yaw': 87.0}, degrees
    print(easy.get_compass())       # degrees clockwise from magnetic north
    print(easy.get_steps())         # steps since the first call

The functions use the system's board (motiond's, else the configured or probed one) unless
:func:`use_board` names another. Sensors start on first use and keep running until
:func:`close` (or the end of the program); each call returns the latest value at once.
Angles are degrees in Core Motion's ranges: roll and yaw in [−180, 180], pitch in [−90, 90].
"""

from __future__ import annotations

import math
import os
import threading
import time
from datetime import datetime, timezone

from .errors import NotAvailableError
from .motion import MotionManager, Stream
from .pedometer import Pedometer
from .types import ReferenceFrame

#: How long the first reading of a sensor may take before a TimeoutError, seconds.
FIRST_READING_TIMEOUT_S = 3.0


class EasyMotion:
    """One board's sensors behind Sense HAT-style methods (see the module's documentation)."""

    def __init__(self, board: str | os.PathLike[str] | None = None) -> None:
        self.board = board
        self._manager = MotionManager(board)
        self._pedometer: Pedometer | None = None
        self._steps_since: datetime | None = None
        self._lock = threading.Lock()

    def _reading(self, stream: Stream, reference_frame: ReferenceFrame = ReferenceFrame.X_ARBITRARY_Z_VERTICAL) -> object:
        with self._lock:
            if not self._manager.is_active(stream):
                self._manager.start(stream, None, reference_frame)
        deadline = time.monotonic() + FIRST_READING_TIMEOUT_S
        while (value := self._manager.latest(stream)) is None:
            if time.monotonic() > deadline:
                raise TimeoutError(
                    f"No {stream.name.lower()} reading from {self._manager._description} within "
                    f"{FIRST_READING_TIMEOUT_S} s: check the board file and the wiring "
                    "(`motionctl stream --board FILE --status` shows what each chip does)."
                )
            time.sleep(0.01)
        return value

    def _frame(self) -> ReferenceFrame:
        if self._manager.available_reference_frames & ReferenceFrame.X_MAGNETIC_NORTH_Z_VERTICAL:
            return ReferenceFrame.X_MAGNETIC_NORTH_Z_VERTICAL
        return ReferenceFrame.X_ARBITRARY_Z_VERTICAL

    def get_orientation_radians(self) -> dict[str, float]:
        """``{'roll', 'pitch', 'yaw'}`` in radians; yaw from magnetic north when the board has
        a magnetometer, else from where the device pointed at the start."""
        motion = self._reading(Stream.DEVICE_MOTION, self._frame())
        attitude = motion.attitude  # type: ignore[attr-defined]
        return {"roll": attitude.roll, "pitch": attitude.pitch, "yaw": attitude.yaw}

    def get_orientation(self) -> dict[str, float]:
        """``{'roll', 'pitch', 'yaw'}`` in degrees (see :meth:`get_orientation_radians`)."""
        return {name: math.degrees(angle) for name, angle in self.get_orientation_radians().items()}

    get_orientation_degrees = get_orientation

    def get_compass(self) -> float:
        """Degrees clockwise from magnetic north of the device's top (+y), [0, 360).

        Raises:
            NotAvailableError: the board has no magnetometer (the message names its chips).
        """
        if not self._manager.available_reference_frames & ReferenceFrame.X_MAGNETIC_NORTH_Z_VERTICAL:
            raise NotAvailableError(
                f"{self._manager._description} has no magnetometer, so there is no compass: "
                "use a board with one (such as boards/sim-mpu-9250.board)."
            )
        motion = self._reading(Stream.DEVICE_MOTION, ReferenceFrame.X_MAGNETIC_NORTH_Z_VERTICAL)
        return float(motion.heading_deg)  # type: ignore[attr-defined]

    def get_accelerometer_raw(self) -> dict[str, float]:
        """``{'x', 'y', 'z'}`` in g, Core Motion's sign (face up at rest: z = −1)."""
        return dict(self._reading(Stream.ACCELEROMETER).acceleration_g._asdict())  # type: ignore[attr-defined]

    def get_gyroscope_raw(self) -> dict[str, float]:
        """``{'x', 'y', 'z'}`` in rad/s, as measured."""
        return dict(self._reading(Stream.GYROSCOPE).rotation_rate_rad_s._asdict())  # type: ignore[attr-defined]

    def get_compass_raw(self) -> dict[str, float]:
        """``{'x', 'y', 'z'}`` in µT, as measured."""
        return dict(self._reading(Stream.MAGNETOMETER).magnetic_field_ut._asdict())  # type: ignore[attr-defined]

    def get_steps(self) -> int:
        """Steps counted since the first call (which starts the pedometer's live updates: a
        query would need motiond's history, which an in-process board does not keep)."""
        with self._lock:
            if self._pedometer is None:
                self._pedometer = Pedometer(self.board)
                self._steps_since = datetime.now(timezone.utc)
                self._pedometer.start_updates(self._steps_since)
        latest = self._pedometer.latest
        return latest.number_of_steps if latest is not None else 0

    def close(self) -> None:
        """Stops every sensor this object started."""
        self._manager.close()
        if self._pedometer is not None:
            self._pedometer.close()

    def __enter__(self) -> EasyMotion:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_default: EasyMotion | None = None
_default_lock = threading.Lock()


def use_board(board: str | os.PathLike[str] | None) -> None:
    """Makes the functions below use ``board`` (a board file; ``None``: the system's board)."""
    global _default
    with _default_lock:
        if _default is not None:
            _default.close()
        _default = EasyMotion(board)


def _motion() -> EasyMotion:
    global _default
    with _default_lock:
        if _default is None:
            _default = EasyMotion(None)
        return _default


def get_orientation() -> dict[str, float]:
    """``{'roll', 'pitch', 'yaw'}`` in degrees (see :meth:`EasyMotion.get_orientation`)."""
    return _motion().get_orientation()


def get_orientation_radians() -> dict[str, float]:
    """``{'roll', 'pitch', 'yaw'}`` in radians."""
    return _motion().get_orientation_radians()


def get_compass() -> float:
    """Degrees clockwise from magnetic north, [0, 360)."""
    return _motion().get_compass()


def get_accelerometer_raw() -> dict[str, float]:
    """``{'x', 'y', 'z'}`` in g."""
    return _motion().get_accelerometer_raw()


def get_gyroscope_raw() -> dict[str, float]:
    """``{'x', 'y', 'z'}`` in rad/s."""
    return _motion().get_gyroscope_raw()


def get_compass_raw() -> dict[str, float]:
    """``{'x', 'y', 'z'}`` in µT."""
    return _motion().get_compass_raw()


def get_steps() -> int:
    """Steps counted since the first call."""
    return _motion().get_steps()


def close() -> None:
    """Stops the sensors the functions started."""
    global _default
    with _default_lock:
        if _default is not None:
            _default.close()
            _default = None
