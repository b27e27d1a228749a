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
import select
import subprocess
import sys
import threading
from pathlib import Path

from game import engine

NICE = 10
# The longest search measured takes under 2 s: a child silent for this long is stuck, and the
# page or thread waiting on it (a daily deal's certification among them) must not wait forever.
ANSWER_TIMEOUT_S = 30.0
ROOT = Path(__file__).resolve().parents[2]  # where `-m game.runtime.par_process` is found


class SearchProcess:
    """The server's end of the child: one search at a time, whoever asks."""

    def __init__(self) -> None:
        self.child: subprocess.Popen | None = None
        self.lock = threading.Lock()

    def min_moves(self, code: str, *, key: str) -> int | None:
        """engine.min_moves(code, key=key), answered by the child; a child that died is
        replaced once before the error is raised; TimeoutError if it does not answer in
        ANSWER_TIMEOUT_S (that child is stopped, the next search starts another)."""
        with self.lock:
            try:
                answered = self._ask(code, key)
            except (BrokenPipeError, json.JSONDecodeError):  # a dead child: no answer, or none
                self._stop()
                answered = self._ask(code, key)
        if "error" in answered:
            raise engine.ParseError(answered["error"])
        return answered["par"]

    def _ask(self, code: str, key: str) -> dict:
        child = self._started()
        child.stdin.write(json.dumps({"code": code, "key": key}) + "\n")
        child.stdin.flush()
        # Each request gets one line, read whole: the pipe's buffer is empty while it waits.
        if not select.select([child.stdout], [], [], ANSWER_TIMEOUT_S)[0]:
            self._stop()
            raise TimeoutError(f"the par search of {code} gave no answer")
        return json.loads(child.stdout.readline())

    def _started(self) -> subprocess.Popen:
        if self.child is None or self.child.poll() is not None:
            self.child = subprocess.Popen(
                [sys.executable, "-m", "game.runtime.par_process"],
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
