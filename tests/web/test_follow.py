"""Following on the pages: the Follow / Unfollow button of a player's page (a POST with its
CSRF token), what the page lists, and the "Following" view of every leaderboard."""

import re

import pytest
from django.test import Client

from game import services
from game.models import Follow
from game.selectors import daily
from game.services.daily import daily_deal
from game.services.follows import follow_create
from tests.site import resign_now

pytestmark = pytest.mark.django_db

CODE = "HH1-N-AAAAAAC"


@pytest.fixture(autouse=True)
def english(settings):
    settings.LANGUAGE_CODE = "en"


def browser(user=None) -> Client:
    """A client that checks CSRF as a browser's request is checked."""
    client = Client(enforce_csrf_checks=True)
    if user is not None:
        client.force_login(user)
    return client


def csrf_post(client: Client, page: str, action: str):
    """Press the button of `page` whose form posts to `action`, token and all."""
    html = client.get(page).content.decode()
    assert f'action="{action}"' in html, f"no button posting to {action} on {page}"
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    return client.post(action, {"csrfmiddlewaretoken": token})


def test_the_follow_button_follows_and_the_unfollow_button_unfollows(player, rival):
    ann = browser(player)
    response = csrf_post(ann, "/players/Bea/", "/players/Bea/follow/")
    assert response.status_code == 302 and response["Location"] == "/players/Bea/"
    assert Follow.objects.filter(follower=player, followed=rival).exists()
    page = ann.get("/players/Bea/").content.decode()
    assert "Unfollow" in page and "1 follower" in page
    csrf_post(ann, "/players/Bea/", "/players/Bea/unfollow/")
    assert not Follow.objects.exists()
    assert "0 followers" in ann.get("/players/Bea/").content.decode()


def test_following_needs_a_post(player, rival):
    ann = browser(player)
    assert ann.get("/players/Bea/follow/").status_code == 405
    assert ann.get("/players/Bea/unfollow/").status_code == 405
    assert not Follow.objects.exists()


def test_a_follow_without_its_csrf_token_is_refused(player, rival):
    assert browser(player).post("/players/Bea/follow/").status_code == 403
    assert not Follow.objects.exists()


def test_an_anonymous_visitor_is_asked_to_log_in_and_comes_back_to_the_page(rival):
    page = browser().get("/players/Bea/").content.decode()
    assert "Log in to follow" in page and 'action="/players/Bea/follow/"' not in page
    response = Client().post("/players/Bea/follow/")
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/players/Bea/"
    assert not Follow.objects.exists()


def test_nobody_can_follow_themselves_and_their_page_has_no_button(player):
    ann = browser(player)
    assert "/players/Ann/follow/" not in ann.get("/players/Ann/").content.decode()
    response = Client()
    response.force_login(player)
    refused = response.post("/players/Ann/follow/")
    assert refused.status_code == 400 and b"You cannot follow yourself." in refused.content
    assert not Follow.objects.exists()


def test_following_an_unknown_player_is_a_404(player):
    client = Client()
    client.force_login(player)
    assert client.post("/players/Nobody/follow/").status_code == 404


def test_a_players_page_lists_whom_they_follow_and_counts_their_followers(
    player, rival, make_player
):
    cid = make_player("cid")
    follow_create(follower=rival, followed=player)
    follow_create(follower=rival, followed=cid)
    follow_create(follower=cid, followed=rival)
    page = Client().get("/players/Bea/").content.decode()
    follows = page[page.index("data-follows") :]
    assert '<a href="/players/Ann/">Ann</a>' in follows
    assert '<a href="/players/Cid/">Cid</a>' in follows
    assert "1 follower" in page
    assert "follows nobody yet" in Client().get("/players/Ann/").content.decode()


def ranked_daily_resigned(player) -> None:
    game = services.game_daily_open(player=player)
    services.game_start(game=services.LockedGame(game.pk), player=player, seq=1)
    services.game_resign(game=services.LockedGame(game.pk), player=player)


def boards() -> dict[str, str]:
    return {
        "daily": "/leaderboard/daily/",
        "day": f"/leaderboard/daily/{daily.daily_today().isoformat()}/",
        "deal": f"/leaderboard/deal/{daily_deal().code}/",
        "all-time": "/leaderboard/all-time/",
    }


@pytest.mark.parametrize("board", ["daily", "day", "deal", "all-time"])
def test_every_board_has_a_following_view_of_whom_one_follows_and_oneself(
    board, player, rival, make_player
):
    cid = make_player("cid")
    for someone in (player, rival, cid):
        ranked_daily_resigned(someone)
    follow_create(follower=player, followed=cid)
    ann = browser(player)
    everyone = ann.get(boards()[board]).content.decode()
    following = ann.get(boards()[board] + "?players=following").content.decode()
    assert all(f"/players/{name}/" in everyone for name in ("Ann", "Bea", "Cid"))
    assert "/players/Bea/" not in following
    assert "/players/Ann/" in following and "/players/Cid/" in following
    assert "?players=following" in re.search(r'data-live-ws="([^"]+)"', following).group(1)
    assert "?players=following" not in re.search(r'data-live-ws="([^"]+)"', everyone).group(1)
    assert "ranks are among them" in following
    # Ranks are among the shown players: 1 and 2, never Bea's place.
    ranks = re.findall(r'<td class="num rank">(\d+)</td>', following)
    assert ranks == ["1", "2"]


def test_the_tabs_keep_the_following_view(player):
    html = browser(player).get("/leaderboard/all-time/?players=following").content.decode()
    assert 'href="/leaderboard/daily/?players=following"' in html
    assert 'href="/leaderboard/all-time/"' in html  # back to everyone


def test_the_following_view_says_when_nobody_followed_has_a_result(player, rival):
    resign_now(rival, CODE)
    html = browser(player).get(f"/leaderboard/deal/{CODE}/?players=following").content.decode()
    assert "Nobody you follow, nor you, has finished a game of this deal yet." in html
    assert "/players/Bea/" not in html


@pytest.mark.parametrize("board", ["daily", "day", "deal", "all-time"])
def test_an_anonymous_visitor_asking_for_following_is_sent_to_log_in(board):
    path = boards()[board] + "?players=following"
    response = Client().get(path)
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=")
    assert "players%3Dfollowing" in response["Location"]


def test_an_unknown_view_of_a_board_is_a_clear_400(player):
    response = browser(player).get("/leaderboard/all-time/?players=friends")
    assert response.status_code == 400
    assert b"players=following" in response.content


def test_a_typed_deal_code_keeps_the_following_view(player):
    response = browser(player).get("/leaderboard/deal/hh1-n-aaaaaac/?players=following")
    assert response["Location"] == f"/leaderboard/deal/{CODE}/?players=following"


def test_the_buttons_and_views_speak_malay(player, rival, settings):
    settings.LANGUAGE_CODE = "ms"
    ann = browser(player)
    page = ann.get("/players/Bea/").content.decode()
    assert ">Ikuti</button>" in page and "0 pengikut" in page
    board = ann.get("/leaderboard/all-time/?players=following").content.decode()
    assert ">Diikuti</a>" in board and ">Semua orang</a>" in board
    assert "Hanya pemain yang anda ikuti" in board
