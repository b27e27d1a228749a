"""Replay every completed game's log and check its stored result against the replay; flag
for review the results whose timing looks implausible for a person."""

from django.core.management.base import BaseCommand, CommandError
from django.urls import reverse

from game.models import Game, Result
from game.selectors.log import game_replay
from game.selectors.outages import game_time_ms
from game.services.results import result_flag


class Command(BaseCommand):
    help = (
        "Replay each result's action log and report any result that disagrees with it; "
        "store each result's plausibility flags and print them on stderr (they never fail it)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--code", help="audit only the results of this canonical code")

    def handle(self, *args, code=None, **options):
        results = Result.objects.select_related("game").order_by("pk")
        if code:
            results = results.filter(code=code)
        audited = wrong = flagged = 0
        for result in results.iterator(chunk_size=500):
            audited += 1
            for problem in audit(result):
                wrong += 1
                self.stderr.write(f"result {result.pk} (game {result.game_id}): {problem}")
            flagged += self.report_flags(result)
        # Beside the disagreements, so stdout stays the one summary line scripts read.
        self.stderr.write(f"{flagged} results flagged for review (flags never fail the audit)")
        self.stdout.write(f"{audited} results audited, {wrong} disagreements")
        if wrong:
            raise CommandError("some results disagree with their replayed logs")

    def report_flags(self, result: Result) -> bool:
        """Store the result's flags (older results predate them) and print each; True if any."""
        flags = result_flag(result=result)
        replay_url = reverse("replay", args=[result.game_id])
        for flag in flags:
            self.stderr.write(
                f"flag: result {result.pk} (game {result.game_id}, {replay_url}): "
                f"{flag.reason}: {flag.detail}"
            )
        return bool(flags)


def audit(result: Result) -> list[str]:
    """What disagrees between a result and its game's replayed log (empty if nothing)."""
    game = result.game
    state = game_replay(game=game)
    expected = {
        "won": state.won,
        "score": state.score,
        "moves": state.moves,
        "undos": state.undos,
        "placement_help": state.help_used,
        "code": game.code,
        "ranked": game.ranked,
        "duration_ms": game_time_ms(started_at=game.started_at, finished_at=game.finished_at),
    }
    problems = [
        f"{field} is {getattr(result, field)!r}, the replay says {value!r}"
        for field, value in expected.items()
        if getattr(result, field) != value
    ]
    status = Game.Status.WON if state.won else Game.Status.RESIGNED
    if game.status != status:
        problems.append(f"game status is {game.status!r}, the replay says {status!r}")
    return problems
