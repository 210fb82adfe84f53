"""The pictures of a replay, drawn with matplotlib (Debian's python3-matplotlib): one function
per picture, each taking the replay's columns (replay_files.py) and returning a Figure."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from .replay_files import Columns, Truth

ACTIVITY_COLOURS = {
    "stationary": "#9e9e9e",
    "walking": "#2e7d32",
    "running": "#c62828",
    "automotive": "#1565c0",
    "cycling": "#ef6c00",
    "unknown": "#e0e0e0",
    "": "#ffffff",
}
_FLAGS = ("walking", "running", "cycling", "automotive", "stationary", "unknown")  # the first set names a row
_CONFIDENCE_ALPHA = {0: 0.35, 1: 0.65, 2: 1.0}


def euler_degrees_from_quaternions(qw: Any, qx: Any, qy: Any, qz: Any) -> tuple[Any, Any, Any]:
    """Core Motion's (roll, pitch, yaw) in degrees of attitude quaternions (arrays), with
    R = Rz(yaw) · Rx(pitch) · Ry(roll) (opencoremotion.h): pitch = asin(R₂₁),
    roll = atan2(−R₂₀, R₂₂), yaw = atan2(−R₀₁, R₁₁). Used for the truth, which the library
    never sees; the replay's own angles come from the library."""
    r01 = 2 * (qx * qy - qw * qz)
    r11 = 1 - 2 * (qx * qx + qz * qz)
    r20 = 2 * (qx * qz - qw * qy)
    r21 = 2 * (qy * qz + qw * qx)
    r22 = 1 - 2 * (qx * qx + qy * qy)
    pitch = numpy.degrees(numpy.arcsin(numpy.clip(r21, -1, 1)))
    roll = numpy.degrees(numpy.arctan2(-r20, r22))
    yaw = numpy.degrees(numpy.arctan2(-r01, r11))
    return roll, pitch, yaw


def _wrapped(difference: Any) -> Any:
    return (difference + 180) % 360 - 180


def attitude_figure(motion: Columns, truth: Truth) -> Figure:
    """Roll, pitch and yaw over time; with an attitude truth,
    the truth beside each and the error below (yaw's only meaningful in the truth's frame)."""
    t = numpy.asarray(motion["t"])
    roll = numpy.degrees(motion["roll"])
    pitch = numpy.degrees(motion["pitch"])
    yaw = numpy.degrees(motion["yaw"])
    has_truth = truth.attitude is not None and len(truth.attitude.get("t", [])) > 1
    figure = Figure(figsize=(10, 7 if has_truth else 5), layout="constrained")
    axes = figure.subplots(2 if has_truth else 1, 1, sharex=True, squeeze=False)[:, 0]
    top = axes[0]
    top.plot(t, roll, label="roll", color="#1565c0", linewidth=1)
    top.plot(t, pitch, label="pitch", color="#2e7d32", linewidth=1)
    # Yaw, not heading: continuous where heading wraps at north (heading = −yaw − 90° mod 360
    # in the north frames, x to north, heading of the device's top).
    top.plot(t, yaw, label="yaw", color="#c62828", linewidth=1)
    top.set_ylabel("degrees")
    top.set_title("Attitude")
    if has_truth:
        assert truth.attitude is not None
        truth_t = numpy.asarray(truth.attitude["t"])
        parts = [numpy.asarray(truth.attitude[name]) for name in ("qw", "qx", "qy", "qz")]
        valid = numpy.all(numpy.isfinite(parts), axis=0) & (truth_t >= t[0]) & (truth_t <= t[-1])
        truth_roll, truth_pitch, truth_yaw = euler_degrees_from_quaternions(*(part[valid] for part in parts))
        truth_t = truth_t[valid]
        for values, colour, name in ((truth_roll, "#1565c0", "roll"), (truth_pitch, "#2e7d32", "pitch"), (truth_yaw, "#c62828", "yaw")):
            top.plot(truth_t, values, color=colour, linestyle="--", linewidth=0.8, label=f"truth {name}")
        bottom = axes[1]
        estimates = {
            "roll": numpy.interp(truth_t, t, numpy.unwrap(roll, period=360)),
            "pitch": numpy.interp(truth_t, t, pitch),
            "yaw": numpy.interp(truth_t, t, numpy.unwrap(yaw, period=360)),
        }
        for (name, estimate), reference, colour in zip(estimates.items(), (truth_roll, truth_pitch, truth_yaw), ("#1565c0", "#2e7d32", "#c62828")):
            error = _wrapped(estimate - reference)
            rms = math.sqrt(float(numpy.mean(error**2))) if len(error) else math.nan
            bottom.plot(truth_t, error, color=colour, linewidth=0.8, label=f"{name} error (RMS {rms:.1f}°)")
        bottom.set_ylabel("error, degrees")
        bottom.legend(loc="upper right", fontsize="small")
    top.legend(loc="upper right", fontsize="small", ncols=2)
    axes[-1].set_xlabel("t (s, the recording's clock)")
    return figure


