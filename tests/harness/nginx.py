"""The deployment kit's nginx on loopback: Debian's nginx running deploy/nginx/ (TLS with a
certificate made for the run, and the plain-http server) in front of daphne processes started
with deploy/systemd/h2h@.service's own command line.

The nginx is unprivileged and its own: a prefix, pid, logs and temp dirs in a folder of the
run's, loopback ports. From the kit's files it changes only what must differ on this machine
(`kit_config`): the listen addresses, the daphne ports, the certificate's and the checkout's
paths. Debian's nginx.conf and default site play no part. Used by tests/system/test_nginx.py,
bench.reconnect_storm and bench.faults.
"""

import os
import re
import shlex
import shutil
import socket
import ssl
import subprocess
import time
from pathlib import Path

from tests.harness.server import free_port

ROOT = Path(__file__).resolve().parents[2]
KIT = ROOT / "deploy"
TIMEOUT = 10
# Debian puts it in /usr/sbin, which a user's PATH may lack.
NGINX = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin")


def unit_daphne_arguments() -> list[str]:
    """daphne's arguments in the h2h@ unit's ExecStart, "{port}" for its instance (%i)."""
    unit = (KIT / "systemd/h2h@.service").read_text().replace("\\\n", " ")
    (line,) = [line for line in unit.splitlines() if line.startswith("ExecStart=")]
    command = shlex.split(line.removeprefix("ExecStart="))
    assert command[0].endswith("/.venv/bin/daphne"), command
    return [argument.replace("%i", "{port}") for argument in command[1:]]


def substituted(text: str, *replacements: tuple[str, str]) -> str:
    """`text` with each (pattern, replacement) applied; each pattern must match."""
    for pattern, replacement in replacements:
        text, count = re.subn(pattern, replacement, text, flags=re.M)
        assert count, f"the kit no longer has {pattern!r}"
    return text


def kit_config(
    workdir: Path,
    *,
    daphne_ports: list[int],
    http_port: int,
    https_port: int,
    nginx: Path = KIT / "nginx",
) -> None:
    """The kit's files (or those of `nginx`, a copy to try) laid out as in /etc/nginx, changed
    only where this machine differs."""
    upstream = (nginx / "h2h-upstream.conf").read_text()
    files = {
        "conf.d/h2h-upstream.conf": substituted(upstream, upstream_servers(upstream, daphne_ports)),
        "snippets/h2h-locations.conf": substituted(
            (nginx / "h2h-locations.conf").read_text(), (r"/srv/h2h/", f"{ROOT}/")
        ),
        "sites-enabled/h2h": substituted(
            (nginx / "h2h.conf").read_text(),
            (r"^    listen \[::\]:.*\n", ""),
            (r"listen 80 ", f"listen 127.0.0.1:{http_port} "),
            (r"listen 443 ", f"listen 127.0.0.1:{https_port} "),
            (r"/etc/letsencrypt/live/hearts\.example\.org/", f"{workdir}/tls/"),
        ),
        "nginx.conf": main_config(workdir),
    }
    for name, text in files.items():
        (workdir / name).parent.mkdir(parents=True, exist_ok=True)
        (workdir / name).write_text(text)
    make_certificate(workdir / "tls")


def upstream_servers(upstream: str, ports: list[int]) -> tuple[str, str]:
    """The substitution of the kit's `server` lines by one for each port, each keeping the
    parameters (max_fails, ...) the kit's first line gives."""
    first = re.search(r"^    server 127\.0\.0\.1:\d+(.*)\n", upstream, flags=re.M)
    assert first, "the kit no longer lists its processes as `server 127.0.0.1:<port>`"
    lines = "".join(f"    server 127.0.0.1:{port}{first.group(1)}\n" for port in ports)
    return r"(^    server 127\.0\.0\.1:\d+.*\n)+", lines


def main_config(workdir: Path) -> str:
    """What Debian's nginx.conf gives the site, with this run's own files."""
    temp = workdir / "temp"
    temp.mkdir(exist_ok=True)
    paths = "\n".join(
        f"    {kind}_temp_path {temp / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    # As root the workers would otherwise run as nobody, who may not read the checkout.
    user = "user root;\n" if os.geteuid() == 0 else ""
    # One worker, with more connections than Debian's 768 a worker: a proxied socket takes two,
    # and bench.reconnect_storm holds hundreds. Warnings logged: nginx says so when it takes a
    # process out of the upstream.
    return f"""{user}daemon off;
worker_processes 1;
pid {workdir}/nginx.pid;
error_log {workdir}/error.log warn;
events {{ worker_connections 4096; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    sendfile on;
    access_log {workdir}/access.log;
{paths}
    include conf.d/*.conf;
    include sites-enabled/*;
}}
"""


def make_certificate(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
         "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
         "-keyout", str(folder / "privkey.pem"), "-out", str(folder / "fullchain.pem")],
        check=True, capture_output=True,
    )  # fmt: skip


def unverified() -> ssl.SSLContext:
    """The run's certificate is its own: trusted without a chain."""
    context = ssl.create_default_context()
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
    return context


class Nginx:
    """nginx in the foreground on the kit's config in `workdir`."""

    def __init__(self, workdir: Path, ports: list[int]) -> None:
        self.workdir, self.ports = workdir, ports
        conf, errors = str(workdir / "nginx.conf"), str(workdir / "error.log")
        self.command = [NGINX, "-p", str(workdir), "-c", conf, "-e", errors]

    def start(self) -> "Nginx":
        tested = subprocess.run([*self.command, "-t"], capture_output=True, text=True)
        assert tested.returncode == 0, tested.stderr
        self.process = subprocess.Popen(self.command, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + TIMEOUT
        while not all(listening(port) for port in self.ports):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(self.error_log())
            time.sleep(0.05)
        return self

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=TIMEOUT)

    def access_log(self) -> str:
        return (self.workdir / "access.log").read_text()

    def error_log(self) -> str:
        return (self.workdir / "error.log").read_text()


def kit_nginx(
    folder: Path, daphne_ports: list[int], kit: Path = KIT / "nginx"
) -> tuple[Nginx, int]:
    """nginx started in `folder` on the kit's files (or `kit`'s) in front of the daphnes on
    `daphne_ports`, listening on free ports; (nginx, its https port)."""
    https_port, http_port = free_port(), free_port()
    kit_config(
        folder, daphne_ports=daphne_ports, http_port=http_port, https_port=https_port, nginx=kit
    )
    return Nginx(folder, [https_port, http_port]).start(), https_port


def listening(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0
