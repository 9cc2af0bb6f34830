"""Which malachite binary to run: the `binary` argument, else MALACHITE_BINARY, else the wheel's own
(pytest_malachite/bin/malachite: one static executable that needs nothing of the system's C
library, so it runs on any Linux of its architecture, glibc or musl; in the Windows wheel
pytest_malachite/bin/malachite.exe, static too: no DLL beyond Windows' own).

Every way of not having a runnable binary is one MalachiteBinaryError, one line, whose message
names this platform (platform.machine()) and MALACHITE_BINARY, before anything is started: a missing
file, a file that is not executable, an ELF or PE file for another system or architecture (which
the kernel would refuse with "Exec format error", or run slowly under qemu where binfmt is set up;
Windows with "%1 is not a valid Win32 application"), the wheel's binary on a system other than
Linux and Windows.
"""
from __future__ import annotations

import os
import platform
import sys
from pathlib import Path
from typing import Optional, Tuple, Union

from ._errors import MalachiteBinaryError

ENV_BINARY = "MALACHITE_BINARY"
# The wheel's binary, by the name this system runs: the Windows wheel holds bin/malachite.exe.
PACKAGED_BINARY = Path(__file__).resolve().parent / "bin" / (
    "malachite.exe" if sys.platform == "win32" else "malachite")

# ELF e_machine values (the System V ABI's registry) and PE machine values (Microsoft's PE format)
# of the architectures Malachite is built for; platform.machine()'s names of them (Linux says
# x86_64 and aarch64, Windows AMD64 and ARM64, macOS x86_64 and arm64).
_ELF_MACHINES = {0x3E: "x86_64", 0xB7: "aarch64"}
_PE_MACHINES = {0x8664: "x86_64", 0xAA64: "aarch64"}
_MACHINE_NAMES = {"x86_64": "x86_64", "amd64": "x86_64", "aarch64": "aarch64", "arm64": "aarch64"}
# (system, machine) of each wheel.
_WHEELS = (("linux", "x86_64"), ("linux", "aarch64"), ("windows", "x86_64"))


def _system() -> str:
    """'linux', 'windows', or sys.platform for any other system."""
    if sys.platform.startswith("linux"):
        return "linux"
    return "windows" if sys.platform == "win32" else sys.platform


def _machine() -> str:
    """This machine's architecture as the binaries name it: 'x86_64', 'aarch64', or
    platform.machine() when it is neither."""
    machine = platform.machine() or "unknown"
    return _MACHINE_NAMES.get(machine.lower(), machine)


def _how_to_get() -> str:
    """What to do instead, for this machine: the wheel where there is one, else the image."""
    system, machine = _system(), _machine()
    if (system, machine) == ("windows", "x86_64"):
        return ("install the pytest-malachite wheel for Windows on x86_64 (win_amd64), or set "
                "MALACHITE_BINARY to a malachite binary for this machine (malachite.exe of the "
                "release's malachite-<version>-windows-x86_64.zip)")
    if (system, machine) in _WHEELS:
        return ("install the pytest-malachite wheel for linux-%s (any Linux on %s, glibc or musl), "
                "or set MALACHITE_BINARY to a malachite binary for this machine (the release "
                "bundle's bin/malachite, or /usr/bin/malachite from the .deb)" % (machine, machine))
    return ("the wheels hold binaries for Linux on x86_64 and aarch64 (any libc) and Windows on "
            "x86_64 only: run the container image instead (docker run -p 10002:10002 malachite), "
            "or set MALACHITE_BINARY to a malachite binary that runs here")


def this_platform() -> str:
    """'linux-x86_64', 'linux-aarch64', 'win32-AMD64', 'darwin-arm64', ...: how error messages name
    this machine."""
    return "%s-%s" % (sys.platform, platform.machine() or "unknown")


def resolve_binary(binary: "Optional[Union[str, os.PathLike[str]]]" = None) -> Tuple[str, str]:
    """Returns (path, where it came from) of the binary to run.

    Raises MalachiteBinaryError when there is none that this machine can run.
    """
    how = _how_to_get()
    if binary is not None:
        path, source = os.fspath(binary), "binary=%r" % os.fspath(binary)
    elif os.environ.get(ENV_BINARY):
        path, source = os.environ[ENV_BINARY], "%s=%s" % (ENV_BINARY, os.environ[ENV_BINARY])
    else:
        path, source = str(PACKAGED_BINARY), "the wheel's binary"
        if _system() not in ("linux", "windows"):
            raise MalachiteBinaryError("pytest-malachite: the wheel's malachite binary runs on Linux "
                                       "and Windows, and this is %s; %s" % (this_platform(), how))
        if not PACKAGED_BINARY.exists():
            raise MalachiteBinaryError(
                "pytest-malachite: this installation has no malachite binary for %s (no %s): %s"
                % (this_platform(), PACKAGED_BINARY, how))
    if not os.path.isfile(path):
        raise MalachiteBinaryError("pytest-malachite: %s: no such file (platform %s); %s"
                                   % (source, this_platform(), how))
    if not os.access(path, os.X_OK):
        raise MalachiteBinaryError("pytest-malachite: %s: %s is not executable (platform %s); %s"
                                   % (source, path, this_platform(), how))
    made_for = built_for(path)
    if made_for is not None and made_for != "%s-%s" % (_system(), _machine()):
        raise MalachiteBinaryError(
            "pytest-malachite: %s: %s is a %s binary and this machine is %s; %s"
            % (source, path, made_for, this_platform(), how))
    return path, source


def built_for(path: str) -> Optional[str]:
    """What an executable is built for: 'linux-x86_64', 'linux-aarch64', 'windows-x86_64', ...
    ('linux-e_machine 40', 'windows-machine 0x14c' for others), or None when `path` is neither an
    ELF nor a PE file (a launcher script, say)."""
    elf = elf_machine(path)
    if elf is not None:
        return "linux-" + elf
    pe = pe_machine(path)
    return None if pe is None else "windows-" + pe


def elf_machine(path: str) -> Optional[str]:
    """The architecture an ELF file is built for ('x86_64', 'aarch64', 'e_machine 40'), or None
    when `path` is not an ELF file (a launcher script, say)."""
    try:
        with open(path, "rb") as f:
            header = f.read(20)
    except OSError:
        return None
    if len(header) < 20 or header[:4] != b"\x7fELF":
        return None
    # e_ident[EI_DATA] 1: little-endian, 2: big-endian
    number = int.from_bytes(header[18:20], "little" if header[5] == 1 else "big")
    return _ELF_MACHINES.get(number, "e_machine %d" % number)


def pe_machine(path: str) -> Optional[str]:
    """The architecture a Windows executable (a PE file) is built for ('x86_64', 'aarch64',
    'machine 0x14c'), or None when `path` is not a PE file."""
    try:
        with open(path, "rb") as f:
            header = f.read(64)
            if len(header) < 64 or header[:2] != b"MZ":
                return None
            f.seek(int.from_bytes(header[0x3C:0x40], "little"))
            coff = f.read(6)
    except OSError:
        return None
    if len(coff) < 6 or coff[:4] != b"PE\0\0":
        return None
    number = int.from_bytes(coff[4:6], "little")
    return _PE_MACHINES.get(number, "machine %#x" % number)
