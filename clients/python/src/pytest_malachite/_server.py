"""start_malachite(): the real malachite binary as a child process on a free port, and the admin
requests (/-/accounts, /-/reset) a test needs.

Lifeline: the server runs with --exit-with-stdin and its stdin is a pipe whose write end only this
process holds (subprocess makes it close-on-exec, on Windows not inheritable). When this process
ends in any way, SIGKILL (on Windows TerminateProcess) included, the system closes the pipe and the
server stops. Closing it is also how stop() stops the server on Windows, which has no SIGTERM. stdout and stderr are drained by daemon
threads (a full pipe would block the server); the last lines of each are kept for error messages.
With log_file, stderr (the server's log) goes straight to that file instead, and its last lines
are read from there.
"""
from __future__ import annotations

import collections
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import (IO, Any, Callable, Deque, Dict, List, Mapping, Optional, Sequence, Tuple,
                    Union)

from ._binary import resolve_binary, this_platform
from ._errors import MalachiteAdminError, MalachiteBinaryError, MalachiteStartError

DEV_ACCOUNT = "devstoreaccount1"
# The well-known development storage key (public: Azurite and Azure's emulator use it too).
DEV_KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="

_READY = re.compile(r"^malachite: listening on (\S+):(\d+)\s*$")
_KEPT_LINES = 20
_TAIL_BYTES = 64 * 1024
_STOP_GRACE_S = 5.0
# Admin requests go straight to the server, whatever HTTP(S)_PROXY says.
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))

PathLike = Union[str, "os.PathLike[str]"]


def connection_string(account: str, key: str, table_url: str) -> str:
    return ("DefaultEndpointsProtocol=http;AccountName=%s;AccountKey=%s;TableEndpoint=%s;"
            % (account, key, table_url))


class Account:
    """An account made at run time (Malachite.create_account): its own tables, isolated from
    every other account's. `delete()` deletes it with its data; as a context manager it is
    deleted on exit."""

    def __init__(self, server: "Malachite", answer: Dict[str, Any]) -> None:
        self._server = server
        self.name: str = answer["name"]
        self.key: str = answer["key"]
        self.table_url: str = answer["tableEndpoint"]
        self.connection_string: str = answer["connectionString"]
        self.host_style_table_url: Optional[str] = answer.get("hostStyleTableEndpoint")
        self.host_style_connection_string: Optional[str] = answer.get("hostStyleConnectionString")
        self.created: Optional[str] = answer.get("created")

    def delete(self) -> None:
        """Deletes the account and its tables (DELETE /-/accounts/<name>)."""
        self._server.delete_account(self.name)

    def __enter__(self) -> "Account":
        return self

    def __exit__(self, *exc: object) -> None:
        self.delete()

    def __repr__(self) -> str:
        return "Account(name=%r, table_url=%r)" % (self.name, self.table_url)


class _Drain(threading.Thread):
    """Reads one output stream of the server to its end, keeping the last lines; on stdout it also
    catches the ready line."""

    def __init__(self, stream: IO[bytes], name: str,
                 on_line: Optional[Callable[[str], None]] = None) -> None:
        super().__init__(name=name, daemon=True)
        self.stream = stream
        self.lines: Deque[str] = collections.deque(maxlen=_KEPT_LINES)
        self.on_line = on_line
        self.done = threading.Event()

    def run(self) -> None:
        try:
            for raw in iter(self.stream.readline, b""):
                line = raw.decode("utf-8", "replace").rstrip("\r\n")
                self.lines.append(line)
                if self.on_line is not None:
                    self.on_line(line)
        except (OSError, ValueError):
            pass
        finally:
            self.done.set()


class _LogTail:
    """The last lines of a log file from `offset` on: the server's stderr when start_malachite
    was given log_file (the server writes it directly: nothing to drain)."""

    def __init__(self, path: str, offset: int) -> None:
        self.path = path
        self.offset = offset

    @property
    def lines(self) -> Deque[str]:
        try:
            with open(self.path, "rb") as f:
                size = f.seek(0, os.SEEK_END)
                f.seek(max(self.offset, size - _TAIL_BYTES))
                text = f.read().decode("utf-8", "replace")
        except OSError:
            text = ""
        return collections.deque(text.splitlines(), maxlen=_KEPT_LINES)

    def join(self, timeout: Optional[float] = None) -> None:
        """Nothing to wait for (the drains' interface)."""


