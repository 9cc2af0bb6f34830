"""What scripts/package made for each architecture, as files: the bundle, the .deb and the image's
build context (the image itself: tests/docker)."""
import os
import subprocess

import pytest

import roots

ELF_NAME = {"x86_64": "x86-64", "aarch64": "ARM aarch64"}  # how file(1) names the machine


@pytest.fixture(params=["x86_64", "aarch64"])
def dist(request, artefacts):
    return artefacts(request.param)


def test_bundle_binary_is_a_static_executable_of_its_architecture(dist):
    description = roots.file_type(dist.unpacked / "bin/malachite")
    assert ELF_NAME[dist.arch] in description and roots.is_static(description), \
        "the bundle's bin/malachite is not a static %s executable: %s" % (dist.arch, description)


def test_bundle_azurite_table_is_a_link_to_malachite(dist):
    target = os.readlink(dist.unpacked / "bin/azurite-table")
    assert target == "malachite", "the bundle's bin/azurite-table links to %r" % target


def test_deb_has_the_debian_architecture(dist):
    field = subprocess.run(["dpkg-deb", "-f", str(dist.deb), "Architecture"], capture_output=True,
                           text=True).stdout.strip()
    assert field == roots.DEBARCH[dist.arch], "%s says Architecture: %r" % (dist.deb.name, field)


def test_deb_usr_bin_malachite_is_a_static_executable_of_its_architecture(dist, tmp_path):
    subprocess.run(["dpkg-deb", "-x", str(dist.deb), str(tmp_path)], check=True)
    description = roots.file_type(tmp_path / "usr/bin/malachite")
    assert ELF_NAME[dist.arch] in description and roots.is_static(description), \
        "the .deb's /usr/bin/malachite is not a static %s executable: %s" % (dist.arch, description)


def test_image_context_holds_rootfs_tar_and_dockerfile(dist):
    rootfs = dist.image_context / "rootfs.tar"
    assert rootfs.is_file() and rootfs.stat().st_size > 0 and \
        (dist.image_context / "Dockerfile").is_file(), \
        "no rootfs.tar and Dockerfile in %s" % dist.image_context
