"""Running another version of the app beside today's: its tree checked out from this repository's history
(`git worktree`, no network), and one device at a time run by tests/compat/driver.py in a subprocess with that
tree on PYTHONPATH. The same .venv serves every version: their pinned dependencies are today's or a subset
(tests/test_compat_versions.py checks it)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from compat.releases import ROOT, commit_exists

DRIVER = Path(__file__).resolve().parent / "driver.py"
TODAY = Path(os.environ.get("SCOREKEEPER_COMPAT_TODAY") or ROOT).resolve()
"""Today's code: this tree, or (to see what the suite says of another one, e.g. a worktree of the commit before
a fix) the tree SCOREKEEPER_COMPAT_TODAY names."""
TIMEOUT_S = 300


class MissingCommit(RuntimeError):
    """A commit RELEASES lists is not in this clone (a shallow clone)."""


@contextmanager
def worktree(commit: str) -> Iterator[Path]:
    """The tree of `commit` in a temporary folder (a detached `git worktree`), removed afterwards."""
    if not commit_exists(commit):
        raise MissingCommit(
            f"commit {commit} (listed in RELEASES) is not in this clone's history: the compatibility suite needs "
            "the whole history (a shallow clone lacks it: `git fetch --unshallow`)"
        )
    base = Path(tempfile.mkdtemp(prefix=f"scorekeeper-{commit}-"))
    tree = base / "tree"
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(tree), commit],
        check=True,
        capture_output=True,
        timeout=120,
    )
    try:
        yield tree
    finally:
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)],
            capture_output=True,
            timeout=120,
        )
        shutil.rmtree(base, ignore_errors=True)
        subprocess.run(["git", "-C", str(ROOT), "worktree", "prune"], capture_output=True, timeout=120)


def dependencies(pyproject: str) -> set[str]:
    """The pinned run-time dependencies a pyproject.toml lists ("flet==1.0.5", ...)."""
    return {d.replace(" ", "").lower() for d in tomllib.loads(pyproject)["project"]["dependencies"]}


def pyproject_at(commit: str) -> str:
    return subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{commit}:pyproject.toml"],
        check=True,
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout


class Device:
    """A data folder and the code that opens it now (today's tree, or an old one): `run` hands the driver a
    list of steps and returns its answers. `code` may change (an upgrade or a downgrade of the same device)."""

    def __init__(self, role: str, data: Path, code: Path, label: str) -> None:
        self.role, self.data = role, data
        self.code, self.label = code, label
        self.current = code == TODAY

    @property
    def name(self) -> str:
        """The name this device's head carries on the target (it changes with the version it runs)."""
        return f"{self.role}-{self.label}"

    def switch(self, code: Path, label: str) -> None:
        """The same data folder opened by another version (an update, or going back to an older one)."""
        self.code, self.label, self.current = code, label, code == TODAY

    def run(self, *steps: dict[str, Any]) -> list[Any]:
        result = self.data.parent / f"{self.role}-answer.json"
        environment = {
            **{k: v for k, v in os.environ.items() if not k.startswith("SCOREKEEPER_")},
            "PYTHONPATH": str(self.code),
            "SCOREKEEPER_COMPAT_NAME": self.name,
            "SCOREKEEPER_CONFIG": str(self.data.parent / f"{self.role}-config"),
        }
        done = subprocess.run(
            [sys.executable, str(DRIVER), str(self.data), str(result)],
            input=json.dumps(list(steps)),
            capture_output=True,
            text=True,
            cwd=self.code,
            env=environment,
            timeout=TIMEOUT_S,
        )
        if done.returncode != 0:
            raise AssertionError(
                f"{self.name} ({self.code}) failed at {[s['do'] for s in steps]}:\n{done.stderr[-4000:]}"
            )
        answers: list[Any] = json.loads(result.read_text(encoding="utf-8"))
        return answers
