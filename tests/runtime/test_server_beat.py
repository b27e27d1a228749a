"""This process's heartbeat (game.runtime.server_beat): it starts with the process's first
connection of any kind, beats every period into one stretch while it lives, and a beat that
fails is logged while the next ones go on."""

import asyncio
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import HttpCommunicator

from game.models import ServerBeat
from game.runtime import server_beat
from tests.site import sockets_database_work_done

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def fast_beat(monkeypatch):
    """A fresh heartbeat that beats every 20 ms, stopped after the test."""
    beat = server_beat._ServerBeat()
    monkeypatch.setattr(server_beat, "_beat", beat)
    monkeypatch.setattr(server_beat, "BEAT_PERIOD", timedelta(milliseconds=20))
    yield beat
    beat.stop()


@database_sync_to_async
def stretches() -> list[tuple]:
    return list(ServerBeat.objects.values_list("process", "since", "until"))


async def stopped(beat) -> None:
    beat.stop()
    await asyncio.sleep(0)
    await sockets_database_work_done()


async def test_the_heartbeat_extends_one_stretch_while_the_process_lives(fast_beat):
    fast_beat.start()
    fast_beat.start()  # started again by every connection: still one task
    await asyncio.sleep(0.2)
    await stopped(fast_beat)
    [(process, since, until)] = await stretches()
    assert process == server_beat.PROCESS and until - since >= timedelta(milliseconds=100)


async def test_failed_beats_are_logged_once_and_the_next_one_beats(fast_beat, monkeypatch, caplog):
    failures = iter([RuntimeError("database down")] * 3)

    def flaky(**beat):
        for failure in failures:
            raise failure
        return real(**beat)

    real = server_beat.server_beat
    monkeypatch.setattr(server_beat, "server_beat", flaky)
    fast_beat.start()
    await asyncio.sleep(0.1)
    await stopped(fast_beat)
    assert caplog.text.count("heartbeat was not recorded") == 1  # once an outage, not each beat
    assert caplog.text.count("heartbeat is recorded again") == 1
    assert len(await stretches()) == 1


async def test_the_first_request_starts_the_heartbeat(fast_beat, settings):
    from h2h_site.asgi import application  # imported late: it sets up the whole site

    settings.SERVER_BEAT = True
    response = await HttpCommunicator(application, "GET", "/healthz").get_response()
    assert response["status"] == 200 and fast_beat.task is not None
    await asyncio.sleep(0.05)
    await stopped(fast_beat)
    assert len(await stretches()) == 1


async def test_no_heartbeat_when_the_setting_turns_it_off(fast_beat):
    from h2h_site.asgi import application

    response = await HttpCommunicator(application, "GET", "/healthz").get_response()
    assert response["status"] == 200 and fast_beat.task is None
