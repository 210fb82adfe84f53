"""A stream of updates as an iterator, an ``async`` iterator and a context manager.

The C library calls back on its engine thread (or a batch thread); :class:`Updates` turns those
calls into values a program pulls, on any thread (``for``) or in an event loop (``async for``):

    with manager.device_motion_updates() as updates:
        for motion in updates: ...

The stream starts at the first ``next`` (or ``async for``), and stops when the ``with`` block
ends, :meth:`Updates.close` is called or the object is garbage-collected. A failure of the board
is raised by ``next`` as the matching :class:`~opencoremotion.errors.OpenCoreMotionError`, after
which the iteration ends. At most ``max_pending`` updates wait for the consumer; beyond that the
oldest is dropped and counted in :attr:`Updates.dropped`: a slow consumer never holds up the
engine, and never loses updates silently.
"""

from __future__ import annotations

import asyncio
import collections
import threading
from collections.abc import Callable
from types import TracebackType
from typing import Generic, TypeVar

from .errors import OpenCoreMotionError

T = TypeVar("T")

#: A handler as the managers take it: ``handler(data, error)``, exactly one of them ``None``
#: (Core Motion's handler shape).
Handler = Callable[[T | None, OpenCoreMotionError | None], None]

_ENDED = object()


class Updates(Generic[T]):
    """Updates of one stream; iterate with ``for`` or ``async for`` (not both at once)."""

    def __init__(
        self,
        start: Callable[[Handler[T]], None],
        stop: Callable[[], None],
        *,
        timeout: float | None = None,
        max_pending: int = 1024,
        description: str = "updates",
    ) -> None:
        """
        Args:
            start: starts the stream with a handler (called on the library's thread).
            stop: stops it; when it returns the handler is not called again.
            timeout: seconds ``next`` waits for an update before raising ``TimeoutError``
                (``None``: forever).
            max_pending: updates kept for the consumer before the oldest is dropped.
            description: what the stream is, for error messages.
        """
        if max_pending < 1:
            raise ValueError("max_pending must be at least 1")
        self._start = start
        self._stop = stop
        self._timeout = timeout
        self._description = description
        self._pending: collections.deque[object] = collections.deque(maxlen=max_pending)
        self._condition = threading.Condition()
        self._started = False
        self._closed = False
        self._ended = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wakeup: asyncio.Event | None = None
        self.dropped = 0
        """Updates dropped because ``max_pending`` waited for the consumer."""

    # -- the library's side -------------------------------------------------------------------

    def _deliver(self, data: T | None, error: OpenCoreMotionError | None) -> None:
        item: object = error if error is not None else data
        with self._condition:
            if self._closed:
                return
            if len(self._pending) == self._pending.maxlen:
                self.dropped += 1
            self._pending.append(item)
            self._condition.notify()
            loop, wakeup = self._loop, self._wakeup
        if loop is not None and wakeup is not None:
            try:
                loop.call_soon_threadsafe(wakeup.set)
            except RuntimeError:  # the event loop was closed: nobody is waiting any more
                pass

    def _ensure_started(self) -> None:
        """Starts the stream once; a failing start raises here (at the first ``next``) and the
        next ``next`` tries again."""
        if self._closed or self._started:
            return
        self._start(self._deliver)
        self._started = True

    def _take(self) -> object:
        """The next item, or _ENDED; only call with the condition held and an item ready or closed."""
        if self._pending:
            item = self._pending.popleft()
            if isinstance(item, OpenCoreMotionError):
                self._ended = True
            return item
        return _ENDED

    @staticmethod
    def _result(item: object) -> T:
        if isinstance(item, OpenCoreMotionError):
            raise item
        return item  # type: ignore[return-value]

    # -- the consumer's side ------------------------------------------------------------------

    def __iter__(self) -> Updates[T]:
        return self

    def __next__(self) -> T:
        if self._ended:
            raise StopIteration
        self._ensure_started()
        with self._condition:
            if not self._condition.wait_for(lambda: self._pending or self._closed, self._timeout):
                raise TimeoutError(
                    f"No {self._description} within {self._timeout} s: is the board running? "
                    "(a board error would have been raised instead)"
                )
            item = self._take()
        if item is _ENDED:
            self._ended = True
            raise StopIteration
        return self._result(item)

    def __aiter__(self) -> Updates[T]:
        return self

    async def __anext__(self) -> T:
        if self._ended:
            raise StopAsyncIteration
        if self._loop is None:
            with self._condition:
                self._loop = asyncio.get_running_loop()
                self._wakeup = asyncio.Event()
        if not self._started and not self._closed:
            # Starting waits for the engine to run the stream: not on the event loop's thread.
            await asyncio.get_running_loop().run_in_executor(None, self._ensure_started)
        assert self._wakeup is not None
        while True:
            with self._condition:
                if self._pending or self._closed:
                    item = self._take()
                    break
                self._wakeup.clear()
            try:
                await asyncio.wait_for(self._wakeup.wait(), self._timeout)
            except TimeoutError:
                raise TimeoutError(f"No {self._description} within {self._timeout} s: is the board running?") from None
        if item is _ENDED:
            self._ended = True
            raise StopAsyncIteration
        return self._result(item)

    def close(self) -> None:
        """Stops the stream (once it returns, nothing more is delivered); iteration then ends."""
        with self._condition:
            if self._closed:
                return
            self._closed = True
            started = self._started
            self._pending.clear()
            self._condition.notify_all()
        if started:
            self._stop()
        loop, wakeup = self._loop, self._wakeup
        if loop is not None and wakeup is not None:
            try:
                loop.call_soon_threadsafe(wakeup.set)
            except RuntimeError:
                pass

    async def aclose(self) -> None:
        """:meth:`close` without blocking the event loop."""
        await asyncio.get_running_loop().run_in_executor(None, self.close)

    def __enter__(self) -> Updates[T]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    async def __aenter__(self) -> Updates[T]:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None
    ) -> None:
        await self.aclose()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # the manager may already be closed at interpreter exit
            pass
