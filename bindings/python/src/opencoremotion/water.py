"""``WaterSubmersionManager``: Core Motion's CMWaterSubmersionManager over
``ocm_water_submersion_*``, on a board with a depth sensor (an MS5837;
``boards/sim-ms5837.board`` simulates a dive: 6 s in air, a splash, down to 7 m and back).

Updates are events (went under, came up), measurements (depth, pressures, state) and, while
submerged, the water's temperature. The surface pressure is learned when updates start: start
them out of the water. Handlers run on the engine thread: keep them short.
"""

from __future__ import annotations

import ctypes
import enum
import math
import os
from dataclasses import dataclass
from datetime import datetime

from . import _library
from . import _structs as s
from ._native import NativeObject, describe_board, in_callback
from .errors import error_for
from .types import datetime_from_unix_ns
from .updates import Handler, Updates

_NO_DATA = 2

#: Water densities, kg/m³ (``OCM_WATER_DENSITY_*``).
FRESH_WATER_DENSITY = 1000.0
SALT_WATER_DENSITY = 1025.0


class DepthState(enum.IntEnum):
    """Core Motion's CMWaterSubmersionMeasurement.DepthState, with its raw values."""

    UNKNOWN = 0
    NOT_SUBMERGED = 100
    SUBMERGED_SHALLOW = 200
    SUBMERGED_DEEP = 300
    APPROACHING_MAX_DEPTH = 400
    PAST_MAX_DEPTH = 500
    SENSOR_DEPTH_ERROR = 600


class WaterSubmersionUpdateKind(enum.IntEnum):
    """``ocm_water_submersion_update_kind``."""

    EVENT = 0
    MEASUREMENT = 1
    TEMPERATURE = 2


@dataclass(frozen=True, slots=True)
class WaterSubmersionUpdate:
    """One update; the fields of ``kind`` are set, the others ``None``.

    EVENT: ``submerged`` (Core Motion's CMWaterSubmersionEvent). MEASUREMENT: ``depth_m`` and
    ``surface_pressure_pa`` (``None`` until the surface is known), ``pressure_pa``, ``state``.
    TEMPERATURE: ``temperature_c`` ± ``temperature_uncertainty_c``.
    """

    kind: WaterSubmersionUpdateKind
    date_unix_ns: int
    submerged: bool | None
    depth_m: float | None
    pressure_pa: float | None
    surface_pressure_pa: float | None
    state: DepthState | None
    temperature_c: float | None
    temperature_uncertainty_c: float | None

    @property
    def date(self) -> datetime:
        """The update's date, UTC."""
        return datetime_from_unix_ns(self.date_unix_ns)

    @classmethod
    def _from_c(cls, update: s.WaterSubmersionUpdate) -> WaterSubmersionUpdate:
        kind = WaterSubmersionUpdateKind(update.kind)

        def number(value: float, wanted: WaterSubmersionUpdateKind) -> float | None:
            return None if kind != wanted or math.isnan(value) else value

        measurement = WaterSubmersionUpdateKind.MEASUREMENT
        temperature = WaterSubmersionUpdateKind.TEMPERATURE
        return cls(
            kind,
            update.date_unix_ns,
            bool(update.submerged) if kind == WaterSubmersionUpdateKind.EVENT else None,
            number(update.depth_m, measurement),
            number(update.pressure_pa, measurement),
            number(update.surface_pressure_pa, measurement),
            DepthState(update.state) if kind == measurement else None,
            number(update.temperature_c, temperature),
            number(update.temperature_uncertainty_c, temperature),
        )


class WaterSubmersionManager(NativeObject):
    """A board opened for water submersion (Core Motion's CMWaterSubmersionManager).

    Args:
        board: a board file with a depth sensor; ``None``: the system's board.
        water_density_kg_m3: :data:`FRESH_WATER_DENSITY`, :data:`SALT_WATER_DENSITY` or a
            measured density (500 to 2000).
        maximum_depth_m: the depth the device is rated for; ``None``: the sensor's range.
    """

    _open_function = "ocm_water_submersion_open"
    _close_function = "ocm_water_submersion_close"
    _kind = "water submersion manager"

    def __init__(
        self,
        board: str | os.PathLike[str] | None = None,
        water_density_kg_m3: float = FRESH_WATER_DENSITY,
        maximum_depth_m: float | None = None,
    ) -> None:
        super().__init__(
            _library.board_argument(board),
            water_density_kg_m3,
            0.0 if maximum_depth_m is None else maximum_depth_m,
            description=describe_board(board),
        )
        self.board = board

    @property
    def water_submersion_available(self) -> bool:
        """Core Motion's waterSubmersionAvailable: a depth sensor and no other barometer."""
        return bool(self._lib.ocm_water_submersion_is_available(self._handle))

    @property
    def maximum_depth_m(self) -> float | None:
        """The maximum depth in metres (``None`` without a depth sensor)."""
        depth = float(self._lib.ocm_water_submersion_maximum_depth(self._handle))
        return None if math.isnan(depth) else depth

    def start_updates(self, handler: Handler[WaterSubmersionUpdate] | None = None) -> None:
        """Starts updates (the surface is learned anew). ``handler(update, error)`` runs on the
        engine thread; ``None`` to poll :attr:`latest_measurement`."""
        function = None
        if handler is not None:

            def on_update(update: ctypes._Pointer[s.WaterSubmersionUpdate], status: int, _user: object) -> None:
                if status == 0 and update:
                    handler(WaterSubmersionUpdate._from_c(update.contents), None)
                elif status < 0:
                    handler(None, error_for(status, _library.last_error_message()))

            function = s.WaterSubmersionCallback(in_callback(on_update))
        self._keep_callback("updates", function)
        pointer = function if function is not None else s.WaterSubmersionCallback()  # NULL: poll instead
        _library.check(self._lib.ocm_water_submersion_start_updates(self._handle, pointer, None))

    def stop_updates(self) -> None:
        """Stops updates: once it returns, the handler is not called again."""
        _library.check(self._lib.ocm_water_submersion_stop_updates(self._handle))
        self._release_callbacks("updates")

    @property
    def latest_measurement(self) -> WaterSubmersionUpdate | None:
        """The latest measurement since updates started, or ``None``."""
        out = s.WaterSubmersionUpdate()
        if _library.check(self._lib.ocm_water_submersion_copy_latest(self._handle, ctypes.byref(out))) == _NO_DATA:
            return None
        return WaterSubmersionUpdate._from_c(out)

    def updates(self, *, timeout: float | None = None) -> Updates[WaterSubmersionUpdate]:
        """Updates to iterate (``for`` / ``async for``)."""
        return Updates(
            self.start_updates,
            self._stopper(self.stop_updates),
            timeout=timeout,
            description=f"water submersion updates from {self._description}",
        )

    @property
    def error_message(self) -> str | None:
        """The message of the failure that stopped the board or kept it from coming up."""
        return _library.handle_message(self._lib.ocm_water_submersion_error_message(self._handle))
