"""Reads what ``motionctl replay RECORDING --out DIR`` writes (../shared/specs/replay-outputs.md)
and a recording's truth sidecars, as columns of floats: the plots read these and nothing else."""

from __future__ import annotations

import csv
import gzip
import json
import math
from dataclasses import dataclass, field
from pathlib import Path

Columns = dict[str, list[float]]


def read_columns(path: Path) -> Columns:
    """A CSV file with a header line as {column: values}; an empty field (Core Motion's nil)
    is NaN. Raises ValueError naming the file and line for a value that is not a number."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", newline="") as file:
        reader = csv.reader(file)
        header = next(reader, None)
        if header is None:
            raise ValueError(f"{path}: empty file; expected a header line (see replay-outputs.md)")
        columns: Columns = {name: [] for name in header}
        for line_number, row in enumerate(reader, start=2):
            if len(row) != len(header):
                raise ValueError(f"{path}:{line_number}: {len(row)} fields, the header has {len(header)}")
            for name, text in zip(header, row):
                try:
                    columns[name].append(float(text) if text else math.nan)
                except ValueError:
                    raise ValueError(f"{path}:{line_number}: column {name}: {text!r} is not a number") from None
    return columns


@dataclass
class Truth:
    """What a recording's sidecars say really happened (any part may be missing)."""

    attitude: Columns | None = None  # t, qw, qx, qy, qz (``RECORDING.truth.csv.gz``)
    step_times: list[float] = field(default_factory=list)  # ``step_times`` in RECORDING.json
    activity: list[tuple[float, float, str]] = field(default_factory=list)  # (start, end, label)


def recording_stem(recording: Path) -> Path:
    """``a/b.csv.gz`` → ``a/b``: where the sidecars ``a/b.json`` and ``a/b.truth.csv.gz`` are."""
    name = recording.name
    for suffix in (".csv.gz", ".csv"):
        if name.endswith(suffix):
            return recording.with_name(name[: -len(suffix)])
    return recording.with_suffix("")


def read_truth(recording: Path) -> Truth:
    """The sidecars of ``recording`` that exist."""
    stem = recording_stem(recording)
    truth = Truth()
    attitude = stem.with_name(stem.name + ".truth.csv.gz")
    if attitude.exists():
        truth.attitude = read_columns(attitude)
    metadata = stem.with_name(stem.name + ".json")
    if metadata.exists():
        document = json.loads(metadata.read_text())
        truth.step_times = [float(time) for time in document.get("step_times", [])]
        truth.activity = [(float(item["start"]), float(item["end"]), str(item["label"])) for item in document.get("activity", [])]
    return truth
