"""Which malachite binary to run: the `binary` argument, else MALACHITE_BINARY, else the wheel's own
(pytest_malachite/bin/malachite: one static executable that needs nothing of the system's C
library, so it runs on any Linux of its architecture, glibc or musl).

Every way of not having a runnable binary is one MalachiteBinaryError, one line, whose message
names this platform (platform.machine()) and MALACHITE_BINARY, before anything is started: a missing
file, a file that is not executable, an ELF file for another architecture (which the kernel would
refuse with "Exec format error", or run slowly under qemu where binfmt is set up), the wheel's
binary on a system other than Linux.
"""
from __future__ import annotations

import os
import platform
import sys
from pathlib import Path
from typing import Optional, Tuple, Union

from ._errors import MalachiteBinaryError

ENV_BINARY = "MALACHITE_BINARY"
PACKAGED_BINARY = Path(__file__).resolve().parent / "bin" / "malachite"

# ELF e_machine values (the System V ABI's registry) of the architectures Malachite is built for.
_ELF_MACHINES = {0x3E: "x86_64", 0xB7: "aarch64"}
_WHEEL_MACHINES = ("x86_64", "aarch64")


def _how_to_get(machine: str) -> str:
    """What to do instead, for this machine: the wheel where there is one, else the image."""
    if sys.platform.startswith("linux") and machine in _WHEEL_MACHINES:
        return ("install the pytest-malachite wheel for linux-%s (any Linux on %s, glibc or musl), "
                "or set MALACHITE_BINARY to a malachite binary for this machine (the release "
                "bundle's bin/malachite, or /usr/bin/malachite from the .deb)" % (machine, machine))
    return ("the wheels hold binaries for Linux on x86_64 and aarch64 (any libc) only: run the "
            "container image instead (docker run -p 10002:10002 malachite), or set "
            "MALACHITE_BINARY to a malachite binary that runs here")


def this_platform() -> str:
    """'linux-x86_64', 'linux-aarch64', 'darwin-arm64', ...: how error messages name this machine."""
    return "%s-%s" % (sys.platform, platform.machine() or "unknown")


def resolve_binary(binary: "Optional[Union[str, os.PathLike[str]]]" = None) -> Tuple[str, str]:
    """Returns (path, where it came from) of the binary to run.

    Raises MalachiteBinaryError when there is none that this machine can run.
    """
    machine = platform.machine() or "unknown"
    how = _how_to_get(machine)
    if binary is not None:
        path, source = os.fspath(binary), "binary=%r" % os.fspath(binary)
    elif os.environ.get(ENV_BINARY):
        path, source = os.environ[ENV_BINARY], "%s=%s" % (ENV_BINARY, os.environ[ENV_BINARY])
    else:
        path, source = str(PACKAGED_BINARY), "the wheel's binary"
        if not sys.platform.startswith("linux"):
            raise MalachiteBinaryError("pytest-malachite: the wheel's malachite binary runs on Linux "
                                       "and this is %s; %s" % (this_platform(), how))
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
    built_for = elf_machine(path)
    if built_for is not None and built_for != machine:
        raise MalachiteBinaryError(
            "pytest-malachite: %s: %s is a linux-%s binary and this machine is %s; %s"
            % (source, path, built_for, this_platform(), how))
    return path, source


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
