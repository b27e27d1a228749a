"""The hidden-cards bot: plays whole games in-process and records every byte a client receives.

A run opens the board page, plays over the socket (a person-like tap chooser from the public
view, tests/harness/policy.py, with a malformed frame now and then), fetches the board page every
PAGE_EVERY steps and, at the end, the board, leaderboard, player and replay pages. Each output
is kept as text. `rerun` plays the same actions again on the same code with some of the deal's
never-seen stock cards permuted (game.engine.state.deal_for_code patched), so the two records
can be compared byte for byte.
"""

import json
import random
import re
from dataclasses import dataclass, field

from channels.testing import WebsocketCommunicator
from django.test import AsyncClient
from django.urls import NoReverseMatch, reverse

from h2h_site.asgi import application
from tests.harness import policy
from tests.site import sockets_database_work_done

PAGE_EVERY = 25  # steps between board-page fetches
BAD_EVERY = 17  # steps between malformed frames
STOCK = range(25, 51)  # deal indices of the stock, top first; 51 is the dealt waste card

# Values that differ between any two games whatever their cards: ids, clock readings, tokens.
MASKS = [
    (re.compile(r'("id":\s*)\d+'), r"\1ID"),
    (re.compile(r'(name="ending" value=")\d+'), r"\1ID"),
    (re.compile(r"/(watch|replay)/\d+/"), r"/\1/ID/"),
    (re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(\+00:00|Z)?"), "TIME"),
    (re.compile(r'("(?:duration|at)_ms":\s*)\d+'), r"\1MS"),
    (re.compile(r"\b\d+:\d\d\b"), "M:SS"),  # a game's time on a page: a slower run shows 0:02
    (re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]+'), r"\1TOKEN"),
    # A finished game's par follows from its whole deal, stock order included: it is shown
    # only once the game has ended, and a run finds it computed or still to come.
    (re.compile(r'("par":\s*)(\d+|null)'), r"\1PAR"),
]
# A reply may wait for the final move's par, computed in the caller on the in-memory test database.
REPLY_TIMEOUT = 10


def masked(text: str) -> str:
    for pattern, replacement in MASKS:
        text = pattern.sub(replacement, text)
    return text


@dataclass
class Record:
    """What one client received, in order, and what it did."""

    outputs: list = field(default_factory=list)  # (step, kind, text)
    actions: list = field(default_factory=list)  # ("tap", target) or ("undo", None)
    reveals: list = field(default_factory=list)  # (step, deal index) of first-time turns
    seen: int = 0  # stock cards turned at least once by the end
    game_id: int | None = None

    def add(self, step: int, kind: str, text: str) -> None:
        self.outputs.append((step, kind, text))


async def page(client: AsyncClient, path: str) -> str:
    """What a GET of `path` sends back, refusals included (e.g. the replay of an open game),
    once the sockets' database work is done (a page may write, e.g. the play page's game)."""
    await sockets_database_work_done()
    response = await client.get(path)
    assert response.status_code < 500, (path, response.status_code)
    return f"{response.status_code} {response.content.decode()}"


async def play(client, cookie, code, *, actions=None, rng=None, last_step=None) -> Record:
    """Play `code`: choose with `rng` (actions None) or replay `actions` up to `last_step`."""
    record = Record()
    record.add(-1, "page", await page(client, f"/play/{code}/"))
    socket = WebsocketCommunicator(
        application,
        f"/ws/play/{code}/",
        headers=[(b"origin", b"http://testserver"), (b"host", b"testserver"), (b"cookie", cookie)],
    )
    assert (await socket.connect())[0]
    greeting = await socket.receive_from(timeout=REPLY_TIMEOUT)
    record.add(-1, "frame", greeting)
    view, record.game_id = json.loads(greeting)["view"], json.loads(greeting)["game"]["id"]
    step, seq = 0, 0
    while True:
        if actions is not None and (step == len(actions) or step > last_step):
            break
        if actions is None and (view["won"] or view["deadlocked"]):
            break
        action = actions[step] if actions is not None else policy.next_action(view, rng)
        if step % PAGE_EVERY == PAGE_EVERY - 1:
            record.add(step, "page", await page(client, f"/play/{code}/"))
        if step % BAD_EVERY == BAD_EVERY - 1:
            seq += 1
            await socket.send_to(text_data=json.dumps({"type": "tap", "seq": seq, "target": 26}))
            record.add(step, "error", await socket.receive_from(timeout=REPLY_TIMEOUT))
        seq += 1
        kind, target = action
        frame = {"type": kind, "seq": seq} | ({"target": target} if kind == "tap" else {})
        await socket.send_to(text_data=json.dumps(frame))
        text = await socket.receive_from(timeout=REPLY_TIMEOUT)
        record.add(step, "frame", text)
        record.actions.append(action)
        view = _track(record, step, view, json.loads(text)["view"])
        step += 1
    await socket.disconnect()
    return record


def _track(record: Record, step: int, before: dict, after: dict) -> dict:
    """Note a draw that shows a stock card for the first time (the stock keeps its order)."""
    turned = 26 - after["stock"]
    if after["stock"] < before["stock"] and turned > record.seen:
        record.seen = turned
        record.reveals.append((step, STOCK[turned - 1]))
    return after


async def pages_after(client, record: Record, code: str, player_name: str) -> None:
    """Every page that shows a finished game: its board, its leaderboards, its replay."""
    paths = [f"/play/{code}/", f"/leaderboard/deal/{code}/", f"/players/{player_name}/"]
    for name in ("replay", "replay_steps", "watch"):
        try:
            paths.append(reverse(name, args=[record.game_id]))
        except NoReverseMatch:  # that page is not part of this build
            continue
    for path in paths:
        record.add(10**6, "page", await page(client, path))


def permuted(deal: tuple, first_hidden: int, rng: random.Random, turned_differs: bool) -> tuple:
    """The deal with its stock cards from `first_hidden` on shuffled (the first one changed)."""
    hidden = list(deal[first_hidden:51])
    if turned_differs and len(set(hidden)) == 1:
        return None
    while True:
        rng.shuffle(hidden)
        if not turned_differs or hidden[0] != deal[first_hidden]:
            return deal[:first_hidden] + tuple(hidden) + deal[51:]


def without_turned_card(text: str) -> str:
    """A state frame with the waste's top card, and the hints that may follow from it, blanked.

    Hints kept are the free heart cards with a free partner in the heart: those depend only
    on the heart, which both runs show alike.
    """
    frame = json.loads(text)
    view = frame["view"]
    view["waste"]["top"] = "TURNED"
    free = [(p, c["rank"]) for p, c in enumerate(view["heart"], 1) if c and c["free"]]
    paired = {p for p, r in free if any(q != p and s == r for q, s in free)}
    view["hints"] = [hint for hint in view["hints"] if hint in paired]
    return json.dumps(frame, sort_keys=True)


def hidden_run_in(text: str, hidden: tuple) -> bool:
    """True if a run of the still-hidden ranks (8, or all if fewer) appears as numbers in text."""
    run = min(8, len(hidden))
    if run < 6:
        return False  # too short to tell from chance
    numbers = tuple(int(n) for n in re.findall(r"\d+", text))
    windows = {hidden[i : i + run] for i in range(len(hidden) - run + 1)}
    return any(numbers[i : i + run] in windows for i in range(len(numbers) - run + 1))
