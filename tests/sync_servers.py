"""The real WebDAV servers of the sync tests (kept in scorekeeper/bench/dav_server.py: `bench sync` uses them
too). The `webdav_server` fixture in tests/conftest.py starts one per test."""

from scorekeeper.bench.dav_server import (
    PASSWORD,
    USER,
    DavServer,
    Fault,
    FaultLayer,
    free_port,
    rclone_server,
    wsgidav_server,
)

__all__ = [
    "PASSWORD",
    "USER",
    "DavServer",
    "Fault",
    "FaultLayer",
    "free_port",
    "rclone_server",
    "wsgidav_server",
]
