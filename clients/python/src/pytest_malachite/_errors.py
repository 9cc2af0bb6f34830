"""The exceptions of pytest_malachite; all are MalachiteError."""
from __future__ import annotations

from typing import Optional


class MalachiteError(RuntimeError):
    """Base class of every error this package raises."""


class MalachiteBinaryError(MalachiteError):
    """No malachite binary this machine can run (missing, not executable, built for another system
    or architecture, the wheel's binary on a system other than Linux and Windows); the one-line
    message names the platform and MALACHITE_BINARY."""


class MalachiteStartError(MalachiteError):
    """The server did not start: it exited (the message starts with its own `malachite: <reason>`
    line, e.g. a port in use, a data directory it cannot use, a bad seed file or flag) or it did not
    report that it listens within start_timeout. `exit_status` is None when it was still running
    (and has been killed); `output` holds the last lines it printed."""

    def __init__(self, message: str, exit_status: Optional[int], output: str) -> None:
        super().__init__(message)
        self.exit_status = exit_status
        self.output = output


class MalachiteAdminError(MalachiteError):
    """An admin request (/-/accounts, /-/reset) failed: `status` is the HTTP status (0 when the
    server could not be reached), `code` the Azure error code (x-ms-error-code, e.g.
    StorageAccountAlreadyTaken), `detail` the service's message."""

    def __init__(self, method: str, path: str, status: int, code: str, detail: str) -> None:
        super().__init__("%s %s: %s%s: %s" % (method, path, status or "no answer",
                                               " " + code if code else "", detail))
        self.method = method
        self.path = path
        self.status = status
        self.code = code
        self.detail = detail
