"""Abandoned games: open, and not moved for a day (docs/protocol.md, "Abandoned games").

Opening a code starts a game and nothing ends one left unfinished, so without this label a
player's page would show such games "playing", each with a Watch link, for good. The label
ends nothing: the player may still resume the game. A game's last move is its last stored
action (a pair, a draw, a redeal, an undo or a change of placement help), else its start.
"""

import datetime

from django.db.models import BooleanField, ExpressionWrapper, F, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from game.models import Action, Game

ABANDONED_AFTER = datetime.timedelta(hours=24)
# A result that took this long or longer is on no deal board: only a game left a day without
# a move and finished later takes that long (a ranked daily ends at its day's end).
LATE_RESULT_MS = ABANDONED_AFTER // datetime.timedelta(milliseconds=1)


def last_move_at(game: str = "pk", started_at: str = "started_at") -> Coalesce:
    """When a game last moved, for a query over games (or, naming the fields that lead to the
    game, over rows of a game); None for a ranked game that awaits its Start. One index
    look-up per row: the log's (game, index) key gives its last entry."""
    last = Action.objects.filter(game=OuterRef(game)).order_by("-index").values("at")[:1]
    return Coalesce(Subquery(last), F(started_at))


def abandoned_before() -> datetime.datetime:
    """A game still open and last moved at this instant or before is abandoned."""
    return timezone.now() - ABANDONED_AFTER


def with_abandoned(games: QuerySet[Game]) -> QuerySet[Game]:
    """`games`, each with `abandoned`: true for an open game not moved for a day."""
    idle = Q(status=Game.Status.OPEN, last_moved__lte=abandoned_before())
    abandoned = ExpressionWrapper(idle, output_field=BooleanField())
    return games.alias(last_moved=last_move_at()).annotate(abandoned=abandoned)
