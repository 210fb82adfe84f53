"""``Altimeter``: Core Motion's CMAltimeter over ``ocm_altimeter_*``.

Relative altitude since updates started (and the low-passed pressure) and absolute altitude by
the standard atmosphere, about once a second, the first a second after the start. Handlers run
on the engine thread: keep them short.
"""

from __future__ import annotations

import ctypes
import enum
import os

from . import _library
from . import _structs as s
from ._native import NativeObject, describe_board, in_callback
from .errors import error_for
from .types import AltitudeData
from .updates import Handler, Updates

_NO_DATA = 2


class AltitudeKind(enum.IntEnum):
    """``ocm_altitude_kind``: Core Motion's two kinds of altitude update."""

    RELATIVE = 0
    ABSOLUTE = 1


class Altimeter(NativeObject):
    """A board's altimeter (Core Motion's CMAltimeter); the board comes up at the first start.

    ``board``: a board file with a barometer (``"boards/sim-gy-521-bmp280.board"``) or ``None``
    for the system's board.
    """

    _open_function = "ocm_altimeter_open"
    _close_function = "ocm_altimeter_close"
    _kind = "altimeter"

    def __init__(self, board: str | os.PathLike[str] | None = None) -> None:
        super().__init__(_library.board_argument(board), description=describe_board(board))
        self.board = board

    @property
    def is_relative_altitude_available(self) -> bool:
        """Core Motion's isRelativeAltitudeAvailable (a barometer)."""
        return bool(self._lib.ocm_altimeter_is_available(self._handle))

    @property
    def is_absolute_altitude_available(self) -> bool:
        """Core Motion's isAbsoluteAltitudeAvailable (a barometer)."""
        return self.is_relative_altitude_available

    @property
    def uses_daemon(self) -> bool:
        """Whether motiond serves this altimeter."""
        return bool(self._lib.ocm_altimeter_uses_daemon(self._handle))

    def set_sea_level_pressure(self, kpa: float, uncertainty_kpa: float = 0.1) -> None:
        """Absolute altitude against a sea-level pressure (a QNH: 1013.2 hPa is 101.32 kPa)
        known to ``uncertainty_kpa`` (one standard deviation), from the next start."""
        _library.check(self._lib.ocm_altimeter_set_sea_level_pressure(self._handle, kpa, uncertainty_kpa))

    def start(self, kind: AltitudeKind, handler: Handler[AltitudeData] | None = None) -> None:
        """Starts ``kind`` updates (replacing running ones: relative altitude counts from 0
        again). ``handler(data, error)`` runs on the engine thread; ``None`` to poll :meth:`latest`."""
        kind = AltitudeKind(kind)
        function = None
        if handler is not None:

            def on_update(data: ctypes._Pointer[s.AltitudeData], status: int, _user: object) -> None:
                if status == 0 and data:
                    handler(AltitudeData._from_c(data.contents), None)
                elif status < 0:
                    handler(None, error_for(status, _library.last_error_message()))

            function = s.AltitudeCallback(in_callback(on_update))
        self._keep_callback(kind, function)
        pointer = function if function is not None else s.AltitudeCallback()  # NULL: poll instead
        _library.check(self._lib.ocm_altimeter_start_updates(self._handle, kind, pointer, None))

    def stop(self, kind: AltitudeKind) -> None:
        """Stops ``kind`` updates: once it returns, the handler is not called again."""
        _library.check(self._lib.ocm_altimeter_stop_updates(self._handle, kind))
        self._release_callbacks(AltitudeKind(kind))

    def latest(self, kind: AltitudeKind) -> AltitudeData | None:
        """The latest ``kind`` update since those updates started, or ``None``."""
        out = s.AltitudeData()
        if _library.check(self._lib.ocm_altimeter_copy_latest(self._handle, kind, ctypes.byref(out))) == _NO_DATA:
            return None
        return AltitudeData._from_c(out)

    def updates(self, kind: AltitudeKind, *, timeout: float | None = 5.0) -> Updates[AltitudeData]:
        """``kind`` updates to iterate (``for`` / ``async for``)."""
        return Updates(
            lambda handler: self.start(kind, handler),
            self._stopper(lambda: self.stop(kind)),
            timeout=timeout,
            description=f"{AltitudeKind(kind).name.lower()} altitude updates from {self._description}",
        )

    def start_relative_altitude_updates(self, handler: Handler[AltitudeData] | None = None) -> None:
        """Core Motion's startRelativeAltitudeUpdates."""
        self.start(AltitudeKind.RELATIVE, handler)

    def stop_relative_altitude_updates(self) -> None:
        """Core Motion's stopRelativeAltitudeUpdates."""
        self.stop(AltitudeKind.RELATIVE)

    def relative_altitude_updates(self, *, timeout: float | None = 5.0) -> Updates[AltitudeData]:
        """Relative altitude to iterate."""
        return self.updates(AltitudeKind.RELATIVE, timeout=timeout)

    def start_absolute_altitude_updates(self, handler: Handler[AltitudeData] | None = None) -> None:
        """Core Motion's startAbsoluteAltitudeUpdates."""
        self.start(AltitudeKind.ABSOLUTE, handler)

    def stop_absolute_altitude_updates(self) -> None:
        """Core Motion's stopAbsoluteAltitudeUpdates."""
        self.stop(AltitudeKind.ABSOLUTE)

    def absolute_altitude_updates(self, *, timeout: float | None = 5.0) -> Updates[AltitudeData]:
        """Absolute altitude to iterate."""
        return self.updates(AltitudeKind.ABSOLUTE, timeout=timeout)

    @property
    def error_message(self) -> str | None:
        """The message of the failure that stopped the board or kept it from coming up."""
        return _library.handle_message(self._lib.ocm_altimeter_error_message(self._handle))
