"""The admin shows games with their logs, results, daily deals and profiles to a superuser."""

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import User
from django.utils import timezone
from django.utils.html import escape

from game.models import Action, BoardVersion, DailyDeal, Game, Profile, Result, ResultFlag
from game.sockets.base import CLOSE_LOGGED_OUT
from tests.realtime import connect, fresh_channel_layer  # noqa: F401  (the fixture)
from tests.selectors.history import finish
from tests.site import session_cookie, sockets_database_work_done

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    """A won daily game with a two-action log and its result."""
    player = User.objects.create_user(username="ann", password="heart-shaped-42")
    Profile.objects.create(user=player, display_name="Ann")
    deal = DailyDeal.objects.create(date=timezone.localdate(), code="HH1-D-AAAAAAB")
    game = finish(player, deal, seconds=61, moves=1).game
    Action.objects.bulk_create(
        Action(game=game, index=i, action=a, at=game.finished_at)
        for i, a in enumerate(["stock", "25"])
    )
    Game.objects.filter(pk=game.pk).update(action_count=2)
    return game


@pytest.mark.parametrize("model", ["game", "result", "dailydeal", "profile", "resultflag"])
def test_admin_lists_load_and_search(admin_client, game, model):
    assert admin_client.get(f"/admin/game/{model}/").status_code == 200
    assert admin_client.get(f"/admin/game/{model}/", {"q": "AAAAAAB"}).status_code == 200


def test_a_game_shows_its_action_log_read_only(admin_client, game):
    response = admin_client.get(f"/admin/game/game/{game.pk}/change/")
    assert response.status_code == 200
    content = response.content.decode()
    assert "stock" in content and 'name="actions-0-action"' not in content


def test_results_show_the_time_and_cannot_be_edited(admin_client, game):
    assert "1:01" in admin_client.get("/admin/game/result/").content.decode()
    assert admin_client.get("/admin/game/result/add/").status_code == 403
    response = admin_client.post(f"/admin/game/result/{game.result.pk}/change/", {"score": 0})
    assert response.status_code == 403
    assert Result.objects.get().score == 250


def test_a_profile_can_be_renamed(admin_client, game):
    profile = Profile.objects.get()
    response = admin_client.get(f"/admin/game/profile/{profile.pk}/change/")
    assert response.status_code == 200
    assert 'name="display_name"' in response.content.decode()


def test_the_admin_needs_staff(client, game):
    response = client.get("/admin/game/game/")
    assert response.status_code == 302 and "/admin/login/" in response.url


def test_a_flagged_result_is_listed_with_its_reason_and_a_link_to_its_replay(admin_client, game):
    ResultFlag.objects.create(
        result=game.result, reason="fast_taps", detail="9 of 10 moves", created_at=timezone.now()
    )
    content = admin_client.get("/admin/game/resultflag/").content.decode()
    assert "fast_taps" in content and "9 of 10 moves" in content
    assert f'<a href="/replay/{game.pk}/">' in content
    response = admin_client.post(f"/admin/game/resultflag/{game.result.flags.get().pk}/change/")
    assert response.status_code == 403


def test_results_flagged_for_a_scouted_stock_are_found_by_their_reason(admin_client, game):
    detail = "26 of the stock's 26 cards were first shown by a draw that was then undone"
    ResultFlag.objects.create(
        result=game.result, reason="stock_scouted", detail=detail, created_at=timezone.now()
    )
    listed = admin_client.get("/admin/game/resultflag/?reason=stock_scouted").content.decode()
    assert escape(detail) in listed and f'<a href="/replay/{game.pk}/">' in listed
    assert "draws were taken back after they showed stock cards not seen before" in listed
    other = admin_client.get("/admin/game/resultflag/?reason=fast_taps").content.decode()
    assert escape(detail) not in other


# A password set in the admin -------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
async def test_a_password_set_in_the_admin_closes_the_players_sockets(admin_client, make_player):
    ann = await database_sync_to_async(make_player)("ann")
    cookie = await database_sync_to_async(session_cookie)(ann)
    board = await connect("/ws/play/HH1-N-AAAAAAC/", cookie)
    assert (await board.receive_json_from())["type"] == "state"
    await sockets_database_work_done()
    data = {"password1": "a-new-heart-77", "password2": "a-new-heart-77", "usable_password": "true"}
    set_password = database_sync_to_async(admin_client.post)
    response = await set_password(f"/admin/auth/user/{ann.pk}/password/", data)
    assert response.status_code == 302
    assert (await board.receive_output(timeout=2))["code"] == CLOSE_LOGGED_OUT
    again = await connect("/ws/play/HH1-N-AAAAAAC/", cookie)
    assert (await again.receive_json_from())["error"] == "login_required"


def test_a_user_deleted_in_the_admin_goes_as_a_player_deleting_themselves(admin_client, game):
    player_id = game.player_id
    url = f"/admin/auth/user/{player_id}/delete/"
    assert admin_client.post(url, {"post": "yes"}).status_code == 302
    assert not User.objects.filter(pk=player_id).exists()
    assert not Game.objects.filter(player_id=player_id).exists()
    # Through the one deletion path: the boards its result was on have taken a new version.
    assert BoardVersion.objects.filter(board=f"deal:{game.code}", version=1).exists()
