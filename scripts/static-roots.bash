# Sourced by scripts/check-package and scripts/check-arm64 (not run): the release binary, one
# static executable, proven where there is no Linux distribution at all, for either architecture.
# <step> begins each line said ("1.", "4.").
#   roots_empty <step> <arch> <binary>
#       a root holding only the binary, as /malachite (no /proc, /dev, /etc, shell or C library):
#       --version; `chroot <root> /malachite` serves a fresh /data (the first answer within a
#       second of the start), the Python SDK's smoke test passes from outside, it maps no shared
#       object, a SIGTERM stop is clean, /data/data.mdb exists and nothing else was made; a bad
#       flag exits 2 and a data directory under a file (/malachite/data) exits 1, each with one
#       line on stderr.
#   roots_busybox <step> <arch> <bundle.tar.gz>
#       a root holding only Debian's busybox-static (/bin/busybox of its .deb, dpkg-deb -x, and the
#       applet links `busybox --install -s` makes in the chroot; no C library at all): busybox tar
#       unpacks the bundle in the chroot, and from there to the first answered /-/ready takes less
#       than a second; the SDK smoke test, no shared object, a clean stop; bin/azurite-table with
#       Azurite's flags (started by busybox sh) prints Azurite's ready line, serves the smoke test,
#       keeps its data under -l and stops cleanly.
#   roots_binfmt <arch>
#       for another architecture: makes the kernel run its ELF files in a chroot through
#       qemu-<arch>-static (binfmt_misc with flag F: the kernel opens the interpreter when it is
#       registered, so the chroot need not hold it). Uses an enabled qemu-<arch> handler with F,
#       else registers one named malachite-<arch> (the newest handler wins) that
#       roots_binfmt_release removes. Returns 1 with the reason in roots_why when it cannot.
#   roots_binfmt_release   removes the handler roots_binfmt registered (call it from the EXIT trap).
#   roots_serve <what> <t0> <log> <command...>
#       starts the server command (its flags include --port $roots_port, a port found free just
#       before), with malachite_pid and malachite_port set as tests/support/server.sh's
#       malachite_start sets them, and waits (10 s at most) until GET /-/ready answers 200 (bash's
#       /dev/tcp: the probe costs no process, and no log line is waited for). Sets roots_ms to the
#       milliseconds since <t0> (an $EPOCHREALTIME) and fails when they are roots_budget_ms (1000)
#       or more.
#   roots_free_port          sets roots_port to a port of 127.0.0.1 that is free now.
#   roots_no_shared_objects <pid> <what>   fails when the process maps any shared object (*.so).
#   roots_smoke_and_stop <what> <log> <data dir>
#       the server roots_serve started answers the SDK smoke test, maps no shared object, stops
#       cleanly on SIGTERM, and left data.mdb in <data dir> (seen from outside the root).
#   roots_azurite_table_checks <what> <log> <workspace>
#       the bin/azurite-table malachite_start started printed Azurite's ready line, answers the
#       SDK smoke test, stops cleanly and kept its data in <workspace>/__malachite_table__.
#   expect_refusal <what> <want> <pattern> <command...>
#       the command must exit <want> with one line on stderr matching <pattern> (no loader error).
#   roots_busybox_deb <debarch>
#       prints the path of busybox-static_<v>_<debarch>.deb, apt's candidate, downloaded once
#       (apt-get download) into ~/.cache/malachite/busybox (MALACHITE_CACHE) and kept by version.
# REQUIRES: root; the caller defines say <text> and fail <why> (which exits), work (a scratch
# folder it removes), repo_root and version (scripts/package --version), and has sourced
# tests/support/server.sh (malachite_stop belongs in its EXIT trap).

roots_ms=0
roots_port=""
roots_why=""
roots_registered=""
roots_budget_ms=1000

