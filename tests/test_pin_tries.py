"""The guest PIN's tries are limited (issue 40, finding 6: 300 wrong PINs in 3 s were all compared, and any
length was taken): per session, per address and host-wide, with a stepped clock (no sleep); while refused the PIN
is not even compared; a new PIN needs at least 6 characters, an older shorter one keeps working."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import flet as ft
import pytest

from scorekeeper.server import permissions, pin_tries
from scorekeeper.ui.views.settings import screen as settings_view
from tests.test_server_roles import Device
from tests.test_table import Clock
from tests.test_ui_core_harness import settle_all, walk

NAT = "203.0.113.9"
PIN = "482913"


@pytest.fixture(autouse=True)
def fresh_tries() -> Iterator[None]:
    pin_tries.GUARD.clear()
    yield
    pin_tries.GUARD.clear()


def attempts(guard: pin_tries.PinGuard, session: str, address: str | None, pin: str) -> pin_tries.Verdict:
    return guard.check(session, address, lambda: pin == PIN)


def test_six_wrong_pins_from_one_session_then_the_right_one_is_refused() -> None:
    clock = Clock()
    guard = pin_tries.PinGuard(clock)
    for _ in range(pin_tries.SESSION_LIMIT):
        assert not attempts(guard, "session:a", NAT, "000000").right
    sixth = attempts(guard, "session:a", NAT, "000000")
    assert sixth.refused and sixth.level == pin_tries.SESSION and sixth.minutes == 1
    assert attempts(guard, "session:a", NAT, PIN).refused  # the right PIN too, for now
    assert attempts(guard, "session:b", NAT, PIN).right  # another session may still try
    clock.now += pin_tries.SESSION_WAIT
    assert attempts(guard, "session:a", NAT, PIN).right


def test_while_refused_the_pin_is_not_even_compared() -> None:
    guard = pin_tries.PinGuard(Clock())
    for _ in range(pin_tries.SESSION_LIMIT):
        attempts(guard, "session:a", NAT, "000000")
    compared: list[int] = []
    verdict = guard.check("session:a", NAT, lambda: bool(compared.append(1)) or True)
    assert verdict.refused and not verdict.right and compared == []


def test_the_session_wait_doubles() -> None:
    clock = Clock()
    guard = pin_tries.PinGuard(clock)
    for wait in (60, 120, 240):
        for _ in range(pin_tries.SESSION_LIMIT):
            assert not attempts(guard, "session:a", None, "000000").refused
        assert attempts(guard, "session:a", None, PIN).wait == wait
        clock.now += wait - 1
        assert attempts(guard, "session:a", None, PIN).refused
        clock.now += 1


def test_a_guesser_with_many_sessions_stops_at_the_address_limit() -> None:
    clock = Clock()
    guard = pin_tries.PinGuard(clock)
    for n in range(pin_tries.ADDRESS_LIMIT):  # a new session for every try
        assert not attempts(guard, f"session:{n}", NAT, "000000").right
        clock.now += 1
    refused = attempts(guard, "session:new", NAT, PIN)
    assert refused.refused and refused.level == pin_tries.ADDRESS
    assert attempts(guard, "session:elsewhere", "198.51.100.1", PIN).right
    clock.now += pin_tries.WINDOW
    assert attempts(guard, "session:new", NAT, PIN).right


def test_many_addresses_together_stop_at_the_host_wide_limit() -> None:
    clock = Clock()
    guard = pin_tries.PinGuard(clock)
    for n in range(pin_tries.HOST_LIMIT):
        assert not attempts(guard, f"session:{n}", f"10.0.{n // 250}.{n % 250}", "000000").right
        clock.now += 1
    refused = attempts(guard, "session:late", "198.51.100.1", PIN)
    assert refused.refused and refused.level == pin_tries.HOST
    clock.now += pin_tries.WINDOW
    assert attempts(guard, "session:late", "198.51.100.1", PIN).right


def test_a_new_pin_needs_six_characters() -> None:
    assert pin_tries.MIN_LENGTH == 6
    assert pin_tries.too_short("12345") and pin_tries.too_short(" 1234 ")
    assert not pin_tries.too_short("123456") and not pin_tries.too_short("")  # empty: no PIN


# ---------------------------------------------------------------------- in the Settings screen, in-process
def tagged(control: Any, identifier: str) -> Any:
    for node in walk(control):
        if isinstance(node, ft.Semantics) and node.identifier == identifier:
            return node.content
    raise LookupError(identifier)


def guest_with_pin(tmp_path: Path, name: str, pin: str = PIN) -> tuple[Device, list[str]]:
    folder = tmp_path / name
    folder.mkdir()
    device = Device(folder, NAT)
    device.ctx.guest = True
    device.store.update_settings({permissions.GUESTS_ALLOWED: True, permissions.GUEST_PIN: pin})
    errors: list[str] = []
    device.ctx.error = errors.append  # type: ignore[method-assign]
    device.ctx.rerender = lambda: None  # type: ignore[method-assign]
    return device, errors


def unlock(device: Device, typed: str) -> None:
    saved = device.store.settings()
    section = settings_view.guest_side(device.ctx, saved)
    field = tagged(section, "guest-pin")
    field.value = typed
    tagged(section, "guest-unlock").on_click(SimpleNamespace(control=None, data=None))
    settle_all()


def test_the_unlock_refuses_a_session_after_five_wrong_pins_and_says_so(tmp_path: Path) -> None:
    device, errors = guest_with_pin(tmp_path, "guesser")
    for _ in range(pin_tries.SESSION_LIMIT + 1):
        unlock(device, "000000")
    assert errors[0] == "That is not the host's PIN."
    assert "Too many wrong PINs" in errors[-1] and "1 minute" in errors[-1]
    unlock(device, PIN)
    assert not device.ctx.unlocked and "Too many wrong PINs" in errors[-1]
    other, _ = guest_with_pin(tmp_path, "other")  # a new session still may try
    unlock(other, PIN)
    assert other.ctx.unlocked


def test_an_older_shorter_pin_keeps_working(tmp_path: Path) -> None:
    device, _ = guest_with_pin(tmp_path, "old", pin="1234")
    unlock(device, "1234")
    assert device.ctx.unlocked


def pin_field(device: Device) -> Any:
    section = settings_view.host_side(device.ctx, device.store.settings())
    return tagged(section, "guest-pin-setting")


def test_the_hosts_pin_field_refuses_a_short_pin_and_saves_nothing(tmp_path: Path) -> None:
    host = Device(tmp_path, None, served=False)
    host.store.update_settings({permissions.GUESTS_ALLOWED: True, permissions.GUEST_PIN: "1234"})
    host.ctx.settings = host.store.settings()
    errors: list[str] = []
    host.ctx.error = errors.append  # type: ignore[method-assign]
    field = pin_field(host)
    field.on_blur(None)  # unchanged: the older, shorter PIN is kept without a word
    assert errors == [] and host.store.settings()[permissions.GUEST_PIN] == "1234"
    field.value = "98765"
    field.on_blur(None)
    assert errors == ["A PIN needs at least 6 characters. The PIN was not changed."]
    assert host.store.settings()[permissions.GUEST_PIN] == "1234"
    field = pin_field(host)
    field.value = "987654"
    field.on_submit(None)
    settle_all()
    assert host.store.settings()[permissions.GUEST_PIN] == "987654"
    assert len(errors) == 1
