"""The quick race's queue: /ws/race/quick/ (docs/protocol.md, "The quick race").

A signed-in player's socket queues them on connect and tells them how many wait
({"type": "queued"}) as that changes; once matched it sends the room ({"type": "matched"}), to
which the player then belongs. Closing it before a match leaves the queue. Someone who waited
GHOST_AFTER with nobody to match is offered a ghost race once, and stays queued.
"""

from datetime import timedelta

from django.urls import reverse
from django.utils import timezone

from game.runtime.quick import quick_queue
from game.selectors.ghosts import ghost_offer_url
from game.selectors.quick import quick_waited_s
from game.services.quick import QuickRound, quick_enqueue, quick_leave, quick_requeue
from game.sockets.public import PublicSocket
from game.storage.db import db

GHOST_AFTER = timedelta(seconds=60)  # of the quick race's clock


class QuickConsumer(PublicSocket):
    kind = "quick"
    login_required = True
    # The queue is in the database, and each round reads it: the socket goes on without the
    # channel layer, which only brings a match made elsewhere sooner.
    needs_layer = False
    queued = False  # in the queue: closing the socket leaves it
    matched = False

    async def connect(self) -> None:
        await self.accept()
        self.waiting, self.offered = None, False
        room = await db(quick_enqueue)(player=self.user, channel=self.channel_name)
        if room is not None:
            return await self.send_matched(room)
        self.queued = True
        await quick_queue.add(self.channel_name, self)

    async def disconnect(self, code) -> None:
        quick_queue.remove(self.channel_name)
        if self.queued:
            await db(quick_leave)(player=self.user, channel=self.channel_name)

    async def quick_seen(self, found: QuickRound) -> None:
        """A round of this process's queue: matched, or how many wait, or a ghost to race."""
        entry = found.entries.get(self.channel_name)
        if entry is None:  # expired while the database was away, or a newer tab holds it
            await db(quick_requeue)(player=self.user, channel=self.channel_name)
        elif entry.room_id:
            return await self.send_matched(entry.room.room)
        if found.waiting != self.waiting:
            self.waiting = found.waiting
            await self.send_json({"type": "queued", "waiting": found.waiting})
        if entry is not None and not self.offered and _waited_long(entry):
            await self.offer_ghost()

    async def quick_matched(self, message: dict) -> None:
        """Another process's round matched this socket's player."""
        await self.send_matched(message["room"])

    async def send_matched(self, room: str) -> None:
        if self.matched:
            return
        self.matched, self.queued = True, False
        quick_queue.remove(self.channel_name)
        url = reverse("race_room", args=[room])
        await self.send_json({"type": "matched", "room": room, "url": url})

    async def offer_ghost(self) -> None:
        self.offered = True
        url = await db(ghost_offer_url)(player=self.user)
        if url is not None:
            await self.send_json({"type": "ghost_offer", "url": url})


def _waited_long(entry) -> bool:
    """Long enough with nobody to match to be offered a ghost race instead."""
    return quick_waited_s(entry, timezone.now()) >= GHOST_AFTER.total_seconds()
