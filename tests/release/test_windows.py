"""The Windows artefact of scripts/package (--windows-exe, --windows-deps), proven in two places.

Here, on Linux, as a file: malachite-<v>-windows-x86_64.zip holds malachite.exe, LICENSE.txt,
THIRD-PARTY-NOTICES.txt and README.txt under one folder, nothing else; malachite.exe is a PE
x86-64 console executable that imports DLLs of Windows itself only (it is static: nothing to put
beside it); the notices name the MinGW-w64 and GCC runtimes and the Windows build's libraries;
SHA256SUMS lists the zip.

On Windows (the release workflow's windows-latest job: `python -m pytest tests/release/test_windows.py`
with MALACHITE_PACKAGE_REQUIRED=1), as a user runs it: unzipped, `malachite.exe --version` prints
the version of the zip's name, and a server started by the published launcher (pytest_malachite,
from clients/python/src) serves the Python SDK's smoke test and stops with exit status 0 when its
standard input closes (Windows has no SIGTERM), leaving its data.mdb. Those tests skip elsewhere.

No zip in MALACHITE_DIST (default dist/): skipped, failed with MALACHITE_PACKAGE_REQUIRED=1.
"""
import hashlib
import os
import sys
import zipfile
from pathlib import Path

import pytest

import roots
from pe import MACHINE_X86_64, PE, SUBSYSTEM_CONSOLE
from required import unavailable

REPO = Path(__file__).resolve().parents[2]
FOLDER = Path(os.environ.get("MALACHITE_DIST") or REPO / "dist")
MEMBERS = ("malachite.exe", "LICENSE.txt", "THIRD-PARTY-NOTICES.txt", "README.txt")
# What every Windows has (scripts/package's windows_dlls): the only DLLs malachite.exe may import.
WINDOWS_DLLS = {"kernel32", "advapi32", "ws2_32", "mswsock", "bcrypt", "crypt32", "user32", "shell32",
                "ole32", "iphlpapi", "secur32", "ntdll", "msvcrt", "ucrtbase", "userenv", "rpcrt4",
                "dbghelp", "shlwapi", "wsock32", "normaliz", "psapi", "gdi32"}
ON_WINDOWS = sys.platform == "win32"


@pytest.fixture(scope="module")
def windows_version(request):
    """The release's version: scripts/package --version here; on Windows (no bash to run it) the
    one zip's name says it, and the Linux run of this file checked that name."""
    if not ON_WINDOWS:
        return request.getfixturevalue("version")
    found = sorted(FOLDER.glob("malachite-*-windows-x86_64.zip"))
    if len(found) != 1:
        unavailable("MALACHITE_PACKAGE_REQUIRED", "%d malachite-*-windows-x86_64.zip in %s, not one"
                    % (len(found), FOLDER))
    return found[0].name[len("malachite-"):-len("-windows-x86_64.zip")]


@pytest.fixture(scope="module")
def windows_zip(windows_version):
    """(its path, the folder inside it) of malachite-<v>-windows-x86_64.zip."""
    name = "malachite-%s-windows-x86_64" % windows_version
    path = FOLDER / (name + ".zip")
    if not path.is_file():
        unavailable("MALACHITE_PACKAGE_REQUIRED",
                    "no %s: scripts/package --windows-exe <the cross build's malachite.exe>" % path)
    return path, name


def member(windows_zip, name):
    path, folder = windows_zip
    with zipfile.ZipFile(path) as opened:
        return opened.read("%s/%s" % (folder, name))


def test_the_zip_holds_malachite_exe_the_licence_the_notices_and_a_readme_in_one_folder(windows_zip):
    path, folder = windows_zip
    with zipfile.ZipFile(path) as opened:
        names = opened.namelist()
    assert sorted(names) == sorted("%s/%s" % (folder, m) for m in MEMBERS), \
        "%s holds %s" % (path.name, names)


def test_malachite_exe_is_a_pe_x86_64_console_executable(windows_zip):
    exe = PE(member(windows_zip, "malachite.exe"))
    assert exe.machine == MACHINE_X86_64, "malachite.exe's PE machine is %#x, not x86-64 (0x8664)" % exe.machine
    assert exe.subsystem == SUBSYSTEM_CONSOLE, \
        "malachite.exe's subsystem is %d, not the console (3): its output would go nowhere" % exe.subsystem


def test_malachite_exe_imports_dlls_of_windows_itself_only(windows_zip):
    imports = PE(member(windows_zip, "malachite.exe")).imports
    foreign = [dll for dll in imports if dll.lower()[:-len(".dll")] not in WINDOWS_DLLS
               and not dll.lower().startswith("api-ms-win-")]
    assert imports and not foreign, \
        "malachite.exe needs %s beside it (not static); it imports %s" % (foreign, imports)


def test_the_licence_is_the_repositorys_and_the_readme_names_the_version(windows_zip, windows_version):
    assert member(windows_zip, "LICENSE.txt") == (REPO / "LICENSE").read_bytes()
    readme = member(windows_zip, "README.txt").decode()
    assert readme.startswith("Malachite %s for windows-x86_64" % windows_version), readme


def test_the_notices_name_the_mingw_runtimes_and_the_windows_builds_libraries(windows_zip):
    headings = [line for line in member(windows_zip, "THIRD-PARTY-NOTICES.txt").decode().splitlines()
                if line.startswith("==== ")]
    for runtime in ("mingw-w64-x86-64-dev", "g++-mingw-w64-x86-64-posix"):
        assert any(runtime + " " in heading for heading in headings), \
            "THIRD-PARTY-NOTICES.txt has no notice of %s: %s" % (runtime, headings)
    assert any("built static for Windows)" in heading for heading in headings), \
        "THIRD-PARTY-NOTICES.txt lists none of the Windows build's libraries: %s" % headings


def test_sha256sums_lists_the_zip(windows_zip):
    path, _ = windows_zip
    sums = (path.parent / "SHA256SUMS").read_text().split("\n")
    line = "%s  %s" % (hashlib.sha256(path.read_bytes()).hexdigest(), path.name)
    assert line in sums, "SHA256SUMS has no line %r" % line


# -- on Windows -------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def unzipped(windows_zip, tmp_path_factory):
    """malachite.exe of the zip, unzipped as a user would."""
    if not ON_WINDOWS:
        pytest.skip("runs on Windows (the release workflow's windows-latest job runs it)")
    path, folder = windows_zip
    where = tmp_path_factory.mktemp("windows")
    with zipfile.ZipFile(path) as opened:
        opened.extractall(where)
    return where / folder / "malachite.exe"


def test_malachite_exe_prints_the_version_of_the_zip(unzipped, windows_version):
    assert roots.version_line(unzipped) == "malachite " + windows_version


def test_it_serves_the_sdk_smoke_test_and_stops_with_0_when_its_stdin_closes(unzipped, tmp_path):
    data = tmp_path / "data"
    server, first_answer_ms = roots.start(unzipped, data_dir=data)
    try:
        smoke = roots.smoke_outcome(server.endpoint)
    finally:
        status = server.stop()  # stdin closed: the launcher's graceful stop on Windows
    roots.measured.append("windows-x86_64: first answer %.0f ms after the start" % first_answer_ms)
    assert smoke is True, "the SDK smoke test failed: %s" % smoke
    assert status == 0, "closing its stdin stopped it with %s (1: it was killed after 5 s); its last " \
                        "lines:\n%s" % (status, server.output())
    assert (data / "data.mdb").is_file(), "no data.mdb in %s after the stop" % data
