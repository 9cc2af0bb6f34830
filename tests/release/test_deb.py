"""The .deb in a fresh bookworm root with systemd: `apt install ./malachite_<v>_amd64.deb`, the
unit's command as its user, what stops it, `apt purge`. The tests share one root and run in this
file's order; the last one purges the package. The root, the unit's command and its server's run:
conftest's installed, service_command and service; what every server does: test_every_root.py."""
import subprocess

import roots
from roots import chroot


def test_apt_installs_the_deb(installed):
    assert installed.apt.returncode == 0, "apt install ./%s:\n%s%s" % (
        installed.dist.deb.name, installed.apt.stdout[-2000:], installed.apt.stderr[-2000:])


def test_package_makes_the_malachite_user_and_its_data_directory(installed):
    assert chroot(installed.root, "getent", "passwd", "malachite").returncode == 0, \
        "the package made no malachite user"
    owner = chroot(installed.root, "stat", "-c", "%U", "/var/lib/malachite").stdout.strip()
    assert owner == "malachite", "/var/lib/malachite belongs to %r, not malachite" % owner


def test_usr_bin_malachite_is_the_static_binary_itself(installed):
    binary = installed.root / "usr/bin/malachite"
    description = roots.file_type(binary)
    assert binary.is_file() and not binary.is_symlink() and roots.is_static(description), \
        "/usr/bin/malachite is not the static binary: %s" % description
    assert not (installed.root / "usr/lib/malachite").exists(), \
        "the package installed /usr/lib/malachite"


def test_unit_is_installed_disabled(installed):
    enabled = chroot(installed.root, "systemctl", "is-enabled", "malachite.service")
    state = (enabled.stdout + enabled.stderr).strip()
    assert state == "disabled", "the unit is %r, not disabled" % state


def test_unit_passes_systemd_analyze_verify(installed):
    # --man=no: a minimal root has no man(1) to look up Documentation=man:malachite(1) with.
    verify = chroot(installed.root, "systemd-analyze", "verify", "--man=no",
                    "/lib/systemd/system/malachite.service")
    assert verify.returncode == 0, "systemd-analyze verify malachite.service:\n" + (
        verify.stdout + verify.stderr)


def test_azurite_table_refuses_a_malformed_azurite_accounts(installed):
    refusal = roots.Refusal("chroot", str(installed.root), "env", "AZURITE_ACCOUNTS=nokey",
                            "/usr/bin/azurite-table")
    problem = refusal.check(2, "AZURITE_ACCOUNTS: entry 'nokey' is not name:key")
    assert problem is None, "/usr/bin/azurite-table with AZURITE_ACCOUNTS=nokey: " + problem


def test_unit_command_answers_malachite_probe(service):
    assert service.listening_on_config_port, "the unit's command listens on %d, not on the " \
        "configuration file's port" % service.port
    assert service.probe.returncode == 0, "malachite --probe /-/ready with the unit's " \
        "configuration: exit %d, %s" % (service.probe.returncode, service.probe.stderr.strip())


def test_unwritable_data_directory_stops_it_with_exit_1(installed, service_command):
    data = installed.root / "var/lib/malachite"
    subprocess.run(["chown", "root:root", str(data)], check=True)
    data.chmod(0o755)
    try:
        refusal = roots.Refusal(*service_command)
    finally:
        subprocess.run(["chroot", str(installed.root), "chown", "malachite:malachite",
                        "/var/lib/malachite"], check=True)
    problem = refusal.check(1, "/var/lib/malachite")
    assert problem is None, "the unit's command with a root-owned /var/lib/malachite: " + problem


def test_config_file_with_an_unknown_option_stops_it_with_exit_2(installed, service_command):
    conf = installed.root / "etc/malachite/malachite.conf"
    before = conf.read_text()
    conf.write_text(before + "colour = green\n")
    try:
        refusal = roots.Refusal(*service_command)
    finally:
        conf.write_text(before)
    problem = refusal.check(2, r"malachite\.conf:[0-9]+: .*colour")
    assert problem is None, "the unit's command with 'colour = green' in its configuration: " + problem


def test_apt_purge_removes_the_user_and_the_data(installed, service):
    # service: the unit's command ran before the purge, whichever tests were selected (its run is
    # what test_every_root.py reads).
    purge = chroot(installed.root, "env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "purge",
                   "-y", "-q", "malachite")
    assert purge.returncode == 0, "apt purge malachite:\n" + purge.stdout[-2000:] + purge.stderr
    assert chroot(installed.root, "getent", "passwd", "malachite").returncode != 0, \
        "apt purge left the malachite user"
    assert not (installed.root / "var/lib/malachite").exists(), "apt purge left /var/lib/malachite"
    assert not (installed.root / "usr/bin/malachite").exists(), "apt purge left /usr/bin/malachite"
