"""The times the data folder stamps on what it writes: `created`, `updated`, a set-aside mark.

`now_iso` is the time to the second (a record's creation, a note's time). `change_stamp` is a change's `updated`
time: to the microsecond and always later than the one before, so lists sorted by it (games in progress, most
recently played first) come out the same on every run (docs/DATA.md).
"""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta


def now_iso() -> str:
    """Now, in UTC, to the second (ISO 8601)."""
    return datetime.now(UTC).isoformat(timespec="seconds")


_last_change: datetime | None = None
_change_lock = threading.Lock()


def change_stamp() -> str:
    """The `updated` time of a change (a match saved, a saved game's move): to the microsecond and later than
    the stamp before, so games played within one second list most recently played first on every run (to the
    second, they tied and their random ids decided). Older versions' times (to the second) sort right among
    them as text: "...:04+00:00" < "...:04.000001+00:00" < "...:05+00:00" (docs/DATA.md)."""
    global _last_change
    with _change_lock:
        moment = datetime.now(UTC)
        if _last_change is not None and moment <= _last_change:  # the same tick, or the clock stepped back
            moment = _last_change + timedelta(microseconds=1)
        _last_change = moment
    return moment.isoformat(timespec="microseconds")
