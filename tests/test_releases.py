"""Releases: RELEASES parses, every commit it lists is in this repository's history, and the newest release is
the version the app says it is (scorekeeper/release.py, CHANGELOG.md's newest heading, `main.py --version`)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from compat import releases
from compat.releases import ROOT, Release, ReleasesError, parse

import main
import scorekeeper
from scorekeeper.release import VERSION

CHANGELOG = ROOT / "CHANGELOG.md"
HEADING = re.compile(r"^## \[(?P<version>[^\]]+)\](?: - (?P<date>\d{4}-\d{2}-\d{2}))?\s*$", re.MULTILINE)


def test_the_file_parses_newest_first_with_this_main_as_the_newest_release() -> None:
    listed = releases.read()
    assert listed, "RELEASES lists no release"
    assert releases.newest(listed).version == VERSION
    assert releases.newest(listed).commit is None  # this main: its hash is written in by the next release
    versions = [r.version for r in listed if r.kind == "release"]
    assert versions == sorted(versions, key=releases.key, reverse=True)
    assert len(set(versions)) == len(versions)
    assert len({r.commit for r in listed if r.commit}) == len([r for r in listed if r.commit])
    assert {"839a310", "f474032"} <= {r.commit for r in listed if r.kind == "before"}


def test_every_listed_commit_is_in_the_history() -> None:
    shallow = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--is-shallow-repository"], capture_output=True, text=True
    )
    missing = [r.commit for r in releases.read() if r.commit and not releases.commit_exists(r.commit)]
    assert not missing, f"RELEASES lists commits this clone does not have: {', '.join(missing)}" + (
        " (a shallow clone: fetch the whole history, `git fetch --unshallow`)"
        if "true" in shallow.stdout
        else ""
    )


def test_the_changelog_s_newest_heading_is_this_version() -> None:
    headings = HEADING.findall(CHANGELOG.read_text(encoding="utf-8"))
    assert headings, "CHANGELOG.md has no '## [version] - date' heading"
    released = [version for version, _date in headings if version != "Unreleased"]
    assert released[0] == VERSION
    listed = [r.version for r in releases.read() if r.kind == "release"]
    assert released[: len(listed)] == listed  # every release has its section, in the same order


def test_the_package_and_the_command_line_say_the_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert scorekeeper.__version__ == VERSION
    with pytest.raises(SystemExit) as ended:
        main.parse_args(["--version"])
    assert ended.value.code == 0
    assert capsys.readouterr().out == f"scorekeeper {VERSION}\n"
    done = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "--version"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert (done.returncode, done.stdout) == (0, f"scorekeeper {VERSION}\n")


@pytest.mark.parametrize(
    "line",
    [
        "1.0  -  release",  # not semantic versioning
        "1.0.0  -  final",  # no such kind
        "0.x  zz12345  before",  # not a hash
        "0.9.0  839a310  before",  # before 1.0.0 is 0.x
        "1.0.0  -",  # no kind
        "1.0.0  -  release  a note without parentheses",
    ],
)
def test_a_line_off_the_format_is_refused_with_its_number(line: str) -> None:
    with pytest.raises(ReleasesError, match="line 2"):
        parse(f"# comment\n{line}\n")


def test_comments_notes_and_the_current_main() -> None:
    text = "# a comment\n\n2.1.0  abcdef1  release  (the one before)\n0.x  1234567  before\n"
    assert parse(text) == [
        Release("2.1.0", "abcdef1", "release", "the one before"),
        Release("0.x", "1234567", "before", ""),
    ]
    assert parse("1.0.0  -  release  (this main)")[0].commit is None


@pytest.mark.parametrize(
    ("language", "about", "line"),
    [
        ("en", "About", "Scorekeeper version"),
        ("de", "Über", "Punktezähler Version"),
        ("nl", "Over", "Scoreteller versie"),
        ("fr", "À propos", "Marqueur de points version"),
    ],
)
def test_the_owner_s_settings_end_with_the_version(
    tmp_path: Path, language: str, about: str, line: str
) -> None:
    """The owner reads which release runs at the bottom of Settings, in the app's language; a member and a
    visitor do not (the version tells an attacker which flaws to try)."""
    from tests.test_server_roles import PHONE_IP, Device

    owner = Device(tmp_path, PHONE_IP, owner=True)
    owner.go("/settings")
    owner.tap(f"language-{language}")
    shown = owner.text()
    assert f"{line} {VERSION}" in shown
    at = shown.index(f"{line} {VERSION}")
    assert shown[at - 1] == about  # under its heading "About"
    for device in (Device(tmp_path, PHONE_IP, member=True), Device(tmp_path, PHONE_IP)):
        device.go("/settings")
        assert not any(VERSION in text for text in device.text())
        assert not device.has("app-version")
