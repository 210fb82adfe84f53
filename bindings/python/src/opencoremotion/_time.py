"""Dates at the C boundary: ``datetime`` (or ``None`` for now) to nanoseconds since 1970."""

from __future__ import annotations

import time
from datetime import datetime

from .types import unix_ns_from_datetime


def unix_ns(date: datetime | None) -> int:
    """Nanoseconds since 1970 of ``date``; ``None`` is now."""
    return time.time_ns() if date is None else unix_ns_from_datetime(date)
