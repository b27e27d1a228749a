"""A PostgreSQL server of a run's own, which the run may restart, pause and stop: the machine's
own PostgreSQL is never touched.

initdb makes a cluster in a temporary folder and pg_ctl serves it on a free port of 127.0.0.1
(its socket in that folder too), trusting local connections as `postgres`. initdb and the
server refuse to run as root, so as root (CI) the folder is the `postgres` user's and every
command runs as that user (runuser).
"""

import contextlib
import glob
import os
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path

import psutil

from tests.harness.server import free_port

OWNER = "postgres"


def binary(name: str) -> str:
    """A PostgreSQL program: on the PATH, else Debian's newest (/usr/lib/postgresql/<v>/bin)."""
    found = shutil.which(name) or max(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), default="")
    if not found:
        raise RuntimeError(f"{name} is missing: install Debian's postgresql package")
    return found


def as_owner(command: list[str]) -> list[str]:
    return ["runuser", "-u", OWNER, "--", *command] if os.geteuid() == 0 else command


def signalled(processes: list[psutil.Process], number: int) -> None:
    for process in processes:
        with contextlib.suppress(psutil.NoSuchProcess):  # a backend that has just ended
            process.send_signal(number)


class Postgres:
    """A cluster on 127.0.0.1:<port>; its databases are reached as `postgres`, no password."""

    def __init__(self, port: int | None = None) -> None:
        self.port = port or free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="h2h-postgres-"))
        self.data = self.folder / "data"
        self.paused: list[psutil.Process] = []
        self.log_path.touch()
        if os.geteuid() == 0:
            for path in (self.folder, self.log_path):
                shutil.chown(path, OWNER, OWNER)

    def url(self, database: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    @property
    def log_path(self) -> Path:
        """The server's log, and pg_ctl's and initdb's output."""
        return self.folder / "postgres.log"

    def _run(self, *command: str) -> None:
        """A command as the owner, its output appended to the server's log: never a pipe, which
        the server it starts would hold open."""
        with open(self.log_path, "ab") as log:
            done = subprocess.run(as_owner(list(command)), cwd=self.folder, stdout=log, stderr=log)
        if done.returncode:
            raise RuntimeError(f"{command[0]} failed; see {self.log_path}")

    def _pg_ctl(self, *arguments: str) -> None:
        self._run(
            binary("pg_ctl"), "-D", str(self.data), "-l", str(self.log_path), "-w", *arguments
        )

    def start(self) -> "Postgres":
        """initdb (once), then the server, waiting until it takes connections."""
        if not self.data.exists():
            initdb = [binary("initdb"), "-D", str(self.data), "-U", "postgres", "-A", "trust"]
            self._run(*initdb, "-E", "UTF8", "--no-sync")
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1"
        self._pg_ctl("-o", options, "start")
        return self

    def restart(self) -> None:
        """pg_ctl restart -m fast: sessions ended, the server stopped cleanly and started again
        with the same options."""
        self._pg_ctl("-m", "fast", "restart")

    def processes(self) -> list[psutil.Process]:
        """The postmaster and its children (the backends, the checkpointer, the WAL writer ...)."""
        pid = int((self.data / "postmaster.pid").read_text().split()[0])
        postmaster = psutil.Process(pid)
        return [postmaster, *postmaster.children(recursive=True)]

    def pause(self) -> None:
        """SIGSTOP to every process of the server: connections stay open and nothing answers."""
        self.paused = self.processes()
        signalled(self.paused, signal.SIGSTOP)

    def resume(self) -> None:
        signalled(self.paused, signal.SIGCONT)
        self.paused = []

    def stop(self) -> None:
        """The server stopped (a paused one resumed first) and its folder removed."""
        if (self.data / "postmaster.pid").exists():
            self.resume()
            self._pg_ctl("-m", "immediate", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)
