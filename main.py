"""Start scorekeeper: a desktop window where one can open, otherwise the web app on localhost.

python main.py                  # desktop window if a display is available, else web
python main.py --web --port 8550
python main.py --data-dir ~/scores  (or SCOREKEEPER_DATA=~/scores)
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="scorekeeper", description="Score keeper for Racko, Ruck Zuck and Rage"
    )
    parser.add_argument("--web", action="store_true", help="serve the web app instead of opening a window")
    parser.add_argument("--host", default=None, help="address to serve on (web mode; default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=None, help="port to serve on (web mode; default 8550)")
    parser.add_argument(
        "--data-dir",
        type=Path,
        default=None,
        help="folder for the saved games (default: $SCOREKEEPER_DATA, else the user's data folder)",
    )
    return parser.parse_args(argv)


def wants_web(args: argparse.Namespace) -> bool:
    """Web mode when asked for, or when no display could show a window (a server, CI, a container)."""
    if args.web or os.environ.get("FLET_FORCE_WEB_SERVER"):
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
    web = wants_web(args)
    host = args.host or "127.0.0.1"
    port = args.port or 8550
    from scorekeeper.ui.app import run

    problem = None if web else desktop_problem()
    if problem is not None:  # a display but no window client: serve the web app and open the browser
        print(FALLBACK_NOTE.format(problem=problem, url=f"http://{host}:{port}"), flush=True)
        web = True
    elif web:
        print(f"scorekeeper is served at http://{host}:{port}", flush=True)
    run(web=web, host=host, port=port, data_dir=data_dir)


if __name__ == "__main__":
    main()
