"""Handlers run on the library's engine thread while Python threads start, stop and iterate:
nothing is delivered after a stop returns, every update arrives in order, nothing deadlocks."""

from __future__ import annotations

import itertools
import threading

import opencoremotion as ocm

BOARD = "boards/sim-mpu-9250.board"


def test_threads_starting_and_stopping_managers_of_one_board() -> None:
    failures: list[str] = []
    lock = threading.Lock()

    def worker(index: int) -> None:
        stream = [ocm.Stream.ACCELEROMETER, ocm.Stream.GYROSCOPE, ocm.Stream.DEVICE_MOTION, ocm.Stream.MAGNETOMETER][index]
        with ocm.MotionManager(BOARD) as manager:
            for round_number in range(5):
                stopped = threading.Event()
                received = threading.Event()
                timestamps: list[int] = []

                def handler(data: object, error: ocm.OpenCoreMotionError | None) -> None:
                    if stopped.is_set():
                        with lock:
                            failures.append(f"{stream.name}: an update after stop returned (round {round_number})")
                    if error is not None:
                        with lock:
                            failures.append(f"{stream.name}: {error}")
                        return
                    timestamps.append(data.timestamp_ns)  # type: ignore[attr-defined]
                    if len(timestamps) >= 5:
                        received.set()

                manager.start(stream, handler)
                if not received.wait(10):
                    with lock:
                        failures.append(f"{stream.name}: fewer than 5 updates in 10 s")
                manager.stop(stream)
                stopped.set()
                if timestamps != sorted(set(timestamps)):
                    with lock:
                        failures.append(f"{stream.name}: timestamps out of order")
                # An iterator consumed on this thread too, while the others' handlers run.
                with manager.updates(stream) as updates:
                    if len(list(itertools.islice(updates, 3))) != 3:
                        with lock:
                            failures.append(f"{stream.name}: the iterator ended early")

    threads = [threading.Thread(target=worker, args=(index,)) for index in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
        assert not thread.is_alive(), "a worker is stuck (deadlock?)"
    assert failures == []


def test_handlers_of_one_board_never_run_at_once() -> None:
    """Handlers of one board's streams, across managers, run one at a time (one engine thread,
    as the C header promises): a handler never finds another one inside."""
    per_stream: dict[str, int] = {}
    inside = 0
    overlaps = 0

    def handler(data: object, error: ocm.OpenCoreMotionError | None) -> None:
        nonlocal inside, overlaps
        inside += 1
        if inside > 1:
            overlaps += 1
        name = type(data).__name__
        per_stream[name] = per_stream.get(name, 0) + 1
        inside -= 1

    with ocm.MotionManager(BOARD) as first, ocm.MotionManager(BOARD) as second:
        first.start_accelerometer_updates(handler)
        second.start_gyro_updates(handler)
        first.start_device_motion_updates(handler)
        with second.magnetometer_updates() as updates:
            list(itertools.islice(updates, 100))
    assert overlaps == 0
    assert set(per_stream) == {"AccelerometerData", "GyroData", "DeviceMotion"}
    assert all(count > 20 for count in per_stream.values()), per_stream


def test_a_forgotten_manager_collected_inside_a_handler_does_not_hang_the_engine() -> None:
    """A manager left running in a reference cycle is freed by the cyclic garbage collector,
    which may run inside another handler on the engine thread: that must neither hang the
    engine nor keep the manager alive."""
    import gc
    import weakref

    forgotten = ocm.MotionManager(BOARD)
    forgotten.start_accelerometer_updates(lambda data, error: forgotten)  # a cycle: handler → manager
    reference = weakref.ref(forgotten)
    del forgotten
    collected = threading.Event()
    gc.disable()  # the collection happens in the handler below, nowhere else
    try:
        with ocm.MotionManager(BOARD) as manager:

            def handler(data: object, error: ocm.OpenCoreMotionError | None) -> None:
                if not collected.is_set():
                    gc.collect()
                    collected.set()

            manager.start_gyro_updates(handler)
            assert collected.wait(10), "the handler ran the collector"
            with manager.accelerometer_updates() as updates:  # the engine still delivers
                assert len(list(itertools.islice(updates, 10))) == 10
            manager.stop_gyro_updates()
    finally:
        gc.enable()
    assert reference() is None, "the forgotten manager was collected"
