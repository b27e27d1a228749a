"""Deleting an account: everything of it goes at once, nothing refers to it afterwards, and
the rest of the site (other players, their boards, their races) carries on."""

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.auth import SESSION_KEY, get_user_model
from django.contrib.sessions.models import Session
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from game import services
from game.models import (
    BoardVersion,
    Follow,
    Game,
    PlayerSession,
    Presence,
    RaceEntry,
    RaceRoom,
    Result,
)
from game.selectors import boards, leaderboards
from game.services.accounts import account_delete
from game.services.follows import follow_create
from game.services.races import race_create, race_join, race_ready
from game.storage.sessions import SessionStore
from tests.site import resign_now

pytestmark = pytest.mark.django_db

CODE = "HH1-N-AAAAAAC"


def rows_referring_to(user_id: int) -> list[str]:
    """Every row of every model (through tables too) whose foreign key names the user."""
    return [
        f"{model._meta.label}.{field.name}"
        for model in apps.get_models(include_auto_created=True)
        for field in model._meta.concrete_fields
        if field.is_relation and field.related_model is get_user_model()
        if model._default_manager.filter(**{field.attname: user_id}).exists()
    ]


def sessions_of(user_id: int) -> int:
    decoded = (session.get_decoded() for session in Session.objects.all())
    return sum(1 for data in decoded if data.get(SESSION_KEY) == str(user_id))


def ranked_daily_resigned(player) -> None:
    game = services.game_daily_open(player=player)
    services.game_start(game=services.LockedGame(game.pk), player=player, seq=1)
    services.game_resign(game=services.LockedGame(game.pk), player=player)


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def a_full_account(player, rival) -> None:
    """The player has played, been followed and followed, raced, and is logged in twice."""
    ranked_daily_resigned(player)
    resign_now(player, CODE)
    services.game_open(player=player, code="HH1-N-AAAAAAD")  # left open
    follow_create(follower=player, followed=rival)
    follow_create(follower=rival, followed=player)
    room = race_create(player=player, code="HH1-N-AAAAAAE")
    race_join(player=rival, room=room.room)
    Presence.objects.create(
        channel="c1", process="p", kind="play", user=player, seen_at=timezone.now()
    )
    logged_in(player), logged_in(player)


def test_nothing_refers_to_a_deleted_account(player, rival):
    a_full_account(player, rival)
    player_id = player.pk  # a deleted instance's pk becomes None
    assert len(rows_referring_to(player_id)) >= 6 and sessions_of(player_id) == 2
    account_delete(user=player)
    assert rows_referring_to(player_id) == []
    assert sessions_of(player_id) == 0
    assert not get_user_model().objects.filter(pk=player_id).exists()


def test_other_players_keep_everything_of_theirs(player, rival, make_player):
    friend = make_player("cid")
    ranked_daily_resigned(rival)
    resign_now(rival, CODE)
    follow_create(follower=rival, followed=friend)
    a_full_account(player, rival)
    logged_in(rival)
    account_delete(user=player)
    assert Result.objects.filter(player=rival).count() == 2
    assert list(Follow.objects.values_list("follower", "followed")) == [(rival.pk, friend.pk)]
    assert sessions_of(rival.pk) == 1
    # The room the deleted player opened stays, for the racer left in it.
    room = RaceRoom.objects.get()
    assert room.created_by is None
    assert list(room.entries.values_list("player", flat=True)) == [rival.pk]


def test_the_deleted_players_results_leave_every_board_with_a_new_version(player, rival):
    ranked_daily_resigned(player)
    ranked_daily_resigned(rival)
    resign_now(player, CODE)
    rival_id = rival.pk
    on_boards = boards.boards_of_player(player_id=player.pk)
    assert len(on_boards) == 4  # today's deal, CODE, today's board and the all-time board
    before = dict(BoardVersion.objects.values_list("board", "version"))
    account_delete(user=player)
    after = dict(BoardVersion.objects.values_list("board", "version"))
    assert all(after[board] == before[board] + 1 for board in on_boards)
    for board in on_boards:
        names = {row["player"] for row in boards.board_snapshot(board=board)["rows"]}
        assert "Ann" not in names
    assert [r.player_id for r in leaderboards.all_time_records()] == [rival_id]


