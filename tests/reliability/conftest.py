"""Fixtures of the reliability tests: the site tests' players and sockets, and a thread runner."""

import asyncio
import threading

from tests.web.conftest import (  # noqa: F401  (fixtures shared with the site tests)
    make_player,
    player,
    player_cookie,
    rival,
    rival_cookie,
    winnable,
)


def in_thread(function, *args, **kwargs):
    """Call `function` in a thread of its own and return its result (or raise its error).

    A sync test cannot use asyncio.run() once another test left a loop running in the main
    thread (Playwright's sync API does), so the harnesses' loops run in a thread of their own.
    """
    outcome = {}

    def target():
        try:
            outcome["value"] = function(*args, **kwargs)
        except BaseException as error:  # handed to the caller's thread
            outcome["error"] = error

    thread = threading.Thread(target=target, name="reliability-harness")
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def run_async(coroutine):
    """asyncio.run(coroutine) on a fresh loop in its own thread."""
    return in_thread(asyncio.run, coroutine)
