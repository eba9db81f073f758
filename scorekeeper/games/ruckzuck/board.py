"""The Ruck Zuck board: both sides as data, and which fields touch.

The board has 4 rows x 13 columns = 52 fields: 49 number fields, 2 joker-only fields (`J`) and the stock
field (`S`). A field is named in code by its position `row * 13 + column` (0..51), the same on both sides;
the sides differ only in which number is printed where (RULES.md 2.1).
"""

from __future__ import annotations

from typing import Final

from scorekeeper.games.base import RuleError

Field = int | str
"""What is printed on a field: a number 1..49, `J` (joker-only field) or `S` (stock field)."""

ROWS: Final = 4
COLUMNS: Final = 13
FIELDS: Final = ROWS * COLUMNS
JOKER_FIELD: Final = "J"
STOCK_FIELD: Final = "S"

# Red side, natural order. The seed fixes all but the left joker field, which mirrors the right one about
# the stock column (RULES.md 2.1 decision).
RED: Final[tuple[tuple[Field, ...], ...]] = (
    (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13),
    (14, 15, "J", 16, 17, 18, 19, 20, 21, 22, "J", 23, 24),
    (25, 26, 27, 28, 29, 30, "S", 31, 32, 33, 34, 35, 36),
    (37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49),
)

# Blue side: the printed order is unknown, so the app ships this fixed scrambled layout (RULES.md 2.1
# decision). Same J and S positions as the red side; replace the numbers here to match a real board.
BLUE: Final[tuple[tuple[Field, ...], ...]] = (
    (39, 36, 47, 45, 12, 5, 3, 42, 13, 8, 9, 34, 23),
    (20, 30, "J", 19, 48, 41, 31, 26, 40, 27, "J", 21, 24),
    (22, 44, 15, 10, 46, 2, "S", 37, 16, 38, 29, 33, 6),
    (11, 7, 35, 32, 4, 1, 28, 18, 14, 43, 49, 17, 25),
)

SIDES: Final[dict[str, tuple[tuple[Field, ...], ...]]] = {"red": RED, "blue": BLUE}


def layout(side: str = "red") -> tuple[Field, ...]:
    """The 52 printed fields of a side, position by position (row by row)."""
    try:
        grid = SIDES[side]
    except (KeyError, TypeError):
        raise RuleError("The board has a red and a blue side, not {side}.", side=str(side)) from None
    return tuple(field for row in grid for field in row)


def _neighbour_positions(position: int) -> tuple[int, ...]:
    """The up to 8 positions touching `position` side by side or corner to corner."""
    row, column = divmod(position, COLUMNS)
    return tuple(
        r * COLUMNS + c
        for r in range(row - 1, row + 2)
        for c in range(column - 1, column + 2)
        if (r, c) != (row, column) and 0 <= r < ROWS and 0 <= c < COLUMNS
    )


NEIGHBOURS: Final[tuple[tuple[int, ...], ...]] = tuple(_neighbour_positions(p) for p in range(FIELDS))
"""Per position, the positions touching it (8 neighbours, fewer at the edge)."""

JOKER_POSITIONS: Final[tuple[int, ...]] = tuple(p for p, f in enumerate(layout("red")) if f == JOKER_FIELD)

_POSITIONS: Final[dict[str, dict[int, int]]] = {
    side: {f: p for p, f in enumerate(layout(side)) if isinstance(f, int)} for side in SIDES
}


def position_of(number: int, side: str = "red") -> int:
    """The position of number field `number` on a side."""
    layout(side)  # checks the side
    try:
        return _POSITIONS[side][number]
    except (KeyError, TypeError):
        raise RuleError("The board has number fields 1 to 49, not {number}.", number=str(number)) from None


JOKER_LABELS: Final[tuple[str, ...]] = ("J1", "J2")
"""How actions and messages name the joker fields: J1 the left one, J2 the right one (on both sides)."""


def label(position: int, side: str = "red") -> int | str:
    """How a field is named to players and in actions: its number, J1/J2 for the joker fields, S."""
    field = layout(side)[position]
    if field == JOKER_FIELD:
        return JOKER_LABELS[JOKER_POSITIONS.index(position)]
    return field


def position_of_label(name: object, side: str = "red") -> int:
    """The position of a field named as `label` names it (a number 1..49, J1 or J2)."""
    if isinstance(name, str) and name in JOKER_LABELS:
        return JOKER_POSITIONS[JOKER_LABELS.index(name)]
    if isinstance(name, int) and not isinstance(name, bool):
        return position_of(name, side)
    if isinstance(name, str | int):
        raise RuleError("There is no such field {name}; fields are 1 to 49, J1 and J2.", name=name)
    raise RuleError("There is no such field; fields are 1 to 49, J1 and J2.")


def neighbours(position: int) -> tuple[int, ...]:
    """The positions touching `position` (0..51)."""
    return NEIGHBOURS[position]


def check_sides_agree() -> None:
    """Both sides hold each number 1..49 once and share the J and S positions (a guard for edited data)."""
    red = layout("red")
    for side in SIDES:
        fields = layout(side)
        numbers = sorted(f for f in fields if isinstance(f, int))
        specials = [p for p, f in enumerate(fields) if not isinstance(f, int)]
        if numbers != list(range(1, 50)) or specials != [
            p for p, f in enumerate(red) if not isinstance(f, int)
        ]:
            raise AssertionError(f"The {side} side of the board data is malformed.")


check_sides_agree()
