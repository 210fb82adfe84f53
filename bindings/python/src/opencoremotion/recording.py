"""``Recording``: reads a recording file (format version 1, ``.csv`` or ``.csv.gz``) through
``ocm_recording_*``, one sample at a time (memory stays constant)."""

from __future__ import annotations

import ctypes
import enum
import os
from collections.abc import Iterator
from typing import NamedTuple

from . import _library
from . import _structs as s
from ._native import NativeObject

_END = 1


class Sensor(enum.IntEnum):
    """``ocm_sensor``: the kinds of sensor, with the recording format's values."""

    ACCELEROMETER = 0  #: specific force, gravity included, m/s²
    GYROSCOPE = 1  #: rad/s
    MAGNETOMETER = 2  #: µT
    BAROMETER = 3  #: Pa (x)
    THERMOMETER = 4  #: °C (x)


class Sample(NamedTuple):
    """One sample in device axes; scalar sensors use ``x`` (``y`` and ``z`` are 0)."""

    timestamp_ns: int
    sensor: Sensor
    x: float
    y: float
    z: float


class Recording(NativeObject):
    """A recording opened for reading; iterate it for its samples.

    Raises:
        FileAccessError: the file cannot be read.
        MalformedRecordingError: the header or a line is malformed (the message names file,
            line and column); raised by the iteration at the first bad line.
    """

    _open_function = "ocm_recording_open"
    _close_function = "ocm_recording_close"
    _kind = "recording"

    def __init__(self, path: str | os.PathLike[str]) -> None:
        super().__init__(os.fsencode(path), description=os.fspath(path))
        self.path = os.fspath(path)

    def metadata(self, key: str) -> str | None:
        """The value of the header line ``# key: value``, or ``None``."""
        raw = self._lib.ocm_recording_metadata(self._handle, key.encode())
        return raw.decode(errors="replace") if raw is not None else None

    @property
    def line_number(self) -> int:
        """1-based number of the line last read."""
        return int(self._lib.ocm_recording_line_number(self._handle))

    def __iter__(self) -> Iterator[Sample]:
        out = s.Sample()
        next_sample = self._lib.ocm_recording_next
        while True:
            status = _library.check(next_sample(self._handle, ctypes.byref(out)))
            if status == _END:
                return
            yield Sample(out.timestamp_ns, Sensor(out.sensor), out.x, out.y, out.z)
