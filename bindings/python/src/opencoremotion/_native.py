"""The one pattern behind every manager: an opaque C handle, its callbacks kept alive while the
library may call them, and a ``close`` that stops everything (also from ``with`` and ``del``)."""

from __future__ import annotations

import ctypes
import os
import threading
from collections.abc import Callable
from typing import Any

from . import _library
from .errors import InvalidHandleError


_callback_state = threading.local()


def in_callback(function: Callable[..., None]) -> Callable[..., None]:
    """``function`` marked, while it runs, as a library callback on this thread: a stop called
    from inside it must not free the C function pointer the library is still running."""

    def marked(*arguments: Any) -> None:
        _callback_state.depth = getattr(_callback_state, "depth", 0) + 1
        try:
            function(*arguments)
        finally:
            _callback_state.depth -= 1

    return marked


def _inside_callback() -> bool:
    return getattr(_callback_state, "depth", 0) > 0


class NativeObject:
    """An ``ocm_<object>`` handle. Subclasses set ``_open_function`` and ``_close_function``."""

    _open_function: str
    _close_function: str
    _kind = "object"

    def __init__(self, *open_arguments: Any, description: str) -> None:
        self._close_lock = threading.Lock()
        self._pointer: int | None = None
        self._description = description
        # C function pointers the library may call, by stream; a replaced one is kept until the
        # stream stops (the library may still be running it) and then released.
        self._callbacks: dict[object, Any] = {}
        self._retired: dict[object, list[Any]] = {}
        library = _library.library()
        handle = ctypes.c_void_p()
        _library.check(getattr(library, self._open_function)(*open_arguments, ctypes.byref(handle)))
        self._pointer = handle.value

    @property
    def _handle(self) -> int:
        pointer = self._pointer
        if pointer is None:
            raise InvalidHandleError(f"This {self._kind} ({self._description}) is closed: open a new one.")
        return pointer

    @property
    def _lib(self) -> ctypes.CDLL:
        return _library.library()

    @property
    def is_closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._pointer is None

    def _keep_callback(self, stream: object, function: Any) -> None:
        previous = self._callbacks.get(stream)
        if previous is not None:
            self._retired.setdefault(stream, []).append(previous)
        if function is None:
            self._callbacks.pop(stream, None)
        else:
            self._callbacks[stream] = function

    def _release_callbacks(self, stream: object) -> None:
        """After a stop returned: the library no longer calls this stream's functions. Inside a
        callback (a handler stopping its own stream) they are kept until the next release or
        close outside one, since the library is still running one of them."""
        if _inside_callback():
            current = self._callbacks.pop(stream, None)
            if current is not None:
                self._retired.setdefault(stream, []).append(current)
            return
        self._callbacks.pop(stream, None)
        self._retired.pop(stream, None)

    def _stopper(self, stop: Callable[[], None]) -> Callable[[], None]:
        """``stop`` made harmless once this object is closed (for :class:`Updates`)."""

        def stop_if_open() -> None:
            if self._pointer is not None:
                stop()

        return stop_if_open

    def close(self) -> None:
        """Stops every stream and frees the C handle; later calls raise InvalidHandleError.
        Idempotent; must not race with other calls on this object."""
        with self._close_lock:
            pointer, self._pointer = self._pointer, None
        if pointer is not None:
            getattr(_library.library(), self._close_function)(pointer)
            if not _inside_callback():
                self._callbacks.clear()
                self._retired.clear()

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        # Garbage collection can run anywhere, also inside a library callback on the engine
        # thread, where closing a handle of that engine would wait for the callback itself:
        # there, the close is handed to a thread of its own.
        try:
            if _inside_callback() and self._pointer is not None:
                threading.Thread(target=self.close, name="opencoremotion-close", daemon=True).start()
            else:
                self.close()
        except Exception:
            pass

    def __repr__(self) -> str:
        state = "closed" if self._pointer is None else "open"
        return f"<{type(self).__name__} {self._description} ({state})>"


def describe_board(board: str | os.PathLike[str] | None) -> str:
    """How a board argument reads in messages."""
    return "the system's board" if board is None else os.fspath(board)
