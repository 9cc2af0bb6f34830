"""The wheel holds a native binary: not pure, tagged py3-none-<PLATFORM_TAG>, the tag (set)
clients/python/build-wheel stamped into src/pytest_malachite/_version.py
(manylinux_2_17_x86_64.manylinux2014_x86_64.musllinux_1_2_x86_64, ...: the binary is static, so any
glibc or musl Linux of the architecture; win_amd64 for the Windows wheel's malachite.exe).
Everything else is in pyproject.toml.

The bdist_wheel command is setuptools' own (setuptools.command.bdist_wheel, setuptools 70.1+), else
the one setuptools finds registered under that name (the distutils.commands entry point: wheel's,
for Debian 12's setuptools 66): never an import of the deprecated wheel.bdist_wheel by name.
Its --plat-name cannot give a compressed tag set (it turns the dots into underscores), so get_tag
gives the tag."""
import os
import re
from pathlib import Path

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

try:
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # setuptools < 70.1: the command another package registers (wheel)
    bdist_wheel = Distribution().get_command_class("bdist_wheel")

HERE = Path(__file__).resolve().parent
STAMP = HERE / "src" / "pytest_malachite" / "_version.py"
BINARIES = [STAMP.parent / "bin" / name for name in ("malachite", "malachite.exe")]
if not STAMP.exists() or not any(binary.exists() for binary in BINARIES):
    raise SystemExit("pytest-malachite is built by clients/python/build-wheel (it stamps the version "
                     "and copies the malachite binary from the release bundle)")
PLATFORM_TAG = re.search(r'^PLATFORM_TAG = "([^"]+)"', STAMP.read_text(), re.M).group(1)


class BinaryDistribution(Distribution):
    """Holds a native binary: built into a platform directory, Root-Is-Purelib false."""

    def has_ext_modules(self):
        return True


class platform_wheel(bdist_wheel):
    def get_tag(self):
        return "py3", "none", PLATFORM_TAG


class build_py_keeping_modes(build_py):
    """Package data keeps its file modes (the binary's exec bits reach the wheel's zip entries,
    which pip restores on install)."""

    def run(self):
        super().run()
        source = STAMP.parent / "bin"
        target = Path(self.build_lib) / "pytest_malachite" / "bin"
        for path in source.iterdir():
            os.chmod(target / path.name, path.stat().st_mode & 0o777)


setup(distclass=BinaryDistribution, cmdclass={"bdist_wheel": platform_wheel, "build_py": build_py_keeping_modes})
