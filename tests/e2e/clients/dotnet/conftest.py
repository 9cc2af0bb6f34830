"""The NuGet packages as a user's project gets them: packed from the release bundle in dist/
(scripts/package first), restored from a folder feed into projects copied to a temporary directory,
built and run there. Shared by test_nuget_packages.py (what the packages hold, how they restore and
build), test_nuget_tests.py (the examples' and behaviour tests run, the SIGKILL lifeline, figures)
and test_testcontainers.py (the module against a Docker engine).

Environment: MALACHITE_DIST is the bundles' folder (default dist/: scripts/package's; the Windows
zip there adds runtimes/win-x64 to Malachite.Server), MALACHITE_PACKAGE_REQUIRED=1 fails instead of
skipping without the bundle (or, for the Windows tests, the zip),
MALACHITE_REQUIRE_ARM64=1 packs with --require-arm64 (scripts/package --arch aarch64 first),
MALACHITE_DOCKER_REQUIRED=1 fails instead of skipping without a Docker engine. MALACHITE_BINARY is
not passed on: the packages' own binary is what is under test.
"""
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from nuget_projects import ARCH, DIST, HERE, PACKAGES, PROJECTS, ROOT, Dotnet, errors_of
from required import is_required, unavailable  # tests/support, on sys.path through nuget_projects


@pytest.fixture(scope="session")
def work():
    """A temporary directory for the whole run (feed, projects, logs), removed at its end."""
    path = Path(tempfile.mkdtemp(prefix="malachite-dotnet-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="session")
def version():
    return subprocess.run([str(ROOT / "scripts" / "package"), "--version"], capture_output=True, text=True,
                          check=True).stdout.strip()


@pytest.fixture(scope="session")
def bundle(version):
    """The release bundle for this machine in MALACHITE_DIST (default dist/: scripts/package makes it)."""
    path = DIST / ("malachite-%s-linux-%s.tar.gz" % (version, ARCH))
    if not path.exists():
        unavailable("MALACHITE_PACKAGE_REQUIRED", "no %s: run scripts/package first" % path)
    return path


@pytest.fixture(scope="session")
def windows_zip(version):
    """malachite-<v>-windows-x86_64.zip in MALACHITE_DIST (scripts/package --windows-exe EXE)."""
    path = DIST / ("malachite-%s-windows-x86_64.zip" % version)
    if not path.exists():
        unavailable("MALACHITE_PACKAGE_REQUIRED",
                    "no %s: run scripts/package --windows-exe <the cross build's malachite.exe>" % path)
    return path


@pytest.fixture(scope="session")
def dotnet(work, version):
    if shutil.which("dotnet") is None:
        if os.environ.get("CI") in ("true", "1"):
            pytest.fail("no dotnet on PATH (CI has the .NET SDK for tests/e2e/dotnet)", pytrace=False)
        pytest.skip("no dotnet on PATH (install the .NET SDK 10)")
    return Dotnet(work, version)


@pytest.fixture(scope="session")
def feed(dotnet, bundle, work, version):
    """clients/dotnet/pack's three .nupkg files in a folder feed (the examples' nuget.config names
    it feed/): {package id: path}."""
    feed = work / "examples" / "feed"
    args = ["--out", str(feed), "--dist", str(DIST)] + (
        ["--require-arm64"] if is_required("MALACHITE_REQUIRE_ARM64") else [])
    log = work / "pack.log"
    status = dotnet.run(args, ROOT, log, program=str(ROOT / "clients" / "dotnet" / "pack"))
    assert status == 0, "clients/dotnet/pack exited %d:\n%s" % (status, log.read_text()[-4000:])
    return {package: feed / ("%s.%s.nupkg" % (package, version)) for package in PACKAGES}


@pytest.fixture(scope="session")
def examples(dotnet, feed, work, version):
    """tests/e2e/clients/dotnet's example and behaviour projects copied to a clean directory beside
    the feed, restored from it and NuGet's registry (never a ProjectReference) and built once."""
    examples = work / "examples"
    for project in PROJECTS:
        folder = project.split("/")[0]
        shutil.copytree(HERE / folder, examples / folder, ignore=shutil.ignore_patterns("bin", "obj", "TestResults"))
    for name in ("Directory.Build.props", "nuget.config"):
        shutil.copy(HERE / name, examples / name)
    (examples / "Examples.slnx").write_text(
        "<Solution>\n%s</Solution>\n" % "".join('  <Project Path="%s" />\n' % p for p in PROJECTS))
    dotnet.forget_malachite()
    log = work / "build.log"
    status = dotnet.run(["build", "Examples.slnx", "-m:1", "--disable-build-servers", "-nologo", "-v", "quiet",
                         "-p:MalachiteVersion=" + version], examples, log)
    assert status == 0, "restore and build of the examples from the feed failed:\n" + errors_of(log)
    return examples


@pytest.fixture(scope="session")
def console_dll(examples):
    return examples / "console" / "bin" / "Debug" / "net10.0" / "Malachite.Examples.Console.dll"


CURL = """#!/usr/bin/env bash
# The README's curl: serves the release's URLs from the feed (as the release will hold them) and
# fetches nothing else.
out="" url=""
while (($#)); do case "$1" in -o) out="$2"; shift 2 ;; -*) shift ;; *) url="$1"; shift ;; esac; done
prefix="https://github.com/$REPO/releases/download/v$V/"
[[ -n "$out" && "$url" == "$prefix"* && -f "$MALACHITE_FEED/${url#"$prefix"}" ]] ||
  { echo "curl (tests/e2e/clients/dotnet): not a file of the release: $url" >&2; exit 22; }
cp "$MALACHITE_FEED/${url#"$prefix"}" "$out"
"""


@pytest.fixture(scope="session")
def new_user(dotnet, feed, work, version):
    """new_user(runner) -> the folder of a project a new user makes for xunit or nunit: an empty
    folder, `dotnet new <runner>`, the README's nuget.config and commands as written
    (new-user/add-packages.sh, its curl served from the feed), the README's examples in place of
    the template's test, built. Made once per runner."""
    shim = work / "shim"
    shim.mkdir(exist_ok=True)
    (shim / "curl").write_text(CURL)
    (shim / "curl").chmod(0o755)
    made = {}

    def make(runner):
        if runner not in made:
            folder = work / "new-user" / ("Orders.%sTests" % runner.capitalize())  # dotnet new names it so
            folder.mkdir(parents=True)
            # A new user's NuGet cache has no Malachite.*: they come from the sources nuget.config names.
            dotnet.forget_malachite()
            log = work / ("new-user-%s.log" % runner)
            script = ("set -euo pipefail\n"
                      "dotnet new %s --no-restore --no-update-check\n"
                      "rm UnitTest1.cs\n"
                      "cp '%s' .\n"
                      "PATH='%s':$PATH V='%s' REPO=example/malachite MALACHITE_FEED='%s' bash -euo pipefail '%s'\n"
                      "cp '%s'/*.cs .\n"
                      "dotnet build -m:1 --disable-build-servers -nologo -v quiet\n") % (
                          runner, HERE / "new-user" / "nuget.config", shim, version, feed["Malachite.Server"].parent,
                          HERE / "new-user" / "add-packages.sh", HERE / runner)
            status = dotnet.run(["-c", script], folder, log, program="bash")
            made[runner] = (folder, status, log)
        folder, status, log = made[runner]
        assert status == 0, "a new %s project with the README's nuget.config and commands failed:\n%s" % (
            runner, errors_of(log, ("error", "warn", "curl")))
        return folder

    return make
