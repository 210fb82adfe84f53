"""Shared fixtures: the checkout's root as the working directory (board paths in the tests and
the README are relative to it), no motiond (every manager runs the simulated boards in this
process), and the C reference helper (``c_reference.c``) built against the library under test.

The library under test is ``$OPENCOREMOTION_LIBRARY`` when set (tools/setup.sh points it at a
fresh build), else the installed ``libopencoremotion.so.0``.
"""

from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

# Before the library loads: the system's board must not be a motiond that happens to run here.
os.environ["OPENCOREMOTION_NO_DAEMON"] = "1"

ROOT = Path(__file__).resolve().parents[3]
HEADER_FOLDER = ROOT / "Sources" / "COpenCoreMotion" / "include"


@pytest.fixture(autouse=True)
def in_checkout(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test runs in the checkout's root."""
    monkeypatch.chdir(ROOT)


def loaded_library_path() -> str:
    """The file of the library the package loaded."""
    from opencoremotion import _library

    library = _library.library()
    # The path the loader resolved, from the address of one of its functions.
    info = _DlInfo()
    address = ctypes.cast(library.ocm_version_string, ctypes.c_void_p)
    if not _dladdr(address, ctypes.byref(info)) or not info.dli_fname:
        raise RuntimeError("dladdr could not name the loaded libopencoremotion")
    return os.fsdecode(info.dli_fname)


class _DlInfo(ctypes.Structure):
    _fields_ = [
        ("dli_fname", ctypes.c_char_p),
        ("dli_fbase", ctypes.c_void_p),
        ("dli_sname", ctypes.c_char_p),
        ("dli_saddr", ctypes.c_void_p),
    ]


_dladdr = ctypes.CDLL(None).dladdr
_dladdr.argtypes = [ctypes.c_void_p, ctypes.POINTER(_DlInfo)]
_dladdr.restype = ctypes.c_int


@pytest.fixture(scope="session")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ctypes.CDLL]:
    """``c_reference.c`` compiled against opencoremotion.h and linked to the loaded library."""
    compiler = shutil.which("gcc") or shutil.which("cc")
    assert compiler, "the tests need a C compiler (gcc) for the C reference helper: sudo apt-get install gcc"
    library_path = loaded_library_path()
    output = tmp_path_factory.mktemp("reference") / "libocm_reference.so"
    command = [
        compiler, "-std=c11", "-Wall", "-Wextra", "-Werror", "-shared", "-fPIC",
        f"-I{HEADER_FOLDER}", str(Path(__file__).with_name("c_reference.c")), "-o", str(output),
        library_path, f"-Wl,-rpath,{Path(library_path).parent}", "-lpthread",
    ]  # fmt: skip
    subprocess.run(command, check=True)
    helper = ctypes.CDLL(str(output))
    yield helper
