"""Pictures of a replay: ``python3 -m opencoremotion.plot REPLAY_DIR [--recording FILE]``.

Reads the files ``motionctl replay RECORDING --out REPLAY_DIR`` writes
(../shared/specs/replay-outputs.md) and, given the recording, its accelerometer (read through
the C library) and its truth sidecars (``NAME.truth.csv.gz``, ``NAME.json``); writes an SVG and
a PNG per picture: attitude (with the truth and its error), steps, activity, altitude. Drawn
with matplotlib: ``sudo apt-get install python3-matplotlib``.
"""

from __future__ import annotations

from pathlib import Path

from .replay_files import Columns, Truth, read_columns, read_truth

__all__ = ["plot_replay"]


def _optional(path: Path) -> Columns | None:
    return read_columns(path) if path.exists() else None


def _acceleration(recording: Path) -> tuple[list[float], list[float]]:
    """t (s) and |specific force| (m/s²) of the recording's accelerometer, read by the C library."""
    from ..recording import Recording, Sensor

    times: list[float] = []
    magnitudes: list[float] = []
    with Recording(recording) as samples:
        for sample in samples:
            if sample.sensor == Sensor.ACCELEROMETER:
                times.append(sample.timestamp_ns / 1e9)
                magnitudes.append((sample.x * sample.x + sample.y * sample.y + sample.z * sample.z) ** 0.5)
    return times, magnitudes


def plot_replay(replay: Path, out: Path, recording: Path | None = None) -> list[Path]:
    """Draws every picture the replay's files allow into ``out`` (created); returns the files.

    Raises:
        ImportError: matplotlib is missing (the message says how to install it).
        FileNotFoundError: ``replay`` holds none of the replay's files.
        ValueError: a file is malformed (the message names file and line).
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        from . import figures
    except ImportError as error:
        raise ImportError(
            f"The pictures need matplotlib ({error}): `sudo apt-get install python3-matplotlib` "
            "(or `pip install matplotlib` in a virtual environment)."
        ) from None

    truth = read_truth(recording) if recording is not None else Truth()
    motion = _optional(replay / "device_motion.csv")
    steps = _optional(replay / "steps.csv")
    updates = _optional(replay / "pedometer_updates.csv")
    activity = _optional(replay / "activity.csv")
    altitude = _optional(replay / "altitude.csv")
    if motion is None and steps is None and activity is None and altitude is None:
        raise FileNotFoundError(
            f"{replay} holds no replay output (device_motion.csv, steps.csv, activity.csv, altitude.csv): "
            "write them with `motionctl replay RECORDING --out DIR`."
        )
    end = max((columns["t"][-1] for columns in (motion, activity, altitude, updates) if columns and columns.get("t")), default=0.0)
    pictures = []
    if motion is not None and motion.get("t"):
        pictures.append(("attitude", figures.attitude_figure(motion, truth)))
    if steps is not None:
        acceleration = _acceleration(recording) if recording is not None else None
        pictures.append(("steps", figures.steps_figure(steps, acceleration, truth, updates)))
    if activity is not None and activity.get("t"):
        pictures.append(("activity", figures.activity_figure(activity, _optional(replay / "activity_history.csv"), truth, end)))
    if altitude is not None and altitude.get("t"):
        pictures.append(("altitude", figures.altitude_figure(altitude, updates)))
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, figure in pictures:
        for extension in ("svg", "png"):
            path = out / f"{name}.{extension}"
            figure.savefig(path, dpi=120)
            written.append(path)
    return written
