"""Handlers, iterators, ``async for`` and context managers on the simulated boards."""

from __future__ import annotations

import asyncio
import itertools
import math
import threading
from datetime import datetime, timedelta, timezone

import pytest

import opencoremotion as ocm

MPU_9250 = "boards/sim-mpu-9250.board"
WALKER = "boards/sim-walker.board"


def test_iterating_device_motion_gives_ordered_unit_attitudes_and_stops_on_exit() -> None:
    with ocm.MotionManager(MPU_9250) as manager:
        assert manager.is_device_motion_available and manager.is_magnetometer_available
        with manager.device_motion_updates(ocm.ReferenceFrame.X_MAGNETIC_NORTH_Z_VERTICAL) as updates:
            motions = list(itertools.islice(updates, 20))
            assert manager.is_active(ocm.Stream.DEVICE_MOTION)
        assert not manager.is_active(ocm.Stream.DEVICE_MOTION), "leaving the with block stopped the stream"
        assert list(updates) == [], "a closed stream yields nothing more"
    timestamps = [motion.timestamp_ns for motion in motions]
    assert timestamps == sorted(set(timestamps))
    for motion in motions:
        attitude = motion.attitude
        assert math.isclose(sum(part * part for part in attitude.quaternion), 1.0, abs_tol=1e-6)
        matrix = attitude.rotation_matrix
        for row in range(3):  # orthonormal rows
            assert math.isclose(sum(value * value for value in matrix[row]), 1.0, abs_tol=1e-6)
        assert -math.pi / 2 <= attitude.pitch <= math.pi / 2
        assert 0 <= motion.heading_deg < 360
        assert math.isclose(math.hypot(*motion.gravity_g), 1.0, abs_tol=0.02)
        assert attitude.euler_angles_degrees.roll == pytest.approx(math.degrees(attitude.roll))


def test_a_handler_gets_data_and_polling_gets_the_latest() -> None:
    got: list[ocm.AccelerometerData] = []
    enough = threading.Event()

    def handler(data: ocm.AccelerometerData | None, error: ocm.OpenCoreMotionError | None) -> None:
        assert error is None and data is not None
        got.append(data)
        if len(got) == 10:
            enough.set()

    with ocm.MotionManager(MPU_9250) as manager:
        assert manager.accelerometer_data is None or manager.accelerometer_data.timestamp_ns > 0
        manager.start_accelerometer_updates(handler)
        assert enough.wait(10)
        manager.stop_accelerometer_updates()
        count = len(got)
        latest = manager.accelerometer_data
        assert latest is not None and latest.timestamp_ns >= got[-1].timestamp_ns
        assert len(got) == count, "nothing after stop returned"
        manager.start_gyro_updates()  # no handler: poll
        for _ in range(500):
            if manager.gyro_data is not None:
                break
            threading.Event().wait(0.01)
        assert manager.gyro_data is not None


def test_a_handler_may_stop_its_own_stream() -> None:
    calls = 0
    with ocm.MotionManager(MPU_9250) as manager:

        def handler(data: ocm.GyroData | None, error: ocm.OpenCoreMotionError | None) -> None:
            nonlocal calls
            calls += 1
            if calls == 5:
                manager.stop_gyro_updates()

        manager.start_gyro_updates(handler)
        with manager.accelerometer_updates() as updates:  # wait on another stream of the same engine
            list(itertools.islice(updates, 30))
        assert not manager.is_active(ocm.Stream.GYROSCOPE)
    assert calls == 5


def test_async_for_gives_updates_without_blocking_the_loop() -> None:
    async def main() -> tuple[list[ocm.DeviceMotion], int]:
        ticks = 0
        done = asyncio.Event()

        async def ticker() -> None:
            nonlocal ticks
            while not done.is_set():
                ticks += 1
                await asyncio.sleep(0.01)

        task = asyncio.create_task(ticker())
        with ocm.MotionManager(MPU_9250) as manager:
            got = []
            async with manager.device_motion_updates() as updates:
                async for motion in updates:
                    got.append(motion)
                    if len(got) == 30:
                        break
            assert not manager.is_active(ocm.Stream.DEVICE_MOTION)
        done.set()
        await task
        return got, ticks

    got, ticks = asyncio.run(main())
    assert len(got) == 30
    assert [motion.timestamp_ns for motion in got] == sorted(motion.timestamp_ns for motion in got)
    assert ticks > 1, "the event loop ran other tasks while waiting for updates"


