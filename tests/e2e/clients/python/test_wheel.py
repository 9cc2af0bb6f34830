"""The pytest-malachite wheel as a user installs it.

clients/python/build-wheel makes the wheel of this machine from scripts/package's bundle in
MALACHITE_DIST (default dist/; and the aarch64 one when its bundle is there:
MALACHITE_REQUIRE_ARM64=1 requires it) into a temp dir. Its contents, tags, metadata and entry point are read from the file; pip (Debian's) is asked
which machines it takes it for; then it is installed with pip --no-index --no-deps into a clean
virtual environment (--system-site-packages: Debian's pytest and azure-data-tables), where pytest
runs, from a temp dir, the README's examples (test_example.py, factory/), the behaviour tests
(test_plugin.py) and mypy --strict on the package and on typed_usage.py.

The Windows wheel (build-wheel --windows, from malachite-<v>-windows-x86_64.zip) is read as a file
(its tag py3-none-win_amd64, bin/malachite.exe and its RECORD), pip is asked which machines it takes
it for, and it is installed for win_amd64 into a folder where the launcher, told it runs on Windows
x64, resolves its bin/malachite.exe (the release workflow's Windows job runs it there:
test_windows.py). No zip: those tests skip (MALACHITE_PACKAGE_REQUIRED=1: fail).

    /usr/bin/python3 -m pytest tests/e2e/clients/python          (after scripts/package)

No bundle in dist/: skipped (MALACHITE_PACKAGE_REQUIRED=1: failed); the same for python3-mypy.
The README's snippets are checked against these files by tests/docs.
"""
import base64
import hashlib
import json
import os
import platform
import shutil
import subprocess
import xml.etree.ElementTree as ElementTree
import zipfile
from pathlib import Path

import pytest

from required import unavailable

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[3]
PYTHON = "/usr/bin/python3"  # Debian's: its setuptools, wheel, pytest and azure-data-tables
DIST = Path(os.environ.get("MALACHITE_DIST") or ROOT / "dist")
MACHINE = platform.machine()
ARCHES = ("x86_64", "aarch64")
ELF_MACHINE = {"x86_64": 0x3E, "aarch64": 0xB7}
LIBC_TAGS = ("manylinux_2_17", "manylinux2014", "musllinux_1_2")


def other(arch):
    return "aarch64" if arch == "x86_64" else "x86_64"


def run(command, **kwargs):
    """Runs command; returns (exit status, stdout and stderr)."""
    out = subprocess.run([str(c) for c in command], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True, timeout=kwargs.pop("timeout", 900), **kwargs)
    return out.returncode, out.stdout


def tail(text, lines=60):
    return "\n".join(text.rstrip().splitlines()[-lines:])


@pytest.fixture(scope="session")
def version():
    status, out = run([ROOT / "scripts" / "package", "--version"])
    assert status == 0, "scripts/package --version: " + out
    return out.strip()


@pytest.fixture(scope="session")
def wheels(version, tmp_path_factory):
    """{arch: the wheel's path} for each architecture whose bundle dist/ has, this machine's first."""
    bundle = DIST / ("malachite-%s-linux-%s.tar.gz" % (version, MACHINE))
    if not bundle.is_file():
        unavailable("MALACHITE_PACKAGE_REQUIRED", "no %s: run scripts/package first" % bundle)
    arches = [a for a in (MACHINE, other(MACHINE))
              if (DIST / ("malachite-%s-linux-%s.tar.gz" % (version, a))).is_file()]
    out = tmp_path_factory.mktemp("wheels")
    command = [ROOT / "clients" / "python" / "build-wheel", "--dist", DIST, "--out", out]
    for arch in arches:
        command += ["--arch", arch]
    status, output = run(command)
    assert status == 0, "clients/python/build-wheel failed:\n" + tail(output)
    tag = lambda a: ".".join("%s_%s" % (p, a) for p in LIBC_TAGS)
    return {a: out / ("pytest_malachite-%s-py3-none-%s.whl" % (version, tag(a))) for a in arches}


