"""A real daphne process on loopback with a database of its own: start, kill -9, restart, measure.

Used by the system tests, the browser tests and the benchmarks (bench/).
"""

import ctypes
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[2]
DAPHNE = str(Path(sys.executable).with_name("daphne"))
PR_SET_PDEATHSIG = 1


def _rss(process: psutil.Process) -> int:
    try:
        return process.memory_info().rss
    except psutil.NoSuchProcess:  # a child that has just exited
        return 0


def _cpu(process: psutil.Process) -> float:
    try:
        times = process.cpu_times()
    except psutil.NoSuchProcess:
        return 0.0
    return times.user + times.system


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


# Outside DEBUG a server needs private keys; these are private to the loopback harnesses.
# Whoever deals a harness server's codes itself (to replay or solve them) uses HARNESS_DEAL_KEY.
HARNESS_SECRET_KEY = "bench-loopback-secret-key-never-used-by-a-real-site-0123456789"
HARNESS_DEAL_KEY = "bench-loopback-deal-key-never-used-by-a-real-site"


def server_env(*, sqlite_path: str, database_url: str = "", redis_url: str = "", **extra) -> dict:
    """The environment of a production-like server on loopback (DEBUG off keeps no query log).

    Its clients speak plain http and ws to it, so http origins are allowed as on an intranet.
    """
    env = {
        **os.environ,
        "H2H_DEBUG": "0",
        "H2H_SECRET_KEY": HARNESS_SECRET_KEY,
        "H2H_DEAL_KEY": HARNESS_DEAL_KEY,
        "H2H_ALLOW_HTTP_ORIGINS": "1",
        "H2H_SSL_REDIRECT": "0",
        "H2H_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "H2H_SQLITE_PATH": sqlite_path,
        "PYTHONUNBUFFERED": "1",
    }
    for name, value in (("H2H_DATABASE_URL", database_url), ("H2H_REDIS_URL", redis_url)):
        if value:
            env[name] = value
        else:
            env.pop(name, None)
    env.update(extra)
    return env


def name_and_admin(url: str) -> tuple[str, str]:
    """A PostgreSQL URL's database name, and the URL of its server's own `postgres` database."""
    base, name = url.rsplit("/", 1)
    return name, base + "/postgres"


def fresh_database(url: str) -> None:
    """Drop and create a benchmark's own PostgreSQL database (the URL names it)."""
    import psycopg

    name, admin = name_and_admin(url)
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')


def sessions_opened(url: str) -> int:
    """PostgreSQL sessions ever established to the URL's database (pg_stat_database)."""
    import psycopg

    name, admin = name_and_admin(url)
    with psycopg.connect(admin, autocommit=True) as connection:
        row = connection.execute(
            "SELECT sessions FROM pg_stat_database WHERE datname = %s", (name,)
        ).fetchone()
    return row[0]


def manage(env: dict, *args: str) -> str:
    command = [sys.executable, "manage.py", *args]
    return subprocess.run(
        command, cwd=ROOT, env=env, check=True, capture_output=True, text=True
    ).stdout


def make_players(env: dict, count: int, prefix: str = "bench") -> list[dict]:
    """Creates `count` players with logged-in sessions; returns their names and session keys."""
    output = manage(
        env, "shell", "-c", f"from tests.harness.players import main; main({count}, {prefix!r})"
    )
    return json.loads(output.strip().splitlines()[-1])


def die_with_parent() -> None:
    """In the child: SIGTERM when the harness dies, so a killed test run leaves no daphne.

    Linux sends it when the thread that started the server ends: start and stop a server in
    the same thread (the harnesses do).
    """
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


class Server:
    """One daphne process serving h2h_site on 127.0.0.1:<port>.

    `arguments`, if given, are daphne's whole command line after its path, "{port}" standing
    for the port (tests/system/test_nginx.py runs the systemd unit's own).
    """

    def __init__(
        self,
        env: dict,
        port: int | None = None,
        log_path: str | None = None,
        application: str = "h2h_site.asgi:application",  # bench.probe adds a probe to it
        arguments: list[str] | None = None,
    ) -> None:
        self.env, self.port, self.application = env, port or free_port(), application
        self.arguments = arguments
        self.log_path = log_path or tempfile.mktemp(prefix="h2h-daphne-", suffix=".log")
        self.process: subprocess.Popen | None = None

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws_url(self, path: str) -> str:
        return f"ws://127.0.0.1:{self.port}{path}"

    def start(self, timeout: float = 30) -> "Server":
        command = [DAPHNE, *self._arguments()]
        log = open(self.log_path, "ab")  # noqa: SIM115  (the child process owns it)
        self.process = subprocess.Popen(
            command, cwd=ROOT, env=self.env, stdout=log, stderr=log, preexec_fn=die_with_parent
        )
        self._wait_until_listening(timeout)
        return self

    def _arguments(self) -> list[str]:
        if self.arguments is not None:
            return [argument.replace("{port}", str(self.port)) for argument in self.arguments]
        port, application = str(self.port), self.application
        return ["-b", "127.0.0.1", "-p", port, "--websocket-max-message-size", "4096", application]

    def _wait_until_listening(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"daphne exited; see {self.log_path}")
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.05)
        raise RuntimeError(f"daphne did not listen on {self.port} within {timeout} s")

    def kill(self) -> None:
        """kill -9: no shutdown handlers run, as in a crash."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()

    def _processes(self) -> list[psutil.Process]:
        """The server and its children (its par search process, game/runtime/par_process.py)."""
        server = psutil.Process(self.process.pid)
        return [server, *server.children(recursive=True)]

    def rss_mb(self, *, children: bool = True) -> float:
        """The resident memory of the server and (unless told) its children."""
        processes = self._processes() if children else self._processes()[:1]
        return sum(_rss(process) for process in processes) / 2**20

    def cpu_seconds(self) -> float:
        """The CPU time the server and its children have used (user and system, every thread)."""
        return sum(_cpu(process) for process in self._processes())

    def __enter__(self) -> "Server":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
