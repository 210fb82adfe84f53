"""The sensor recorder and the system's board through the real motiond.

motiond is ``$OPENCOREMOTION_MOTIOND`` (tools/setup.sh passes the one it built); without it
these tests are skipped, and test_errors.py checks the recorder without a daemon."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

import pytest

import opencoremotion as ocm

MOTIOND = os.environ.get("OPENCOREMOTION_MOTIOND")
pytestmark = pytest.mark.skipif(not MOTIOND, reason="set OPENCOREMOTION_MOTIOND to a built motiond")


@pytest.fixture
def motiond(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The real motiond on the simulated walker, on a socket of its own; its socket path."""
    monkeypatch.delenv("OPENCOREMOTION_NO_DAEMON")  # conftest's: no daemon unless one is asked for
    socket = tmp_path / "motiond.sock"
    policy = tmp_path / "policy"
    policy.write_text("")
    process = subprocess.Popen(
        [str(MOTIOND), "--board", "boards/sim-walker.board", "--socket", str(socket),
         "--history", str(tmp_path / "history"), "--policy", str(policy)],
    )  # fmt: skip
    try:
        for _ in range(200):  # up to 10 s for it to answer
            if process.poll() is not None:
                pytest.fail(f"motiond exited with {process.returncode}")
            with ocm.SensorRecorder(socket) as recorder:
                if recorder.is_accelerometer_recording_available:
                    break
            time.sleep(0.05)
        yield socket
    finally:
        process.terminate()
        process.wait(10)


def test_recorded_accelerometer_data_at_50_hz(motiond: Path) -> None:
    start = datetime.now(timezone.utc)
    with ocm.SensorRecorder(motiond) as recorder:
        assert recorder.is_accelerometer_recording_available
        if os.getuid() == 0:
            assert recorder.authorization_status == ocm.AuthorizationStatus.AUTHORIZED
        until = recorder.record_accelerometer(600)
        assert abs((until - datetime.now(timezone.utc)).total_seconds() - 600) < 5
        with pytest.raises(ocm.InvalidArgumentError):
            recorder.record_accelerometer(13 * 3600)
        samples: list[ocm.RecordedAccelerometerData] = []
        for _ in range(100):  # until 40 samples are recorded, at most 10 s
            samples = recorder.accelerometer_data(start)
            if len(samples) >= 40:
                break
            time.sleep(0.1)
    assert len(samples) >= 40
    assert len({sample.identifier for sample in samples}) == 1, "one continuity run"
    starts = [sample.start_unix_ns for sample in samples]
    assert starts == sorted(set(starts))
    rate = (len(samples) - 1) / ((starts[-1] - starts[0]) / 1e9)
    assert abs(rate - 50) < 2
    assert all(0.4 < sum(value * value for value in sample.acceleration_g) ** 0.5 < 1.6 for sample in samples)


def test_the_system_board_is_motiond_when_it_runs(motiond: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENCOREMOTION_SOCKET", str(motiond))
    with ocm.Pedometer() as pedometer:
        assert pedometer.uses_daemon
        assert pedometer.query(datetime.now(timezone.utc)).number_of_steps == 0
    with ocm.MotionManager("boards/sim-gy-521.board") as manager:
        assert not manager.uses_daemon, "another board file runs in this process"
