"""Start scorekeeper: a desktop window where one can open, otherwise the web app on localhost.

python main.py                  # desktop window if a display is available, else web
python main.py --web --port 8550
python main.py --data-dir ~/scores  (or SCOREKEEPER_DATA=~/scores)
python main.py --table          # host a live table: serve on the LAN address, print the join address
python main.py --web --trusted-proxy 127.0.0.1 --public-url https://games.example.org   # behind Caddy or nginx
python main.py --web --port 8551 --instance 2/2   # the second of two instances behind one proxy (docs/HOSTING.md)
python main.py --data-dir ~/scores sync --to ~/Sync/Scorekeeper   # one sync (or --to https://..., see README)
python main.py --version        # scorekeeper 1.0.0 (CHANGELOG.md says what each release changed)
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from scorekeeper.release import VERSION


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="scorekeeper", description="Score keeper for Racko, Ruck Zuck and Rage"
    )
    parser.add_argument(
        "--version", action="version", version=f"scorekeeper {VERSION}", help="print the version and exit"
    )
    parser.add_argument("--web", action="store_true", help="serve the web app instead of opening a window")
    parser.add_argument(
        "--table",
        action="store_true",
        help="host a live table: serve the web app on this machine's LAN address and print the join address",
    )
    parser.add_argument("--host", default=None, help="address to serve on (web mode; default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=None, help="port to serve on (web mode; default 8550)")
    parser.add_argument(
        "--data-dir",
        type=Path,
        default=None,
        help="folder for the saved games (default: $SCOREKEEPER_DATA, else the user's data folder)",
    )
    parser.add_argument(
        "--trusted-proxy",
        action="append",
        default=None,
        metavar="ADDRESS",
        help="a reverse proxy or tunnel (address or network) whose X-Forwarded-For / Forwarded headers are "
        "believed; repeatable (default: $SCOREKEEPER_TRUSTED_PROXIES, else none)",
    )
    parser.add_argument(
        "--public-url",
        default=None,
        metavar="URL",
        help="the address visitors use, e.g. https://games.example.org: its host name is accepted, and the join "
        "address and QR code use it (default: $SCOREKEEPER_PUBLIC_URL)",
    )
    parser.add_argument(
        "--instance",
        default=None,
        metavar="K/N",
        help="this process is instance K of N behind one proxy: its table codes begin with its own share of the "
        "alphabet, by which the proxy routes them (default: $SCOREKEEPER_INSTANCE, else the only one)",
    )
    commands = parser.add_subparsers(dest="command", metavar="sync")
    sync = commands.add_parser(
        "sync", help="sync the saved games once with a folder or WebDAV server, then exit"
    )
    sync.add_argument(
        "--to",
        default=None,
        metavar="FOLDER_OR_URL",
        help="a folder or a WebDAV address (user and password from $SCOREKEEPER_SYNC_USER and "
        "$SCOREKEEPER_SYNC_PASSWORD); default: the target set in Settings",
    )
    args = parser.parse_args(argv)
    problem = hosting_problem(args)
    if problem:
        parser.error(problem)
    return args


def hosting_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with --trusted-proxy, --public-url or --instance, or None."""
    from urllib.parse import urlsplit

    from scorekeeper.server.proxies import parse_networks
    from scorekeeper.table.codes import INSTANCE_ENV, Instance

    try:
        parse_networks(args.trusted_proxy or os.environ.get("SCOREKEEPER_TRUSTED_PROXIES", ""))
    except ValueError as error:
        return f"--trusted-proxy: {error}"
    url = args.public_url
    if url is not None:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname or parts.path.strip("/"):
            return f"--public-url: {url!r} is not an address such as https://games.example.org"
    try:
        Instance.parse(args.instance if args.instance is not None else os.environ.get(INSTANCE_ENV))
    except ValueError as error:
        return f"--instance: {error}"
    return None


def apply_hosting(args: argparse.Namespace) -> None:
    """Hand --trusted-proxy, --public-url and --instance to the server and the table screens (through the
    environment, as a systemd unit or container would set them)."""
    if args.trusted_proxy:
        os.environ["SCOREKEEPER_TRUSTED_PROXIES"] = ",".join(args.trusted_proxy)
    if args.public_url:
        os.environ["SCOREKEEPER_PUBLIC_URL"] = args.public_url.rstrip("/")
    if args.instance:
        os.environ["SCOREKEEPER_INSTANCE"] = args.instance.strip()


def wants_web(args: argparse.Namespace) -> bool:
    """Web mode when asked for, or when no display could show a window (a server, CI, a container)."""
    if args.web or getattr(args, "table", False) or os.environ.get("FLET_FORCE_WEB_SERVER"):
        return True
    return (
        os.name == "posix"
        and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
        and (os.uname().sysname != "Darwin")
    )


def desktop_problem() -> str | None:
    """Why the desktop window cannot start, or None when it can.

    flet-desktop downloads its window client on first use; without internet at that first start (or without
    flet-desktop at all) there is no window, and the web app in the browser is the way to play."""
    try:
        import flet_desktop

        flet_desktop.ensure_client_cached()
    except Exception as error:  # whatever stops the client: URLError, OSError, ImportError
        reason = getattr(error, "reason", None) or error
        return f"{type(error).__name__}: {reason}"
    return None


FALLBACK_NOTE = (
    "scorekeeper: the desktop window cannot start ({problem}), so the app opens in your browser at {url}. "
    "For the window, connect to the internet once and run `make run` again (Flet fetches its window client "
    "on first use)."
)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    data_dir = args.data_dir or (
        Path(os.environ["SCOREKEEPER_DATA"]) if os.environ.get("SCOREKEEPER_DATA") else None
    )
    if args.command == "sync":
        from scorekeeper.sync.cli import run as run_sync

        raise SystemExit(run_sync(data_dir, args.to))
    apply_hosting(args)
    web = wants_web(args)
    port = args.port or 8550
    from scorekeeper.ui.app import run

    if args.table:
        from scorekeeper.server.table_runtime import URL_ENV, lan_address

        host = args.host or lan_address()
        os.environ[URL_ENV] = f"http://{host}:{port}"
        joins = os.environ.get("SCOREKEEPER_PUBLIC_URL") or f"http://{host}:{port}"
        print(f"scorekeeper hosts a table at http://{host}:{port} - phones join at {joins}/join", flush=True)
    else:
        host = args.host or "127.0.0.1"
        problem = None if web else desktop_problem()
        if problem is not None:  # a display but no window client: serve the web app and open the browser
            print(FALLBACK_NOTE.format(problem=problem, url=f"http://{host}:{port}"), flush=True)
            web = True
        elif web:
            print(f"scorekeeper is served at http://{host}:{port}", flush=True)
    run(web=web, host=host, port=port, data_dir=data_dir)


if __name__ == "__main__":
    main()