def raced(player, rival, code="HH1-N-AAAAAAF") -> RaceRoom:
    room = race_create(player=player, code=code)
    race_join(player=rival, room=room.room)
    race_ready(player=player, room=room.room, ready=True)
    race_ready(player=rival, room=room.room, ready=True)
    RaceRoom.objects.filter(pk=room.pk).update(starts_at=timezone.now())
    services.races.race_begin_if_due(room=room.room)
    return RaceRoom.objects.get(pk=room.pk)


def test_a_race_goes_on_without_a_deleted_racer_and_ends_with_the_last_one(player, rival):
    room = raced(player, rival)
    account_delete(user=player)
    room.refresh_from_db()
    assert room.status == RaceRoom.Status.RUNNING
    assert list(room.entries.values_list("player", flat=True)) == [rival.pk]
    services.game_resign(game=services.LockedGame(room.entries.get().game_id), player=rival)
    room.refresh_from_db()
    assert room.status == RaceRoom.Status.FINISHED


def test_a_race_whose_other_racers_have_finished_ends_when_the_last_one_leaves(player, rival):
    room = raced(player, rival)
    rival_game = RaceEntry.objects.get(room=room, player=rival).game_id
    services.game_resign(game=services.LockedGame(rival_game), player=rival)
    version = RaceRoom.objects.get(pk=room.pk).version
    account_delete(user=player)
    room.refresh_from_db()
    assert room.status == RaceRoom.Status.FINISHED and room.version == version + 1


def test_a_countdown_short_of_racers_goes_back_to_the_lobby(player, rival):
    room = race_create(player=player, code="HH1-N-AAAAAAG")
    race_join(player=rival, room=room.room)
    race_ready(player=player, room=room.room, ready=True)
    race_ready(player=rival, room=room.room, ready=True)
    account_delete(user=player)
    room.refresh_from_db()
    assert room.status == RaceRoom.Status.LOBBY and room.starts_at is None
    assert not Game.objects.filter(code="HH1-N-AAAAAAG").exists()


def session_key(client: Client) -> str:
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def test_deleting_an_account_ends_its_sessions_on_every_device_and_no_one_elses(player, rival):
    devices = [logged_in(player) for _ in range(3)]
    theirs = logged_in(rival)
    account_delete(user=player)
    for device in devices:
        assert not device.get("/").wsgi_request.user.is_authenticated
        assert not Session.objects.filter(session_key=session_key(device)).exists()
    assert theirs.get("/").wsgi_request.user == rival
    assert list(PlayerSession.objects.values_list("session_key", flat=True)) == [
        session_key(theirs)
    ]


def others_logged_in(count: int) -> None:
    """`count` sessions of other accounts, stored and indexed as a login stores them."""
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"other{n}") for n in range(count)
    )
    for user in users:
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session.create()
        PlayerSession.objects.create(
            user=user, session_key=session.session_key, created_at=timezone.now()
        )


def test_a_deletion_reads_only_the_sessions_of_the_account(player):
    """Deleting an account once read every session of the site, holding the database's write
    lock meanwhile: with many players logged in, everyone's moves waited for it."""
    keys = [session_key(logged_in(player)) for _ in range(2)]
    others_logged_in(300)
    with CaptureQueriesContext(connection) as queries:
        account_delete(user=player)
    read = [q["sql"] for q in queries.captured_queries if "django_session" in q["sql"]]
    assert read and all(any(key in sql for key in keys) for sql in read), read
    assert Session.objects.count() == PlayerSession.objects.count() == 300