class Malachite:
    """A running server (made by start_malachite). Attributes: `host`, `port`, `endpoint`
    (http://127.0.0.1:<port>), `account`/`key`/`table_url`/`connection_string` of the always-present
    development account devstoreaccount1, `pid`, `binary`, `data_dir` (None in memory), `log_file`
    (the file its log goes to, None unless start_malachite was given one), `process` (its
    subprocess.Popen: its stdin is the lifeline pipe, closing it stops the server).
    A context manager: stop() on exit."""

    account = DEV_ACCOUNT
    key = DEV_KEY

    def __init__(self, process: "subprocess.Popen[bytes]", binary: str, host: str, port: int,
                 data_dir: Optional[str], owned_dir: Optional[str], out: _Drain,
                 err: Union[_Drain, _LogTail], log_file: Optional[str] = None) -> None:
        self.process = process
        self.binary = binary
        self.host = "127.0.0.1" if host in ("0.0.0.0", "::", "[::]") else host
        self.port = port
        self.data_dir = data_dir
        self.log_file = log_file
        self._owned_dir = owned_dir
        self._out = out
        self._err = err
        self.exit_status: Optional[int] = None
        self._stop_lock = threading.Lock()

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def endpoint(self) -> str:
        return "http://%s:%d" % (self.host, self.port)

    @property
    def table_url(self) -> str:
        return "%s/%s" % (self.endpoint, DEV_ACCOUNT)

    @property
    def connection_string(self) -> str:
        return connection_string(DEV_ACCOUNT, DEV_KEY, self.table_url)

    @property
    def running(self) -> bool:
        return self.process.poll() is None

    def output(self) -> str:
        """The last lines the server printed (stdout, then stderr; with log_file, the last lines
        of that file this server wrote)."""
        return "\n".join(list(self._out.lines) + list(self._err.lines))

    # -- accounts and reset ----------------------------------------------------------------------

    def create_account(self, name: Optional[str] = None, key: Optional[str] = None) -> Account:
        """Creates an account (POST /-/accounts): `name` (3-24 lowercase letters and digits) and
        `key` (base64) are generated when not given. Raises MalachiteAdminError with the service's
        code: 409 StorageAccountAlreadyTaken, 400 AccountNameInvalid, 400 InvalidInput."""
        body: Dict[str, str] = {}
        if name is not None:
            body["name"] = name
        if key is not None:
            body["key"] = key
        return Account(self, self._admin("POST", "/-/accounts", body if body else None))

    def delete_account(self, name: str) -> None:
        """Deletes an account and its tables (DELETE /-/accounts/<name>). Raises
        MalachiteAdminError: 404 ResourceNotFound, 409 OperationNotAllowed (a configured account
        such as devstoreaccount1)."""
        self._admin("DELETE", "/-/accounts/" + urllib.parse.quote(name, safe=""))

    def accounts(self) -> List[Dict[str, Any]]:
        """Every account (GET /-/accounts): dicts with name, key, runtime (bool), created."""
        return list(self._admin("GET", "/-/accounts")["accounts"])

    def reset(self, account: Optional[str] = None, seed: bool = True) -> Dict[str, Any]:
        """Deletes every table (of `account` only, when given) and, unless seed=False, loads the
        --seed fixtures again (POST /-/reset). Returns the server's summary."""
        query = []
        if account is not None:
            query.append(("account", account))
        if not seed:
            query.append(("seed", "false"))
        path = "/-/reset" + ("?" + urllib.parse.urlencode(query) if query else "")
        summary: Dict[str, Any] = self._admin("POST", path)
        return summary

    def _admin(self, method: str, path: str, body: Optional[Dict[str, Any]] = None) -> Any:
        data = json.dumps(body).encode() if body is not None else b""
        request = urllib.request.Request(self.endpoint + path, data=data, method=method)
        if body is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with _OPENER.open(request, timeout=30) as response:
                text = response.read()
        except urllib.error.HTTPError as e:
            code, detail = _azure_error(e.read(), e.headers.get("x-ms-error-code"), e.reason)
            raise MalachiteAdminError(method, path, e.code, code, detail) from None
        except (urllib.error.URLError, OSError) as e:
            state = ("running" if self.running
                     else "exited with status %s" % self.process.returncode)
            raise MalachiteAdminError(method, path, 0, "Unreachable",
                                      "%s (the server %s; its last lines:\n%s)"
                                      % (getattr(e, "reason", e), state, self.output())) from None
        return json.loads(text) if text.strip() else None

    # -- stopping --------------------------------------------------------------------------------

    def stop(self) -> int:
        """Stops the server (its stdin closed and SIGTERM: a graceful stop; SIGKILL after 5 s. On
        Windows, which has no SIGTERM, the closed stdin is the graceful stop, and TerminateProcess
        follows after 5 s) and removes a data directory start_malachite made. Returns its exit
        status (0: a clean stop; negative: the signal that ended it; 1 on Windows after the kill).
        Calling it again returns the same status; it may be called from any thread."""
        with self._stop_lock:
            return self._stop()

    def kill(self) -> int:
        """Kills the server with SIGKILL (on Windows TerminateProcess) at once, as a crash would
        (no graceful stop: what was not yet durable is lost), and removes a data directory
        start_malachite made; a data_dir you gave stays, so start_malachite(data_dir=...) can
        restart on it. Returns the exit status (-9, on Windows 1; the earlier one when it had
        already stopped). May be called from any thread, before or after stop()."""
        with self._stop_lock:
            if self.exit_status is None and self.process.poll() is None:
                self.process.kill()
                self.process.wait()
            return self._stop()

    def _stop(self) -> int:
        if self.exit_status is None:
            if self.process.poll() is None:
                try:
                    self.process.stdin.close()  # type: ignore[union-attr]
                except OSError:
                    pass
                # Windows has no SIGTERM: send_signal(SIGTERM) there is TerminateProcess, a kill.
                # The closed stdin is the graceful stop (--exit-with-stdin).
                if sys.platform != "win32":
                    try:
                        self.process.send_signal(signal.SIGTERM)
                    except OSError:
                        pass
                try:
                    self.process.wait(timeout=_STOP_GRACE_S)
                except subprocess.TimeoutExpired:
                    self.process.kill()
                    self.process.wait()
            self.exit_status = self.process.wait()
            self._out.join(timeout=1.0)
            self._err.join(timeout=1.0)
            for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
                try:
                    if stream is not None:  # stderr is None with log_file
                        stream.close()
                except OSError:
                    pass
            if self._owned_dir is not None:
                shutil.rmtree(self._owned_dir, ignore_errors=True)
        return self.exit_status

    def __enter__(self) -> "Malachite":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def __repr__(self) -> str:
        return "Malachite(endpoint=%r, pid=%d, running=%s)" % (self.endpoint, self.pid, self.running)


