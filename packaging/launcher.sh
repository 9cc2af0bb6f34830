#!/bin/sh
# bin/malachite of the release bundle malachite-@VERSION@-linux-@ARCH@ (made by scripts/package).
# Checks that this machine can run the bundled binary, then replaces itself with it
# (lib/malachite/malachite, which finds its libraries beside it), arguments and signals unchanged.
# When it cannot run, it says why in one line on stderr and exits 1 (never a loader error):
#   - not Linux, or another architecture than @ARCH@;
#   - no GNU C library (e.g. musl on Alpine), or one older than @GLIBC@.
need_arch=@ARCH@
need_glibc=@GLIBC@
name=malachite-@VERSION@-linux

fail() {
  echo "malachite: $*" >&2
  exit 1
}

system=$(uname -s)
[ "$system" = Linux ] ||
  fail "this is the Linux bundle ($name-$need_arch) and this system is $system: run the container image instead (docker run -p 10002:10002 malachite)"
arch=$(uname -m)
case "$arch" in
  amd64) arch=x86_64 ;;
  arm64 | armv8*) arch=aarch64 ;;
esac
[ "$arch" = "$need_arch" ] ||
  fail "this bundle is for $need_arch and this machine is $arch: use $name-$arch.tar.gz (bundles exist for x86_64 and aarch64)"

# "glibc 2.36" on a glibc system; getconf fails or prints nothing elsewhere.
have_glibc=$(getconf GNU_LIBC_VERSION 2>/dev/null)
have_glibc=${have_glibc#glibc }
case "$have_glibc" in
  [0-9]*.[0-9]*) ;;
  *) fail "needs the GNU C library (glibc) $need_glibc or newer and found none (a musl system such as Alpine?): run the container image instead" ;;
esac
# Compares major.minor as numbers (2.4 < 2.31).
have_major=${have_glibc%%.*} have_minor=${have_glibc#*.}
have_minor=${have_minor%%.*}
need_major=${need_glibc%%.*} need_minor=${need_glibc#*.}
if [ "$have_major" -lt "$need_major" ] ||
  { [ "$have_major" -eq "$need_major" ] && [ "$have_minor" -lt "$need_minor" ]; }; then
  fail "needs glibc $need_glibc or newer and this system has glibc $have_glibc: run it on a newer distribution, or run the container image instead"
fi

# Follows symlinks to this script (e.g. /usr/local/bin/malachite -> <bundle>/bin/malachite).
self=$(readlink -f "$0" 2>/dev/null) || self=$0
# Called by the name azurite-table (bin/azurite-table): Azurite's table command line.
case "${0##*/}" in
  azurite-table) exec "${self%/*}/../lib/malachite/malachite" azurite-table "$@" ;;
esac
exec "${self%/*}/../lib/malachite/malachite" "$@"
