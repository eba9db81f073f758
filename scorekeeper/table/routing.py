"""The proxy's routing for several instances: `python -m scorekeeper.table.routing N [PORT ...]` prints a
Caddyfile for N instances of the app on loopback (the first at port 8550, the next at 8551, ...; or the ports
given), `--nginx` an nginx site file instead; `deploy/Caddyfile.instances` and `deploy/nginx.instances.conf` are
their output for two (a test keeps them the same, and runs both proxies).

Why it routes as it does:
- A table lives in one process. Instance K makes only codes that begin with its share of the alphabet
  (`codes.share`), so the pages of a code (`/join/<code>`, `/table/<code>`, `/table/<code>/board`,
  `/table/<code>/seat`) go to the instance the code's first character names. The pattern takes exactly a code's
  6 characters (any case: the app reads `/join/ncdefg` as `NCDEFG`), so `/table/new` is no code.
- Flet's page then opens its websocket at `/ws`, which carries no code: the answer to a code's page sets a
  cookie naming the instance, and `/ws` goes where the cookie says. A browser without it (home, history,
  settings opened first) is served by instance 1; every instance serves those pages alike.
"""

from __future__ import annotations

import sys

from scorekeeper.table.codes import ALPHABET, CODE_LENGTH, share

COOKIE = "scorekeeper_instance"
FIRST_PORT = 8550


def code_pattern(number: int, count: int) -> str:
    """The paths of instance `number`'s codes (Go's and Python's regular expressions alike)."""
    return f"(?i)^/(join|table)/[{share(number, count)}][{ALPHABET}]{{{CODE_LENGTH - 1}}}(/|$)"


def cookie_pattern(number: int) -> str:
    """A Cookie header that names instance `number`."""
    return rf"(^|;\s*){COOKIE}={number}(;|$)"


def _instance(number: int, count: int, port: int) -> str:
    upstream = f"127.0.0.1:{port}"
    return f"""
	# Instance {number} of {count} (`--instance {number}/{count} --port {port}`): codes beginning with {share(number, count)}
	@code{number} path_regexp code{number} {code_pattern(number, count)}
	handle @code{number} {{
		reverse_proxy {upstream} {{
			header_down +Set-Cookie "{COOKIE}={number}; Path=/; Secure; HttpOnly; SameSite=Lax"
		}}
	}}
	@socket{number} {{
		path /ws
		header_regexp socket{number} Cookie {cookie_pattern(number)}
	}}
	handle @socket{number} {{
		reverse_proxy {upstream}
	}}
"""


def caddyfile(count: int, ports: list[int] | None = None) -> str:
    """deploy/Caddyfile for `count` instances at `ports` (default 8550, 8551, ...)."""
    ports = _ports(count, ports)
    instances = "".join(_instance(n + 1, count, port) for n, port in enumerate(ports))
    return f"""# Caddy in front of {count} instances of scorekeeper on this machine (made by
# `python -m scorekeeper.table.routing {count}`; docs/HOSTING.md, "Past one machine"). As deploy/Caddyfile
# otherwise: automatic TLS for your name, websockets proxied. Start each instance on loopback with its number:
#   python main.py --web --host 127.0.0.1 --port 8550 --instance 1/{count} \\
#     --trusted-proxy 127.0.0.1 --public-url https://games.example.org
# and so on for each port below.

{{$SCOREKEEPER_SITE:games.example.org}} {{
	encode zstd gzip
	header -Server
	request_header -Forwarded
{instances}
	# Everything else (home, history, statistics, the web client's files) from instance 1.
	handle {{
		reverse_proxy 127.0.0.1:{ports[0]}
	}}

	log {{
		output stdout
		format filter {{
			wrap console
			fields {{
				request>uri query {{
					delete token
					delete owner
				}}
				request>headers>Cookie delete
			}}
		}}
	}}
}}
"""