def start_malachite(port: int = 0, in_memory: bool = True, data_dir: Optional[PathLike] = None,
                    seed: Optional[PathLike] = None, args: Sequence[str] = (),
                    binary: Optional[PathLike] = None, start_timeout: float = 10.0,
                    env: Optional[Mapping[str, str]] = None,
                    log_file: Optional[PathLike] = None) -> Malachite:
    """Starts malachite on 127.0.0.1 and returns once it listens.

    port: 0 (default) picks a free one. Data: in memory (default: nothing left behind, even after
    SIGKILL), or in `data_dir` (kept), or with in_memory=False and no data_dir in a temporary
    directory removed by stop(). seed: a directory of <table>.jsonl/.csv fixtures, loaded at start
    and by reset(). args: more flags (see `malachite --help`), after the ones above, so they win.
    binary: the binary to run, else $MALACHITE_BINARY, else the wheel's own (a wrapper script that
    ends in `exec <binary> "$@"` works too). env: more environment variables for the server, over
    this process's (e.g. {"MALACHITE_FAULTS": ...}). log_file: the server's log (its stderr) is
    appended to this file, created when missing, as it is written; it stays after stop(), and a
    server restarted on the same file appends to it (default: kept in memory, last lines only).

    Raises MalachiteBinaryError (no binary for this platform), MalachiteStartError (the server's own
    `malachite: ...` message when it exits at start, or no ready line within start_timeout), and
    OSError when log_file cannot be opened for appending.
    """
    path, _source = resolve_binary(binary)
    log_path = os.fspath(log_file) if log_file is not None else None
    log: Optional[IO[bytes]] = open(log_path, "ab") if log_path is not None else None
    log_offset = log.tell() if log is not None else 0  # where this server's lines will start
    owned_dir = None
    command = [path, "--host", "127.0.0.1", "--port", str(int(port)), "--exit-with-stdin"]
    if data_dir is not None:
        data_dir = os.fspath(data_dir)
        command += ["--data-dir", data_dir]
    elif in_memory:
        command += ["--in-memory"]
    else:
        data_dir = owned_dir = tempfile.mkdtemp(prefix="malachite-data-")
        command += ["--data-dir", data_dir]
    if seed is not None:
        command += ["--seed", os.fspath(seed)]
    command += [str(a) for a in args]

    try:
        process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=log if log is not None else subprocess.PIPE,
                                   close_fds=True,
                                   env=dict(os.environ, **env) if env is not None else None)
    except OSError as e:
        if owned_dir:
            shutil.rmtree(owned_dir, ignore_errors=True)
        raise MalachiteBinaryError("pytest-malachite: cannot run %s on %s: %s; set MALACHITE_BINARY "
                                   "to a malachite binary for this machine"
                                   % (path, this_platform(), e)) from None
    finally:
        if log is not None:
            log.close()  # the server has its own descriptor of it

    ready = threading.Event()
    found: Dict[str, Any] = {}

    def on_stdout(line: str) -> None:
        match = _READY.match(line)
        if match and not ready.is_set():
            found["host"], found["port"] = match.group(1), int(match.group(2))
            ready.set()

    out = _Drain(process.stdout, "malachite-stdout-%d" % process.pid, on_stdout)  # type: ignore[arg-type]
    err: Union[_Drain, _LogTail]
    if log_path is not None:
        err = _LogTail(log_path, log_offset)
    else:
        err = _Drain(process.stderr, "malachite-stderr-%d" % process.pid)  # type: ignore[arg-type]
        err.start()
    out.start()

    deadline = time.monotonic() + start_timeout
    while not ready.is_set() and not out.done.is_set() and time.monotonic() < deadline:
        ready.wait(min(0.05, max(0.0, deadline - time.monotonic())))
        if process.poll() is not None:
            out.done.wait(1.0)  # the ready line may still be in the pipe
            break
    if "port" in found:
        return Malachite(process, path, found["host"], found["port"], data_dir, owned_dir, out, err,
                         log_path)

    if process.poll() is None:  # no ready line in time (or stdout closed): it will not serve
        process.kill()
        status: Optional[int] = None
        process.wait()
    else:
        status = process.wait()
    out.join(timeout=1.0)
    err.join(timeout=1.0)
    for stream in (process.stdin, process.stdout, process.stderr):
        try:
            if stream is not None:
                stream.close()
        except OSError:
            pass
    if owned_dir:
        shutil.rmtree(owned_dir, ignore_errors=True)
    output = "\n".join(list(out.lines) + list(err.lines))
    reason = _server_reason(list(err.lines) + list(out.lines))
    if status is None:
        message = ("malachite did not report 'listening on' within %.1f s (killed); command: %s"
                   % (start_timeout, " ".join(command)))
    else:
        message = "%s (exit status %d; command: %s)" % (reason, status, " ".join(command))
    if output.strip() and output.strip() != reason:
        message += "\nits last lines:\n" + output
    raise MalachiteStartError(message, status, output)


def _server_reason(lines: List[str]) -> str:
    """The server's own `malachite: <reason>` line (the last one), else its last line."""
    for line in reversed(lines):
        if line.startswith("malachite: "):
            return line
    for line in reversed(lines):
        if line.strip():
            return "malachite exited: " + line.strip()
    return "malachite exited without a message"


def _azure_error(body: bytes, header_code: Optional[str], reason: str) -> Tuple[str, str]:
    """(code, message) of an Azure-style error answer: {"odata.error": {"code", "message":
    {"value"}}}, else the x-ms-error-code header and the HTTP reason."""
    try:
        error = json.loads(body)["odata.error"]
        message = error.get("message")
        text = message.get("value") if isinstance(message, dict) else message
        return error.get("code") or header_code or "", str(text or reason)
    except (ValueError, KeyError, TypeError, AttributeError):
        return header_code or "", body.decode("utf-8", "replace").strip() or str(reason)

