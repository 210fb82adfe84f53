"""Python gives the C API's values, bit for bit: the same recording read through both, and the
same board's updates received by a C callback and a Python handler in one process (managers of
one board share its engine, so both see the same updates)."""

from __future__ import annotations

import ctypes
import math
import threading
import time
from datetime import datetime, timezone

import pytest

import opencoremotion as ocm
from opencoremotion import _structs
from opencoremotion.batched import DeviceMotionBatch

RECORDING = "Tests/Recordings/uci_hapt_exp01_user01_stand_walk.csv.gz"
VALUES = 31


class _Row(ctypes.Structure):
    _fields_ = [("timestamp_ns", ctypes.c_int64), ("values", ctypes.c_double * VALUES)]


def _rows(reference: ctypes.CDLL, function: str) -> dict[int, tuple[float, ...]]:
    stop = getattr(reference, function)
    stop.restype = ctypes.POINTER(_Row)
    stop.argtypes = [ctypes.POINTER(ctypes.c_size_t)]
    count = ctypes.c_size_t()
    rows = stop(ctypes.byref(count))
    return {rows[index].timestamp_ns: tuple(rows[index].values) for index in range(count.value)}


def _device_motion_values(motion: ocm.DeviceMotion) -> tuple[float, ...]:
    attitude = motion.attitude
    values = [*attitude.quaternion, *(value for row in attitude.rotation_matrix for value in row)]
    values += [attitude.roll, attitude.pitch, attitude.yaw]
    for vector in (motion.gravity_g, motion.user_acceleration_g, motion.rotation_rate_rad_s, motion.magnetic_field_ut):
        values += list(vector)
    values += [float(motion.magnetic_accuracy), motion.heading_deg, float(attitude.reference_frame)]
    return tuple(values)


def _same(left: tuple[float, ...], right: tuple[float, ...]) -> bool:
    return all(a == b or (math.isnan(a) and math.isnan(b)) for a, b in zip(left, right, strict=True))


def test_a_recording_reads_the_same_through_python_and_c(reference: ctypes.CDLL) -> None:
    capacity = 200_000
    timestamps = (ctypes.c_int64 * capacity)()
    sensors = (ctypes.c_int * capacity)()
    xyz = (ctypes.c_double * (3 * capacity))()
    count = ctypes.c_size_t()
    reference.ref_recording_read.argtypes = [ctypes.c_char_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                                             ctypes.c_size_t, ctypes.POINTER(ctypes.c_size_t)]  # fmt: skip
    status = reference.ref_recording_read(RECORDING.encode(), timestamps, sensors, xyz, capacity, ctypes.byref(count))
    assert status == 1, "the C reading reached the recording's end"
    with ocm.Recording(RECORDING) as recording:
        samples = list(recording)
    assert len(samples) == count.value > 1000
    for index, sample in enumerate(samples):
        expected = (timestamps[index], sensors[index], xyz[3 * index], xyz[3 * index + 1], xyz[3 * index + 2])
        assert (sample.timestamp_ns, int(sample.sensor), sample.x, sample.y, sample.z) == expected, f"sample {index}"


@pytest.mark.parametrize(
    ("board", "frame"),
    [
        ("boards/sim-mpu-9250.board", ocm.ReferenceFrame.X_MAGNETIC_NORTH_Z_VERTICAL),
        ("boards/sim-gy-521.board", ocm.ReferenceFrame.X_ARBITRARY_Z_VERTICAL),
    ],
)
def test_device_motion_is_what_c_reads_from_the_same_update(
    reference: ctypes.CDLL, board: str, frame: ocm.ReferenceFrame
) -> None:
    """In the handler, the C helper copies the same manager's latest update (the one being
    delivered) and reads it field by field: Python's object must hold the same values."""
    reference.ref_motion_latest.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(_Row)]
    pairs: list[tuple[ocm.DeviceMotion, int, tuple[float, ...]]] = []
    enough = threading.Event()
    with ocm.MotionManager(board) as manager:

        def handler(motion: ocm.DeviceMotion | None, error: ocm.OpenCoreMotionError | None) -> None:
            assert motion is not None, error
            row = _Row()
            assert reference.ref_motion_latest(manager._handle, int(ocm.Stream.DEVICE_MOTION), ctypes.byref(row)) == 0
            pairs.append((motion, row.timestamp_ns, tuple(row.values)))
            if len(pairs) >= 50:
                enough.set()

        manager.start_device_motion_updates(handler, frame)
        assert enough.wait(20), f"50 updates from {board}"
        manager.stop_device_motion_updates()
    assert len(pairs) >= 50
    for motion, timestamp_ns, values in pairs:
        assert motion.timestamp_ns == timestamp_ns
        assert _same(_device_motion_values(motion), values), f"update at {timestamp_ns} ns"
    assert all(motion.attitude.reference_frame == frame for motion, _, _ in pairs)