def test_a_slow_consumer_drops_the_oldest_and_counts_them() -> None:
    with ocm.MotionManager(MPU_9250) as manager:
        updates = ocm.Updates(
            lambda handler: manager.start(ocm.Stream.ACCELEROMETER, handler),
            lambda: manager.stop(ocm.Stream.ACCELEROMETER),
            max_pending=4,
            timeout=5,
        )
        with updates:
            first = next(updates)
            for _ in range(1000):  # until the engine has overrun the 4 kept (at most 10 s)
                if updates.dropped > 0:
                    break
                threading.Event().wait(0.01)
            dropped = updates.dropped  # read before taking: later drops only make what is taken newer
            kept = next(updates)
        assert dropped > 0
        # What was kept is the newest: the dropped ones lie between it and the first.
        assert kept.timestamp_ns - first.timestamp_ns > dropped * 10_000_000 * 0.9


def test_pedometer_updates_and_events_on_the_walker() -> None:
    with ocm.Pedometer(WALKER) as pedometer:
        assert pedometer.is_step_counting_available and pedometer.is_floor_counting_available
        start = datetime.now(timezone.utc) - timedelta(seconds=1)
        with pedometer.updates(start, timeout=15) as updates:
            walking = next(data for data in updates if data.number_of_steps > 0)
        assert walking.start_unix_ns == pytest.approx(start.timestamp() * 1e9, abs=1e3)
        assert walking.distance_m is not None and walking.distance_m > 0
        assert walking.floors_ascended == 0, "the walker's barometer stays at sea level"
        assert walking.current_cadence_steps_per_s is not None and 1.0 < walking.current_cadence_steps_per_s < 3.0
        latest = pedometer.latest
        assert latest is not None and latest.number_of_steps >= walking.number_of_steps, "the last update stays"


def test_activity_updates_start_unknown_then_name_an_activity() -> None:
    with ocm.ActivityManager(WALKER) as manager:
        assert manager.is_activity_available
        with manager.updates(timeout=30) as updates:
            first = next(updates)
            named = next(activity for activity in updates if not activity.unknown and activity.names)
    assert first.unknown
    assert set(named.names) <= {"stationary", "walking"}


def test_altimeter_relative_and_absolute_updates() -> None:
    with ocm.Altimeter("boards/sim-gy-521-bmp280.board") as altimeter:
        assert altimeter.is_relative_altitude_available and altimeter.is_absolute_altitude_available
        altimeter.set_sea_level_pressure(101.325, 0.1)
        with altimeter.relative_altitude_updates() as relative:
            first = next(relative)
        assert first.relative_altitude_m == 0 and 80 < first.pressure_kpa < 110
        with altimeter.absolute_altitude_updates() as absolute:
            data = next(absolute)
        assert abs(data.altitude_m) < 50 and 0 < data.accuracy_m < 20, "against a QNH of 101.325 kPa ± 0.1"
        with pytest.raises(ValueError):
            altimeter.set_sea_level_pressure(50.0)


@pytest.mark.parametrize("as_numpy", [True, False])
def test_accelerometer_batches_are_a_second_at_the_fifo_rate(as_numpy: bool) -> None:
    if as_numpy:
        numpy = pytest.importorskip("numpy")
    with ocm.BatchedSensorManager("boards/sim-gy-521.board") as manager:
        assert manager.is_accelerometer_supported and manager.accelerometer_data_frequency == 1000
        with manager.accelerometer_batches(as_numpy=as_numpy) as batches:
            batch = next(batches)
        drops = manager.drops(ocm.BatchedStream.ACCELEROMETER)
    assert len(batch) == 1000
    if as_numpy:
        assert isinstance(batch.timestamps_ns, numpy.ndarray) and batch.acceleration_g.shape == (1000, 3)
        assert set(numpy.diff(batch.timestamps_ns).tolist()) == {1_000_000}
        magnitudes = numpy.linalg.norm(batch.acceleration_g, axis=1)
        assert 0.3 < float(magnitudes.mean()) < 3.0
    else:
        assert isinstance(batch.timestamps_ns, list) and isinstance(batch.acceleration_g[0], ocm.Vector3)
        assert {b - a for a, b in zip(batch.timestamps_ns, batch.timestamps_ns[1:])} == {1_000_000}
    assert drops.delivered_samples >= 1000 and drops.queue_full_samples == 0
