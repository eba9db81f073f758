"""A scored game ("match"): a game, its options, the seated players and the list of round results.

Everything a scoreboard shows is derived here from the round results through the game's rules module:
totals, standings with shared places, whose deal it is, Rage's next hand size, whether the match is over and
who won. Round results can be added, edited and removed at any position; every change is checked against the
rules *as a whole list* before it is accepted, so a rejected change leaves the match exactly as it was.

That whole-list check and the figures it derives are `scorekeeper.model.tally`; placing seats and partner teams is
`scorekeeper.model.standings`; the checks a saved match's data passes are `scorekeeper.model.match_data`.
"""

from __future__ import annotations

import copy
import dataclasses
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from types import ModuleType
from typing import Any

from scorekeeper.games.base import Plural, RuleError
from scorekeeper.games.spec import ByKey, GameSpec, spec
from scorekeeper.model.match_data import FIELDS, check_saved, record, split
from scorekeeper.model.playtime import after_rounds, played_seconds, settled, started
from scorekeeper.model.recorded import Recorded, recorded_of
from scorekeeper.model.stamps import change_stamp, now_iso
from scorekeeper.model.standings import (
    Standing,
    TeamStanding,
    rank_seats,
    rank_teams,
    team_values,
    with_team_totals,
)
from scorekeeper.model.tally import Tally, ended_after, next_dealer, tally_rounds

GAME_TITLES: Mapping[str, str] = ByKey(lambda game: str(game.title))
"""English titles by key (the store's index and export name games with them)."""
MODES = ("tracked", "digital")
STATUSES = ("active", "finished", "abandoned")


