"""The search process: par searched in a child at a lower priority, as the engine finds it,
replaced when it dies, and never left behind by its server."""

import os
import signal
import subprocess
import sys
import time

import psutil
import pytest

from game import engine
from game.runtime import par_process

KEY = "a-test-deal-key"
CODES = [engine.format_code("N", seed) for seed in range(12)]


@pytest.fixture
def searcher():
    process = par_process.SearchProcess()
    yield process
    process._stop()


def test_the_search_process_finds_the_par_the_engine_finds(searcher):
    pars = [searcher.min_moves(code, key=KEY) for code in CODES]
    assert pars == [engine.min_moves(code, key=KEY) for code in CODES]
    assert any(par is None for par in pars) and any(par is not None for par in pars)


def test_the_search_runs_in_a_child_at_a_lower_priority(searcher):
    searcher.min_moves(CODES[0], key=KEY)
    child = searcher.child.pid
    assert child != os.getpid()
    own = os.getpriority(os.PRIO_PROCESS, 0)
    assert os.getpriority(os.PRIO_PROCESS, child) == min(19, own + par_process.NICE)


def test_a_bad_code_is_a_parse_error_and_the_child_goes_on(searcher):
    searcher.min_moves(CODES[0], key=KEY)
    child = searcher.child.pid
    with pytest.raises(engine.ParseError):
        searcher.min_moves("HH1-N-NOTACODE", key=KEY)
    assert searcher.min_moves(CODES[1], key=KEY) == engine.min_moves(CODES[1], key=KEY)
    assert searcher.child.pid == child


def test_a_child_that_died_is_replaced_and_the_search_answered(searcher):
    searcher.min_moves(CODES[0], key=KEY)
    dead = searcher.child
    dead.kill()
    dead.wait()
    assert searcher.min_moves(CODES[2], key=KEY) == engine.min_moves(CODES[2], key=KEY)
    assert searcher.child.pid != dead.pid


SERVER = """
from game.runtime import par_process
par_process.min_moves("HH1-N-AAAAAAM", key="k")
print(par_process._process.child.pid, flush=True)
input()
"""


def test_the_child_exits_when_its_server_is_killed():
    server = subprocess.Popen(
        [sys.executable, "-c", SERVER],
        cwd=par_process.ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    child = psutil.Process(int(server.stdout.readline()))
    server.kill()
    server.wait()
    deadline = time.monotonic() + 10
    while child.is_running() and child.status() != psutil.STATUS_ZOMBIE:
        assert time.monotonic() < deadline, "the search process outlived its server"
        time.sleep(0.05)


def test_a_child_that_stops_answering_times_out_and_the_next_search_starts_another(
    searcher, monkeypatch
):
    searcher.min_moves(CODES[0], key=KEY)
    stuck = searcher.child
    os.kill(stuck.pid, signal.SIGSTOP)
    patience = par_process.ANSWER_TIMEOUT_S
    monkeypatch.setattr(par_process, "ANSWER_TIMEOUT_S", 0.5)
    with pytest.raises(TimeoutError):
        searcher.min_moves(CODES[1], key=KEY)
    assert stuck.poll() is not None  # stopped for good
    # The next child starts an interpreter at a lower priority: on a loaded machine that alone
    # can take longer than the half second the stuck one was given.
    monkeypatch.setattr(par_process, "ANSWER_TIMEOUT_S", patience)
    assert searcher.min_moves(CODES[1], key=KEY) == engine.min_moves(CODES[1], key=KEY)
