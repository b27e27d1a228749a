"""Hidden cards: nothing a client can receive reveals the stock order before it is turned.

A bot plays whole games in-process and records every page, frame and error it receives; then
it plays the same taps again with the never-seen stock cards permuted: every byte up to the
turn of a permuted card is the same, and that turn differs only in the card turned.
H2H_HIDDEN_GAMES sets the number of games (200 by default).
"""

import os
import random
import re
from pathlib import Path

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.test import AsyncClient

from game import engine
from game.engine import state as engine_state
from game.models import Game
from tests.system import hidden

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

GAMES = int(os.environ.get("H2H_HIDDEN_GAMES", "200"))
STATIC = Path(settings.BASE_DIR, "static")


@database_sync_to_async
def forget(game_id: int) -> None:
    """Remove a finished run's game, so the rerun starts as the first game of its code did."""
    Game.objects.filter(pk=game_id).delete()


def hidden_at(deal: tuple, record: hidden.Record, step: int) -> tuple:
    """The stock ranks no output before `step` has shown."""
    seen = max([index - 24 for s, index in record.reveals if s < step], default=0)
    return deal[25 + seen : 51]


async def logged_in(player):
    client = AsyncClient()
    await client.aforce_login(player)
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    return client, cookie.encode()


def compare(first: hidden.Record, again: hidden.Record, turn: int | None) -> list[str]:
    """Byte-identical before `turn`; at `turn`, identical but for the card turned."""
    before = [(s, k, hidden.masked(t)) for s, k, t in first.outputs if turn is None or s < turn]
    rerun = [(s, k, hidden.masked(t)) for s, k, t in again.outputs if turn is None or s < turn]
    problems = [] if before == rerun else [f"outputs before step {turn} differ"]
    if turn is not None:
        (a,) = [t for s, k, t in first.outputs if s == turn and k == "frame"]
        (b,) = [t for s, k, t in again.outputs if s == turn and k == "frame"]
        if a == b:
            problems.append(f"step {turn}: the turned card did not change")
        if hidden.masked(hidden.without_turned_card(a)) != hidden.masked(
            hidden.without_turned_card(b)
        ):
            problems.append(f"step {turn}: more than the turned card differs")
    return problems


async def test_the_hidden_stock_never_reaches_a_client(player, settings, monkeypatch):
    settings.TAP_RATE = 0  # a bot taps faster than any hand
    client, cookie = await logged_in(player)
    name = await database_sync_to_async(lambda: player.profile.display_name)()
    real_deal = engine_state.deal_for_code
    problems, frames, turns = [], 0, 0
    for number in range(GAMES):
        code, rng = engine.format_code("N", 9_000 + number), random.Random(number)
        deal = real_deal(code, settings.DEAL_KEY)
        first = await hidden.play(client, cookie, code, rng=rng)
        await hidden.pages_after(client, first, code, name)
        frames += len(first.outputs)
        for step, _kind, text in first.outputs:
            if hidden.hidden_run_in(text, hidden_at(deal, first, step + 1)):
                problems.append(f"{code} step {step}: a run of hidden ranks appears")
        turn, first_hidden = None, 25 + first.seen
        if first.reveals and (first.seen == 26 or rng.random() < 0.8):
            turn, first_hidden = rng.choice(first.reveals)
        other = hidden.permuted(deal, first_hidden, rng, turned_differs=turn is not None)
        if other is None or first_hidden > 50:
            continue
        await forget(first.game_id)
        monkeypatch.setattr(engine_state, "deal_for_code", lambda c, k=None, o=other: o)
        last = turn if turn is not None else len(first.actions)
        again = await hidden.play(client, cookie, code, actions=first.actions, last_step=last)
        if turn is None:
            await hidden.pages_after(client, again, code, name)
        monkeypatch.setattr(engine_state, "deal_for_code", real_deal)
        await forget(again.game_id)
        turns += turn is not None
        problems += [f"{code}: {p}" for p in compare(first, again, turn)]
    assert problems == []
    print(f"{GAMES} games, {frames} outputs recorded, {turns} turns permuted")
    assert frames > GAMES * 20 and turns > GAMES // 2


def test_static_files_hold_no_shuffle_and_no_code_decoder(client):
    files = [p for p in STATIC.rglob("*") if p.is_file()]
    assert any(p.suffix == ".js" for p in files)
    for path in files:
        response = client.get(f"/static/{path.relative_to(STATIC).as_posix()}")
        assert response.status_code == 200, path
        body = b"".join(response.streaming_content)
        assert body == path.read_bytes()  # what is served is what is checked
        if path.suffix == ".js":
            assert not SHUFFLE_OR_DECODER.search(body.decode()), path


# What dealing a code would take: a shuffle, the keyed hash, or base-26 arithmetic on a code.
SHUFFLE_OR_DECODER = re.compile(
    r"shuffle|hmac|sha-?256|crypto\.subtle|deal_?for_?code|dealForCode|\*\*\s*7|"
    r"Math\.pow\(\s*26|\b26\s*\*\s*26|charCodeAt\([^)]*\)\s*-\s*65",
    re.I,
)


def test_new_codes_come_from_secrets(monkeypatch):
    drawn = []

    def randbelow(n):
        drawn.append(n)
        return 0

    monkeypatch.setattr(engine.codes.secrets, "randbelow", randbelow)
    assert engine.random_code() == "HH1-N-AAAAAAA" and drawn == [26**7]
    source = Path(engine.codes.__file__).read_text()
    assert "import random" not in source and "from random" not in source
