"""One device of the compatibility suite, run by the version under test (tests/test_compat_versions.py).

    PYTHONPATH=<that version's tree> python tests/compat/driver.py DATA_DIR RESULT.json < steps.json

The suite runs this file with the code of each version on PYTHONPATH (a `git worktree` of an old commit, or
today's tree), so it uses only what every version since 839a310 has (`Store.open`, `Match.new`,
`with_round`, `save_match`, `delete_match`, `list_matches`, `PlaySession`, `scorekeeper.sync.cli.run`) and
finds out the rest (notes, place, photos, the clock, BG Stats) by looking: each version makes the richest
matches it can. The steps are a JSON list of {"do": ...}; the answers go to RESULT.json as a list, one per step.
The device's name on the sync target is SCOREKEEPER_COMPAT_NAME (the version's own sync code names a device by
`platform.node()`, so that is what is set here).
"""

from __future__ import annotations

import dataclasses
import io
import json
import os
import platform
import random
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
BGSTATS = HERE.parent / "fixtures" / "bgstats_export.json"
NAME = os.environ.get("SCOREKEEPER_COMPAT_NAME", "compat-device")
platform.node = lambda: NAME  # type: ignore[assignment]  # the name the version's sync writes in its head

import scorekeeper  # noqa: E402  # after the name is set

# The layout of 1.0.0 and later keeps the match model and digital play in rooms of their own; the commits
# before it kept them at the package's root. Asked of the checked-out tree itself: an import that fails is no
# proof, the installed (editable) package of today may answer it.
ROOMS = (Path(scorekeeper.__file__).parent / "model").is_dir()
if ROOMS:
    from scorekeeper.model.match import Match
else:
    from scorekeeper.match import Match  # type: ignore[no-redef]
from scorekeeper.store import Store  # noqa: E402

PEOPLE = ("Anna", "Ben", "Cleo")


def fields_of(cls: type) -> set[str]:
    return {f.name for f in dataclasses.fields(cls)} if dataclasses.is_dataclass(cls) else set()


MATCH_FIELDS = fields_of(Match)


def rz_round(rng: random.Random) -> dict[str, Any]:
    """A valid Ruck Zuck round of three (every version accepts it)."""
    out = rng.randrange(3)
    return {"hands": [0 if seat == out else rng.randrange(1, 60) for seat in range(3)], "out": out}


def people(store: Store) -> list[Any]:
    existing = {p.name: p for p in store.list_players()}
    return [existing.get(n) or store.add_player(n) for n in PEOPLE]


def change(store: Store, match_id: str, edit: Any) -> Match:
    """`edit` applied to the stored match, through `change_match` where the version has it."""
    if hasattr(store, "change_match"):
        return store.change_match(match_id, edit)
    match = store.get_match(match_id)
    assert match is not None, match_id
    return store.save_match(edit(match))


def with_fields(**values: Any) -> Any:
    known = {k: v for k, v in values.items() if k in MATCH_FIELDS}
    return lambda m: dataclasses.replace(m, **known) if known else m


def picture(seed: int) -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (640, 480), (seed * 37 % 256, 90, 160)).save(out, "JPEG", quality=85)
    return out.getvalue()


def scored(store: Store, tag: str, rounds: int, seed: int) -> Match:
    rng = random.Random(seed)
    who = people(store)
    match = store.save_match(
        Match.new("ruckzuck", {"rounds": 50}, [p.id for p in who], names=[p.name for p in who])
    )
    for _ in range(rounds):
        match = change(store, match.id, lambda m: m.with_round(rz_round(rng)))
    return match


def make(store: Store, tag: str, bgstats: bool) -> dict[str, Any]:
    """The richest matches this version can make, each under a label: a game kept with rounds (and where the
    version has them: notes, place, a photo, its clock), a game with no rounds (the plainest record), a
    digital game one round in with its saved game, and the plays of a BG Stats export."""
    made: dict[str, Any] = {}
    rich = scored(store, tag, 2, seed=len(tag) * 7 + 1)
    rich = change(store, rich.id, with_fields(notes=f"{tag}: Cleo's first game", place=f"{tag} kitchen"))
    if "photos" in MATCH_FIELDS and hasattr(store, "photos"):
        photo = store.photos.add(picture(len(tag)))
        rich = change(store, rich.id, with_fields(photos=[photo]))
    made["rich"] = rich.id
    made["plain"] = scored(store, tag, 0, seed=2).id
    made["other"] = scored(store, tag, 1, seed=3).id
    made["digital"] = digital(store)
    importer = bgstats_importer(store)
    if bgstats and importer is not None:  # on one device only: its plays have fixed ids
        before = {s.id for s in store.list_matches()}
        importer(BGSTATS.read_bytes())
        made["bgstats"] = sorted({s.id for s in store.list_matches()} - before)
    return made


def bgstats_importer(store: Store) -> Any:
    """The version's BG Stats import of a file's bytes into `store`, where it has one: a function of the exchange
    formats since they left the store (issue 53), a Store method before."""
    if not ROOMS:
        return getattr(store, "import_bgstats_text", None)
    from scorekeeper.exchange.bgstats_import import import_bgstats_text

    return lambda content: import_bgstats_text(store, content)