roots_busybox_deb() {  # roots_busybox_deb <debarch>
  local debarch="$1" cache version deb
  cache="${MALACHITE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/malachite}/busybox"
  mkdir -p "$cache"
  version="$(apt-cache policy "busybox-static:$debarch" 2>/dev/null | sed -n 's/^ *Candidate: //p')"
  if [[ -z "$version" || "$version" == "(none)" ]]; then
    # No index of <debarch> yet (a fresh machine, or the architecture just added): once.
    apt-get -o DPkg::Lock::Timeout=900 update -q >/dev/null 2>&1 || true
    version="$(apt-cache policy "busybox-static:$debarch" 2>/dev/null | sed -n 's/^ *Candidate: //p')"
  fi
  if [[ -z "$version" || "$version" == "(none)" ]]; then
    # Offline or no such package in the sources: the newest one downloaded before, if any.
    deb="$(ls -t "$cache"/busybox-static_*_"$debarch".deb 2>/dev/null | head -n1)"
    [[ -n "$deb" ]] || { echo "no busybox-static:$debarch in the apt sources (is $debarch a dpkg architecture?)" >&2; return 1; }
    echo "$deb"
    return 0
  fi
  deb="$cache/busybox-static_${version//:/%3a}_$debarch.deb"
  (
    exec 7>"$deb.lock"
    flock 7
    [[ -s "$deb" ]] && exit 0
    local download
    download="$(mktemp -d -p "$cache")"
    (cd "$download" && apt-get download -q "busybox-static:$debarch=$version") >"$download/log" 2>&1 ||
      { cat "$download/log" >&2; rm -rf "$download"; exit 1; }
    mv "$download"/busybox-static_*.deb "$deb"
    rm -rf "$download"
  ) || return 1
  echo "$deb"
}

roots_binfmt() {  # roots_binfmt <arch>
  local arch="$1" binfmt=/proc/sys/fs/binfmt_misc qemu conf
  qemu="$(command -v "qemu-$arch-static" || true)"
  [[ -n "$qemu" ]] || { roots_why="no qemu-$arch-static (scripts/cross-deps installs qemu-user-static)"; return 1; }
  if [[ ! -e "$binfmt/register" ]] && ! mount -t binfmt_misc binfmt_misc "$binfmt" 2>/dev/null; then
    roots_why="binfmt_misc is not mounted on $binfmt and mounting it failed (no privilege here?)"
    return 1
  fi
  if [[ -e "$binfmt/qemu-$arch" ]] && grep -qx enabled "$binfmt/qemu-$arch" &&
    grep -q '^flags:.*F' "$binfmt/qemu-$arch"; then
    return 0
  fi
  conf="/usr/lib/binfmt.d/qemu-$arch.conf"
  [[ -f "$conf" ]] || { roots_why="no $conf (qemu-user-static's binfmt rule) to register"; return 1; }
  [[ -e "$binfmt/malachite-$arch" ]] && echo -1 >"$binfmt/malachite-$arch" 2>/dev/null
  # The rule's magic and mask, our name, qemu-<arch>-static and F (the kernel opens it now).
  if ! sed -e 's|^:[^:]*:|:malachite-'"$arch"':|' -e 's|:[^:]*:[^:]*$|:'"$qemu"':F|' "$conf" \
    >"$binfmt/register" 2>"$work/binfmt.err"; then
    roots_why="registering qemu-$arch-static with binfmt_misc failed: $(cat "$work/binfmt.err")"
    return 1
  fi
  roots_registered="$binfmt/malachite-$arch"
}

roots_binfmt_release() {
  [[ -n "$roots_registered" && -e "$roots_registered" ]] && echo -1 >"$roots_registered"
  roots_registered=""
  return 0
}

roots_ready() {  # roots_ready <port>: GET /-/ready answers 200
  local reply=""
  { exec 3<>"/dev/tcp/127.0.0.1/$1"; } 2>/dev/null || return 1
  printf 'GET /-/ready HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' >&3 2>/dev/null
  IFS= read -r -t 5 reply <&3 2>/dev/null
  exec 3<&-
  [[ "$reply" == "HTTP/1."?" 200"* ]]
}