@pytest.fixture(params=ARCHES)
def wheel(request, wheels):
    """The wheel of one architecture, opened; a missing aarch64 bundle skips (or fails, required)."""
    arch = request.param
    if arch not in wheels:
        why = "no %s bundle in dist/ (scripts/package --arch %s): only the %s wheel" % (arch, arch, MACHINE)
        if arch == "aarch64":
            unavailable("MALACHITE_REQUIRE_ARM64", why)
        pytest.skip(why)
    with zipfile.ZipFile(wheels[arch]) as opened:
        yield arch, opened


def dist_info(version):
    return "pytest_malachite-%s.dist-info/" % version


# -- the wheel's file -------------------------------------------------------------------------------

def test_the_wheel_holds_one_executable_binary_of_its_architecture(wheel):
    arch, opened = wheel
    info = opened.getinfo("pytest_malachite/bin/malachite")
    assert (info.external_attr >> 16) & 0o111 == 0o111, "the binary is not executable in the wheel"
    machine = int.from_bytes(opened.read(info)[18:20], "little")
    assert machine == ELF_MACHINE[arch], "not an %s ELF file (e_machine %#x)" % (arch, machine)
    in_bin = [n for n in opened.namelist() if n.startswith("pytest_malachite/bin/")]
    assert in_bin == [info.filename], "more than the binary in bin/: %s" % in_bin


def test_the_wheel_carries_py_typed_the_plugin_the_license_and_the_notices(wheel, version):
    _, opened = wheel
    names = set(opened.namelist())
    for name in ("pytest_malachite/py.typed", "pytest_malachite/plugin.py", dist_info(version) + "LICENSE",
                 dist_info(version) + "THIRD-PARTY-NOTICES"):
        assert name in names, "the wheel has no " + name


def test_the_wheels_metadata_has_the_version_the_license_and_the_readme(wheel, version):
    _, opened = wheel
    meta = opened.read(dist_info(version) + "METADATA").decode()
    assert "\nVersion: %s\n" % version in meta, "METADATA does not say Version: %s:\n%s" % (version, meta[:400])
    assert "\nLicense: MIT\n" in meta, "METADATA does not say License: MIT:\n" + meta[:400]
    assert "def test_orders_are_kept_per_account(malachite_account):" in meta, "the README is not in METADATA"


def test_the_wheel_is_tagged_for_glibc_2_17_and_musl_1_2_of_its_architecture(wheel, version):
    arch, opened = wheel
    lines = opened.read(dist_info(version) + "WHEEL").decode().splitlines()
    tags = [line for line in lines if line.startswith("Tag: ")]
    assert tags == ["Tag: py3-none-%s_%s" % (p, arch) for p in LIBC_TAGS], tags


def test_the_wheel_registers_the_plugin_as_a_pytest11_entry_point(wheel, version):
    _, opened = wheel
    entry_points = opened.read(dist_info(version) + "entry_points.txt").decode()
    assert "[pytest11]\nmalachite = pytest_malachite.plugin" in entry_points, entry_points


# pip takes each wheel for a glibc 2.17+ or musl 1.2+ Linux of its architecture (a newer one's pip
# lists these among its tags too: the venv below installs it on this machine's glibc), and for
# nothing older or other: --platform plays the other machines.
PLATFORMS = [("manylinux_2_17_{a}", True), ("musllinux_1_2_{a}", True), ("musllinux_1_1_{a}", False),
             ("manylinux_2_12_{a}", False), ("musllinux_1_2_{o}", False), ("macosx_11_0_{a}", False)]


@pytest.mark.parametrize("platform_tag, taken", PLATFORMS, ids=[p for p, _ in PLATFORMS])
def test_pip_takes_the_wheel_for_linux_of_its_architecture_with_glibc_2_17_or_musl_1_2_only(
        wheel, wheels, platform_tag, taken, tmp_path):
    arch, _ = wheel
    tag = platform_tag.format(a=arch, o=other(arch))
    status, out = run([PYTHON, "-m", "pip", "install", "--dry-run", "--quiet", "--no-index", "--no-deps",
                       "--only-binary=:all:", "--platform", tag, "--target", tmp_path / "target", wheels[arch]])
    assert (status == 0) == taken, "pip --platform %s %s the %s wheel (expected: %s):\n%s" % (
        tag, "accepted" if status == 0 else "refused", arch, "accepted" if taken else "refused", tail(out, 5))


