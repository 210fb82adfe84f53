"""Exceptions carrying the C library's message for a person (what happened, where, what to do).

Every failing ``ocm_status`` becomes one subclass of :class:`OpenCoreMotionError`; its ``str``
is the C library's ``ocm_last_error_message()`` (or the handle's own message), and ``status``
keeps the raw ``OCM_STATUS_*`` value.
"""

from __future__ import annotations


class OpenCoreMotionError(Exception):
    """A failure reported by the OpenCoreMotion C library.

    Attributes:
        status: the C library's ``ocm_status`` (negative ``OCM_STATUS_*``).
        message: the library's message for a person.
    """

    status: int = 0

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        if status is not None:
            self.status = status


class LibraryNotFoundError(OpenCoreMotionError, ImportError):
    """``libopencoremotion.so.0`` could not be loaded (the message says how to install it)."""


class InvalidArgumentError(OpenCoreMotionError, ValueError):
    """An argument is out of range (``OCM_STATUS_INVALID_ARGUMENT``)."""

    status = -1


class InvalidHandleError(OpenCoreMotionError):
    """The object was closed (``OCM_STATUS_INVALID_HANDLE``)."""

    status = -2


class FileAccessError(OpenCoreMotionError):
    """A file could not be opened, read or written (``OCM_STATUS_IO_ERROR``)."""

    status = -3


class MalformedRecordingError(OpenCoreMotionError):
    """A recording is malformed or truncated; the message names file, line and column."""

    status = -4


class NotAvailableError(OpenCoreMotionError):
    """The board lacks the sensor (or motiond is not running); the message names what is missing."""

    status = -5


class MalformedBoardError(OpenCoreMotionError):
    """A board file is malformed; the message names file and line and what to write instead."""

    status = -6


class DeviceError(OpenCoreMotionError):
    """The board's chips could not be brought up or stopped answering."""

    status = -7


class NotAuthorizedError(OpenCoreMotionError, PermissionError):
    """motiond does not let this user have motion data (the message says what to do)."""

    status = -8


_BY_STATUS: dict[int, type[OpenCoreMotionError]] = {
    cls.status: cls
    for cls in (
        InvalidArgumentError,
        InvalidHandleError,
        FileAccessError,
        MalformedRecordingError,
        NotAvailableError,
        MalformedBoardError,
        DeviceError,
        NotAuthorizedError,
    )
}


def error_for(status: int, message: str) -> OpenCoreMotionError:
    """The exception for a failing ``status`` with the library's ``message``."""
    cls = _BY_STATUS.get(status, OpenCoreMotionError)
    return cls(message or f"OpenCoreMotion status {status}", status)
