"""Every ```python example in bindings/python/README.md runs, as a user would run it: a fresh
interpreter in the checkout's root, exiting 0, printing something."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
EXAMPLES = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.DOTALL)


def test_the_readme_has_examples() -> None:
    assert len(EXAMPLES) >= 7


@pytest.mark.parametrize("example", EXAMPLES, ids=[f"example-{index + 1}" for index in range(len(EXAMPLES))])
def test_a_readme_example_runs(example: str) -> None:
    result = subprocess.run([sys.executable, "-c", example], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, f"{example}\n--- stdout\n{result.stdout}\n--- stderr\n{result.stderr}"
    assert result.stdout.strip(), "the example printed nothing"
    assert "Traceback" not in result.stderr and "Exception ignored" not in result.stderr, result.stderr
