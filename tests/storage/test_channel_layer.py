"""The channel layer's circuit breaker (game.storage.channel_layer): a failed call takes the layer
down, a call while it rests is not made, a call that only queued behind answered ones does not
take it down, one call each RETRY_S finds out whether it is back, and each is counted in the
process's metrics."""

import asyncio

import pytest
from channels.layers import InMemoryChannelLayer
from prometheus_client import REGISTRY

from game.storage import channel_layer
from game.storage.signals import layer_answering

OP = "test-op"


def sample(name: str, **labels) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


class Refused(ConnectionError):
    """What a Redis that is down raises."""


async def refuse():
    raise Refused("the layer is down")


async def answer():
    return "answered"


async def test_a_failed_call_takes_the_layer_down_and_the_next_is_not_made(monkeypatch):
    monkeypatch.setattr(channel_layer, "RETRY_S", 60)
    layer, failed = InMemoryChannelLayer(), sample("h2h_channel_layer_errors_total", op=OP)
    assert await channel_layer.ask_layer(OP, refuse, layer=layer) is None
    assert not channel_layer.link_of(layer).up and channel_layer.link_of(layer).outages == 1
    assert sample("h2h_channel_layer_errors_total", op=OP) == failed + 1
    assert sample("h2h_channel_layer_up") == 0
    skipped = sample("h2h_channel_layer_skipped_total", op=OP)
    assert await channel_layer.ask_layer(OP, answer, layer=layer, unanswered="dropped") == "dropped"
    assert sample("h2h_channel_layer_skipped_total", op=OP) == skipped + 1


async def test_a_call_let_through_after_the_rest_brings_the_layer_back(monkeypatch):
    monkeypatch.setattr(channel_layer, "RETRY_S", 0)
    layer = InMemoryChannelLayer()
    await channel_layer.ask_layer(OP, refuse, layer=layer)
    assert await channel_layer.ask_layer(OP, answer, layer=layer) == "answered"
    assert channel_layer.link_of(layer).up and channel_layer.link_of(layer).outages == 1
    assert sample("h2h_channel_layer_up") == 1


async def test_a_call_queued_behind_others_that_are_answered_leaves_the_layer_up(monkeypatch):
    monkeypatch.setattr(channel_layer, "CALL_S", 0.05)
    layer, failed = InMemoryChannelLayer(), sample("h2h_channel_layer_errors_total", op=OP)

    async def queued():
        await channel_layer.ask_layer(OP, answer, layer=layer)  # another call, answered
        await asyncio.sleep(1)

    assert await channel_layer.ask_layer(OP, queued, layer=layer) is None
    assert channel_layer.link_of(layer).up and channel_layer.link_of(layer).outages == 0
    assert sample("h2h_channel_layer_errors_total", op=OP) == failed + 1


async def test_a_call_unanswered_while_nothing_else_is_answered_takes_the_layer_down(monkeypatch):
    monkeypatch.setattr(channel_layer, "CALL_S", 0.05)
    layer = InMemoryChannelLayer()
    await channel_layer.ask_layer(OP, answer, layer=layer)

    async def hangs():
        await asyncio.sleep(1)

    assert await channel_layer.ask_layer(OP, hangs, layer=layer) is None
    assert not channel_layer.link_of(layer).up


@pytest.fixture(autouse=True)
def _layer_up_afterwards():
    """The gauge is the process's: the next test finds the layer answering."""
    yield
    layer_answering.send(sender=None, up=True)