# -- the Windows wheel ------------------------------------------------------------------------------

@pytest.fixture(scope="session")
def windows_wheel(version, tmp_path_factory):
    """The win_amd64 wheel that build-wheel --windows makes from the Windows zip: (its path, the zip)."""
    archive = DIST / ("malachite-%s-windows-x86_64.zip" % version)
    if not archive.is_file():
        unavailable("MALACHITE_PACKAGE_REQUIRED",
                    "no %s: run scripts/package --windows-exe <the cross build's malachite.exe>" % archive)
    out = tmp_path_factory.mktemp("windows-wheel")
    status, output = run([ROOT / "clients" / "python" / "build-wheel", "--windows", "--dist", DIST, "--out", out])
    assert status == 0, "clients/python/build-wheel --windows failed:\n" + tail(output)
    wheel = out / ("pytest_malachite-%s-py3-none-win_amd64.whl" % version)
    assert wheel.is_file(), "build-wheel --windows made %s, not %s" % (sorted(p.name for p in out.iterdir()), wheel.name)
    return wheel, archive


def test_the_windows_wheel_is_tagged_py3_none_win_amd64_and_not_pure(windows_wheel, version):
    with zipfile.ZipFile(windows_wheel[0]) as opened:
        lines = opened.read(dist_info(version) + "WHEEL").decode().splitlines()
    assert [line for line in lines if line.startswith("Tag: ")] == ["Tag: py3-none-win_amd64"], lines
    assert "Root-Is-Purelib: false" in lines, lines


def test_the_windows_wheel_holds_the_zips_malachite_exe_a_pe_x86_64_executable(windows_wheel, version):
    wheel, archive = windows_wheel
    with zipfile.ZipFile(wheel) as opened:
        in_bin = [n for n in opened.namelist() if n.startswith("pytest_malachite/bin/")]
        exe = opened.read("pytest_malachite/bin/malachite.exe")
        notices = opened.read(dist_info(version) + "THIRD-PARTY-NOTICES")
    assert in_bin == ["pytest_malachite/bin/malachite.exe"], in_bin
    assert exe[:2] == b"MZ", "bin/malachite.exe is not a PE file"
    header = int.from_bytes(exe[0x3C:0x40], "little")
    assert exe[header:header + 4] == b"PE\0\0"
    machine = int.from_bytes(exe[header + 4:header + 6], "little")
    assert machine == 0x8664, "bin/malachite.exe's PE machine is %#x, not x86-64 (0x8664)" % machine
    folder = "malachite-%s-windows-x86_64/" % version
    with zipfile.ZipFile(archive) as opened:
        assert exe == opened.read(folder + "malachite.exe"), "bin/malachite.exe is not the zip's malachite.exe"
        assert notices == opened.read(folder + "THIRD-PARTY-NOTICES.txt"), "the notices are not the zip's"


def test_the_windows_wheels_record_lists_every_file_with_its_sha256_and_size(windows_wheel, version):
    with zipfile.ZipFile(windows_wheel[0]) as opened:
        record = {}
        for line in opened.read(dist_info(version) + "RECORD").decode().splitlines():
            name, digest, size = line.rsplit(",", 2)
            record[name] = (digest, size)
        for name in opened.namelist():
            assert name in record, "RECORD does not list " + name
            if name == dist_info(version) + "RECORD":
                assert record[name] == ("", ""), record[name]
                continue
            data = opened.read(name)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            assert record[name] == ("sha256=" + digest, str(len(data))), "RECORD's line for %s is wrong" % name
        assert len(record) == len(opened.namelist()), "RECORD lists files the wheel does not hold"
    assert "pytest_malachite/bin/malachite.exe" in record


WINDOWS_PLATFORMS = [("win_amd64", True), ("win32", False), ("win_arm64", False), ("manylinux_2_17_x86_64", False)]


@pytest.mark.parametrize("platform_tag, taken", WINDOWS_PLATFORMS, ids=[p for p, _ in WINDOWS_PLATFORMS])
def test_pip_takes_the_windows_wheel_for_win_amd64_only(windows_wheel, platform_tag, taken, tmp_path):
    status, out = run([PYTHON, "-m", "pip", "install", "--dry-run", "--quiet", "--no-index", "--no-deps",
                       "--only-binary=:all:", "--platform", platform_tag, "--target", tmp_path / "target",
                       windows_wheel[0]])
    assert (status == 0) == taken, "pip --platform %s %s the Windows wheel:\n%s" % (
        platform_tag, "accepted" if status == 0 else "refused", tail(out, 5))


