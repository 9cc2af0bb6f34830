# Sourced by scripts/check-docker-engine and scripts/check-azurite-image (not run): a Docker engine
# for a check.
#   engine_start <work dir>  uses the running engine, or starts Debian's dockerd (scripts/install-deps
#                            --docker installs it) with its socket, state and data under <work dir>,
#                            and exports DOCKER_HOST. One engine of ours at a time on this machine
#                            (two would fight over the docker0 bridge): it waits up to 30 minutes
#                            for ~/.cache/malachite/dockerd.lock (held on fd 9 until the caller
#                            exits). Sets engine_what ("started Debian's dockerd 26.1.5 (pid N)" or
#                            "using the running engine 26.1.5"). When no engine can run here it
#                            calls the caller's skip <why>.
#   engine_stop              stops the engine engine_start started, if any, and puts back what
#                            dockerd changes on the host (its bridge, iptables rules, ip_forward).
#                            Call it from the caller's EXIT trap; the caller removes <work dir>.
# REQUIRES: the caller defines skip(); repo_root is the repository's root.

engine_dockerd_pid=""
engine_bridge_before=1
engine_forward_before=""
engine_forward_policy_before=""
engine_what=""

engine_start() {  # engine_start <work dir>
  local work="$1"
  if docker info >/dev/null 2>&1; then
    engine_what="using the running engine $(docker version -f '{{.Server.Version}}')"
    return 0
  fi
  [[ "$(id -u)" == 0 ]] || skip "no Docker engine answers and starting one needs root"
  if ! command -v dockerd >/dev/null || ! command -v docker-compose >/dev/null ||
    ! command -v debootstrap >/dev/null; then
    "$repo_root/scripts/install-deps" --docker >"$work/install.log" 2>&1 ||
      skip "cannot install docker.io, docker-compose, debootstrap: $(tail -n 3 "$work/install.log")"
  fi
  mkdir -p "$HOME/.cache/malachite"
  exec 9>"$HOME/.cache/malachite/dockerd.lock"
  flock -w 1800 9 || skip "another check holds the engine lock for 30 minutes"
  # What dockerd changes on the host and leaves changed, to be put back afterwards.
  engine_bridge_before=0
  ip link show docker0 >/dev/null 2>&1 && engine_bridge_before=1
  engine_forward_before="$(cat /proc/sys/net/ipv4/ip_forward)"
  engine_forward_policy_before="$(iptables -S FORWARD 2>/dev/null | sed -n 's/^-P FORWARD //p')"
  export DOCKER_HOST="unix://$work/docker.sock"
  dockerd --host "$DOCKER_HOST" --data-root "$work/data" --exec-root "$work/exec" \
    --pidfile "$work/dockerd.pid" >"$work/dockerd.log" 2>&1 &
  engine_dockerd_pid=$!
  for _ in $(seq 150); do
    docker info >/dev/null 2>&1 && break
    kill -0 "$engine_dockerd_pid" 2>/dev/null || break
    sleep 0.2
  done
  if ! docker info >/dev/null 2>&1; then
    local reason
    reason="$(grep -m1 -iE 'level=(fatal|error)' "$work/dockerd.log" || tail -n 1 "$work/dockerd.log")"
    skip "dockerd did not start: $reason"
  fi
  engine_what="started Debian's dockerd $(docker version -f '{{.Server.Version}}') (pid $engine_dockerd_pid)"
}

engine_stop() {
  [[ -n "$engine_dockerd_pid" ]] || return 0
  kill -TERM "$engine_dockerd_pid" 2>/dev/null
  for _ in $(seq 100); do kill -0 "$engine_dockerd_pid" 2>/dev/null || break; sleep 0.2; done
  kill -KILL "$engine_dockerd_pid" 2>/dev/null
  wait "$engine_dockerd_pid" 2>/dev/null
  # What the engine leaves behind on purpose: its bridge and its iptables rules.
  [[ "$engine_bridge_before" == 0 ]] && ip link delete docker0 2>/dev/null
  iptables-save 2>/dev/null | grep -qi docker &&
    iptables-save | grep -vi docker | iptables-restore 2>/dev/null
  [[ -n "$engine_forward_policy_before" ]] && iptables -P FORWARD "$engine_forward_policy_before" 2>/dev/null
  [[ -n "$engine_forward_before" ]] && echo "$engine_forward_before" >/proc/sys/net/ipv4/ip_forward 2>/dev/null
  return 0
}

# Removes <work dir> once the engine let go of it: overlay mounts of a daemon that died uncleanly
# would keep it busy, and its containerd may still be letting go of files for a moment.
engine_remove_work() {  # engine_remove_work <work dir>
  local work="$1"
  for _ in $(seq 20); do
    grep -o " $work/[^ ]*" /proc/mounts | sort -r | xargs -r -n1 umount -l 2>/dev/null
    rm -rf "$work" 2>/dev/null && break
    sleep 0.5
  done
  [[ -e "$work" ]] && echo "could not remove $work" >&2
  return 0
}
