"""A scored game ("match"): a game, its options, the seated players and the list of round results.

Everything a scoreboard shows is derived here from the round results through the game's rules module:
totals, standings with shared places, whose deal it is, Rage's next hand size, whether the match is over and
who won. Round results can be added, edited and removed at any position; every change is checked against the
rules *as a whole list* before it is accepted, so a rejected change leaves the match exactly as it was.
"""

from __future__ import annotations

import dataclasses
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from types import ModuleType
from typing import Any

from scorekeeper.games.base import SEAT_TEMPLATE, Message, Plural, RuleError, places
from scorekeeper.games.spec import GAMES, GameSpec, spec

GAME_TITLES: dict[str, str] = {game.key: str(game.title) for game in GAMES}
"""English titles by key (the store's index and export name games with them)."""
MODES = ("tracked", "digital")
STATUSES = ("active", "finished", "abandoned")
TEAMS: tuple[tuple[int, int], tuple[int, int]] = ((0, 2), (1, 3))
"""Racko partners: seats 1+3 and 2+4 (0-based 0+2 and 1+3) sit opposite each other."""


FIELD_TYPES: dict[str, type] = {
    "game": str,
    "options": dict,
    "players": list,
    "names": list,
    "first_dealer": int,
    "rounds": list,
    "id": str,
    "version": int,
    "status": str,
    "mode": str,
    "created": str,
    "updated": str,
}


def rules_of(game: str) -> ModuleType:
    """The rules package of `game` (`scorekeeper.games.<game>`); RuleError for an unknown game."""
    return spec(game).rules


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass(frozen=True)
class Standing:
    """One line of the standings: a seat, its total and its place (equal totals share the place)."""

    seat: int
    name: str
    total: int
    place: int
    exact_bids: int | None = None


@dataclass(frozen=True)
class TeamStanding:
    """Partners: one team's line of the standings (its seats, their names, the team total, its place)."""

    team: int
    seats: tuple[int, ...]
    names: tuple[str, ...]
    total: int
    place: int


@dataclass(frozen=True)
class Tally:
    """Everything derived from a list of rounds in one pass (kept out of the stored data on purpose)."""

    scores: list[list[int]]
    totals: list[int]
    dealers: list[int]
    out: list[list[int]]
    """Seats out of the chips game before each round (and, last, after the final round)."""


