"""Several instances behind one proxy: each draws its codes' first character from its own share of the
alphabet, so codes of different instances never collide and a code tells its instance."""

from __future__ import annotations

from pathlib import Path

import pytest

from scorekeeper.table.codes import ALPHABET, INSTANCE_ENV, Instance, instance_of, new_code, share


@pytest.mark.parametrize("count", [1, 2, 3, 25])
def test_shares_cover_the_alphabet_once_and_codes_tell_their_instance(count: int) -> None:
    assert "".join(share(n, count) for n in range(1, count + 1)) == ALPHABET
    seen: dict[str, int] = {}
    for number in range(1, count + 1):
        for _ in range(50):
            code = new_code(seen, instance=Instance(number, count))
            assert code not in seen and instance_of(code, count) == number
            assert Instance(number, count).owns(code.lower())
            seen[code] = number


def test_instance_is_parsed_and_checked() -> None:
    assert Instance.parse("2/3") == Instance(2, 3) and Instance.parse(None) == Instance()
    for wrong in ("3/2", "0/2", "a/b", "2", "1/26"):
        with pytest.raises(ValueError):
            Instance.parse(wrong)


def test_a_code_another_instance_made_is_opened_as_a_new_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A page open on this instance cannot reach a table on another one: typing its code loads the join page
    anew, which the proxy sends to the instance that made the code (tests/test_instances_proxy.py)."""
    from scorekeeper.server.table_runtime import PUBLIC_URL_ENV
    from scorekeeper.table.host import HOST
    from tests.test_ui_core_harness import App

    monkeypatch.setenv(INSTANCE_ENV, "2/2")
    monkeypatch.setenv(PUBLIC_URL_ENV, "https://games.example.org")
    HOST.guard.clear()
    phone = App(tmp_path)
    phone.page.web = True
    theirs = new_code(instance=Instance(1, 2))
    phone.go("/join")
    phone.find("join-code").value = theirs.lower()
    phone.tap("join-code-submit")
    assert phone.find("join-elsewhere").url == f"https://games.example.org/join/{theirs}"
    assert not phone.has("join-error")
    ours = new_code(instance=Instance(2, 2))
    phone.go(f"/join/{ours}")  # a code of this instance is looked up here, as with one instance
    assert f"no table with the code {ours}" in phone.find("join-error").value
    # the page loaded anew and the proxy sent it back here: looked up here, not loaded again and again
    phone.go(f"/join/{theirs}")  # Flet's web client resumes this same session after the load
    assert not phone.has("join-elsewhere") and phone.has("join-error")
    other = new_code({theirs}, instance=Instance(1, 2))
    phone.ctx.session.entry_route = f"/join/{other.lower()}"  # a new session loaded at that address
    phone.go(f"/join/{other}")
    assert not phone.has("join-elsewhere") and phone.has("join-error")
    monkeypatch.delenv(INSTANCE_ENV)
    phone.ctx.session.entry_route = "/"
    phone.go(f"/join/{theirs}")  # one instance: every code is its own
    assert not phone.has("join-elsewhere") and phone.has("join-error")
    HOST.guard.clear()
