"""What this release of the app is: its version and the record formats it reads and writes.

`VERSION` follows semantic versioning (CHANGELOG.md says what each release changed and with which releases its
data and sync are compatible; RELEASES lists the commits that are releases). Every device writes both into its
head on a sync target (sync/remote.py), so the other devices know which version wrote what.

`FORMATS` numbers what a kind of record may hold: a release that adds a field or an option another release
could refuse raises the number of that kind. A device reads a record of a format up to its own; a deletion or a
change from a device whose format predates the record it touches is never applied blindly (sync/engine.py).
"""

from __future__ import annotations

VERSION = "1.2.0"

FIRST_RELEASE = "1.0.0"
"""The first release: from it on every device says its version and formats in its head; one that says nothing
runs a version before it."""

FORMATS: dict[str, int] = {"match": 1, "player": 1, "digital": 1}
"""Format 1: everything 1.0.0, 1.1.0 and 1.2.0 write (a match's notes, place, photos and clock included). Devices of versions
before 1.0.0 say nothing of their formats: they count as format 0."""