@dataclass
class Match:
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
        return match

    @property
    def spec(self) -> GameSpec:
        """The game's entry in the registry (RuleError for a game this version does not know)."""
        return spec(self.game)

    @property
    def rules(self) -> ModuleType:
        return self.spec.rules

    @property
    def opts(self) -> Any:
        """The options as the game's options dataclass (validated)."""
        game = self.spec
        try:
            return game.Options(**self.options)
        except TypeError as error:
            raise RuleError(
                "These options are not known for {game}: {error}.", game=game.title, error=error
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
    def _tally(self, rounds: list[dict[str, Any]]) -> Tally:
        """Validate `rounds` as a whole and derive scores, totals and dealers; RuleError names the bad round."""
        opts, game, seats = self.opts, self.spec, len(self.players)
        totals = [int(opts.chips_start)] * seats if self.chips else [0] * seats
        scores: list[list[int]] = []
        dealers: list[int] = []
        out_before: list[list[int]] = []
        dealer = self.first_dealer
        for index, result in enumerate(rounds):
            number = index + 1
            if self._over(index, totals):
                raise RuleError(
                    "The game was already over before round {number}; that round cannot be added.",
                    number=number,
                )
            out = [s for s in range(seats) if self.chips and totals[s] <= 0]
            if index:
                dealer = self._next_dealer(dealer, out)
            if not isinstance(result, dict):
                raise RuleError("Round {number} is not a round result.", number=number)
            try:
                self._check_out_seats(result, out)
                game.validate_result(result, opts, dealer=dealer, round_index=index)
                points = [int(p) for p in game.score_result(result, opts, dealer=dealer, round_index=index)]
            except RuleError as error:
                raise RuleError(
                    "Round {number}: {reason}", number=number, reason=self._with_names(error)
                ) from None
            if self.chips:
                points = game.rules.settle_chips([-delta for delta in points], totals)
            totals = [t + p for t, p in zip(totals, points, strict=True)]
            scores.append(points)
            dealers.append(dealer)
            out_before.append(out)
        out_before.append([s for s in range(seats) if self.chips and totals[s] <= 0])
        return Tally(scores, totals, dealers, out_before)

    def _with_names(self, error: RuleError) -> RuleError:
        """The rules say "Player 2" (they don't know names); a match does. The seat names are fields of the
        message (also inside nested messages), so the names go in there and the sentence stays translatable."""
        return RuleError.retold(error, **self._named_fields(error.fields))  # type: ignore[return-value]

    def _named_fields(self, fields: dict[str, object]) -> dict[str, object]:
        named: dict[str, object] = {}
        for key, value in fields.items():
            if isinstance(value, Message) and value.template == SEAT_TEMPLATE:
                seat = int(str(value.fields["number"])) - 1
                named[key] = self.names[seat] if 0 <= seat < len(self.names) else value
            elif isinstance(value, Message):
                named[key] = value.with_fields(**self._named_fields(value.fields))
            elif isinstance(value, RuleError):
                named[key] = self._with_names(value)
            else:
                named[key] = value
        return named

    def _next_dealer(self, dealer: int, out: list[int]) -> int:
        """The deal passes one seat to the left, skipping players who are out of the chips game."""
        seats = len(self.players)
        for step in range(1, seats + 1):
            candidate = (dealer + step) % seats
            if candidate not in out:
                return candidate
        return dealer

    def _check_out_seats(self, result: dict[str, Any], out: list[int]) -> None:
        """In the chips game a player who is out sits out: their entry must be empty, everyone else's filled."""
        if not self.chips:
            return
        callers = result.get("callers") if isinstance(result.get("callers"), list) else []
        for key in ("racks", "counts", "runs"):
            entries = result.get(key)
            if not isinstance(entries, list) or len(entries) != len(self.players):
                continue  # absent, or the wrong shape: the rules module reports that in its own words
            for seat, entry in enumerate(entries):
                if seat in out and entry is not None:
                    raise RuleError(
                        "{name} is out of chips and does not play this round.", name=self.names[seat]
                    )
                if key == "racks" and seat not in out and entry is None:
                    raise RuleError(
                        "{name} is still in the game; their rack is missing.", name=self.names[seat]
                    )
        if any(seat in out for seat in callers):
            raise RuleError("A player who is out of chips cannot call Racko.")

    def _over(self, played: int, totals: list[int]) -> bool:
        """Whether the match ended after `played` rounds with these totals."""
        planned = self.rounds_planned()
        if self.chips:
            return played >= (planned or 10) or sum(1 for t in totals if t > 0) <= 1
        if planned is not None:
            return played >= planned
        target = self.target or 0
        board = self._team_values(totals) if self.partners else totals
        if max(board, default=0) < target:
            return False
        # The top is tied: another round is played until one player (team) leads alone.
        return board.count(max(board)) == 1

    @staticmethod
    def _team_values(totals: list[int]) -> list[int]:
        return [sum(totals[s] for s in team) for team in TEAMS]

    def _tally_key(self) -> str:
        return repr((self.game, self.options, self.players, self.first_dealer, self.rounds))

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
    def _with_rounds(self, rounds: list[dict[str, Any]]) -> Match:
        """A new match with these rounds, checked once as a whole list (RuleError names the bad round); this
        match stays as it was, so the previous value is what undo goes back to."""
        tally = self._tally(rounds)  # raises before anything is made
        changed = dataclasses.replace(self, rounds=rounds, updated=now_iso())
        changed.__dict__["_tally_cache"] = (changed._tally_key(), tally)
        if changed.status != "abandoned":
            changed.status = "finished" if changed.is_over else "active"
        return changed

    def with_round(self, result: dict[str, Any]) -> Match:
        """This match with a round result appended (checked against the rules with every other round)."""
        self._check_entry(result, len(self.rounds))
        return self._with_rounds([*self.rounds, result])

    def with_round_edited(self, index: int, result: dict[str, Any]) -> Match:
        """This match with round `index` (0-based) replaced; every later round is checked with the new scores."""
        self._index(index)
        self._check_entry(result, index)
        return self._with_rounds([*self.rounds[:index], result, *self.rounds[index + 1 :]])

    def without_round(self, index: int) -> Match:
        """This match without round `index` (0-based); every later round is checked again. When a later round
        no longer fits (Rage: it moves to a place in the schedule with another hand size), the refusal says so
        and why."""
        self._index(index)
        try:
            return self._with_rounds([*self.rounds[:index], *self.rounds[index + 1 :]])
        except RuleError as error:
            raise self._refused_removal(index, error) from None

    def _become(self, changed: Match) -> None:
        self.__dict__.update(changed.__dict__)

    def add_round(self, result: dict[str, Any]) -> None:
        """In place: `with_round` for a caller that keeps one record (the store's tests, the benchmarks)."""
        self._become(self.with_round(result))

    def edit_round(self, index: int, result: dict[str, Any]) -> None:
        """In place: `with_round_edited`."""
        self._become(self.with_round_edited(index, result))

    def _check_entry(self, result: dict[str, Any], index: int) -> None:
        """A round a score keeper enters must be one that can end that way at a real table (Racko: somebody
        called); the game's `check_entry` says so. Rounds from digital play and stored rounds are not held to
        it (a digital round may end at the turn limit without a call)."""
        if self.mode != "tracked":
            return
        try:
            self.spec.check_entry(result, self.opts)
        except RuleError as error:
            raise RuleError(
                "Round {number}: {reason}", number=index + 1, reason=self._with_names(error)
            ) from None

    def remove_round(self, index: int) -> None:
        """In place: `without_round`."""
        self._become(self.without_round(index))

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
        """Partners only: the totals of the team of seats 1+3 and of seats 2+4."""
        return self._team_values(self.totals()) if self.partners else None

    def ranking_totals(self) -> list[int]:
        """What places are decided on, per seat: a partner ranks with their team's total."""
        totals = self.totals()
        if not self.partners:
            return totals
        teams = self._team_values(totals)
        return [teams[0] if seat in TEAMS[0] else teams[1] for seat in range(len(totals))]

    def exact_bids(self) -> list[int] | None:
        """Rage: how many rounds each seat made its bid exactly (shown beside equal totals)."""
        exact = self.spec.exact_bids
        if exact is None:
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
        team_places = places(teams, higher_wins=not self.lower_wins)
        rows = [
            TeamStanding(i, tuple(seats), tuple(self.names[s] for s in seats), teams[i], team_places[i])
            for i, seats in enumerate(TEAMS)
        ]
        return sorted(rows, key=lambda row: (row.place, row.team))

    def tied_at_target(self) -> int | None:
        """The total the top is tied on when the target is reached but the game goes on (RULES 1.5: another
        round is played until one player or team leads alone); None otherwise."""
        target = self.target
        if target is None or self.is_over or not self.rounds:
            return None
        board = self.team_totals() if self.partners else self.totals()
        top = max(board or [0])
        return top if top >= target and board.count(top) > 1 else None

    def round_calls(self) -> list[dict[int, tuple[int, int, int | None]]]:
        """Per round, the seats that called and how their points break down (the spec's `calls`: points for
        the call, run bonus, longest run); empty for games without calls."""
        opts = self.opts
        return [self.spec.calls(result, opts) for result in self.rounds]

    def standings(self) -> list[Standing]:
        """Best first; equal totals share the place. Partners take their team's total and place (two teams
        are places 1 and 2, not 1 and 3)."""
        ranking = self.ranking_totals()
        seat_places = places(ranking, higher_wins=not self.lower_wins)
        teams = self.team_standings()
        if teams is not None:
            seat_places = [next(t.place for t in teams if seat in t.seats) for seat in range(len(ranking))]
        exact = self.exact_bids()
        rows = [
            Standing(seat, self.names[seat], ranking[seat], seat_places[seat], exact[seat] if exact else None)
            for seat in range(len(self.players))
        ]
        return sorted(rows, key=lambda row: (row.place, row.seat))

    def dealer_of(self, index: int) -> int:
        """The dealer of round `index` (0-based): played rounds as recorded, later ones as the deal passes on."""
        tally = self.tally()
        if index < len(tally.dealers):
            return tally.dealers[index]
        if index < 0:
            raise RuleError("Rounds are counted from the first one on.")
        # Rounds not played yet: the deal goes on passing left, skipping whoever is out of chips now.
        dealer = self._next_dealer(tally.dealers[-1], tally.out[-1]) if tally.dealers else self.first_dealer
        for _ in range(index - len(tally.dealers)):
            dealer = self._next_dealer(dealer, tally.out[-1])
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
        return self._over(len(self.rounds), self.tally().totals)

    def winners(self) -> list[int]:
        """The seats in first place once the match is over (several on a shared first place); else []."""
        if not self.is_over:
            return []
        return [row.seat for row in self.standings() if row.place == 1]

    # -------------------------------------------------------- serialisation
    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-safe data; `Match.from_dict(m.to_dict())` gives the same match."""
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: Any) -> Match:
        """Rebuild a match from `to_dict` data, checking every field and every round against the rules."""
        if not isinstance(data, dict):
            raise RuleError("A saved game must be an object with its game, players and rounds.")
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - names)
        if unknown:
            raise RuleError(
                "A saved game has fields this version does not know: {fields}.", fields=", ".join(unknown)
            )
        required = ("game", "options", "players", "names")
        missing = [key for key in required if key not in data]
        if missing:
            raise RuleError("A saved game lacks {fields}.", fields=", ".join(missing))
        for key, kind in FIELD_TYPES.items():
            value = data.get(key)
            if key in data and (not isinstance(value, kind) or (kind is int and isinstance(value, bool))):
                raise RuleError("A saved game's {field} has the wrong type.", field=key)
        if not all(isinstance(p, str) for p in [*data["players"], *data["names"]]):
            raise RuleError("A saved game's players and names must be text.")
        match = cls(**{key: value for key, value in data.items() if key != "rounds"})
        match._check_frame()
        rounds = list(data.get("rounds", []))
        tally = match._tally(rounds)
        match.rounds = rounds
        # Keep the check's figures: a loaded game is asked for its totals at once (index entry, list summary).
        match.__dict__["_tally_cache"] = (match._tally_key(), tally)
        return match