def digital(store: Store) -> str:
    """A digital Ruck Zuck game against a computer player, its first round played and the second dealt."""
    if ROOMS:
        from scorekeeper.digital.session import PlaySession, Seat, computer_seat
    else:
        from scorekeeper.play.session import PlaySession, Seat, computer_seat  # type: ignore[no-redef]

    anna = people(store)[0]
    session = PlaySession.create(
        store,
        "ruckzuck",
        {"rounds": 3},
        [Seat("person", anna.id, anna.name), computer_seat("easy", 1, "CPU")],
        seed=5,
    )
    for _ in range(2_000):
        session.run_computers()
        if session.round_over:
            break
        move = session.hint(0)
        assert move is not None
        session.act(0, move)
    session.next_round()
    return str(session.match.id)


def edit(store: Store, match_id: str, note: str | None, rounds: int) -> dict[str, Any]:
    """Rounds added (a Ruck Zuck game kept by hand) and the notes changed, where the version has notes."""
    rng = random.Random(rounds * 11 + len(note or ""))
    for _ in range(rounds):
        change(store, match_id, lambda m: m.with_round(rz_round(rng)))
    if note is not None:
        change(store, match_id, with_fields(notes=note))
    got = store.get_match(match_id)
    return {"rounds": len(got.rounds) if got else None}


def keep_held(store: Store) -> list[str]:
    """A person decides every conflict of a game kept here against another device's deletion: keep this one
    (Settings and the history offer it); the next sync tells the other devices."""
    kept = []
    for conflict in store.conflicts():
        if not conflict.this_deleted and all(o.deleted for o in conflict.others):
            store.resolve_conflict(conflict.match_id, "this")
            kept.append(conflict.match_id)
    return kept


def sync(data_dir: Path, to: str) -> dict[str, Any]:
    """One sync through the version's own command line code (`main.py sync` calls `cli.run`), with its report."""
    from scorekeeper.sync import cli

    reports: list[Any] = []
    inner = cli.sync_once

    def kept(*args: Any, **kwargs: Any) -> Any:
        reports.append(inner(*args, **kwargs))
        return reports[-1]

    cli.sync_once = kept  # type: ignore[assignment]
    out, err = io.StringIO(), io.StringIO()
    code = cli.run(data_dir, to, out=out, err=err)
    answer: dict[str, Any] = {"code": code, "out": out.getvalue(), "err": err.getvalue(), "messages": []}
    if reports:
        report = reports[0]
        for field in dataclasses.fields(report):
            value = getattr(report, field.name)
            if isinstance(value, list):
                answer["messages"] += [str(m) for m in value]
                answer[field.name] = [str(m) for m in value]
            elif isinstance(value, int | str):
                answer[field.name] = value
    return answer


def dump(store: Store, data_dir: Path) -> dict[str, Any]:
    """What a person would see: the games listed (with what each holds), the games in progress, the
    conflicts (with the other device's name), the trash, files set aside as damaged and start-up messages."""
    matches: dict[str, Any] = {}
    for summary in store.list_matches():
        match = store.get_match(summary.id)
        row: dict[str, Any] = {"game": summary.game, "status": summary.status}
        if match is not None:
            row.update(rounds=len(match.rounds), mode=match.mode)
            for name in ("notes", "place", "photos", "clock", "final_totals"):
                if hasattr(match, name):
                    row[name] = getattr(match, name)
            row["extra"] = sorted(getattr(match, "extra", None) or {})
        matches[summary.id] = row
    conflicts = []
    for conflict in store.conflicts():
        conflicts.append(
            {
                "match": conflict.match_id,
                "this_deleted": conflict.this_deleted,
                "others": [
                    {"device": o.device, "name": getattr(o, "device_name", ""), "deleted": o.deleted}
                    for o in conflict.others
                ],
            }
        )
    photos = (
        sorted(p.name for p in (data_dir / "photos").glob("*.jpg")) if (data_dir / "photos").is_dir() else []
    )
    return {
        "matches": matches,
        "digital": sorted(g.id for g in store.list_digital_games()),
        "digital_matches": sorted(str(g.match_id) for g in store.list_digital_games()),
        "conflicts": conflicts,
        "trash": sorted(p.name for p in (data_dir / "trash").glob("*.json"))
        if (data_dir / "trash").is_dir()
        else [],
        "aside": sorted(str(p.relative_to(data_dir)) for p in data_dir.rglob("*.corrupt-*")),
        "messages": [str(m) for m in recovery(store)],
        "photos": photos,
        "device": device_of(data_dir),
    }


def recovery(store: Store) -> list[Any]:
    """What the store says about the folder it opened (a property in some versions, a method in others)."""
    said = store.recovery_messages
    return list(said() if callable(said) else said)


def device_of(data_dir: Path) -> str | None:
    try:
        return str(json.loads((data_dir / "sync" / "device.json").read_text(encoding="utf-8"))["device"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def main() -> int:
    data_dir, result = Path(sys.argv[1]), Path(sys.argv[2])
    steps = json.loads(sys.stdin.read())
    answers: list[Any] = []
    for step in steps:
        do = step["do"]
        if do == "whoami":
            answers.append(
                {"file": scorekeeper.__file__, "version": getattr(scorekeeper, "__version__", None)}
            )
        elif do == "sync":
            answers.append(sync(data_dir, step["to"]))
        else:
            with Store.open(data_dir) as store:
                if do == "make":
                    answers.append(make(store, step["tag"], step.get("bgstats", False)))
                elif do == "edit":
                    answers.append(edit(store, step["id"], step.get("note"), step.get("rounds", 0)))
                elif do == "keep_held":
                    answers.append(keep_held(store))
                elif do == "delete":
                    answers.append(store.delete_match(step["id"]))
                elif do == "dump":
                    answers.append(dump(store, data_dir))
                else:
                    raise SystemExit(f"unknown step {do!r}")
    result.write_text(json.dumps(answers, indent=1, default=str), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