def test_accelerometer_matches_the_c_callback(reference: ctypes.CDLL) -> None:
    board = "boards/sim-sense-hat.board"
    reference.ref_motion_start.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_int, ctypes.c_double]
    assert reference.ref_motion_start(board.encode(), int(ocm.Stream.ACCELEROMETER), 1, 0.01) == 0
    with ocm.MotionManager(board) as manager, manager.accelerometer_updates() as updates:
        got = [sample for _, sample in zip(range(50), updates)]
    rows = _rows(reference, "ref_motion_stop")
    common = [sample for sample in got if sample.timestamp_ns in rows]
    assert len(common) >= 30
    for sample in common:
        assert tuple(sample.acceleration_g) == rows[sample.timestamp_ns][:3]


@pytest.mark.parametrize("as_numpy", [True, False])
def test_a_device_motion_batch_converts_to_what_c_reads(reference: ctypes.CDLL, as_numpy: bool) -> None:
    """The C helper keeps the first batch's bytes and reads each sample field by field; the
    package's conversion of those bytes (NumPy columns or lists) must give the same values."""
    if as_numpy:
        pytest.importorskip("numpy")
    reference.ref_batch_start.argtypes = [ctypes.c_char_p]
    assert reference.ref_batch_start(b"boards/sim-gy-521.board") == 0
    deadline = time.monotonic() + 10
    first = reference.ref_batch_first
    first.restype = ctypes.POINTER(_structs.DeviceMotionData)
    first.argtypes = [ctypes.POINTER(ctypes.c_size_t)]
    count = ctypes.c_size_t()
    while first(ctypes.byref(count)) and count.value == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    rows = _rows(reference, "ref_batch_stop")
    samples = first(ctypes.byref(count))
    assert count.value == 200, "one second of 200 Hz device motion"
    batch = DeviceMotionBatch._from_c(samples, count.value, as_numpy)
    assert len(batch) == 200
    for motion in batch:
        assert _same(_device_motion_values(motion), rows[motion.timestamp_ns]), f"sample at {motion.timestamp_ns} ns"


def _walked(seconds: float) -> tuple[int, int]:
    """A range of wall-clock time in which the simulated walker was counted."""
    start = time.time_ns()
    time.sleep(seconds)
    return start, time.time_ns()


def test_pedometer_and_activity_queries_without_motiond_fail_as_the_c_api(reference: ctypes.CDLL) -> None:
    """In-process there is no history (motiond keeps it): Python and C refuse alike, saying so."""
    board = "boards/sim-walker.board"
    start, end = _walked(0.1)
    with ocm.Pedometer(board) as pedometer, ocm.ActivityManager(board) as activity:
        with pytest.raises(ocm.NotAvailableError) as steps_refused:
            pedometer.query_unix_ns(start, end)
        with pytest.raises(ocm.NotAvailableError) as activity_refused:
            activity.query_unix_ns(start, end)
    assert "motiond" in str(steps_refused.value) and "motiond" in str(activity_refused.value)
    integers = (ctypes.c_int64 * 4)()
    reals = (ctypes.c_double * 4)()
    reference.ref_pedometer_query.argtypes = [ctypes.c_char_p, ctypes.c_int64, ctypes.c_int64, ctypes.c_void_p, ctypes.c_void_p]
    assert reference.ref_pedometer_query(board.encode(), start, end, integers, reals) == ocm.NotAvailableError.status
    activity_rows = (ctypes.c_int64 * (9 * 256))()
    count = ctypes.c_size_t()
    reference.ref_activity_query.argtypes = [ctypes.c_char_p, ctypes.c_int64, ctypes.c_int64, ctypes.c_void_p,
                                             ctypes.c_size_t, ctypes.POINTER(ctypes.c_size_t)]  # fmt: skip
    assert reference.ref_activity_query(board.encode(), start, end, activity_rows, 256, ctypes.byref(count)) == ocm.NotAvailableError.status
