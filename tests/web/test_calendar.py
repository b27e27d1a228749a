"""The daily calendar page: a month of daily deals, each past day marked with a result."""

import datetime
import re

import pytest

from game.models import DailyDeal
from tests.selectors.history import (  # noqa: F401  (the fixture)
    TODAY,
    deal_on,
    december_the_tenth,
    finish,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("december_the_tenth")]


def day(n: int) -> datetime.date:
    return datetime.date(2026, 12, n)


def cell(content: str, date: str) -> str:
    """The <td> of one day."""
    match = re.search(rf'<td [^>]*data-date="{date}"[^>]*>.*?</td>', content, re.S)
    assert match, f"no cell for {date}"
    return match[0]


@pytest.fixture
def december(player, rival):
    """ann won the 1st clean and the 2nd with an undo, lost the 3rd, skipped the 4th."""
    deals = {n: deal_on(day(n)) for n in (1, 2, 3, 4)}
    finish(player, deals[1])
    finish(player, deals[2], undos=2)
    finish(player, deals[3], won=False)
    finish(rival, deals[4])
    return deals


def test_each_past_day_names_its_date_and_the_players_mark(client, player, december):
    client.force_login(player)
    content = client.get("/daily/calendar/?month=2026-12").content.decode()
    for n, mark in ((1, "won clean"), (2, "won"), (3, "played"), (4, "not played")):
        assert f'aria-label="2026-12-0{n}: {mark}"' in cell(content, f"2026-12-0{n}")


def test_the_marks_are_shapes_as_well_as_words(client, player, december):
    client.force_login(player)
    content = client.get("/daily/calendar/").content.decode()
    icons = [
        re.search(r'class="mark"[^>]*>(.)<', cell(content, f"2026-12-0{n}"))[1]
        for n in (1, 2, 3, 4)
    ]
    assert len(set(icons)) == 4


def test_a_past_day_links_to_its_board_and_to_its_deal_as_practice(client, player, december):
    client.force_login(player)
    past = cell(client.get("/daily/calendar/").content.decode(), "2026-12-02")
    assert 'href="/leaderboard/daily/2026-12-02/"' in past
    assert f'href="/play/{december[2].code}/"' in past


def test_today_links_to_the_daily_and_later_days_link_nowhere(client, player, december):
    client.force_login(player)
    content = client.get("/daily/calendar/").content.decode()
    assert 'href="/daily/"' in cell(content, "2026-12-10")
    assert "2026-12-10: not played" in cell(content, "2026-12-10")
    later = cell(content, "2026-12-11")
    assert "href" not in later and "played" not in later


def test_a_past_day_nobody_opened_has_no_links(client, player, december):
    client.force_login(player)
    assert "href" not in cell(client.get("/daily/calendar/").content.decode(), "2026-12-05")


def test_an_anonymous_visitor_sees_the_deals_without_marks_and_is_asked_to_log_in(client, december):
    content = client.get("/daily/calendar/").content.decode()
    assert "data-mark" not in content and 'aria-label="2026-12-01"' in content
    assert 'href="/leaderboard/daily/2026-12-01/"' in content
    assert 'href="/accounts/login/?next=' in content


def test_another_players_calendar_shows_their_marks(client, player, rival, december):
    client.force_login(player)
    content = client.get("/daily/calendar/?player=Bea").content.decode()
    assert "2026-12-04: won clean" in cell(content, "2026-12-04")
    assert "2026-12-01: not played" in cell(content, "2026-12-01")


def test_an_unknown_player_is_a_404(client):
    response = client.get("/daily/calendar/?player=nobody")
    assert response.status_code == 404
    assert "No player is called" in response.content.decode()


def test_the_month_links_to_its_neighbours_within_the_daily_deals(client, player):
    deal_on(datetime.date(2026, 10, 31))
    client.force_login(player)
    november = client.get("/daily/calendar/?month=2026-11").content.decode()
    assert 'href="?month=2026-10"' in november and 'href="?month=2026-12"' in november
    october = client.get("/daily/calendar/?month=2026-10").content.decode()
    assert 'rel="prev"' not in october
    assert 'rel="next"' not in client.get("/daily/calendar/").content.decode()


@pytest.mark.parametrize("month", ["2026-13", "2026-00", "26-12", "2026-1", "december", ""])
def test_a_malformed_month_is_a_400_saying_how_to_write_one(client, month):
    response = client.get(f"/daily/calendar/?month={month}")
    assert response.status_code == 400
    assert "Months are written YYYY-MM" in response.content.decode()


@pytest.mark.parametrize("month", ["2027-01", "2026-11", "1999-12", "9999-12"])
def test_a_month_outside_the_daily_deals_is_a_404_naming_the_range(client, month):
    response = client.get(f"/daily/calendar/?month={month}")
    assert response.status_code == 404
    assert "The calendar runs from 2026-12 to 2026-12" in response.content.decode()


def test_the_daily_board_and_the_player_page_link_to_the_calendar(client, player):
    DailyDeal.objects.create(date=TODAY, code="HH1-D-AAAAAAA")
    board = client.get("/leaderboard/daily/").content.decode()
    assert re.search(r'<a [^>]*href="/daily/calendar/[^"]*"[^>]*>[^<]*Calendar', board)
    page = client.get("/players/Ann/").content.decode()
    assert 'href="/daily/calendar/?player=Ann"' in page


def test_the_calendar_link_speaks_malay(client, settings):
    DailyDeal.objects.create(date=TODAY, code="HH1-D-AAAAAAA")
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ms"
    board = client.get("/leaderboard/daily/").content.decode()
    assert re.search(r'<a [^>]*href="/daily/calendar/[^"]*"[^>]*>[^<]*Kalendar', board)


def test_the_marks_speak_malay(client, player, december, settings):
    client.force_login(player)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ms"
    content = client.get("/daily/calendar/").content.decode()
    for n, mark in ((1, "menang bersih"), (2, "menang"), (3, "dimainkan"), (4, "tidak dimainkan")):
        assert f'aria-label="2026-12-0{n}: {mark}"' in cell(content, f"2026-12-0{n}")
