"""``Pedometer``: Core Motion's CMPedometer over ``ocm_pedometer_*``.

Steps, distance, pace and cadence from the accelerometer, floors from the barometer, and
pause/resume events. Every pedometer of one board in a process shares the board's count, kept
from the first pedometer opened until the last is closed; queries answer at once from it.
Handlers run on the library's engine thread: keep them short.
"""

from __future__ import annotations

import ctypes
import enum
import os
from datetime import datetime

from . import _library
from . import _structs as s
from ._native import NativeObject, describe_board, in_callback
from ._time import unix_ns
from .errors import error_for
from .types import PedometerData, PedometerEvent
from .updates import Handler, Updates

_NO_DATA = 2
_UPDATES = "updates"
_EVENTS = "events"


class PedometerFeature(enum.IntEnum):
    """``ocm_pedometer_feature``: what a pedometer can give."""

    STEP_COUNTING = 0
    DISTANCE = 1
    FLOOR_COUNTING = 2
    PACE = 3
    CADENCE = 4
    EVENT_TRACKING = 5


class Pedometer(NativeObject):
    """A board's pedometer (Core Motion's CMPedometer); opening it starts the board's counting.

    ``board``: a board file (``"boards/sim-walker.board"`` simulates someone walking) or
    ``None`` for the system's board (motiond's, else ``OPENCOREMOTION_BOARD``,
    ``/etc/opencoremotion/board`` or what a probe of the I2C buses finds). Queries need motiond.
    """

    _open_function = "ocm_pedometer_open"
    _close_function = "ocm_pedometer_close"
    _kind = "pedometer"

    def __init__(self, board: str | os.PathLike[str] | None = None) -> None:
        super().__init__(_library.board_argument(board), description=describe_board(board))
        self.board = board

    def is_available(self, feature: PedometerFeature) -> bool:
        """Whether the board gives ``feature``."""
        return bool(self._lib.ocm_pedometer_is_available(self._handle, feature))

    @property
    def is_step_counting_available(self) -> bool:
        """Core Motion's isStepCountingAvailable (an accelerometer)."""
        return self.is_available(PedometerFeature.STEP_COUNTING)

    @property
    def is_distance_available(self) -> bool:
        """Core Motion's isDistanceAvailable."""
        return self.is_available(PedometerFeature.DISTANCE)

    @property
    def is_floor_counting_available(self) -> bool:
        """Core Motion's isFloorCountingAvailable (a barometer)."""
        return self.is_available(PedometerFeature.FLOOR_COUNTING)

    @property
    def is_pace_available(self) -> bool:
        """Core Motion's isPaceAvailable."""
        return self.is_available(PedometerFeature.PACE)

    @property
    def is_cadence_available(self) -> bool:
        """Core Motion's isCadenceAvailable."""
        return self.is_available(PedometerFeature.CADENCE)

    @property
    def is_pedometer_event_tracking_available(self) -> bool:
        """Core Motion's isPedometerEventTrackingAvailable."""
        return self.is_available(PedometerFeature.EVENT_TRACKING)

    @property
    def uses_daemon(self) -> bool:
        """Whether motiond serves this pedometer (queries then reach 7 days back)."""
        return bool(self._lib.ocm_pedometer_uses_daemon(self._handle))

    def query(self, start: datetime, end: datetime | None = None) -> PedometerData:
        """Core Motion's queryPedometerData(from:to:): what was counted from ``start``
        (included) to ``end`` (excluded; ``None``: now). Pace and cadence are ``None``."""
        out = s.PedometerData()
        _library.check(self._lib.ocm_pedometer_query(self._handle, unix_ns(start), unix_ns(end), ctypes.byref(out)))
        return PedometerData._from_c(out)

    def query_unix_ns(self, start_unix_ns: int, end_unix_ns: int) -> PedometerData:
        """:meth:`query` with nanoseconds since 1970, exactly as the C library takes them."""
        out = s.PedometerData()
        _library.check(self._lib.ocm_pedometer_query(self._handle, start_unix_ns, end_unix_ns, ctypes.byref(out)))
        return PedometerData._from_c(out)

    def start_updates(self, from_date: datetime | None = None, handler: Handler[PedometerData] | None = None) -> None:
        """Core Motion's startUpdates(from:): updates cumulative from ``from_date`` (``None``:
        now; in the past includes what was counted since), one at once, then about every 2.5 s
        while the user walks. ``handler(data, error)`` runs on the engine thread; ``None`` to
        poll :attr:`latest`."""
        function = None
        if handler is not None:

            def on_update(data: ctypes._Pointer[s.PedometerData], status: int, _user: object) -> None:
                if status == 0 and data:
                    handler(PedometerData._from_c(data.contents), None)
                elif status < 0:
                    handler(None, error_for(status, _library.last_error_message()))

            function = s.PedometerCallback(in_callback(on_update))
        self._keep_callback(_UPDATES, function)
        pointer = function if function is not None else s.PedometerCallback()  # NULL: poll instead
        _library.check(self._lib.ocm_pedometer_start_updates(self._handle, unix_ns(from_date), pointer, None))

    def stop_updates(self) -> None:
        """Core Motion's stopUpdates: once it returns, the handler is not called again."""
        _library.check(self._lib.ocm_pedometer_stop_updates(self._handle))
        self._release_callbacks(_UPDATES)

    @property
    def latest(self) -> PedometerData | None:
        """The latest live update since updates started, or ``None``."""
        out = s.PedometerData()
        if _library.check(self._lib.ocm_pedometer_copy_latest(self._handle, ctypes.byref(out))) == _NO_DATA:
            return None
        return PedometerData._from_c(out)

    def updates(self, from_date: datetime | None = None, *, timeout: float | None = None) -> Updates[PedometerData]:
        """Live updates to iterate (``for`` / ``async for``); see :class:`~opencoremotion.updates.Updates`."""
        return Updates(
            lambda handler: self.start_updates(from_date, handler),
            self._stopper(self.stop_updates),
            timeout=timeout,
            description=f"pedometer updates from {self._description}",
        )

    def start_event_updates(self, handler: Handler[PedometerEvent]) -> None:
        """Core Motion's startEventUpdates: pause and resume events, each within about a second."""

        def on_event(event: ctypes._Pointer[s.PedometerEvent], status: int, _user: object) -> None:
            if status == 0 and event:
                handler(PedometerEvent._from_c(event.contents), None)
            elif status < 0:
                handler(None, error_for(status, _library.last_error_message()))

        function = s.PedometerEventCallback(in_callback(on_event))
        self._keep_callback(_EVENTS, function)
        _library.check(self._lib.ocm_pedometer_start_event_updates(self._handle, function, None))

    def stop_event_updates(self) -> None:
        """Core Motion's stopEventUpdates."""
        _library.check(self._lib.ocm_pedometer_stop_event_updates(self._handle))
        self._release_callbacks(_EVENTS)

    def events(self, *, timeout: float | None = None) -> Updates[PedometerEvent]:
        """Pause and resume events to iterate (``for`` / ``async for``)."""
        return Updates(
            self.start_event_updates,
            self._stopper(self.stop_event_updates),
            timeout=timeout,
            description=f"pedometer events from {self._description}",
        )

    @property
    def error_message(self) -> str | None:
        """The message of the failure that stopped the board or kept it from coming up."""
        return _library.handle_message(self._lib.ocm_pedometer_error_message(self._handle))
