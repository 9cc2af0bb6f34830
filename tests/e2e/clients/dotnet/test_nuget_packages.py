"""What the NuGet packages hold and how a user's project gets them: the bundle's binary in
Malachite.Server, Malachite.Client as the others' dependency from the feed, a build for Alpine's
musl RID, and new xUnit and NUnit projects made from empty folders with the README's nuget.config and
commands. The Windows zip's malachite.exe as runtimes/win-x64/native/malachite.exe: the package
holds it, a build for win-x64 gets it, and MalachiteServer.ResolveBinary names it for Windows x64
(the release workflow's windows job runs the package there: windows/). (The packages' READMEs
quote the examples verbatim: tests/docs/test_doc_snippets.py.)
"""
import json
import subprocess
import tarfile
import zipfile

import pytest

from nuget_projects import PACKAGES, RID_ARCH, figure
from required import unavailable

ELF_MACHINE = {"x86_64": 62, "aarch64": 183}


def packed(nupkg, name):
    with zipfile.ZipFile(nupkg) as z:
        return z.read(name) if name in z.namelist() else None


def elf_machine(data):
    """The e_machine field of an ELF header (62 x86-64, 183 aarch64), or None if not an ELF."""
    return int.from_bytes(data[18:20], "little") if data and data[:4] == b"\x7fELF" else None


def restored(project_dir, package, version):
    assets = json.loads((project_dir / "obj" / "project.assets.json").read_text())
    return "%s/%s" % (package, version) in assets["libraries"]


