"""The words the engine gives players: a `Message` is English text that keeps its template and fields, so the
app can say it again in the player's language; a `RuleError` is a refusal worded that way. Dates inside a
message are written the way its language writes them."""

from __future__ import annotations

import datetime
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Self, TypeGuard

from babel.dates import format_date

Translate = Callable[..., str]
"""`t(msgid, **fields) -> str`: turns an English message id into the player's language (ui.i18n.Translator)."""


def N_(template: str) -> str:
    """Marks an English message template kept as data (in a table) for translation; tests collect these."""
    return template


def render(template: str, fields: Mapping[str, object], t: Translate | None = None) -> str:
    """A message template filled in: in English (`t` None) or translated with `t`. A field that is itself a
    message (a `Message`, a `RuleError`, a store error) is rendered the same way first, so a sentence and the
    words inside it end up in one language."""
    if t is None:
        return (
            template.format(**{key: _dated(value, None) for key, value in fields.items()})
            if fields
            else template
        )
    values = {
        key: value.translated(t) if _translatable(value) else _dated(value, t)
        for key, value in fields.items()
    }
    return t(template, **values)


def _dated(value: object, t: Translate | None) -> object:
    """A date field is written the way the message's language writes dates ("May 1, 2026", "01.05.2026",
    "1 mai 2026"), never as a raw ISO date."""
    if not isinstance(value, datetime.date):
        return value
    language = str(getattr(t, "language", "en"))
    text = format_date(value, format="medium", locale=language)
    if language == "fr" and value.day == 1:  # French writes the first of the month as an ordinal: 1er mai
        text = text.replace("1 ", "1er ", 1)
    return text


def day_of(timestamp: str) -> datetime.date | str:
    """The day of an ISO timestamp for a message's `{date}` field (the text as it is if it is no date)."""
    try:
        return datetime.date.fromisoformat(timestamp[:10])
    except ValueError:
        return timestamp[:10]


def _translatable(value: object) -> TypeGuard[Message | TranslatableError]:
    return isinstance(value, Message | TranslatableError)


class Message(str):
    """A piece of text for a player that can be translated later: it *is* the English text (so it can be
    joined, compared and stored like any string) and keeps its template and fields for `translated(t)`."""

    template: str
    fields: dict[str, object]

    def __new__(cls, template: str, /, **fields: object) -> Message:
        self = super().__new__(cls, cls._finish(render(template, fields)))
        self.template = template
        self.fields = fields
        return self

    def translated(self, t: Translate) -> str:
        return self._finish(render(self.template, self.fields, t))

    @staticmethod
    def _finish(text: str) -> str:
        """A last touch applied in every language (see Capitalized, Clause)."""
        return text

    def with_fields(self, **fields: object) -> Message:
        """The same message with other field values (e.g. a seat number replaced by the player's name)."""
        return type(self)(self.template, **fields)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_message, (type(self), self.template, self.fields))


def _message(cls: type[Message], template: str, fields: dict[str, object]) -> Message:
    return cls(template, **fields)


class Plural(Message):
    """A count message ("1 exact bid" / "3 exact bids"): English picks its form by `n`, a translation by its
    language's plural rule (gettext's ngettext: `t.plural(singular, plural, n, **fields)`). `{n}` in the
    templates is filled with `n` unless a field of that name is given."""

    plural: str
    n: int

    def __new__(cls, singular: str, plural: str, n: int, /, **fields: object) -> Plural:
        english = render(singular if n == 1 else plural, {"n": n, **fields})
        self = str.__new__(cls, english)
        self.template, self.plural, self.n, self.fields = singular, plural, n, fields
        return self

    def translated(self, t: Translate) -> str:
        values = {
            key: value.translated(t) if _translatable(value) else value for key, value in self.fields.items()
        }
        choose = getattr(t, "plural", None)
        if choose is None:  # a plain translate function knows no plurals: English form, translated as a whole
            return t(self.template if self.n == 1 else self.plural, **{"n": self.n, **values})
        return str(choose(self.template, self.plural, self.n, **values))

    def with_fields(self, **fields: object) -> Message:
        return Plural(self.template, self.plural, self.n, **fields)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_plural, (self.template, self.plural, self.n, self.fields))


def _plural(singular: str, plural: str, n: int, fields: dict[str, object]) -> Plural:
    return Plural(singular, plural, n, **fields)


class Capitalized(Message):
    """A message that starts a sentence: its first letter is upper case in every language
    ("the player list" -> "The player list", "die Spielerliste" -> "Die Spielerliste")."""

    @staticmethod
    def _finish(text: str) -> str:
        return text[:1].upper() + text[1:]


class Clause(Message):
    """A sentence used as part of a longer one (e.g. in a list joined by "; "): without its final full stop."""

    @staticmethod
    def _finish(text: str) -> str:
        return text.rstrip(".")


def joined(items: Sequence[str], separator: str = ", ") -> Message:
    """A list for a message ("red 7, joker (green), no-trump") whose items may be messages themselves: each
    item is translated on its own, the list shape stays as it is."""
    template = separator.join(f"{{item{index}}}" for index in range(len(items)))
    return Message(template, **{f"item{index}": item for index, item in enumerate(items)})


class TranslatableError(Exception):
    """An error whose message is for a player: `str(error)` is the English sentence; `template` and `fields`
    keep its parts so that `translated(t)` can say it in the player's language."""

    def __init__(self, message: str = "", /, **fields: object) -> None:
        self.plural: Plural | None = message if isinstance(message, Plural) and not fields else None
        if isinstance(message, Message) and not fields:  # a message built elsewhere, e.g. by a helper
            fields = dict(message.fields)
            message = message.template
        super().__init__(str(self.plural) if self.plural is not None else render(message, fields))
        self.template = message
        self.fields = fields

    def translated(self, t: Translate) -> str:
        """The message in the language of `t`; nested messages in the fields are translated too."""
        plural = getattr(self, "plural", None)  # None also for an error made without __init__ (unpickled)
        if plural is not None:
            return plural.translated(t)
        return render(self.template, self.fields, t)

    @classmethod
    def retold(cls, error: TranslatableError, /, **fields: object) -> Self:
        """`error`'s message with other field values, as this class (a match puts the players' names in)."""
        plural = getattr(error, "plural", None)
        return cls(plural.with_fields(**fields)) if plural is not None else cls(error.template, **fields)


class RuleError(TranslatableError, ValueError):
    """Input that the rules forbid. The message is meant for a player, not a programmer."""