# Run by Debian's python3 with the Windows wheel's package first on sys.path: told (before the
# package is imported, as it names its binary then) that it runs on Windows x64 or not, it prints
# what resolve_binary() answers.
RESOLVE = """
import json, os, platform, subprocess, sys, urllib.request  # imported as this system's first
sys.path.insert(0, sys.argv[1])
if sys.argv[2] == "windows":
    sys.platform = "win32"
    platform.machine = lambda: "AMD64"
import pytest_malachite
try:
    print(json.dumps({"resolved": list(pytest_malachite.resolve_binary())}))
except pytest_malachite.MalachiteBinaryError as e:
    print(json.dumps({"error": str(e)}))
"""


@pytest.fixture(scope="session")
def windows_install(windows_wheel, tmp_path_factory):
    """The Windows wheel installed by pip for win_amd64 into a folder (pip --target)."""
    target = tmp_path_factory.mktemp("windows-install")
    status, out = run([PYTHON, "-m", "pip", "install", "--quiet", "--no-index", "--no-deps", "--only-binary=:all:",
                       "--platform", "win_amd64", "--target", target, windows_wheel[0]])
    assert status == 0, "pip install --platform win_amd64 of the Windows wheel failed:\n" + tail(out)
    return target


def resolved_from(target, system, binary=None):
    env = {k: v for k, v in os.environ.items() if k != "MALACHITE_BINARY"}
    if binary is not None:
        env["MALACHITE_BINARY"] = str(binary)
    status, out = run([PYTHON, "-c", RESOLVE, target, system], env=env)
    assert status == 0, out
    return json.loads(out.strip().splitlines()[-1])


def test_told_it_runs_on_windows_x64_the_launcher_resolves_the_wheels_malachite_exe(windows_install):
    assert resolved_from(windows_install, "windows") == {
        "resolved": [str(windows_install / "pytest_malachite" / "bin" / "malachite.exe"), "the wheel's binary"]}


def test_on_linux_the_windows_wheel_has_no_binary_and_malachite_exe_is_refused_in_one_line(windows_install):
    none = resolved_from(windows_install, "linux")["error"]
    assert "this installation has no malachite binary for linux-%s" % MACHINE in none, none
    exe = windows_install / "pytest_malachite" / "bin" / "malachite.exe"
    refused = resolved_from(windows_install, "linux", binary=exe)["error"]
    assert "%s is a windows-x86_64 binary and this machine is linux-%s" % (exe, MACHINE) in refused, refused
    assert "\n" not in refused and "MALACHITE_BINARY" in refused


# -- installed in a clean virtual environment -------------------------------------------------------

@pytest.fixture(scope="session")
def venv(wheels, tmp_path_factory):
    """A clean venv (Debian's site packages visible) with this machine's wheel installed: its python."""
    where = tmp_path_factory.mktemp("venv")
    status, out = run([PYTHON, "-m", "venv", "--system-site-packages", "--without-pip", where])
    assert status == 0, "python3 -m venv failed (python3-venv, scripts/install-deps):\n" + out
    python = where / "bin" / "python"
    status, out = run([python, "-m", "pip", "install", "--quiet", "--no-index", "--no-deps", wheels[MACHINE]])
    assert status == 0, "pip install of the wheel into a clean venv failed:\n" + tail(out)
    return python


@pytest.fixture(scope="session")
def user_dir(tmp_path_factory):
    """A user's tests directory: the README's examples, the behaviour tests and typed_usage.py."""
    where = tmp_path_factory.mktemp("user")
    for name in ("test_example.py", "test_plugin.py", "typed_usage.py"):
        shutil.copy(HERE / name, where / name)
    shutil.copytree(HERE / "factory", where / "factory")
    return where


