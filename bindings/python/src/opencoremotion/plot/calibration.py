"""The magnetometer calibration's picture: ``python3 -m opencoremotion.plot.calibration DIR``.

Reads what ``motionctl calibrate magnetometer --plot DIR`` writes (``magnetometer_samples.csv``:
raw samples x,y,z in µT; ``magnetometer_fit.json``: offset b in µT, soft iron S as (xx, yy, zz,
xy, xz, yz) or null, coverage) and draws the samples as the board turned, before (raw, with the
fitted ellipsoid) and after the correction calibrated = S (m − b) (on the sphere of the field's
strength): ``magnetometer_calibration.svg`` and ``.png`` in DIR.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy

from .replay_files import read_columns


def soft_iron_matrix(values: list[float] | None) -> Any:
    """S from (xx, yy, zz, xy, xz, yz); the identity without soft iron."""
    if values is None:
        return numpy.eye(3)
    xx, yy, zz, xy, xz, yz = values
    return numpy.array([[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]])


def calibrated(samples: Any, offset: Any, soft_iron: Any) -> Any:
    """S (m − b) for each row m of ``samples`` (n, 3)."""
    return (samples - offset) @ soft_iron.T


def draw(folder: Path) -> list[Path]:
    """Draws the picture into ``folder``; returns the files written."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    columns = read_columns(folder / "magnetometer_samples.csv")
    fit = json.loads((folder / "magnetometer_fit.json").read_text())
    samples = numpy.column_stack([columns["x"], columns["y"], columns["z"]])
    offset = numpy.asarray(fit["offset"], dtype=float)
    soft_iron = soft_iron_matrix(fit.get("soft_iron"))
    corrected = calibrated(samples, offset, soft_iron)
    norms = numpy.linalg.norm(corrected, axis=1)
    radius = float(numpy.mean(norms)) if len(norms) else 1.0
    spread = float(numpy.std(norms)) if len(norms) else 0.0
    raw_spread = float(numpy.std(numpy.linalg.norm(samples - offset, axis=1))) if len(samples) else 0.0

    # The fitted surface: the sphere of radius r through S⁻¹, moved to b.
    azimuth, polar = numpy.meshgrid(numpy.linspace(0, 2 * numpy.pi, 36), numpy.linspace(0, numpy.pi, 18))
    unit = numpy.stack([numpy.cos(azimuth) * numpy.sin(polar), numpy.sin(azimuth) * numpy.sin(polar), numpy.cos(polar)], axis=-1)
    sphere = radius * unit
    ellipsoid = sphere @ numpy.linalg.inv(soft_iron).T + offset

    figure = Figure(figsize=(11, 5.5), layout="constrained")
    coverage = float(fit.get("coverage", float("nan"))) * 100
    figure.suptitle(f"Magnetometer calibration: {len(samples)} samples, coverage {coverage:.0f} % of 14 directions")
    before = figure.add_subplot(1, 2, 1, projection="3d")
    before.plot_wireframe(ellipsoid[..., 0], ellipsoid[..., 1], ellipsoid[..., 2], color="#9e9e9e", linewidth=0.4)
    before.scatter(samples[:, 0], samples[:, 1], samples[:, 2], s=3, color="#c62828")
    before.set_title(f"before: raw, the fitted ellipsoid (spread about b {raw_spread:.2f} µT)", fontsize="small")
    after = figure.add_subplot(1, 2, 2, projection="3d")
    after.plot_wireframe(sphere[..., 0], sphere[..., 1], sphere[..., 2], color="#9e9e9e", linewidth=0.4)
    after.scatter(corrected[:, 0], corrected[:, 1], corrected[:, 2], s=3, color="#2e7d32")
    after.set_title(f"after: S (m − b), sphere of {radius:.1f} µT (spread {spread:.2f} µT)", fontsize="small")
    for axis in (before, after):
        axis.set_xlabel("x µT")
        axis.set_ylabel("y µT")
        axis.set_zlabel("z µT")
        axis.set_box_aspect((1, 1, 1))
    written = []
    for extension in ("svg", "png"):
        path = folder / f"magnetometer_calibration.{extension}"
        figure.savefig(path, dpi=120)
        written.append(path)
    return written


def main(arguments: list[str] | None = None) -> int:
    """Draws the picture and prints its paths; 1 with a message on failure."""
    parser = argparse.ArgumentParser(prog="python3 -m opencoremotion.plot.calibration", description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="the folder `motionctl calibrate magnetometer --plot DIR` wrote")
    options = parser.parse_args(arguments)
    try:
        written = draw(options.folder)
    except ImportError as error:
        print(f"error: the picture needs matplotlib ({error}): sudo apt-get install python3-matplotlib", file=sys.stderr)
        return 1
    except (OSError, ValueError, KeyError) as error:
        print(f"error: {options.folder}: {error}", file=sys.stderr)
        return 1
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
