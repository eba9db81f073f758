"""main.py's command line: web or window, host, port and the data folder."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

import main


def test_options_are_parsed() -> None:
    args = main.parse_args(["--web", "--host", "0.0.0.0", "--port", "9000", "--data-dir", "/tmp/x"])
    assert (args.web, args.host, args.port, args.data_dir) == (True, "0.0.0.0", 9000, Path("/tmp/x"))


def test_web_mode_without_a_display(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "FLET_FORCE_WEB_SERVER"):
        monkeypatch.delenv(name, raising=False)
    assert main.wants_web(argparse.Namespace(web=False))
    monkeypatch.setenv("DISPLAY", ":0")
    assert not main.wants_web(argparse.Namespace(web=False))
    assert main.wants_web(argparse.Namespace(web=True))


def test_data_dir_from_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    seen: dict[str, object] = {}
    monkeypatch.setenv("SCOREKEEPER_DATA", str(tmp_path))
    monkeypatch.setattr("scorekeeper.ui.app.run", lambda **kwargs: seen.update(kwargs))
    main.main(["--web", "--port", "8123"])
    assert seen == {"web": True, "host": "127.0.0.1", "port": 8123, "data_dir": tmp_path}


def test_table_serves_on_the_lan_address_and_prints_the_join_address(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    seen: dict[str, object] = {}
    monkeypatch.setattr("scorekeeper.ui.app.run", lambda **kwargs: seen.update(kwargs))
    monkeypatch.setattr("scorekeeper.server.table_runtime.lan_address", lambda: "192.0.2.7")
    monkeypatch.delenv("SCOREKEEPER_TABLE_URL", raising=False)
    main.main(["--table"])
    assert (seen["web"], seen["host"], seen["port"]) == (True, "192.0.2.7", 8550)
    assert "http://192.0.2.7:8550/join" in capsys.readouterr().out
    main.main(["--table", "--host", "127.0.0.1", "--port", "9001"])  # host and port still override
    assert (seen["host"], seen["port"]) == ("127.0.0.1", 9001)
    import os

    assert os.environ["SCOREKEEPER_TABLE_URL"] == "http://127.0.0.1:9001"
    monkeypatch.delenv("SCOREKEEPER_TABLE_URL")


def test_no_window_client_at_first_start_serves_the_web_app_with_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A desktop with a display but no internet: flet-desktop cannot download its client. No traceback: the
    web app is served (Flet opens it with python's webbrowser) and one line says why and how to get the window."""
    import urllib.error

    import flet_desktop

    def offline() -> None:
        raise urllib.error.URLError("[Errno -3] Temporary failure in name resolution")

    seen: dict[str, object] = {}
    for name in ("WAYLAND_DISPLAY", "FLET_FORCE_WEB_SERVER", "SCOREKEEPER_DATA"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.setattr(flet_desktop, "ensure_client_cached", offline)
    monkeypatch.setattr("scorekeeper.ui.app.run", lambda **kwargs: seen.update(kwargs))
    main.main([])
    assert seen["web"] is True and seen["host"] == "127.0.0.1" and seen["port"] == 8550
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 1
    assert "desktop window cannot start" in lines[0] and "Temporary failure in name resolution" in lines[0]
    assert "http://127.0.0.1:8550" in lines[0] and "connect to the internet once" in lines[0]


def test_the_window_opens_when_its_client_is_there(monkeypatch: pytest.MonkeyPatch) -> None:
    import flet_desktop

    seen: dict[str, object] = {}
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.delenv("FLET_FORCE_WEB_SERVER", raising=False)
    monkeypatch.setattr(flet_desktop, "ensure_client_cached", lambda: None)
    monkeypatch.setattr("scorekeeper.ui.app.run", lambda **kwargs: seen.update(kwargs))
    main.main([])
    assert seen["web"] is False
