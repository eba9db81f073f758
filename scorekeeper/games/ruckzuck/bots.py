"""Computer players for Ruck Zuck. They see only their seat's view (RuckZuckView) and the legal actions.

- `random`: any legal action, uniformly.
- `baseline` (greedy, the seed's "no risk" play): places every card it can, as soon as it can: a joker swap
  first, then number cards in ascending order (repeating, so chains are followed), then jokers, each on the
  first legal field in board order (row by row); draws when it can place nothing, ends when nothing is left.
- `medium` (a pacer): goes out whenever its whole hand can be placed this turn (jokers and joker swaps as
  bridges); otherwise places exactly one card per turn, so it never draws while it holds a placeable card
  (a placeable card stays placeable: fields only fill up, and a joker on its field can be swapped).
- `HoldBot` (the holding heuristic): like `medium`, but it also holds the board shut (the seed's "Taktik"
  paragraph): it places a card only where that opens no field for a number someone else may hold, and
  otherwise draws. Against greedy players this wins far more rounds: they run out of places while its own
  cards wait in chains it can lay all at once. It keeps jokers, and cards it could swap for a joker, as
  bridges for going out. Both `medium` and `HoldBot` place as much penalty as they can when the stock runs
  low, after drawing the last card, or when an opponent is down to very few cards (the round may end any
  moment).
- `hard` (`hard.SearchBot`): `HoldBot` with a determinized look-ahead that overrules its choice of the turn
  (draw, place one card, place all) when sampled deals played out show a clearly better one.

What `hard` achieves is measured by `python -m scorekeeper.games.ruckzuck.strength`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from scorekeeper.games.ruckzuck.hard import SearchBot
from scorekeeper.games.ruckzuck.heuristics import BaselineBot, HoldBot, RandomBot, medium

__all__ = ["BOTS", "BaselineBot", "HoldBot", "RandomBot", "SearchBot", "medium"]


BOTS: dict[str, Callable[[], Any]] = {
    "random": RandomBot,
    "baseline": BaselineBot,
    "medium": medium,
    "hard": SearchBot,  # the holding heuristic with a determinized look-ahead
}
