"""The real reverse proxies from Debian's packages, started on loopback in front of the app (tests and the host
benchmark): Caddy with the project's own `deploy/Caddyfile` (`tls internal`: https on 127.0.0.1, its own CA),
and nginx with `deploy/nginx.conf` (plain http on loopback; `forwarding=False` drops its forwarding headers, the
case of a proxy or tunnel that names nobody).

Each runs in a folder of its own under `workdir` (config, certificates, logs, temp files), and stops at the end
of the block. Neither needs root; neither listens on anything but 127.0.0.1.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import ssl
import subprocess
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


# Under pytest-xdist each worker ("gw0", "gw1", ...) takes its ports from a block of its own, below the kernel's
# ephemeral range (32768 and up on Linux): two workers never probe the same port, and no outgoing connection
# (a browser's, a client's) takes the port between the probe and the server's bind.
WORKER_PORTS = range(20000, 32000)
WORKER_BLOCK = 500
_worker_next: list[int] = []


def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on now, for a server started next (the kernel picks it; under
    pytest-xdist, the next free one of the worker's block, `WORKER_PORTS`)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not worker.removeprefix("gw").isdigit():
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            return int(probe.getsockname()[1])
    blocks = len(WORKER_PORTS) // WORKER_BLOCK
    first = WORKER_PORTS.start + int(worker.removeprefix("gw")) % blocks * WORKER_BLOCK
    if not _worker_next:  # a random start: two test runs at once on one machine rarely walk in step
        _worker_next.append(int.from_bytes(os.urandom(2), "big") % WORKER_BLOCK)
    for _ in range(WORKER_BLOCK):
        port = first + _worker_next[0] % WORKER_BLOCK
        _worker_next[0] += 1
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:  # taken, or still in TIME_WAIT from an earlier server: the next one
                continue
            return port
    raise OSError(f"no free port in 127.0.0.1:{first}-{first + WORKER_BLOCK - 1}")


def available(program: str) -> bool:
    return shutil.which(program) is not None or Path(f"/usr/sbin/{program}").exists()


def wait_answer(url: str, timeout: float = 30.0) -> None:
    """Until `url` answers anything (certificate not checked: Caddy's internal CA is not in the trust store)."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=3, context=context):
                return
        except urllib.error.HTTPError:
            return
        except OSError:
            time.sleep(0.2)
    raise TimeoutError(f"the proxy did not answer at {url}")


def caddy_config(site: str, upstream: str, http_port: int) -> str:
    """deploy/Caddyfile for `site` (https://127.0.0.1:<port>) with `tls internal`, no admin endpoint, no port 80."""
    text = (DEPLOY / "Caddyfile").read_text(encoding="utf-8")
    text = text.replace("{$SCOREKEEPER_SITE:games.example.org}", site)
    text = text.replace("{$SCOREKEEPER_UPSTREAM:127.0.0.1:8550}", upstream)
    head = f"{{\n\tadmin off\n\tskip_install_trust\n\thttp_port {http_port}\n\tauto_https disable_redirects\n}}\n"
    return head + text.replace(f"{site} {{", f"{site} {{\n\ttls internal", 1)


@contextmanager
def caddy(app_port: int, workdir: Path, port: int | None = None) -> Iterator[str]:
    """Caddy serving https://127.0.0.1:<port>/ (a free port unless given) in front of the app on `app_port`;
    yields that URL."""
    port = port or free_port()
    site = f"https://127.0.0.1:{port}"
    with caddy_running(caddy_config(site, f"127.0.0.1:{app_port}", free_port()), workdir, site + "/") as url:
        yield url


@contextmanager
def caddy_running(config_text: str, workdir: Path, url: str) -> Iterator[str]:
    """Caddy with the Caddyfile `config_text`, in a folder of its own under `workdir`, until `url` answers;
    yields `url`."""
    folder = workdir / "caddy"
    folder.mkdir(parents=True, exist_ok=True)
    config = folder / "Caddyfile"
    config.write_text(config_text, encoding="utf-8")
    env = {**os.environ, "HOME": str(folder), "XDG_DATA_HOME": str(folder), "XDG_CONFIG_HOME": str(folder)}
    command = ["caddy", "run", "--config", str(config), "--adapter", "caddyfile"]
    with _serving(command, folder / "caddy.log", url, env):
        yield url


@contextmanager
def _serving(
    command: list[str], log_path: Path, url: str, env: dict[str, str] | None = None
) -> Iterator[None]:
    """`command` running (its output in `log_path`) from when `url` answers to the end of the block."""
    with open(log_path, "wb") as log:
        process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            wait_answer(url)
            yield
        finally:
            stop(process)


NGINX_FRAME = """worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log {folder}/access.log;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    types {{ text/html html; }}
{site}
}}
"""


def nginx_config(folder: Path, port: int, app_port: int, *, forwarding: bool) -> str:
    """deploy/nginx.conf as plain http on 127.0.0.1:<port> (no certificate), inside a minimal nginx.conf."""
    site = (DEPLOY / "nginx.conf").read_text(encoding="utf-8")
    site = site.replace("127.0.0.1:8550", f"127.0.0.1:{app_port}")
    site = re.sub(r"(?m)^\s*ssl_\w+ [^\n]*\n", "", site)
    site = re.sub(r"(?m)^\s*listen \[::\]:443[^\n]*\n", "", site)
    site = re.sub(r"(?m)^(\s*)listen 443[^\n]*\n", rf"\g<1>listen 127.0.0.1:{port};\n", site)
    site = re.sub(r"(?s)# The redirect from http.*", "", site)  # no port 80 here
    if not forwarding:
        site = re.sub(r"(?m)^\s*proxy_set_header X-Forwarded-[^\n]*\n", "", site)
    return NGINX_FRAME.format(folder=folder, site=site)


@contextmanager
def nginx(app_port: int, workdir: Path, *, forwarding: bool = True) -> Iterator[str]:
    """nginx serving http://127.0.0.1:<port>/ in front of the app on `app_port`; yields that URL."""
    port = free_port()
    with nginx_running(
        lambda folder: nginx_config(folder, port, app_port, forwarding=forwarding), workdir, port
    ) as url:
        yield url


@contextmanager
def nginx_running(config: Callable[[Path], str], workdir: Path, port: int) -> Iterator[str]:
    """nginx with the nginx.conf `config(folder)` gives for its own folder under `workdir`, until
    http://127.0.0.1:<port>/ answers; yields that URL."""
    folder = workdir / "nginx"
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o777)  # as root, nginx's workers run as nobody and write their temp files here
    config_file = folder / "nginx.conf"
    config_file.write_text(config(folder), encoding="utf-8")
    program = shutil.which("nginx") or "/usr/sbin/nginx"
    command = [program, "-c", str(config_file), "-p", str(folder), "-g", "daemon off;"]
    url = f"http://127.0.0.1:{port}/"
    with _serving(command, folder / "nginx.out", url):
        yield url


def stop(process: subprocess.Popen[bytes], timeout: float = 10) -> None:
    """End a server started for a measurement or a test: asked first, killed when it does not go in time."""
    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=timeout)
