"""``ActivityManager``: Core Motion's CMMotionActivityManager over ``ocm_activity_manager_*``.

What the user is doing (stationary, walking, running, automotive, cycling) with a confidence.
Every activity manager of one board in a process shares the board's classifier, running from
the first opened until the last is closed. Handlers run on the engine thread: keep them short.
"""

from __future__ import annotations

import ctypes
import os
from datetime import datetime

from . import _library
from . import _structs as s
from ._native import NativeObject, describe_board, in_callback
from ._time import unix_ns
from .errors import error_for
from .types import MotionActivity
from .updates import Handler, Updates

_NO_DATA = 2
_UPDATES = "updates"


class ActivityManager(NativeObject):
    """A board opened for motion activity; opening it starts the board's classifying.

    ``board``: a board file (``"boards/sim-walker.board"`` stands and walks) or ``None`` for
    the system's board.
    """

    _open_function = "ocm_activity_manager_open"
    _close_function = "ocm_activity_manager_close"
    _kind = "activity manager"

    def __init__(self, board: str | os.PathLike[str] | None = None) -> None:
        super().__init__(_library.board_argument(board), description=describe_board(board))
        self.board = board

    @property
    def is_activity_available(self) -> bool:
        """Core Motion's isActivityAvailable (an accelerometer)."""
        return bool(self._lib.ocm_activity_manager_is_available(self._handle))

    @property
    def uses_daemon(self) -> bool:
        """Whether motiond serves this manager (queries then reach 7 days back)."""
        return bool(self._lib.ocm_activity_manager_uses_daemon(self._handle))

    def start_updates(self, handler: Handler[MotionActivity] | None = None) -> None:
        """Core Motion's startActivityUpdates: the activity now, then one per transition.
        ``handler(activity, error)`` runs on the engine thread; ``None`` to poll :attr:`latest`."""
        function = None
        if handler is not None:

            def on_update(activity: ctypes._Pointer[s.MotionActivity], status: int, _user: object) -> None:
                if status == 0 and activity:
                    handler(MotionActivity._from_c(activity.contents), None)
                elif status < 0:
                    handler(None, error_for(status, _library.last_error_message()))

            function = s.ActivityCallback(in_callback(on_update))
        self._keep_callback(_UPDATES, function)
        pointer = function if function is not None else s.ActivityCallback()  # NULL: poll instead
        _library.check(self._lib.ocm_activity_manager_start_updates(self._handle, pointer, None))

    def stop_updates(self) -> None:
        """Core Motion's stopActivityUpdates: once it returns, the handler is not called again."""
        _library.check(self._lib.ocm_activity_manager_stop_updates(self._handle))
        self._release_callbacks(_UPDATES)

    @property
    def latest(self) -> MotionActivity | None:
        """The activity now (the latest update since updates started), or ``None``."""
        out = s.MotionActivity()
        if _library.check(self._lib.ocm_activity_manager_copy_latest(self._handle, ctypes.byref(out))) == _NO_DATA:
            return None
        return MotionActivity._from_c(out)

    def updates(self, *, timeout: float | None = None) -> Updates[MotionActivity]:
        """Activity transitions to iterate (``for`` / ``async for``)."""
        return Updates(
            self.start_updates,
            self._stopper(self.stop_updates),
            timeout=timeout,
            description=f"activity updates from {self._description}",
        )

    def query(self, start: datetime, end: datetime | None = None) -> list[MotionActivity]:
        """Core Motion's queryActivityStarting(from:to:): the activities from ``start`` to
        ``end`` (``None``: now), oldest first, smoothed as a history reads."""
        return self.query_unix_ns(unix_ns(start), unix_ns(end))

    def query_unix_ns(self, start_unix_ns: int, end_unix_ns: int) -> list[MotionActivity]:
        """:meth:`query` with nanoseconds since 1970, exactly as the C library takes them."""
        capacity = 64
        while True:
            array = (s.MotionActivity * capacity)()
            count = ctypes.c_size_t()
            _library.check(
                self._lib.ocm_activity_manager_query(
                    self._handle, start_unix_ns, end_unix_ns, array, capacity, ctypes.byref(count)
                )
            )
            if count.value <= capacity:
                return [MotionActivity._from_c(array[index]) for index in range(count.value)]
            capacity = count.value

    @property
    def error_message(self) -> str | None:
        """The message of the failure that stopped the board or kept it from coming up."""
        return _library.handle_message(self._lib.ocm_activity_manager_error_message(self._handle))