NGINX_PROXYING = """
		proxy_pass http://{upstream};
		proxy_http_version 1.1;
		proxy_set_header Upgrade $http_upgrade;
		proxy_set_header Connection $scorekeeper_connection;
		proxy_set_header Host $host;
		proxy_set_header X-Forwarded-For $remote_addr;
		proxy_set_header Forwarded "";
		proxy_set_header X-Forwarded-Proto $scheme;
		proxy_read_timeout 1h;
		proxy_send_timeout 1h;
		proxy_buffering off;"""
"""What every location of the nginx site does with a request (as deploy/nginx.conf: the websocket, who the
visitor is, set and not appended, long waits, no buffering)."""


def _nginx_code_location(number: int, count: int, port: int) -> str:
    proxying = NGINX_PROXYING.format(upstream=f"127.0.0.1:{port}")
    cookie = f"{COOKIE}={number}; Path=/; Secure; HttpOnly; SameSite=Lax"
    # quoted: the pattern's braces would otherwise end nginx's block
    return f"""
	# Instance {number} of {count} (`--instance {number}/{count} --port {port}`): codes beginning with {share(number, count)}
	location ~ "{code_pattern(number, count)}" {{{proxying}
		add_header Set-Cookie "{cookie}" always;
	}}
"""


def nginx_site(count: int, ports: list[int] | None = None, listen: str | None = None) -> str:
    """An nginx site file for `count` instances at `ports` (default 8550, 8551, ...). `listen`: plain http on
    that address instead of TLS on 443 (a test on loopback)."""
    ports = _ports(count, ports)
    if listen:
        tls = f"\tlisten {listen};"
    else:
        tls = (
            "\tlisten 443 ssl http2;\n\tlisten [::]:443 ssl http2;\n"
            "\tssl_certificate /etc/letsencrypt/live/games.example.org/fullchain.pem;\n"
            "\tssl_certificate_key /etc/letsencrypt/live/games.example.org/privkey.pem;"
        )
    sockets = "".join(f"\t{n + 1} 127.0.0.1:{port};\n" for n, port in enumerate(ports))
    codes = "".join(_nginx_code_location(n + 1, count, port) for n, port in enumerate(ports))
    return f"""# nginx in front of {count} instances of scorekeeper on this machine (made by
# `python -m scorekeeper.table.routing {count} --nginx`; docs/HOSTING.md, "Past one machine"). As
# deploy/nginx.conf otherwise. Start each instance on loopback with its number:
#   python main.py --web --host 127.0.0.1 --port {ports[0]} --instance 1/{count} \\
#     --trusted-proxy 127.0.0.1 --public-url https://games.example.org
# and so on for each port below.

map $http_upgrade $scorekeeper_connection {{
	default upgrade;
	'' close;
}}

# Flet's websocket (/ws) carries no code: it goes to the instance the cookie set by a code's page names.
map $cookie_{COOKIE} $scorekeeper_socket {{
	default 127.0.0.1:{ports[0]};
{sockets}}}

server {{
{tls}
	server_name games.example.org;
	server_tokens off;
	client_max_body_size 64m;
{codes}
	location = /ws {{{NGINX_PROXYING.format(upstream="$scorekeeper_socket")}
	}}

	# Everything else (home, history, statistics, the web client's files) from instance 1.
	location / {{{NGINX_PROXYING.format(upstream=f"127.0.0.1:{ports[0]}")}
	}}
}}
"""


def _ports(count: int, ports: list[int] | None) -> list[int]:
    ports = ports or [FIRST_PORT + n for n in range(count)]
    if len(ports) != count:
        raise ValueError(f"{count} instances need {count} ports, not {len(ports)}")
    return ports


def main(argv: list[str]) -> int:
    nginx = "--nginx" in argv
    argv = [arg for arg in argv if arg != "--nginx"]
    if not argv or not all(arg.isdigit() for arg in argv):
        print(__doc__.splitlines()[0], file=sys.stderr)
        return 2
    ports = [int(port) for port in argv[1:]] or None
    print((nginx_site if nginx else caddyfile)(int(argv[0]), ports), end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