def _ticks(axis: Any, times: Sequence[float], low: float, high: float, colour: str, label: str) -> None:
    if len(times):
        axis.vlines(times, low, high, colors=colour, linewidth=1, label=label)


def steps_figure(steps: Columns, acceleration: tuple[Any, Any] | None, truth: Truth, updates: Columns | None) -> Figure:
    """Steps as ticks over the accelerometer's magnitude (when the recording is given), the
    truth's steps below them; else the cumulative count of the pedometer's updates."""
    figure = Figure(figsize=(10, 4.5), layout="constrained")
    axis = figure.subplots()
    step_times = steps.get("t", [])
    title = f"Steps: {len(step_times)} detected"
    if truth.step_times:
        title += f", {len(truth.step_times)} in the truth"
    if acceleration is not None:
        times, magnitude = acceleration
        axis.plot(times, magnitude, color="#607d8b", linewidth=0.6, label="|acceleration|")
        top = float(numpy.nanmax(magnitude)) if len(magnitude) else 1.0
        _ticks(axis, step_times, top * 1.02, top * 1.12, "#2e7d32", "step detected")
        _ticks(axis, truth.step_times, top * 1.14, top * 1.24, "#c62828", "step (truth)")
        axis.set_ylabel("m/s²")
    else:
        if updates is not None and updates.get("t"):
            axis.step(updates["t"], updates["number_of_steps"], where="post", color="#2e7d32", label="pedometer updates")
        _ticks(axis, step_times, -1, 0, "#2e7d32", "step detected")
        _ticks(axis, truth.step_times, -2.2, -1.2, "#c62828", "step (truth)")
        axis.set_ylabel("steps")
    axis.set_title(title)
    axis.set_xlabel("t (s, the recording's clock)")
    axis.legend(loc="upper right", fontsize="small")
    return figure


def _label(row: dict[str, float]) -> str:
    return next((name for name in _FLAGS if row.get(name, 0) == 1), "")


def _lane(axis: Any, y: float, rows: Columns, end: float, use_confidence: bool) -> None:
    count = len(rows.get("t", []))
    for index in range(count):
        start = rows["t"][index]
        stop = rows["t"][index + 1] if index + 1 < count else end
        row = {name: values[index] for name, values in rows.items()}
        label = _label(row)
        alpha = _CONFIDENCE_ALPHA.get(int(row.get("confidence", 2)), 1.0) if use_confidence else 1.0
        axis.broken_barh([(start, max(stop - start, 0.0))], (y - 0.35, 0.7), facecolors=ACTIVITY_COLOURS[label], alpha=alpha)


def activity_figure(activity: Columns, history: Columns | None, truth: Truth, end: float) -> Figure:
    """Activity as coloured timelines: the live updates (paler for lower confidence), the
    smoothed history, and the truth's labels when the recording has them."""
    figure = Figure(figsize=(10, 3.2), layout="constrained")
    axis = figure.subplots()
    lanes = [("live updates", activity, True)]
    if history is not None:
        lanes.append(("history", history, False))
    if truth.activity:
        truth_rows: Columns = {"t": [], **{name: [] for name in _FLAGS}}
        for start, stop, label in truth.activity:
            truth_rows["t"].append(start)
            for name in _FLAGS:
                truth_rows[name].append(1.0 if name == label else 0.0)
            truth_rows["t"].append(stop)
            for name in _FLAGS:
                truth_rows[name].append(0.0)
        lanes.append(("truth", truth_rows, False))
    for position, (_, rows, use_confidence) in enumerate(reversed(lanes)):
        _lane(axis, position, rows, end, use_confidence)
    axis.set_yticks(range(len(lanes)), [name for name, _, _ in reversed(lanes)])
    handles = [Patch(color=colour, label=name) for name, colour in ACTIVITY_COLOURS.items() if name]
    axis.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.25), ncols=len(handles), fontsize="small")
    axis.set_title("Motion activity (paler: lower confidence)")
    axis.set_xlabel("t (s, the recording's clock)")
    return figure


def altitude_figure(altitude: Columns, updates: Columns | None) -> Figure:
    """Relative altitude over time, with the floors climbed minus descended when counted."""
    figure = Figure(figsize=(10, 4), layout="constrained")
    axis = figure.subplots()
    axis.plot(altitude["t"], altitude["relative_altitude"], color="#1565c0", linewidth=1, label="relative altitude")
    axis.set_ylabel("m")
    axis.set_xlabel("t (s, the recording's clock)")
    axis.set_title("Altitude and floors")
    if updates is not None and updates.get("floors_ascended") and not all(math.isnan(v) for v in updates["floors_ascended"]):
        floors = numpy.asarray(updates["floors_ascended"]) - numpy.asarray(updates["floors_descended"])
        twin = axis.twinx()
        twin.step(updates["t"], floors, where="post", color="#ef6c00", label="floors (up − down)")
        twin.set_ylabel("floors")
        twin.legend(loc="lower right", fontsize="small")
    axis.legend(loc="upper left", fontsize="small")
    return figure