def test_the_server_package_carries_the_bundles_x86_64_binary(feed, bundle, version, capsys):
    sizes = ", ".join("%s %d KiB" % (p.name, p.stat().st_size // 1024) for p in feed.values())
    figure(capsys, "packed: " + sizes)
    binary = packed(feed["Malachite.Server"], "runtimes/linux-x64/native/malachite")
    assert elf_machine(binary) == 62, "runtimes/linux-x64/native/malachite is not an x86-64 ELF"
    x86_bundle = bundle.parent / ("malachite-%s-linux-x86_64.tar.gz" % version)
    with tarfile.open(x86_bundle) as tar:
        expected = tar.extractfile("malachite-%s-linux-x86_64/bin/malachite" % version).read()
    assert binary == expected, "the package's linux-x64 binary is not the bundle's bin/malachite"


def test_an_arm64_binary_in_the_server_package_is_an_aarch64_elf(feed):
    binary = packed(feed["Malachite.Server"], "runtimes/linux-arm64/native/malachite")
    if binary is None:
        unavailable("MALACHITE_REQUIRE_ARM64",
                    "Malachite.Server has no linux-arm64 binary (scripts/package --arch aarch64 first)")
    assert elf_machine(binary) == 183, "runtimes/linux-arm64/native/malachite is not an aarch64 ELF"


@pytest.mark.parametrize("project", ["behaviour", "testcontainers"])
def test_a_dependent_package_brings_malachite_client_from_the_feed(examples, version, project):
    assert restored(examples / project, "Malachite.Client", version), (
        "%s/ did not restore Malachite.Client %s (a dependency of Malachite.Server and "
        "Malachite.Testcontainers)" % (project, version))


@pytest.fixture(scope="module")
def musl_build(dotnet, examples, version, work):
    """console/ built for linux-musl-<arch> (Alpine's RID) in a folder of its own."""
    folder = examples / "console-musl"
    folder.mkdir()
    for name in ("Program.cs", "Malachite.Examples.Console.csproj"):
        (folder / name).write_bytes((examples / "console" / name).read_bytes())
    log = work / "build-musl.log"
    status = dotnet.run(["build", "-r", "linux-musl-" + RID_ARCH, "-m:1", "--disable-build-servers", "-nologo",
                         "-v", "quiet", "-p:MalachiteVersion=" + version], folder, log)
    assert status == 0, "restore and build for linux-musl-%s failed:\n%s" % (RID_ARCH, log.read_text()[-4000:])
    return folder / "bin" / "Debug" / "net10.0" / ("linux-musl-" + RID_ARCH)


def test_a_build_for_the_musl_rid_gets_the_packages_linux_binary(musl_build, feed):
    # NuGet's RID graph (linux-musl-<arch> imports linux-<arch>) gives it the static binary, flat in
    # its output directory, where Malachite.Server finds it.
    expected = packed(feed["Malachite.Server"], "runtimes/linux-%s/native/malachite" % RID_ARCH)
    assert (musl_build / "malachite").exists() and (musl_build / "malachite").read_bytes() == expected, (
        "a build for linux-musl-%s has no malachite of the package's runtimes/linux-%s/native/" % (RID_ARCH, RID_ARCH))


def test_a_build_for_the_musl_rid_starts_its_server(dotnet, musl_build, work):
    log = work / "bench-musl.log"
    status = dotnet.run([str(musl_build / "Malachite.Examples.Console.dll"), "bench", "1"], musl_build, log,
                        timeout=120)
    assert status == 0, "the linux-musl-%s build's server did not start (exit %d):\n%s" % (
        RID_ARCH, status, log.read_text()[-3000:])


@pytest.mark.parametrize("runner", ["xunit", "nunit"])
def test_a_new_users_project_builds_with_the_readmes_nuget_config_and_commands(new_user, runner):
    assert (new_user(runner) / "bin").is_dir(), "the new %s project built nothing" % runner


@pytest.mark.parametrize("runner", ["xunit", "nunit"])
def test_a_new_users_project_restores_every_malachite_package_at_the_release_version(new_user, runner, version):
    folder = new_user(runner)
    missing = [p for p in PACKAGES if not restored(folder, p, version)]
    assert not missing, "the new %s project did not restore %s at %s" % (runner, ", ".join(missing), version)


# -- win-x64 ------------------------------------------------------------------------------------------

def pe_machine(data):
    """The machine of a PE file (0x8664 x86-64), or None if the bytes are not one."""
    if not data or data[:2] != b"MZ":
        return None
    header = int.from_bytes(data[0x3C:0x40], "little")
    return int.from_bytes(data[header + 4:header + 6], "little") if data[header:header + 4] == b"PE\0\0" else None


def test_the_server_package_carries_the_windows_zips_malachite_exe_as_win_x64(feed, windows_zip, version):
    binary = packed(feed["Malachite.Server"], "runtimes/win-x64/native/malachite.exe")
    assert binary is not None, "Malachite.Server has no runtimes/win-x64/native/malachite.exe"
    assert pe_machine(binary) == 0x8664, "runtimes/win-x64/native/malachite.exe is not a PE x86-64 executable"
    with zipfile.ZipFile(windows_zip) as opened:
        expected = opened.read("malachite-%s-windows-x86_64/malachite.exe" % version)
    assert binary == expected, "the package's win-x64 malachite.exe is not the zip's"


def resolved(dotnet, dll, *platform):
    """What the console program's `resolve [platform]` prints: MalachiteServer.ResolveBinary's answer."""
    out = subprocess.run(["dotnet", str(dll), "resolve", *platform], capture_output=True, text=True,
                         env=dotnet.env, timeout=120)
    assert out.returncode == 0, "resolve %s: %s%s" % (" ".join(platform), out.stdout, out.stderr)
    return out.stdout.strip()


def test_resolve_binary_names_runtimes_win_x64_native_malachite_exe_for_windows_x64(dotnet, console_dll, windows_zip):
    # A build without a RuntimeIdentifier has every runtime's asset under runtimes/<rid>/native/.
    output = console_dll.parent
    assert resolved(dotnet, console_dll, "windows", "x64") == str(output / "runtimes" / "win-x64" / "native" / "malachite.exe")
    assert resolved(dotnet, console_dll) == str(output / "runtimes" / ("linux-" + RID_ARCH) / "native" / "malachite")


@pytest.fixture(scope="module")
def windows_build(dotnet, examples, windows_zip, version, work):
    """console/ built for win-x64 (a Windows user's build with a RuntimeIdentifier) in a folder of its own."""
    folder = examples / "console-win"
    folder.mkdir()
    for name in ("Program.cs", "Malachite.Examples.Console.csproj"):
        (folder / name).write_bytes((examples / "console" / name).read_bytes())
    log = work / "build-win.log"
    status = dotnet.run(["build", "-r", "win-x64", "-m:1", "--disable-build-servers", "-nologo", "-v", "quiet",
                         "-p:MalachiteVersion=" + version], folder, log)
    assert status == 0, "restore and build for win-x64 failed:\n" + log.read_text()[-4000:]
    return folder / "bin" / "Debug" / "net10.0" / "win-x64"


def test_a_build_for_win_x64_gets_malachite_exe_beside_its_assembly_where_resolve_binary_finds_it(
        dotnet, windows_build, feed):
    expected = packed(feed["Malachite.Server"], "runtimes/win-x64/native/malachite.exe")
    exe = windows_build / "malachite.exe"
    assert exe.is_file() and exe.read_bytes() == expected, \
        "a build for win-x64 has no malachite.exe of the package's runtimes/win-x64/native/"
    # The win-x64 build's assembly runs here too (dotnet <dll>): told the platform, it finds the
    # file beside itself, where a Windows user's build has it.
    assert resolved(dotnet, windows_build / "Malachite.Examples.Console.dll", "windows", "x64") == str(exe)
