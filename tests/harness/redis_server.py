"""A redis-server of a run's own, which the run may stop and start: the machine's own Redis
is never touched."""

import subprocess
import time

from tests.harness.server import die_with_parent, free_port


class Redis:
    """redis-server on a free port of 127.0.0.1, without persistence (a restart forgets every
    group, as a Redis restarted without its data does), stopped and started on command."""

    def __init__(self, port: int | None = None) -> None:
        self.port = port or free_port()
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> "Redis":
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
        command += ["--save", "", "--appendonly", "no"]
        self.process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, preexec_fn=die_with_parent
        )
        deadline = time.monotonic() + 10
        while not self.answers():
            if time.monotonic() > deadline:
                raise RuntimeError(f"redis-server did not answer on {self.port}")
            time.sleep(0.02)
        return self

    def answers(self) -> bool:
        ping = ["redis-cli", "-p", str(self.port), "ping"]
        done = subprocess.run(ping, capture_output=True, text=True, check=False)
        return done.stdout.strip() == "PONG"

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
