"""Failures are exceptions of the right class carrying the C library's message for a person."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import opencoremotion as ocm


def test_a_missing_board_file_names_the_file(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.board"
    with pytest.raises(ocm.FileAccessError) as raised:
        ocm.MotionManager(missing)
    assert str(missing) in str(raised.value)
    assert raised.value.status == -3


def test_a_malformed_board_file_names_the_line(tmp_path: Path) -> None:
    board = tmp_path / "broken.board"
    board.write_text("board = broken\n\n[chip imu]\ndriver = no-such-chip\nbus = emulated\n")
    with pytest.raises(ocm.MalformedBoardError) as raised:
        ocm.Pedometer(board)
    message = str(raised.value)
    assert "broken.board" in message and "4" in message, message
    assert "no-such-chip" in message, message


def test_a_frame_the_board_cannot_give_says_what_is_missing() -> None:
    with ocm.MotionManager("boards/sim-gy-521.board") as manager:
        assert manager.available_reference_frames == ocm.ReferenceFrame.X_ARBITRARY_Z_VERTICAL
        with pytest.raises(ocm.NotAvailableError) as raised:
            manager.start_device_motion_updates(None, ocm.ReferenceFrame.X_MAGNETIC_NORTH_Z_VERTICAL)
        assert "magnetometer" in str(raised.value).lower()
        assert not manager.is_active(ocm.Stream.DEVICE_MOTION)


def test_iterating_a_stream_the_board_lacks_raises_at_the_first_next() -> None:
    with ocm.MotionManager("boards/sim-gy-521.board") as manager:
        updates = manager.magnetometer_updates()
        with pytest.raises(ocm.NotAvailableError) as raised:
            next(updates)
        assert "magnetometer" in str(raised.value).lower()
        updates.close()
        assert not manager.is_active(ocm.Stream.MAGNETOMETER)


def test_an_altimeter_without_a_barometer_raises_not_available() -> None:
    with ocm.Altimeter("boards/sim-gy-521.board") as altimeter:
        assert not altimeter.is_relative_altitude_available
        with pytest.raises(ocm.NotAvailableError) as raised:
            altimeter.start_relative_altitude_updates()
        assert "sim-gy-521" in str(raised.value) or "barometer" in str(raised.value).lower()


def test_batched_sensors_without_a_fifo_raise_not_available() -> None:
    with ocm.BatchedSensorManager("boards/sim-sense-hat.board") as manager:
        assert not manager.is_accelerometer_supported
        assert manager.accelerometer_data_frequency == 0
        with pytest.raises(ocm.NotAvailableError):
            manager.start_accelerometer_updates(lambda batch, error: None)


def test_an_invalid_interval_is_a_value_error() -> None:
    with ocm.MotionManager("boards/sim-mpu-9250.board") as manager:
        with pytest.raises(ValueError):
            manager.accelerometer_update_interval = -1.0
        manager.accelerometer_update_interval = 0.001
        assert manager.accelerometer_update_interval == 0.01, "raised to the library's 100 Hz"


def test_a_closed_manager_says_so() -> None:
    manager = ocm.MotionManager("boards/sim-mpu-9250.board")
    manager.close()
    manager.close()  # twice: nothing happens
    with pytest.raises(ocm.InvalidHandleError) as raised:
        manager.is_available(ocm.Stream.ACCELEROMETER)
    assert "closed" in str(raised.value)


def test_a_malformed_recording_names_the_line(tmp_path: Path) -> None:
    good = Path("Tests/Recordings").glob("*.csv.gz")
    assert next(good, None) is not None
    recording = tmp_path / "bad.csv"
    recording.write_text("this is not a recording\n")
    with pytest.raises(ocm.OpenCoreMotionError) as raised:
        with ocm.Recording(recording) as opened:
            list(opened)
    assert isinstance(raised.value, ocm.MalformedRecordingError | ocm.FileAccessError)
    assert "bad.csv" in str(raised.value)


def test_a_missing_library_says_how_to_install_it(tmp_path: Path) -> None:
    environment = dict(os.environ, OPENCOREMOTION_LIBRARY=str(tmp_path / "libopencoremotion.so.0"))
    script = "import opencoremotion as o\ntry:\n    o.MotionManager()\nexcept o.LibraryNotFoundError as e:\n    print(e)\n"
    result = subprocess.run([sys.executable, "-c", script], env=environment, capture_output=True, text=True, check=True)
    assert "OPENCOREMOTION_LIBRARY" in result.stdout and str(tmp_path) in result.stdout, result.stdout


def test_the_sensor_recorder_without_motiond_says_how_to_start_it() -> None:
    with ocm.SensorRecorder("/nonexistent/motiond.sock") as recorder:
        assert not recorder.is_accelerometer_recording_available
        with pytest.raises(ocm.NotAvailableError) as raised:
            recorder.record_accelerometer(60)
        assert "motiond" in str(raised.value)
