"""``python3 -m opencoremotion.plot REPLAY_DIR [--recording FILE] [--out DIR]``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import plot_replay


def main(arguments: list[str] | None = None) -> int:
    """Writes the pictures and prints their paths; 1 with a message on failure."""
    parser = argparse.ArgumentParser(
        prog="python3 -m opencoremotion.plot",
        description="Pictures (SVG and PNG) of what `motionctl replay RECORDING --out DIR` wrote.",
    )
    parser.add_argument("replay", type=Path, help="the replay's output folder")
    parser.add_argument("--recording", type=Path, help="the recording replayed: its accelerometer and truth sidecars")
    parser.add_argument("--out", type=Path, help="where to write the pictures (default: REPLAY/plots)")
    options = parser.parse_args(arguments)
    try:
        written = plot_replay(options.replay, options.out or options.replay / "plots", options.recording)
    except (ImportError, OSError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
