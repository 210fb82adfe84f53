"""The magnetometer calibration's picture: from files written here (an ellipsoid of known hard
and soft iron), and from `motionctl calibrate magnetometer --plot` on a simulated tumbling
MPU-9250 with a hard-iron offset when $OPENCOREMOTION_MOTIONCTL is given."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("matplotlib")
numpy = pytest.importorskip("numpy")

from opencoremotion.plot.calibration import calibrated, draw, soft_iron_matrix  # noqa: E402
from opencoremotion.plot.replay_files import read_columns  # noqa: E402


def test_an_ellipsoid_of_known_iron_is_drawn_and_corrected_onto_its_sphere(tmp_path: Path) -> None:
    generator = numpy.random.default_rng(7)
    directions = generator.normal(size=(500, 3))
    directions /= numpy.linalg.norm(directions, axis=1, keepdims=True)
    offset = numpy.array([-25.0, 40.0, -10.0])
    soft_iron_values = [1.1, 0.95, 0.97, 0.03, -0.02, 0.01]
    soft_iron = soft_iron_matrix(soft_iron_values)
    samples = (48.0 * directions) @ numpy.linalg.inv(soft_iron).T + offset  # m = S⁻¹ (r u) + b
    (tmp_path / "magnetometer_samples.csv").write_text("x,y,z\n" + "".join(f"{x},{y},{z}\n" for x, y, z in samples))
    (tmp_path / "magnetometer_fit.json").write_text(
        json.dumps({"offset": offset.tolist(), "soft_iron": soft_iron_values, "uncertainty": 0.5, "coverage": 1.0})
    )
    written = draw(tmp_path)
    assert sorted(path.name for path in written) == ["magnetometer_calibration.png", "magnetometer_calibration.svg"]
    assert (tmp_path / "magnetometer_calibration.png").read_bytes().startswith(b"\x89PNG")
    assert "sphere of 48.0 µT (spread 0.00 µT)" in (tmp_path / "magnetometer_calibration.svg").read_text()
    norms = numpy.linalg.norm(calibrated(samples, offset, soft_iron), axis=1)
    assert numpy.allclose(norms, 48.0)


def test_hard_iron_only_is_the_identity() -> None:
    assert numpy.array_equal(soft_iron_matrix(None), numpy.eye(3))


@pytest.mark.skipif(not os.environ.get("OPENCOREMOTION_MOTIONCTL"), reason="set OPENCOREMOTION_MOTIONCTL to a built motionctl")
def test_motionctl_calibrate_magnetometer_draws_the_sphere(tmp_path: Path) -> None:
    board = Path("boards/sim-mpu-9250.board").read_text()
    board = board.replace("motion = Tests/Recordings/broad_01_slow_rotation.csv.gz", "motion = synthetic:tumble")
    board = board.replace("mount = y x -z", "mount = y x -z\nhard-iron = 40 -25 10")
    (tmp_path / "tumble.board").write_text(board)
    result = subprocess.run(
        [os.environ["OPENCOREMOTION_MOTIONCTL"], "calibrate", "magnetometer", "--board", str(tmp_path / "tumble.board"),
         "--speed", "0", "--plot", str(tmp_path / "pictures"), "--python", sys.executable],
        env=dict(os.environ, OCM_CALIBRATION_DIR=str(tmp_path / "calibration")), capture_output=True, text=True,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    pictures = tmp_path / "pictures"
    assert (pictures / "magnetometer_calibration.png").exists() and (pictures / "magnetometer_calibration.svg").exists()
    fit = json.loads((pictures / "magnetometer_fit.json").read_text())
    assert numpy.allclose(fit["offset"], [-25, 40, -10], atol=1.0), "the AK8963's (40, −25, 10) µT in device axes"
    columns = read_columns(pictures / "magnetometer_samples.csv")
    samples = numpy.column_stack([columns["x"], columns["y"], columns["z"]])
    assert len(samples) > 100
    corrected = numpy.linalg.norm(calibrated(samples, numpy.asarray(fit["offset"]), soft_iron_matrix(fit["soft_iron"])), axis=1)
    assert float(numpy.std(corrected)) < 2.0, "the corrected samples lie on a sphere"
    assert float(numpy.std(numpy.linalg.norm(samples, axis=1))) > 5.0, "the raw ones, off by the hard iron, do not"
