"""Par searches (engine.min_moves) in a process of its own, at a lower CPU priority.

A search is up to a second of pure Python. In the server's process it would hold the
interpreter lock in 5 ms slices that every socket's tap waits behind (a busy process spent a
fifth of its time so); in a child it takes none of it, and at nice NICE the machine's cores
serve the sockets first. One child per server process, started on first use and again if it
died; it reads one JSON request per line on stdin and answers each on stdout, and exits when
its stdin closes, so it never outlives its server.
"""

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

from game import engine

NICE = 10
ROOT = Path(__file__).resolve().parent.parent  # where `-m game.engine_process` is found


class SearchProcess:
    """The server's end of the child: one search at a time, whoever asks."""

    def __init__(self) -> None:
        self.child: subprocess.Popen | None = None
        self.lock = threading.Lock()

    def min_moves(self, code: str, *, key: str) -> int | None:
        """engine.min_moves(code, key=key), answered by the child; a child that died is
        replaced once before the error is raised."""
        with self.lock:
            try:
                answered = self._ask(code, key)
            except (OSError, json.JSONDecodeError):  # a broken pipe, or a dead child's silence
                self._stop()
                answered = self._ask(code, key)
        if "error" in answered:
            raise engine.ParseError(answered["error"])
        return answered["par"]

    def _ask(self, code: str, key: str) -> dict:
        child = self._started()
        child.stdin.write(json.dumps({"code": code, "key": key}) + "\n")
        child.stdin.flush()
        return json.loads(child.stdout.readline())

    def _started(self) -> subprocess.Popen:
        if self.child is None or self.child.poll() is not None:
            self.child = subprocess.Popen(
                [sys.executable, "-m", "game.engine_process"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                cwd=ROOT,
            )
        return self.child

    def _stop(self) -> None:
        if self.child is not None:
            self.child.kill()
            self.child.wait()
            self.child = None


_process = SearchProcess()


def min_moves(code: str, *, key: str) -> int | None:
    """The par of `code` under the deal key `key`, searched in this process's child."""
    return _process.min_moves(code, key=key)


def answer(line: str) -> dict:
    """The child's answer to one request line: {"par": int | None} or {"error": text}."""
    request = json.loads(line)
    try:
        return {"par": engine.min_moves(request["code"], key=request["key"])}
    except engine.EngineError as error:
        return {"error": str(error)}


def serve() -> None:
    """The child: answer each line of stdin until it closes."""
    os.nice(NICE)
    for line in sys.stdin:
        print(json.dumps(answer(line)), flush=True)


if __name__ == "__main__":
    serve()
