"""Babel's extraction method for the app's Python: what `pybabel extract -F babel.cfg` (`make messages`) runs
over every module of scorekeeper/ to write the template locales/messages.pot, which `pybabel update` then
merges into each language's catalog.

A message is marked where the code says it: a call of one of the keywords babel.cfg lists (`t(...)`,
`ctx.t(...)`, `N_(...)` for a text kept as data, `Message(...)` and its subclasses, the player-facing errors
such as `RuleError(...)`, and count messages `Plural(singular, plural, n)` / `t.plural(...)`). This is Babel's
own Python extractor's rule (the keyword's arguments that are string literals) with two additions the code
relies on, which the token-based extractor cannot see:

- either branch of a conditional expression: `ctx.t("Hide" if shown else "Show")` gives two messages (Babel's
  extractor would glue the two literals into one id);
- a name given a text earlier in the same function: `template = "a" if asked else "b"` ... `ctx.t(template)`.

Empty texts and a bare "{field}" (a wrapper such as `Capitalized("{what}", ...)`) have nothing to translate
and give no message. Comments starting with one of the comment tags (`--add-comments`) on the lines right
above a call become the message's comments for translators.
"""

from __future__ import annotations

import ast
import io
import itertools
import tokenize
from collections.abc import Collection, Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from babel.messages.catalog import Catalog

PACKAGE = Path(__file__).resolve().parents[1]
CONFIG = PACKAGE.parent / "babel.cfg"
"""The extraction's configuration (the keywords): beside the package in a checkout, not in an installed app."""

Found = tuple[int, str, list[str | None], list[str]]
"""What Babel expects of an extraction method: (line, keyword, the call's positional arguments, each a text
or None where it is no text, comments)."""


def extract(
    fileobj: IO[bytes], keywords: Collection[str], comment_tags: Collection[str], options: Mapping[str, Any]
) -> Iterator[Found]:
    """Babel extraction method (babel.cfg): every call of a keyword in the module `fileobj`. Babel picks the
    message arguments of each call by the keyword's spec (`Plural:1,2`: a singular and a plural)."""
    source = fileobj.read().decode(str(options.get("encoding", "utf-8")))
    tree = ast.parse(source)
    comments = _comments(source)
    scopes: list[tuple[ast.AST, dict[str, list[str]]]] = [(tree, {})]
    scopes += [
        (node, _named_texts(node))
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    ]
    calls: dict[tuple[int, int], tuple[ast.Call, str, dict[str, list[str]]]] = {}
    # A function's calls are read with its named texts (the innermost function first), the module's without.
    for scope, named in reversed(scopes):
        for node in ast.walk(scope):
            name = _called(node) if isinstance(node, ast.Call) else None
            if isinstance(node, ast.Call) and name in keywords and node.args and name is not None:
                calls.setdefault((node.lineno, node.col_offset), (node, name, named))
    for (line, _), (call, name, named) in sorted(calls.items()):  # in reading order, as a translator reads
        notes = _notes_above(line, comments, comment_tags)
        for arguments in _alternatives([_texts(arg, named) for arg in call.args]):
            yield line, name, arguments, notes


def extract_messages(package: Path = PACKAGE, config: Path = CONFIG) -> Catalog:
    """The template `make messages` writes (locales/messages.pot), made the same way with Babel's API: every
    message of the modules of `package` by babel.cfg, each with the modules it is in (`scorekeeper/...`)."""
    from babel.messages.extract import extract_from_dir
    from babel.messages.frontend import parse_mapping_cfg

    with config.open(encoding="utf-8") as handle:
        method_map, options_map = parse_mapping_cfg(handle, str(config))
    template = Catalog(project="scorekeeper")
    # `--no-default-keywords -k N_` as in the Makefile: babel.cfg's own keywords are the rest.
    for filename, lineno, message, comments, context in extract_from_dir(
        package, method_map, options_map, keywords={"N_": None}
    ):
        where = f"{package.name}/{Path(filename).as_posix()}"
        template.add(message, None, [(where, lineno)], auto_comments=comments, context=context)
    return template


def _called(call: ast.Call) -> str | None:
    """The name a call is made by: `t(...)` -> "t", `ctx.t(...)` -> "t", `t.plural(...)` -> "plural"."""
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def literals(node: ast.expr) -> list[str]:
    """The texts an expression can be: a string literal, or either branch of `a if c else b`."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return literals(node.body) + literals(node.orelse)
    return []


def _named_texts(function: ast.AST) -> dict[str, list[str]]:
    """Names a function gives a text (`template = "a" if asked else "b"`), with every text they are given."""
    named: dict[str, list[str]] = {}
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            named.setdefault(node.targets[0].id, []).extend(literals(node.value))
    return named


def _texts(node: ast.expr, named: Mapping[str, list[str]]) -> list[str | None]:
    """The texts one argument can be; [None] where it is no text (a variable, a number, a message object)."""
    texts = named.get(node.id, []) if isinstance(node, ast.Name) else literals(node)
    return [text if _needs_translation(text) else None for text in texts] or [None]


def _needs_translation(text: str) -> bool:
    """Empty text and a bare "{field}" have nothing to translate."""
    stripped = text.strip()
    return bool(stripped) and not (
        stripped.startswith("{") and stripped.endswith("}") and text.count("{") == 1
    )


def _alternatives(arguments: list[list[str | None]]) -> Iterator[list[str | None]]:
    """The argument lists a call can be made with. Two arguments with as many alternatives go together
    (`Plural("a" if x else "b", "as" if x else "bs", n)` is two messages, not four)."""
    counts = {len(texts) for texts in arguments if len(texts) > 1}
    if len(counts) == 1:
        size = counts.pop()
        for index in range(size):
            yield [texts[index] if len(texts) == size else texts[0] for texts in arguments]
        return
    for combination in itertools.product(*arguments):
        yield list(combination)


def _comments(source: str) -> dict[int, str]:
    """Line number -> the text of the comment that line holds."""
    found: dict[int, str] = {}
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            found[token.start[0]] = token.string.lstrip("#").strip()
    return found


def _notes_above(line: int, comments: Mapping[int, str], tags: Collection[str]) -> list[str]:
    """The comment block right above `line` when its first line starts with a comment tag."""
    block: list[str] = []
    above = line - 1
    while above in comments:
        block.insert(0, comments[above])
        above -= 1
    for start, text in enumerate(block):
        if any(text.startswith(tag) for tag in tags):
            return block[start:]
    return []


def untranslated(language: str) -> list[str]:
    """The entries of the catalog of `language` a translator still has to fill in (empty or fuzzy)."""
    from babel.messages.pofile import read_po

    from scorekeeper.ui.i18n import catalog_path

    with catalog_path(language).open("rb") as handle:
        entries = [m for m in read_po(handle, locale=language) if m.id]
    unfinished = [
        m
        for m in entries
        if m.fuzzy or not all(m.string if isinstance(m.string, tuple | list) else [m.string])
    ]
    return [str(m.id[0] if isinstance(m.id, tuple) else m.id) for m in unfinished]


if __name__ == "__main__":  # `make messages` ends with the list of entries still to translate
    from scorekeeper.ui.i18n import LANGUAGES

    for code in LANGUAGES:
        if code != "en":
            for text in untranslated(code):
                print(f"{code}: to translate: {text!r}")
