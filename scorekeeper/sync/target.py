"""Where a device's sync files live: the `Target` protocol (a folder or a WebDAV server) and `SyncError`.

A target is plain file storage addressed by relative paths with "/" separators ("devices/<id>/log.json").
Each device writes only below its own folder, so two devices never write one file; the version tag of a file
(an ETag on WebDAV, size and modification time in a folder) still guards against a second copy of the same
device id writing at the same time.
"""

from __future__ import annotations

from typing import Literal, Protocol

from scorekeeper.games.messages import N_, TranslatableError

Problem = Literal[
    "auth",  # wrong user name or password (401/403)
    "not_found",  # the server or the folder is not there (DNS failure, 404 on the root, missing folder)
    "certificate",  # TLS certificate not trusted
    "read_only",  # the target refuses writes (405/403 on write, a read-only folder)
    "full",  # no space left (507, ENOSPC)
    "changed",  # the file changed since it was read (412, a version tag that does not match)
    "server",  # the server failed (5xx other than 507, an answer that is not WebDAV)
    "timeout",  # no answer in time
    "offline",  # no network
]


# What a player reads for each problem; `{target}` names the folder or server.
PROBLEM_TEXTS: dict[str, str] = {
    "auth": N_("The server {target} refused the user name or password."),
    "not_found": N_("{target} was not found. Check the address."),
    "certificate": N_("The certificate of {target} is not trusted."),
    "read_only": N_("{target} can be read but not written to."),
    "full": N_("{target} has no space left."),
    "changed": N_("Another copy of this device wrote to {target} at the same time. Sync again."),
    "server": N_("The server {target} had a problem. Sync will try again later."),
    "timeout": N_("{target} did not answer in time. Sync will try again later."),
    "offline": N_("No network. Your changes wait and go with the next sync."),
}


class SyncError(TranslatableError):
    """A sync that could not finish, with the reason in words a player understands; `problem` says which kind
    (the app retries later for "server", "timeout", "offline" and "changed")."""

    def __init__(self, problem: Problem, target: str, detail: str = "") -> None:
        super().__init__(PROBLEM_TEXTS[problem], target=target)
        self.problem: Problem = problem
        self.detail = detail  # for logs only: the status code or the OS error, never shown as the message

    @property
    def retry_later(self) -> bool:
        return self.problem in ("server", "timeout", "offline", "changed")


class Target(Protocol):
    """A folder or a WebDAV server holding every device's sync files."""

    name: str
    """How messages name it: the folder's path, or the server's host name (never a password)."""

    def read(self, path: str) -> tuple[bytes, str] | None:
        """The file's bytes and version tag, or None when there is no such file. Raises SyncError."""
        ...

    def write(self, path: str, data: bytes, expect: str | None = None) -> str:
        """Writes the whole file (parent folders are made as needed) and returns its new version tag.
        `expect`: the tag the file must still have ("" = the file must not exist yet; None = no check);
        otherwise SyncError("changed") and nothing is written. A reader never sees half a file."""
        ...

    def list(self, folder: str) -> list[str]:
        """The names directly under `folder` ("" = the root); [] when the folder does not exist."""
        ...

    def check(self) -> None:
        """Proves the target can be read and written (writes and removes a small probe file), else SyncError."""
        ...


def status_problem(status: int, writing: bool) -> Problem:
    """The problem an HTTP answer names when it is not what the request wanted (a WebDAV server's, spoken to
    by httpx on a computer or by the browser's fetch)."""
    if status == 401 or (status == 403 and not writing):
        return "auth"
    if status in (403, 405) and writing:
        return "read_only"
    if status == 507:
        return "full"
    if status == 412:
        return "changed"
    if status == 404 or 300 <= status < 400:
        return "not_found"  # the address leads nowhere (a redirect is an address that is not the folder)
    return "server"
