"""The replay pictures: drawn from the replay's files (a small replay written here to the
contract of replay-outputs.md, and a real one when $OPENCOREMOTION_MOTIONCTL is given), with the
truth's conversion checked against the library's own Euler angles."""

from __future__ import annotations

import gzip
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

import opencoremotion as ocm

pytest.importorskip("matplotlib")
numpy = pytest.importorskip("numpy")

from opencoremotion.plot import plot_replay  # noqa: E402
from opencoremotion.plot.figures import euler_degrees_from_quaternions  # noqa: E402
from opencoremotion.plot.replay_files import read_columns  # noqa: E402

MOTION_HEADER = (
    "t,qw,qx,qy,qz,roll,pitch,yaw,gravity_x,gravity_y,gravity_z,user_accel_x,user_accel_y,user_accel_z,"
    "rotation_rate_x,rotation_rate_y,rotation_rate_z,mag_x,mag_y,mag_z,mag_accuracy,heading"
)


def _small_replay(folder: Path) -> None:
    """Two seconds of a device turning about the vertical at 10 Hz, three steps, two activities."""
    lines = [MOTION_HEADER]
    for index in range(20):
        t = index / 10
        yaw = math.radians(10 * t)
        qw, qz = math.cos(yaw / 2), math.sin(yaw / 2)
        lines.append(f"{t},{qw},0,0,{qz},0,0,{yaw},0,0,-1,0,0,0,0,0,0.17,0,0,0,-1,-1")
    (folder / "device_motion.csv").write_text("\n".join(lines) + "\n")
    (folder / "steps.csv").write_text("t\n0.5\n1.0\n1.5\n")
    (folder / "pedometer_updates.csv").write_text(
        "t,number_of_steps,distance,floors_ascended,floors_descended,current_pace,current_cadence,average_active_pace\n"
        "1.0,2,1.4,,,0.7,2.0,0.7\n1.9,3,2.1,,,0.7,2.0,0.7\n"
    )
    (folder / "activity.csv").write_text(
        "t,stationary,walking,running,automotive,cycling,unknown,confidence,delivered_t\n"
        "0,0,0,0,0,0,1,0,0\n0.4,0,1,0,0,0,0,1,1.2\n"
    )
    (folder / "altitude.csv").write_text("t,relative_altitude,pressure\n1.0,0,101.3\n1.9,0.1,101.299\n")


def test_every_picture_is_written_as_svg_and_png(tmp_path: Path) -> None:
    _small_replay(tmp_path)
    written = plot_replay(tmp_path, tmp_path / "plots")
    names = sorted(path.name for path in written)
    expected = sorted(f"{name}.{extension}" for name in ("attitude", "steps", "activity", "altitude") for extension in ("svg", "png"))
    assert names == expected
    for path in written:
        data = path.read_bytes()
        if path.suffix == ".png":
            assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 5_000
        else:
            assert b"<svg" in data[:500]
    assert "Steps: 3 detected" in (tmp_path / "plots" / "steps.svg").read_text(), "the title counts the steps"


def test_the_command_line_names_a_folder_without_replay_files(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "opencoremotion.plot", str(tmp_path)], capture_output=True, text=True)
    assert result.returncode == 1
    assert "motionctl replay" in result.stderr and str(tmp_path) in result.stderr


def test_a_malformed_file_names_its_line(tmp_path: Path) -> None:
    (tmp_path / "steps.csv").write_text("t\n0.5\nhalf past\n")
    with pytest.raises(ValueError) as raised:
        plot_replay(tmp_path, tmp_path / "plots")
    assert "steps.csv:3" in str(raised.value)


def test_the_truth_conversion_gives_the_library_s_euler_angles() -> None:
    """The truth's quaternions are turned into Euler angles here (the library never sees the
    truth): on the library's own device motion, the conversion must give its angles."""
    with ocm.MotionManager("boards/sim-mpu-9250.board") as manager, manager.device_motion_updates(
        ocm.ReferenceFrame.X_MAGNETIC_NORTH_Z_VERTICAL
    ) as updates:
        motions = [motion for _, motion in zip(range(50), updates)]
    quaternions = numpy.array([motion.attitude.quaternion for motion in motions])
    roll, pitch, yaw = euler_degrees_from_quaternions(*quaternions.T)
    for index, motion in enumerate(motions):
        expected = motion.attitude.euler_angles_degrees
        assert roll[index] == pytest.approx(expected.roll, abs=1e-6)
        assert pitch[index] == pytest.approx(expected.pitch, abs=1e-6)
        assert yaw[index] == pytest.approx(expected.yaw, abs=1e-6)


@pytest.mark.skipif(not os.environ.get("OPENCOREMOTION_MOTIONCTL"), reason="set OPENCOREMOTION_MOTIONCTL to a built motionctl")
def test_a_real_replay_with_its_truth(tmp_path: Path) -> None:
    recording = Path("Tests/Recordings/broad_01_slow_rotation.csv.gz")
    motionctl = os.environ["OPENCOREMOTION_MOTIONCTL"]
    subprocess.run(
        [motionctl, "replay", str(recording), "--out", str(tmp_path / "replay"), "--frame", "x-magnetic-north-z-vertical"],
        check=True, capture_output=True,
    )
    plotted = subprocess.run(
        [motionctl, "plot", str(tmp_path / "replay"), "--recording", str(recording), "--out", str(tmp_path / "plots"),
         "--python", sys.executable],
        capture_output=True, text=True,
    )  # fmt: skip
    assert plotted.returncode == 0, plotted.stderr
    written = [Path(line) for line in plotted.stdout.split()]
    assert tmp_path / "plots" / "attitude.png" in written and all(path.exists() for path in written)
    svg = (tmp_path / "plots" / "attitude.svg").read_text()
    assert "truth roll" in svg and "RMS" in svg
    motion = read_columns(tmp_path / "replay" / "device_motion.csv")
    assert len(motion["t"]) > 1000
    truth = json.loads(recording.with_name("broad_01_slow_rotation.json").read_text())
    assert truth["truth_frame"] == "x-magnetic-north-z-vertical"
    with gzip.open(recording.with_name("broad_01_slow_rotation.truth.csv.gz"), "rt") as file:
        assert file.readline().strip() == "t,qw,qx,qy,qz"
