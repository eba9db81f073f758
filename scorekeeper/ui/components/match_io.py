"""Loading and changing a match from a view: rule and store errors become messages; a change applies to the
match as stored (the store owns it; a round recorded elsewhere meanwhile is kept); every change goes into
the match's stored undo history (the store keeps it with the match, so undo and redo work after a reload and
from any device showing the match, and refuse when the match changed elsewhere in between)."""

from __future__ import annotations

from collections.abc import Callable

from scorekeeper.games.base import RuleError
from scorekeeper.model.match import Match
from scorekeeper.spans import span
from scorekeeper.store import StoreError
from scorekeeper.store.errors import ConflictError
from scorekeeper.store.match_file import conflict_message
from scorekeeper.ui.context import AppContext
from scorekeeper.ui.palette import legible

TOPIC = "match:{id}"  # pubsub topic: other sessions (a tablet in scoreboard mode) redraw when a match changes


def load_match(ctx: AppContext, match_id: str) -> Match | None:
    """The stored match, or None (with a message) when it is gone."""
    match = ctx.store.get_match(match_id)
    if match is None:
        ctx.error(ctx.t("This game was not found. It may have been deleted."))
    return match


def colours_of(ctx: AppContext, match: Match) -> dict[str, str]:
    """Player id -> colour for the seated players that are saved players (as drawn: `palette.legible`)."""
    colours: dict[str, str] = {}
    for player_id in match.players:
        player = ctx.store.get_player(player_id)
        if player is not None and player.colour:
            colours[player_id] = legible(player.colour)
    return colours


def change_match(
    ctx: AppContext, match: Match, change: Callable[[Match], Match], description: str, *, index: int
) -> Match | str:
    """Save the change a screen made to round `index` of `match` as it showed it (e.g. `lambda m:
    m.with_round(result)`, index `match.round_index`); returns the saved match, else the message for the player.

    The store applies `change` to the match as stored (`Store.change_match`), so a change made meanwhile to
    other rounds (a digital game's or a table's round recorded, an earlier round edited, a round a sync brought
    in) is kept and nothing conflicts. Only when round `index` itself is no longer what the screen showed (an
    added round: the match no longer ends where it did) is the change refused, with the conflict message, and
    nothing changes. `match` itself never changes. `description` names the change in the stored undo history.
    """
    try:
        with span("save.store"):
            saved = ctx.store.change_match(match.id, touching(match, index, change), description)
    except (RuleError, StoreError, ValueError) as error:
        return ctx.describe(error)
    except Exception as error:  # the store failed (disk full, read-only): say so, nothing was saved
        return ctx.t("Could not save: {error}", error=ctx.describe(error))
    with span("save.broadcast"):
        announce(ctx, match.id)
    return saved


def touching(shown: Match, index: int, change: Callable[[Match], Match]) -> Callable[[Match], Match]:
    """`change` as it applies to the stored match: only while round `index` is as `shown` had it (a round
    added at `index`: while the stored match still has `index` rounds), else ConflictError."""

    def apply(stored: Match) -> Match:
        if index >= shown.round_index:
            same = stored.round_index == index
        else:
            same = index < stored.round_index and stored.rounds[index] == shown.rounds[index]
        if not same:
            raise ConflictError(conflict_message(shown, stored.version))
        with span("save.rules"):
            return change(stored)

    return apply


def undo_last(ctx: AppContext, match_id: str, shown_version: int, *, redo: bool = False) -> str | None:
    """Take back (or with `redo` bring back) the latest change of the match as this screen shows it
    (`shown_version`); returns an error message or None. A change made on another device since is never
    taken back silently: the store refuses with a conflict message."""
    step = ctx.store.redo_match if redo else ctx.store.undo_match
    try:
        step(match_id, shown_version)
    except (RuleError, StoreError, ValueError) as error:
        return ctx.describe(error)
    announce(ctx, match_id)
    return None


def announce(ctx: AppContext, match_id: str) -> None:
    """Tell other sessions of this server (e.g. a scoreboard on a tablet) that the match changed."""
    try:
        ctx.page.pubsub.send_others_on_topic(TOPIC.format(id=match_id), match_id)
    except Exception:  # no pubsub (in-process tests): nobody else to tell
        pass


def follow(ctx: AppContext, match_id: str, redraw: Callable[[], None]) -> None:
    """Call `redraw` whenever another session changes this match (until the next navigation)."""
    topic = TOPIC.format(id=match_id)
    try:
        pubsub = ctx.page.pubsub
        pubsub.unsubscribe_all()
        pubsub.subscribe_topic(topic, lambda _topic, _message: redraw())
    except Exception:
        pass