roots_elapsed_ms() {  # roots_elapsed_ms <t0 from $EPOCHREALTIME>
  local now="${EPOCHREALTIME/[.,]/}" then="${1/[.,]/}"
  echo $(((10#$now - 10#$then) / 1000))
}

roots_free_port() {
  roots_port="$(/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
}

roots_serve() {  # roots_serve <what> <t0> <log> <command...>
  local what="$1" t0="$2" log="$3"
  shift 3
  "$@" >"$log" 2>&1 &
  malachite_pid=$!
  malachite_port="$roots_port"
  until roots_ready "$roots_port"; do
    kill -0 "$malachite_pid" 2>/dev/null || fail "$what: the server exited: $(tail -n 5 "$log")"
    (($(roots_elapsed_ms "$t0") < 10000)) || fail "$what: no answer on /-/ready in 10 s: $(tail -n 5 "$log")"
    sleep 0.005
  done
  roots_ms="$(roots_elapsed_ms "$t0")"
  ((roots_ms < roots_budget_ms)) ||
    fail "$what: $roots_ms ms to the first answer (budget $roots_budget_ms ms)"
}

roots_no_shared_objects() {  # roots_no_shared_objects <pid> <what>
  local mapped
  mapped="$(awk '$6 ~ /\.so(\.|$)/ { print $6 }' "/proc/$1/maps" | sort -u | tr '\n' ' ')"
  [[ -z "$mapped" ]] || fail "$2: maps shared objects: $mapped"
}

expect_refusal() {  # expect_refusal <what> <want> <pattern> <command...>
  local what="$1" want="$2" pattern="$3" status=0
  shift 3
  "$@" >"$work/out" 2>"$work/err" </dev/null || status=$?
  local lines
  lines="$(wc -l <"$work/err")"
  if [[ "$status" != "$want" || "$lines" != 1 ]] || ! grep -qE -e "$pattern" "$work/err" ||
    grep -q "error while loading shared libraries" "$work/err"; then
    cat "$work/out" "$work/err" >&2
    fail "$what: exit status $status with $lines line(s) on stderr (want $want, one line matching '$pattern')"
  fi
  say "   $what: exit $status, '$(cat "$work/err")'"
}

# The server started by roots_serve answers the SDK smoke test, maps no shared object, stops
# cleanly on SIGTERM and leaves data.mdb in <data dir> (its path seen from outside the root).
roots_smoke_and_stop() {  # roots_smoke_and_stop <what> <log> <data dir>
  /usr/bin/python3 "$repo_root/scripts/sdk_check.py" smoke "http://127.0.0.1:$malachite_port" ||
    fail "$1: the SDK smoke test failed"
  roots_no_shared_objects "$malachite_pid" "$1"
  malachite_stop || fail "$1: SIGTERM stop was not clean: $(tail -n 5 "$2")"
  [[ -f "$3/data.mdb" ]] || fail "$1: no data.mdb in the data directory"
}

# The bin/azurite-table that malachite_start started (log <log>) printed Azurite's ready line,
# answers the SDK smoke test, stops cleanly and kept its data under <workspace> (its -l, seen
# from outside the root).
roots_azurite_table_checks() {  # roots_azurite_table_checks <what> <log> <workspace>
  grep -qx "Azurite Table service successfully started on 127.0.0.1:$malachite_port" "$2" ||
    fail "$1: no Azurite readiness line: $(cat "$2")"
  /usr/bin/python3 "$repo_root/scripts/sdk_check.py" smoke "http://127.0.0.1:$malachite_port" ||
    fail "$1: the SDK smoke test against bin/azurite-table failed"
  malachite_stop || fail "$1: bin/azurite-table did not stop cleanly"
  [[ -f "$3/__malachite_table__/data.mdb" ]] ||
    fail "$1: azurite-table -l kept no data in <location>/__malachite_table__"
}

roots_empty() {  # roots_empty <step> <arch> <binary>
  local arch="$2" binary="$3" root="$work/empty-$2" what="$1 empty root ($2)"
  mkdir "$root"
  cp "$binary" "$root/malachite"
  local reported
  reported="$(chroot "$root" /malachite --version)" || fail "$what: --version failed"
  [[ "$reported" == "malachite $version" ]] || fail "$what: --version printed '$reported'"
  roots_free_port
  roots_serve "$what" "$EPOCHREALTIME" "$work/empty-$arch.log" \
    chroot "$root" /malachite --host 127.0.0.1 --port "$roots_port" --data-dir /data
  local started_ms="$roots_ms"
  roots_smoke_and_stop "$what" "$work/empty-$arch.log" "$root/data"
  local entries
  entries="$(cd "$root" && echo *)"
  [[ "$entries" == "data malachite" ]] || fail "$what: the root holds '$entries', not only data and malachite"
  say "$what: only /malachite: '$reported', first answer $started_ms ms after the start, SDK smoke test ok, no shared object, clean stop, /data/data.mdb"
  expect_refusal "$what: a bad flag" 2 "--no-such-flag" chroot "$root" /malachite --no-such-flag
  expect_refusal "$what: a data directory under a file" 1 "/malachite/data" \
    chroot "$root" /malachite --host 127.0.0.1 --port 0 --data-dir /malachite/data
}

roots_busybox() {  # roots_busybox <step> <arch> <bundle.tar.gz>
  local step="$1" arch="$2" bundle="$3" root="$work/busybox-$2" debarch=amd64
  [[ "$arch" == aarch64 ]] && debarch=arm64
  local deb
  deb="$(roots_busybox_deb "$debarch")" || fail "$step busybox root ($arch): no busybox-static:$debarch .deb"
  local bb_version="${deb##*/busybox-static_}"
  bb_version="${bb_version%_*}"
  local what="$step busybox root ($arch, busybox-static ${bb_version//%3a/:})"
  dpkg-deb -x "$deb" "$work/busybox-deb-$arch"
  mkdir -p "$root/bin" "$root/sbin" "$root/usr/bin" "$root/usr/sbin" "$root/tmp" "$root/opt"
  cp "$work/busybox-deb-$arch/bin/busybox" "$root/bin/busybox"
  chroot "$root" /bin/busybox --install -s >"$work/busybox-install.log" 2>&1 ||
    fail "$what: busybox --install -s: $(cat "$work/busybox-install.log")"
  local libraries
  libraries="$(find "$root" -name '*.so*' -o -name 'ld-*' | sed "s|^$root||" | tr '\n' ' ')"
  [[ -z "$libraries" ]] || fail "$what: the root holds libraries: $libraries"
  cp "$bundle" "$root/tmp/"
  local name="malachite-$version-linux-$arch"
  roots_free_port
  local t0="$EPOCHREALTIME"
  chroot "$root" /bin/tar -xzf "/tmp/${bundle##*/}" -C /opt || fail "$what: busybox tar -xzf failed"
  local unpacked_ms
  unpacked_ms="$(roots_elapsed_ms "$t0")"
  roots_serve "$what: from unpacking (${unpacked_ms} ms)" "$t0" "$work/busybox-$arch.log" \
    chroot "$root" "/opt/$name/bin/malachite" --host 127.0.0.1 --port "$roots_port" --data-dir /data
  local started_ms="$roots_ms"
  roots_smoke_and_stop "$what" "$work/busybox-$arch.log" "$root/data"
  say "$what: busybox tar -xzf $unpacked_ms ms + start $((started_ms - unpacked_ms)) ms = first answer in $started_ms ms, SDK smoke test ok, no shared object, clean stop"
  # Azurite's table command line, started by busybox's sh in the chroot (exec: the same process).
  malachite_start "$work/busybox-azurite-$arch.log" chroot "$root" /bin/sh -c \
    "cd /tmp && exec /opt/$name/bin/azurite-table --tableHost 127.0.0.1 --tablePort 0 -l /tmp/azurite-workspace --silent --loose" ||
    fail "$what: bin/azurite-table did not start"
  roots_azurite_table_checks "$what" "$work/busybox-azurite-$arch.log" "$root/tmp/azurite-workspace"
  say "$what: bin/azurite-table from busybox sh: Azurite's ready line, SDK smoke test ok, data in <dir>/__malachite_table__, clean stop"
}
