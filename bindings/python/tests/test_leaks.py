"""No memory grows over 10 000 updates: through handlers and iterators, converted to Python
objects, with the C function pointers kept only while a stream runs."""

from __future__ import annotations

import gc
import itertools
import threading
import tracemalloc

import opencoremotion as ocm

BOARD = "boards/sim-mpu-9250.board"
UPDATES = 10_000


def test_ten_thousand_updates_leave_no_memory_behind() -> None:
    """Two managers, three handler streams and one iterated stream: about 700 updates a second.
    Python's heap after the first 2 000 updates and after all 10 000 must be the same to within
    64 KiB (a leak of one small object per update would be over 500 KiB)."""
    counted = 0
    lock = threading.Lock()
    milestone = threading.Event()
    finished = threading.Event()

    def handler(data: object, error: ocm.OpenCoreMotionError | None) -> None:
        nonlocal counted
        assert error is None
        with lock:
            counted += 1
            if counted >= 2_000:
                milestone.set()
            if counted >= UPDATES:
                finished.set()

    tracemalloc.start()
    try:
        with ocm.MotionManager(BOARD) as first, ocm.MotionManager(BOARD) as second:
            first.start_accelerometer_updates(handler)
            first.start_gyro_updates(handler)
            second.start_device_motion_updates(handler)
            with second.accelerometer_updates(timeout=10) as updates:
                for _ in updates:
                    handler(None, None)
                    if milestone.is_set():
                        break
                gc.collect()
                before = tracemalloc.take_snapshot()
                baseline = tracemalloc.get_traced_memory()[0]
                for _ in updates:
                    handler(None, None)
                    if finished.is_set():
                        break
            assert finished.is_set(), f"{counted} updates"
            first.stop_accelerometer_updates()
            first.stop_gyro_updates()
            second.stop_device_motion_updates()
            assert first._callbacks == {} and second._callbacks == {}, "stopped streams release their C functions"
            gc.collect()
            after = tracemalloc.get_traced_memory()[0]
            growth = after - baseline
            if growth >= 64 * 1024:
                top = tracemalloc.take_snapshot().compare_to(before, "lineno")[:5]
                raise AssertionError(f"{growth} bytes more after {UPDATES} updates:\n" + "\n".join(map(str, top)))
    finally:
        tracemalloc.stop()


def test_opening_and_closing_managers_frees_them() -> None:
    """500 managers opened, started with a handler, stopped and closed: none stays alive."""
    gc.collect()
    alive_before = sum(isinstance(item, ocm.MotionManager) for item in gc.get_objects())
    for _ in range(500):
        with ocm.MotionManager(BOARD) as manager:
            manager.start_accelerometer_updates(lambda data, error: None)
            manager.stop_accelerometer_updates()
    del manager
    gc.collect()
    alive_after = sum(isinstance(item, ocm.MotionManager) for item in gc.get_objects())
    assert alive_after == alive_before


def test_reading_a_recording_twice_uses_no_more_memory() -> None:
    path = "Tests/Recordings/uci_hapt_exp01_user01_stand_walk.csv.gz"
    tracemalloc.start()
    try:
        for _ in itertools.islice(ocm.Recording(path), 10_000):
            pass
        gc.collect()
        baseline = tracemalloc.get_traced_memory()[0]
        for _ in range(3):
            with ocm.Recording(path) as recording:
                for _ in itertools.islice(recording, 10_000):
                    pass
        gc.collect()
        assert tracemalloc.get_traced_memory()[0] - baseline < 16 * 1024
    finally:
        tracemalloc.stop()
