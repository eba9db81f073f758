"""A match in conflict on screen: another device changed it differently (the same round, or edited here and
deleted there), and sync kept both versions. The scoreboard and the history show a panel saying so, with both
versions side by side, and the player keeps this device's version, the other one, or both as separate games
(`Store.resolve_conflict`). Nothing is dropped until a person chooses.
"""

from __future__ import annotations

from typing import Any

import flet as ft

from scorekeeper.model.match import Match
from scorekeeper.model.match_data import differing
from scorekeeper.server import permissions
from scorekeeper.store import StoreError
from scorekeeper.store.conflicts import Keep
from scorekeeper.ui.components.match_io import announce
from scorekeeper.ui.components.widgets import tag
from scorekeeper.ui.context import AppContext


def conflict_of(ctx: AppContext, match_id: str) -> Any:
    """The match's conflict (`store.conflicts`), or None: none, or a store without sync."""
    listed = getattr(ctx.store, "conflicts", None)
    if not callable(listed):
        return None
    try:
        return next((c for c in listed() if c.match_id == match_id), None)
    except Exception:  # an unreadable conflict file must not keep the scoreboard from opening
        return None


def conflict_ids(ctx: AppContext) -> set[str]:
    """The ids of the matches in conflict now (read each time: the list's cache follows the index, which a
    conflict kept or resolved need not change)."""
    listed = getattr(ctx.store, "conflicts", None)
    try:
        return {c.match_id for c in listed()} if callable(listed) else set()
    except Exception:
        return set()


def follow_sync(ctx: AppContext) -> None:
    """Redraw the list on screen when a sync brought games or changes (`sync_runtime.CHANGED_TOPIC`)."""
    from scorekeeper.server.sync_runtime import CHANGED_TOPIC

    try:
        ctx.page.pubsub.subscribe_topic(CHANGED_TOPIC, lambda _topic, _message: ctx.rerender())
    except Exception:  # in-process tests have no live pubsub
        pass


def version_text(ctx: AppContext, match: Match | None, deleted: bool) -> str:
    """One version in a line: its rounds and everyone's total, or that it was deleted."""
    if deleted or match is None:
        return ctx.t("Deleted")
    totals = match.totals()
    standings = ", ".join(f"{name} {total}" for name, total in zip(match.names, totals, strict=False))
    rounds = ctx.t.plural("{n} round", "{n} rounds", len(match.rounds), n=len(match.rounds))
    return f"{rounds}: {standings}"


def differences_text(ctx: AppContext, match: Match | None, other: Match | None) -> str:
    """Besides the rounds and totals each version shows: the fields the two versions differ in, named as the
    match record declares (`match_data.differing`), e.g. "They also differ in: names, status."; "" when
    none (or a version is deleted)."""
    if match is None or other is None:
        return ""
    named = differing(match.record(), other.record())
    if not named:
        return ""
    return ctx.t("They also differ in: {fields}.", fields=", ".join(ctx.t(name) for name in named))


def resolve(ctx: AppContext, match_id: str, keep: Keep) -> None:
    """Keep one version or both; the screens showing the match redraw."""
    try:
        kept = ctx.store.resolve_conflict(match_id, keep)
    except (StoreError, ValueError) as error:
        ctx.error(ctx.describe(error))
        ctx.rerender()
        return
    announce(ctx, match_id)
    if keep == "both" and kept != match_id:
        ctx.notify(ctx.t("Both versions are kept: the other one is a separate game now."))
    else:
        ctx.notify(ctx.t("The conflict is resolved."))
    ctx.rerender()


def _version_box(title: str, text: str) -> ft.Control:
    return ft.Container(
        ft.Column([ft.Text(title, weight=ft.FontWeight.BOLD), ft.Text(text)], spacing=2, tight=True),
        padding=8,
        border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
        border_radius=6,
        width=320,
    )


def conflict_panel(ctx: AppContext, match: Match | None, conflict: Any) -> ft.Control:
    """The panel above a match in conflict: what happened, both versions, and the three choices."""
    other = conflict.other
    device = other.device_name or ctx.t("another device")
    this_text = version_text(ctx, None if conflict.this_deleted else match, conflict.this_deleted)
    other_text = version_text(ctx, other.match, other.deleted)
    differs = differences_text(
        ctx, None if conflict.this_deleted else match, None if other.deleted else other.match
    )
    may_delete = ctx.may(permissions.DELETE_HISTORY)  # keeping a deleted version deletes the game here
    choices = [
        ("conflict-keep-this", ctx.t("Keep this device's version"), "this", conflict.this_deleted),
        (
            "conflict-keep-other",
            ctx.t("Keep the version from {device}", device=device),
            "other",
            other.deleted,
        ),
    ]
    if not conflict.this_deleted and not other.deleted:
        choices.append(("conflict-keep-both", ctx.t("Keep both as separate games"), "both", False))
    choices = [choice for choice in choices if may_delete or not choice[3]]
    buttons = [
        tag(
            identifier,
            ft.OutlinedButton(label, on_click=lambda _, k=keep: resolve(ctx, conflict.match_id, k)),
        )
        for identifier, label, keep, _deletes in choices
    ]
    body = ft.Column(
        [
            ft.Row(
                [
                    ft.Icon(ft.Icons.CALL_SPLIT, color=ft.Colors.ON_TERTIARY_CONTAINER),
                    tag(
                        "conflict-question",
                        ft.Text(
                            ctx.t(
                                "{device} changed this game differently. Which version do you keep?",
                                device=device,
                            ),
                            weight=ft.FontWeight.BOLD,
                            color=ft.Colors.ON_TERTIARY_CONTAINER,
                            expand=True,
                        ),
                    ),
                ],
            ),
            ft.Row(
                [_version_box(ctx.t("This device"), this_text), _version_box(device, other_text)],
                wrap=True,
                spacing=8,
                run_spacing=8,
            ),
            *([tag("conflict-differences", ft.Text(differs))] if differs else []),
            ft.Row(buttons, wrap=True, spacing=8, run_spacing=8),
        ],
        spacing=8,
    )
    return tag(
        "conflict-panel",
        ft.Container(body, bgcolor=ft.Colors.TERTIARY_CONTAINER, padding=12, border_radius=8),
    )