def pytest_in_venv(venv, user_dir, wheels, version, target, tmp_path):
    """Runs pytest in the venv on target (in user_dir); returns (status, output, failed test reports)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("MALACHITE_BINARY", "PYTEST_ADDOPTS", "PYTEST_PLUGINS", "PYTEST_DISABLE_PLUGIN_AUTOLOAD")}
    env["MALACHITE_EXPECTED_VERSION"] = version
    if other(MACHINE) in wheels:
        env["MALACHITE_OTHER_ARCH_WHEEL"] = str(wheels[other(MACHINE)])
    report = tmp_path / "junit.xml"
    status, out = run([venv, "-m", "pytest", "-p", "no:cacheprovider", "--basetemp", tmp_path / "basetemp", "-q",
                       "-rfEs", "--junitxml", report, target], cwd=user_dir, env=env)
    failed = []
    if report.is_file():
        for case in ElementTree.parse(report).iter("testcase"):
            for problem in list(case.findall("failure")) + list(case.findall("error")):
                failed.append("%s: %s" % (case.get("name"), (problem.get("message") or "").strip()))
    return status, out, failed


def print_figures(capsys, output):
    """The figures the behaviour tests print (start-up times, ...): shown, not asserted."""
    figures = [line.strip() for line in output.splitlines() if line.strip().startswith("figure:")]
    with capsys.disabled():
        print("".join("\n  " + line for line in figures))


def test_the_installed_binary_is_executable(venv):
    status, out = run([venv, "-c", "import os, pytest_malachite._binary as b; "
                                   "assert os.access(b.PACKAGED_BINARY, os.X_OK), b.PACKAGED_BINARY"])
    assert status == 0, "the installed binary is not executable:\n" + out


def test_the_readme_example_passes_with_the_installed_plugin(venv, user_dir, wheels, version, tmp_path):
    status, out, failed = pytest_in_venv(venv, user_dir, wheels, version, "test_example.py", tmp_path)
    assert status == 0 and "1 passed" in out, (
        "the README example (tests/e2e/clients/python/test_example.py) failed: %s\n%s" % (failed, tail(out)))


def test_the_readmes_fixture_factory_example_passes_with_the_installed_plugin(venv, user_dir, wheels, version,
                                                                              tmp_path):
    status, out, failed = pytest_in_venv(venv, user_dir, wheels, version, "factory", tmp_path)
    assert status == 0 and "2 passed" in out, (
        "the README's fixture factory example (tests/e2e/clients/python/factory/) failed: %s\n%s"
        % (failed, tail(out)))


def test_the_plugins_behaviour_tests_pass_in_the_clean_venv(venv, user_dir, wheels, version, tmp_path, capsys):
    """test_plugin.py: the surface, the factories, isolation under pytest-xdist, bad input, SIGKILL."""
    status, out, failed = pytest_in_venv(venv, user_dir, wheels, version, "test_plugin.py", tmp_path)
    print_figures(capsys, out)
    assert not failed, "test_plugin.py in the clean venv: %d failed:\n%s" % (len(failed), "\n".join(failed))
    assert status == 0, "pytest test_plugin.py in the clean venv exited with %d:\n%s" % (status, tail(out))


def run_mypy(venv, user_dir, *target):
    try:
        import mypy  # noqa: F401  (Debian's python3-mypy)
    except ImportError:
        unavailable("MALACHITE_PACKAGE_REQUIRED", "python3-mypy is not installed (scripts/install-deps)")
    cache = Path(os.environ.get("MALACHITE_CACHE") or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
                 / "malachite") / "mypy"
    cache.mkdir(parents=True, exist_ok=True)
    return run([PYTHON, "-m", "mypy", "--strict", "--python-executable", venv, "--cache-dir", cache,
                "--no-error-summary", *target], cwd=user_dir)


def test_mypy_strict_accepts_the_installed_package(venv, user_dir):
    status, out = run_mypy(venv, user_dir, "-p", "pytest_malachite")
    assert status == 0, "mypy --strict -p pytest_malachite (installed):\n" + tail(out)


def test_mypy_strict_accepts_a_users_code_through_the_packages_py_typed(venv, user_dir):
    status, out = run_mypy(venv, user_dir, "typed_usage.py")
    assert status == 0, "mypy --strict typed_usage.py against the installed wheel:\n" + tail(out)
