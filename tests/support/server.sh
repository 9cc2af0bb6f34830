# The bash launcher of the server under test, for scripts (scripts/bench, bench/query_bench,
# bench/data_bench, scripts/check-docker). Source it, then:
#
#   malachite_start <log file> <command...>   runs the command (the binary and its flags, possibly
#       behind `env ...` or `setpriv ...`, which must exec it) in the background with stdout and
#       stderr in <log file>, and waits up to 10 s for its "listening on 127.0.0.1:<port>" line.
#       Sets malachite_pid and malachite_port. Returns 1, with the log on stderr, if the server
#       exited or did not report a port. Give it `--port 0` (or MALACHITE_PORT=0): a free port.
#   malachite_stop [seconds]                  SIGTERM, then SIGKILL after `seconds` (default 10);
#       returns the server's exit status (0 after a clean SIGTERM stop). Safe to call twice, or
#       from a trap.
#
# Only the process started here is signalled, by its PID.

malachite_pid=""
malachite_port=""

malachite_start() {
  local log="$1"
  shift
  "$@" >"$log" 2>&1 &
  malachite_pid=$!
  malachite_port=""
  for _ in $(seq 200); do
    malachite_port="$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$log" | head -n1)"
    [[ -n "$malachite_port" ]] && return 0
    kill -0 "$malachite_pid" 2>/dev/null || break
    sleep 0.05
  done
  echo "malachite_start: the server did not report its port; its log:" >&2
  cat "$log" >&2
  malachite_stop >/dev/null || true
  return 1
}

malachite_stop() {
  [[ -n "$malachite_pid" ]] || return 0
  local pid="$malachite_pid" status=0 wait_tenths=$((${1:-10} * 10))
  malachite_pid=""
  if kill -TERM "$pid" 2>/dev/null; then
    for _ in $(seq "$wait_tenths"); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -KILL "$pid" 2>/dev/null || true
  fi
  wait "$pid" 2>/dev/null || status=$?
  return "$status"
}