@dataclass(frozen=True)
class Match:
    """A match as one immutable value: every change (`with_round`, `with_round_edited`, `without_round`,
    `dataclasses.replace`) makes a new match and leaves this one as it was; the lists inside are never changed
    in place either. The store owns the saved match: a change to it goes through `Store.change_match`, which
    applies it to the stored version under the write lock (docs/ARCHITECTURE.md, "One owner of a match")."""

    game: str
    options: dict[str, Any]
    players: list[str]
    names: list[str]
    first_dealer: int = 0
    rounds: list[dict[str, Any]] = field(default_factory=list)
    id: str = field(default_factory=lambda: uuid.uuid4().hex)
    version: int = 0
    status: str = "active"
    mode: str = "tracked"
    created: str = field(default_factory=now_iso)
    updated: str = field(default_factory=now_iso)
    notes: str = ""
    place: str = ""
    photos: list[str] = field(default_factory=list)
    clock: list[list[str | None]] = field(default_factory=list)
    final_totals: list[int] = field(default_factory=list)
    """Per seat, the final total of a match whose rounds are not known (a play imported from BG Stats,
    `exchange/bgstats_import.py`): it has no rounds, is over, and its totals are these
    (`scorekeeper.model.tally`)."""
    night: str = ""
    """The game night chosen by hand (`scorekeeper.stats.game_nights`): "" grouped by place and time, another match's
    id to be in that match's night, `game_nights.ALONE` to be taken out of every other."""
    # The fields above are `match_data.FIELDS`, in its order (a test checks it); `extra` is not stored as one.
    extra: Mapping[str, Any] = field(default_factory=dict, repr=False)
    """The stored fields this version does not know (a newer version's), kept as they came and written back
    at the top level of the record by `to_dict` (docs/DATA.md, "Newer data"). Scoring never reads them."""

    # ----------------------------------------------------------------- creation
    @classmethod
    def new(
        cls,
        game: str,
        options: dict[str, Any],
        players: list[str],
        *,
        first_dealer: int = 0,
        names: list[str] | None = None,
        mode: str = "tracked",
    ) -> Match:
        """A match with no rounds yet. `options` holds the game's options; `players` is filled in if missing."""
        options = {**options, "players": len(players)}
        match = cls(
            game=game,
            options=options,
            players=list(players),
            names=list(names) if names is not None else list(players),
            first_dealer=first_dealer,
            mode=mode,
        )
        match._check_frame()
        match._options(lambda values: match.spec.Options(**values))  # a new game: today's option rules
        return match

    def seconds_played(self, now: datetime | None = None) -> float | None:
        """The time played (`playtime.played_seconds`; None where no clock was kept): a clock left running
        counts only up to the match's last change once it has been idle (the night it was left open is no play)."""
        return played_seconds(self.clock, now, self.updated)

    @property
    def spec(self) -> GameSpec:
        """The game's entry in the registry (RuleError for a game this version does not know)."""
        return spec(self.game)

    @property
    def rules(self) -> ModuleType:
        return self.spec.rules

    @property
    def opts(self) -> Any:
        """The options as the game's options dataclass, checked as stored options: a match saved under an
        option rule tightened since keeps the options it was played with (`GameSpec.stored_options`,
        docs/DATA.md). A new match follows today's rules (`new`).

        Made once per match value: the tally asks for it several times per round (chips, target, rounds
        planned), hundreds of times per save. The options dict is never changed in place (a change makes a new
        match), so the cache is kept while the match holds the same dict."""
        cached = self.__dict__.get("_opts_cache")
        if cached is None or cached[0] is not self.options:
            cached = (self.options, self._options(self.spec.stored_options))
            self.__dict__["_opts_cache"] = cached
        return cached[1]

    def _options(self, build: Callable[[dict[str, Any]], Any]) -> Any:
        try:
            return build(self.options)
        except TypeError as error:
            raise RuleError(
                "These options are not known for {game}: {error}.", game=self.spec.title, error=error
            ) from None

    @property
    def title(self) -> str:
        return str(self.spec.title)

    def _check_frame(self) -> None:
        opts = self.opts
        seats = len(self.players)
        if getattr(opts, "players", seats) != seats:
            raise RuleError(
                Plural(
                    "The options are for {players} players but {seats} is seated.",
                    "The options are for {players} players but {seats} are seated.",
                    seats,
                    players=opts.players,
                    seats=seats,
                )
            )
        if len(self.names) != seats:
            raise RuleError("Every seat needs a name.")
        if len(set(self.players)) != seats:
            raise RuleError("A player can only take one seat.")
        if not 0 <= self.first_dealer < seats:
            raise RuleError("The first dealer must be one of the {seats} seated players.", seats=seats)
        if self.mode not in MODES:
            raise RuleError("Unknown mode '{mode}'.", mode=self.mode)
        if self.status not in STATUSES:
            raise RuleError("Unknown status '{status}'.", status=self.status)

    # ------------------------------------------------------------- game shape
    @property
    def chips(self) -> bool:
        return self.spec.chips(self.opts)

    @property
    def partners(self) -> bool:
        return self.spec.partners(self.opts)

    @property
    def lower_wins(self) -> bool:
        return self.spec.lower_wins

    @property
    def target(self) -> int | None:
        """Points that end the match (Racko's points game; None where the match ends otherwise)."""
        return self.spec.target(self.opts)

    def rounds_planned(self) -> int | None:
        """How many rounds the match lasts, when that is fixed in advance (None: Racko to a target)."""
        return self.spec.rounds_planned(self.opts)

    # ------------------------------------------------------------- the tally
    def _tally(self, rounds: list[dict[str, Any]], entered: int | None = None) -> Tally:
        """Validate `rounds` as a whole and derive scores, totals and dealers; RuleError names the bad round.
        Round `entered` follows today's rules, the others are stored rounds (`scorekeeper.model.tally`)."""
        return tally_rounds(self, rounds, entered)

    def _tally_key(self) -> str:
        return repr(
            (self.game, self.options, self.players, self.first_dealer, self.rounds, self.final_totals)
        )

    def tally(self) -> Tally:
        """The derived figures of the current rounds; cached, because every query of a scoreboard needs it
        and validating every round again for each would make statistics over many matches slow."""
        key = self._tally_key()
        cached = self.__dict__.get("_tally_cache")
        if cached is None or cached[0] != key:
            cached = (key, self._tally(self.rounds))
            self.__dict__["_tally_cache"] = cached
        return cached[1]

    # --------------------------------------------------------------- changes
    def _with_rounds(self, rounds: list[dict[str, Any]], entered: int | None = None) -> Match:
        """A new match with these rounds, checked once as a whole list (RuleError names the bad round); this
        match stays as it was, so the previous value is what undo goes back to. Round `entered` is the one
        being entered now: it follows today's rules, the stored ones need only be readable (docs/DATA.md).
        The clock of time played goes with it (`playtime.after_rounds`): the first round starts it, the end of
        the game stops it, in the same change, so it is saved with the round or not at all."""
        tally = self._tally(rounds, entered)  # raises before anything is made
        over = ended_after(self, len(rounds), tally.totals)
        clock = after_rounds(
            self._clock_heard(len(rounds), over), len(self.rounds), len(rounds), over, now_iso()
        )
        changed = dataclasses.replace(
            self, rounds=rounds, updated=change_stamp(), clock=self.clock if clock == self.clock else clock
        )
        changed.__dict__["_tally_cache"] = (changed._tally_key(), tally)
        status = "finished" if over else "active"
        if changed.status in ("abandoned", status):
            return changed
        done = dataclasses.replace(changed, status=status)  # status is not in the tally's key: same figures
        done.__dict__["_tally_cache"] = changed.__dict__["_tally_cache"]
        return done

    def _clock_heard(self, rounds: int, over: bool) -> list[list[str | None]]:
        """The clock before a change of the rounds: a clock left idle (`playtime.IDLE` without a change) stopped
        at the last thing it heard, so the silence is no time played; a round added after it starts it again
        (a pause), unless the round ends the game."""
        now = datetime.now(UTC)
        clock = settled(self.clock, self.updated, now)
        if clock != list(self.clock) and rounds > len(self.rounds) and not over:
            clock = started(clock, now.isoformat(timespec="seconds"))
        return clock

    def at_version(self, version: int, updated: str | None = None) -> Match:
        """This match as stored at `version` (and `updated`, when given) by an import or a sync writing it:
        the same rounds and figures."""
        stamped = dataclasses.replace(
            self, version=version, updated=self.updated if updated is None else updated
        )
        if "_tally_cache" in self.__dict__:  # the version is not in the tally's key: keep the figures
            stamped.__dict__["_tally_cache"] = self.__dict__["_tally_cache"]
        return stamped

    def with_round(self, result: dict[str, Any]) -> Match:
        """This match with a round result appended: the new round follows today's rules, checked with every
        other round."""
        return self._with_rounds([*self.rounds, result], len(self.rounds))

    def with_round_edited(self, index: int, result: dict[str, Any]) -> Match:
        """This match with round `index` (0-based) replaced by a round that follows today's rules; every later
        round is checked with the new scores."""
        self._index(index)
        return self._with_rounds([*self.rounds[:index], result, *self.rounds[index + 1 :]], index)

    def without_round(self, index: int) -> Match:
        """This match without round `index` (0-based); every later round is checked again. When a later round
        no longer fits (Rage: it moves to a place in the schedule with another hand size), the refusal says so
        and why."""
        self._index(index)
        try:
            return self._with_rounds([*self.rounds[:index], *self.rounds[index + 1 :]])
        except RuleError as error:
            raise self._refused_removal(index, error) from None

    def _refused_removal(self, index: int, error: RuleError) -> RuleError:
        number = error.fields.get("number") if error.template == "Round {number}: {reason}" else None
        if not isinstance(number, int) or number - 1 < index:
            return RuleError("Round {number} cannot be deleted: {reason}", number=index + 1, reason=error)
        reason = error.fields.get("reason", error)
        later = number + 1  # the failing round as the players know it now, before the deletion
        sizes = self.spec.next_hand_size
        before, after = sizes(self.opts, later - 1), sizes(self.opts, later - 2)
        if before != after:
            return RuleError(
                "Round {number} cannot be deleted: round {later} was played with {before} cards per "
                "hand, and after the deletion it would be the round dealt {after}.",
                number=index + 1,
                later=later,
                before=before,
                after=after,
            )
        return RuleError(
            "Round {number} cannot be deleted: round {later} would then break a rule. {reason}",
            number=index + 1,
            later=later,
            reason=reason,
        )

    def _index(self, index: int) -> None:
        if not 0 <= index < len(self.rounds):
            raise RuleError(
                Plural(
                    "There is no round {number}; this game has {rounds} round.",
                    "There is no round {number}; this game has {rounds} rounds.",
                    len(self.rounds),
                    number=index + 1,
                    rounds=len(self.rounds),
                )
            )

    # -------------------------------------------------------------- queries
    @property
    def round_index(self) -> int:
        """How many rounds have been played (the 0-based index of the next round)."""
        return len(self.rounds)

    def round_scores(self) -> list[list[int]]:
        """Per round, per seat: the points (Ruck Zuck: penalties; chips game: chips won or paid)."""
        return [list(points) for points in self.tally().scores]

    def totals(self) -> list[int]:
        """Per seat: the total (chips game: the balance; partners: the seat's own points, see team_totals)."""
        return list(self.tally().totals)

    def team_totals(self) -> list[int] | None:
        """Partners only: the total of each team (the game's `teams`: Racko seats 1+3 and 2+4)."""
        return team_values(self.totals(), self.spec.teams) if self.partners else None

    def ranking_totals(self) -> list[int]:
        """What places are decided on, per seat: a partner ranks with their team's total."""
        totals = self.totals()
        return with_team_totals(totals, self.spec.teams) if self.partners else totals

    def exact_bids(self) -> list[int] | None:
        """Rage: how many rounds each seat made its bid exactly (shown beside equal totals)."""
        exact = self.spec.exact_bids
        if exact is None or self.final_totals:  # known by its totals only: its bids are not
            return None
        counts = [0] * len(self.players)
        for result in self.rounds:
            for seat, made in enumerate(exact(result)):
                counts[seat] += int(made)
        return counts

    def team_standings(self) -> list[TeamStanding] | None:
        """Partners: the two teams best first, each with its members (equal totals share the place)."""
        teams = self.team_totals()
        if teams is None:
            return None
        return rank_teams(teams, self.names, lower_wins=self.lower_wins, teams=self.spec.teams)

    def tied_at_target(self) -> int | None:
        """The total the top is tied on when the target is reached but the game goes on (RULES 1.5: another
        round is played until one player or team leads alone); None otherwise."""
        target = self.target
        if target is None or self.is_over or not self.rounds:
            return None
        board = (self.team_totals() if self.partners else self.totals()) or [0]
        top = max(board)
        return top if top >= target and board.count(top) > 1 else None

    def round_calls(self) -> list[dict[int, tuple[int, int, int | None]]]:
        """Per round, the seats that called and how their points break down (the spec's `calls`: points for
        the call, run bonus, longest run); empty for games without calls."""
        opts = self.opts
        return [self.spec.calls(result, opts) for result in self.rounds]

    @property
    def recorded(self) -> Recorded:
        """The result as another app recorded it (a BG Stats play: its winners, whether it kept scores, whether
        it counts in statistics; `scorekeeper.model.recorded`); an ordinary match's says nothing."""
        return recorded_of(self.options, len(self.players))

    def standings(self) -> list[Standing]:
        """Best first; equal totals share the place. Partners take their team's total and place (two teams
        are places 1 and 2, not 1 and 3). A result recorded elsewhere with its places (BG Stats' winner flags)
        is placed as recorded: the players' word is the record, not the totals."""
        places = self.recorded.places
        if places is not None:
            totals = self.ranking_totals()
            rows = [
                Standing(seat, self.names[seat], totals[seat], places[seat]) for seat in range(len(places))
            ]
            return sorted(rows, key=lambda row: (row.place, row.seat))
        return rank_seats(
            self.ranking_totals(),
            self.names,
            lower_wins=self.lower_wins,
            teams=self.team_standings(),
            exact=self.exact_bids(),
        )

    def dealer_of(self, index: int) -> int:
        """The dealer of round `index` (0-based): played rounds as recorded, later ones as the deal passes on."""
        tally = self.tally()
        if index < len(tally.dealers):
            return tally.dealers[index]
        if index < 0:
            raise RuleError("Rounds are counted from the first one on.")
        # Rounds not played yet: the deal goes on passing left, skipping whoever is out of chips now.
        dealer = next_dealer(self, tally.dealers[-1], tally.out[-1]) if tally.dealers else self.first_dealer
        for _ in range(index - len(tally.dealers)):
            dealer = next_dealer(self, dealer, tally.out[-1])
        return dealer

    @property
    def dealer(self) -> int:
        """Who deals the next round."""
        return self.dealer_of(len(self.rounds))

    @property
    def dealer_after(self) -> int:
        """Who deals the round after the next one."""
        return self.dealer_of(len(self.rounds) + 1)

    def next_hand_size(self) -> int | None:
        """Rage: cards per player in the next round (None when the schedule is done or for other games)."""
        return self.spec.next_hand_size(self.opts, len(self.rounds))

    def players_out(self) -> list[int]:
        """Chips game: seats with no chips left."""
        return list(self.tally().out[-1])

    @property
    def is_over(self) -> bool:
        return ended_after(self, len(self.rounds), self.tally().totals)

    def winners(self) -> list[int]:
        """The seats in first place once the match is over (several on a shared first place); else []."""
        if not self.is_over:
            return []
        return [row.seat for row in self.standings() if row.place == 1]

    # -------------------------------------------------------- serialisation
    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-safe data, as stored (`match_data.record`: the declared fields, then the unknown ones
        kept in `extra`); `Match.from_dict(m.to_dict())` gives the same match."""
        return copy.deepcopy(self.record())

    def record(self) -> dict[str, Any]:
        """`to_dict` without the deep copy: the values are this match's own (for a writer that only encodes
        them, such as an import of many games)."""
        return record({f.name: getattr(self, f.name) for f in FIELDS}, self.extra)

    @classmethod
    def from_dict(cls, data: Any, *, checked: Match | None = None) -> Match:
        """Rebuild a stored match from `to_dict` data (a file, an import), checking that it can be read and
        scored: every known field of its type, the options and every round readable (`tally.readable_scores`).
        A rule tightened since the match was saved does not refuse it (docs/DATA.md); a field this version
        does not know is kept in `extra`, not refused.

        `checked`: the match `data` was made from (a change about to be stored). Its rounds were checked when it
        was made, every one at least as strictly as here (the round entered by today's rules); while the data
        has the same game, options, seats and rounds (the tally's key), its figures are kept instead of
        checking every round again, which grows with the game."""
        check_saved(data)
        known, extra = split(data)
        rounds = list(known.pop("rounds", []))
        match = cls(**known, extra=extra)
        match._check_frame()
        object.__setattr__(match, "rounds", rounds)
        key = match._tally_key()
        made = checked.__dict__.get("_tally_cache") if checked is not None else None
        # Keep the check's figures: a loaded game is asked for its totals at once (index entry, list summary).
        match.__dict__["_tally_cache"] = (key, made[1] if made and made[0] == key else match._tally(rounds))
        return match
