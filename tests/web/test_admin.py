"""The admin shows games with their logs, results, daily deals and profiles to a superuser."""

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import Permission, User
from django.utils import timezone
from django.utils.html import escape

from game.models import Action, BoardVersion, DailyDeal, Game, Profile, Result, ResultFlag
from game.sockets.base import CLOSE_LOGGED_OUT
from tests.layers import fresh_channel_layer  # noqa: F401  (an autouse fixture)
from tests.selectors.history import finish
from tests.site import connect, session_cookie, sockets_database_work_done

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


# Reviews: voiding results and days, and undoing it ----------------------------------------


def void_through_the_admin(client, model: str, action: str, pks: list, reason: str | None):
    """Run a voiding action on `model`'s list: the intermediate page, then its form posted
    with `reason` (none: only the page). The last response."""
    url = f"/admin/game/{model}/"
    data = {"action": action, "_selected_action": pks, "index": 0}
    page = client.post(url, data)
    if reason is None:
        return page
    return client.post(
        url, {"action": action, "_selected_action": pks, "apply": "yes", "reason": reason}
    )


def test_a_reviewer_voids_a_flagged_result_giving_a_reason_on_an_intermediate_page(
    admin_client, game
):
    flag = ResultFlag.objects.create(
        result=game.result, reason="fast_taps", detail="9 of 10 moves", created_at=timezone.now()
    )
    page = void_through_the_admin(admin_client, "resultflag", "void_results", [flag.pk], None)
    content = page.content.decode()
    assert (
        page.status_code == 200 and 'name="reason"' in content and "HH1-D-AAAAAAB by ann" in content
    )
    assert Result.objects.get().voided_at is None  # asked, not yet done
    response = void_through_the_admin(
        admin_client, "resultflag", "void_results", [flag.pk], "solver line"
    )
    assert response.status_code == 302
    assert Result.objects.get().void_reason == "solver line"
    assert "solver line" in admin_client.get("/admin/game/resultflag/").content.decode()
    history = admin_client.get(f"/admin/game/result/{game.result.pk}/history/").content.decode()
    assert "Voided on review: solver line" in history


def test_voiding_without_a_reason_asks_again_and_voids_nothing(admin_client, game):
    page = void_through_the_admin(admin_client, "result", "void_results", [game.result.pk], "")
    assert page.status_code == 200 and "errorlist" in page.content.decode()
    assert Result.objects.get().voided_at is None


def test_a_reviewer_undoes_a_voiding_from_the_results_list(admin_client, game):
    void_through_the_admin(admin_client, "result", "void_results", [game.result.pk], "bot")
    data = {"action": "unvoid_results", "_selected_action": [game.result.pk], "index": 0}
    assert admin_client.post("/admin/game/result/", data).status_code == 302
    assert Result.objects.get().voided_at is None


def test_a_reviewer_voids_a_whole_day_and_undoes_it(admin_client, game):
    deal = DailyDeal.objects.get()
    void_through_the_admin(admin_client, "dailydeal", "void_days", [deal.pk], "a dead deal")
    deal.refresh_from_db()
    assert deal.void_reason == "a dead deal" and Result.objects.get().voided_at is None
    assert "a dead deal" in admin_client.get("/admin/game/dailydeal/").content.decode()
    data = {"action": "unvoid_days", "_selected_action": [deal.pk], "index": 0}
    admin_client.post("/admin/game/dailydeal/", data)
    assert DailyDeal.objects.get().voided_at is None


def test_staff_who_may_only_view_results_cannot_void_them(client, game):
    staff = User.objects.create_user(username="viewer", password="heart-shaped-42", is_staff=True)
    staff.user_permissions.add(Permission.objects.get(codename="view_result"))
    client.force_login(staff)
    assert "void_results" not in client.get("/admin/game/result/").content.decode()
    void_through_the_admin(client, "result", "void_results", [game.result.pk], "bot")
    assert Result.objects.get().voided_at is None
