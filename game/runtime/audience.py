"""Whether anyone but the acting socket listens to a game: most games have one socket, and a
publication costs a few echoes with the in-memory channel layer and about ten with Redis.

In memory, the layer's own member list answers exactly. With Redis, the group's member count
(one ZCARD, cheaper than the three round trips of a group_send) is remembered per game for
CHECK_S seconds, and forgotten at once when this process hears of another listener: a socket
of the game opening or closing here, a publication from another process, a spectator count.
So a tab opened in another process may miss the moves of its first second: each later frame
carries the whole view, and its own first move reloads the game. Any other layer: always
publish.
"""

import math
import time
from dataclasses import dataclass

from channels.layers import InMemoryChannelLayer

CHECK_S = 1.0


@dataclass
class Audience:
    """What this process knows of who else listens to one game's group."""

    others: bool = True
    checked: float = -math.inf

    def forget(self) -> None:
        """Someone may have come or gone: ask the layer again next time."""
        self.checked = -math.inf


async def others_listen(audience: Audience, layer, group: str, origin: str) -> bool:
    """True if a member of `group` other than `origin` may be listening (Redis: the answer
    is remembered for CHECK_S)."""
    if isinstance(layer, InMemoryChannelLayer) or not _counts_members(layer):
        return await others_in_group(layer, group, origin)
    now = time.monotonic()
    if now - audience.checked >= CHECK_S:
        audience.others = await others_in_group(layer, group, origin)
        audience.checked = now
    return audience.others


async def others_in_group(layer, group: str, origin: str) -> bool:
    """True if `group` has a member other than `origin`, asked of the layer now."""
    if isinstance(layer, InMemoryChannelLayer):
        return not set(layer.groups.get(group, ())) <= {origin}
    if not _counts_members(layer):
        return True
    connection = layer.connection(layer.consistent_hash(group))
    return await connection.zcard(layer._group_key(group)) > 1


async def anyone_in_group(layer, group: str) -> bool:
    """True if `group` may have a member at all (a layer that cannot say: True; none: False)."""
    if layer is None:
        return False
    if isinstance(layer, InMemoryChannelLayer):
        return bool(layer.groups.get(group))
    if not _counts_members(layer):
        return True
    connection = layer.connection(layer.consistent_hash(group))
    return await connection.zcard(layer._group_key(group)) > 0


def _counts_members(layer) -> bool:
    """channels_redis' RedisChannelLayer: groups are sorted sets we may count."""
    return all(hasattr(layer, name) for name in ("_group_key", "consistent_hash", "connection"))
