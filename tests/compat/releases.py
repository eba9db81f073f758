"""The RELEASES file at the repository's root: which landed commits are releases, and which came before.

One line per release, newest first: `<version> <commit> <kind> (<note>)`; `#` starts a comment line. The
commit is a short hash of this repository's history, or "-" for the release that is the current main (its hash
is written in by the release after it). The kind is "release" (keeps the compatibility promise of
docs/DATA.md) or "before" (a commit before 1.0.0 that devices may still run).
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FILE = ROOT / "RELEASES"
KINDS = ("release", "before")
SEMVER = re.compile(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$")
HASH = re.compile(r"^[0-9a-f]{7,40}$")


@dataclass(frozen=True)
class Release:
    version: str
    commit: str | None
    """The short hash, or None for the release that is the current main."""
    kind: str
    note: str

    @property
    def runnable(self) -> bool:
        """Whether the compatibility suite checks this one out (every line with a commit)."""
        return self.commit is not None

    @property
    def label(self) -> str:
        return f"{self.version}-{self.commit}" if self.commit else self.version


class ReleasesError(ValueError):
    """A line of RELEASES that does not follow the format."""


def parse(text: str) -> list[Release]:
    """The releases listed in `text`, in the file's order (newest first); ReleasesError names a bad line."""
    found: list[Release] = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split(None, 3)
        if len(parts) < 3:
            raise ReleasesError(f"RELEASES line {number}: expected <version> <commit> <kind>: {line!r}")
        version, commit, kind = parts[:3]
        note = parts[3].strip() if len(parts) > 3 else ""
        if kind not in KINDS:
            raise ReleasesError(f"RELEASES line {number}: the kind is one of {', '.join(KINDS)}: {kind!r}")
        if kind == "release" and not SEMVER.match(version):
            raise ReleasesError(f"RELEASES line {number}: a release has a semantic version: {version!r}")
        if kind == "before" and version != "0.x":
            raise ReleasesError(f"RELEASES line {number}: a commit before 1.0.0 is version 0.x: {version!r}")
        if commit != "-" and not HASH.match(commit):
            raise ReleasesError(f"RELEASES line {number}: a commit is a short hash or '-': {commit!r}")
        if note and not (note.startswith("(") and note.endswith(")")):
            raise ReleasesError(f"RELEASES line {number}: a note stands in parentheses: {note!r}")
        found.append(Release(version, None if commit == "-" else commit, kind, note.strip("()")))
    return found


def read(path: Path = FILE) -> list[Release]:
    return parse(path.read_text(encoding="utf-8"))


def newest(releases: list[Release]) -> Release:
    """The first line of kind "release" (the file is newest first)."""
    return next(r for r in releases if r.kind == "release")


def key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def commit_exists(commit: str, root: Path = ROOT) -> bool:
    """Whether `commit` is a commit of the repository at `root` (a shallow clone may lack old ones)."""
    done = subprocess.run(
        ["git", "-C", str(root), "cat-file", "-e", f"{commit}^{{commit}}"], capture_output=True, check=False
    )
    return done.returncode == 0
