"""The player page's figures and charts: drawn on the server, each with a table alternative."""

import datetime
import re

import pytest

from game.models import DealPar
from tests.selectors.history import (  # noqa: F401  (the fixture)
    TODAY,
    deal_on,
    december_the_tenth,
    finish,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("december_the_tenth")]


def days_ago(n: int) -> datetime.date:
    return TODAY - datetime.timedelta(days=n)


@pytest.fixture
def dailies(player):
    """ann: won 3 and 2 days ago and yesterday, lost 5 days ago, missed 4 days ago."""
    finish(player, deal_on(days_ago(5)), won=False, seconds=500)
    deal_on(days_ago(4))
    for n, seconds in ((3, 200), (2, 100), (1, 70)):
        finish(player, deal_on(days_ago(n)), seconds=seconds)


def figure(content: str, term: str) -> str:
    return re.search(rf"<dt>{term}</dt><dd>([^<]*)</dd>", content)[1]


def test_the_page_shows_played_won_rate_streaks_and_best_time(client, dailies):
    content = client.get("/players/Ann/").content.decode()
    assert figure(content, "Daily played") == "4"
    assert figure(content, "Daily wins") == "3"
    assert figure(content, "Win rate") == "75%"
    assert figure(content, "Streak") == "3"
    assert figure(content, "Best streak") == "3"
    assert figure(content, "Best time") == "1:10"


def test_the_page_shows_the_average_moves_over_par_of_wins_whose_par_is_known(client, player):
    for n, (moves, par) in enumerate(((40, 36), (47, 42), (60, None))):
        DealPar.objects.create(
            code=finish(player, deal_on(days_ago(n + 1)), moves=moves).code, par=par
        )
    assert (
        figure(client.get("/players/Ann/").content.decode(), r"Moves over par \(average\)") == "4.5"
    )


def test_moves_over_par_is_a_dash_until_a_par_is_known(client, dailies):
    assert (
        figure(client.get("/players/Ann/").content.decode(), r"Moves over par \(average\)") == "—"
    )


def test_the_last_30_days_chart_has_a_bar_per_day_played_and_gaps_for_the_rest(client, dailies):
    content = client.get("/players/Ann/").content.decode()
    chart = re.search(
        r'<section class="card" aria-labelledby="recent-title">.*?</svg>', content, re.S
    )[0]
    assert 'role="img"' in chart and "aria-label=" in chart
    bars = re.findall(r'<rect class="bar ([\w-]+)"', chart)
    assert bars == ["played", "won-clean", "won-clean", "won-clean"]
    # Bars stand in their day's slot: 10 units a day, the oldest of the 30 days leftmost.
    xs = [float(x) for x in re.findall(r'<rect class="bar [\w-]+" x="([\d.]+)"', chart)]
    assert [int(x // 10) for x in xs] == [24, 26, 27, 28]


def test_the_last_30_days_have_a_table_for_screen_readers(client, dailies):
    content = client.get("/players/Ann/").content.decode()
    table = re.search(r"The last 30 days as a table.*?</table>", content, re.S)[0]
    rows = re.findall(
        r"<tr><td><time[^>]*>([\d-]+)</time></td><td>([^<]+)</td><td[^>]*>([^<]+)</td>", table
    )
    assert len(rows) == 30
    assert rows[-2] == (str(days_ago(1)), "won clean", "1:10")
    assert rows[-5] == (str(days_ago(4)), "not played", "—")
    assert rows[-6] == (str(days_ago(5)), "played", "8:20")


def test_the_histogram_counts_wins_by_minutes_in_its_svg_and_its_table(client, dailies):
    content = client.get("/players/Ann/").content.decode()
    section = re.search(r'aria-labelledby="times-title">.*?</section>', content, re.S)[0]
    assert len(re.findall(r'<rect class="bar count"', section)) == 9
    table = dict(re.findall(r"<tr><td>([^<]+)</td><td class=\"num\">(\d+)</td></tr>", section))
    assert (table["1–2"], table["3–4"], table["7–10"]) == ("2", "1", "0")
    assert sum(int(count) for count in table.values()) == 3


def test_a_player_without_a_ranked_daily_has_no_charts(client, player):
    finish(player)
    content = client.get("/players/Ann/").content.decode()
    assert "<svg" not in content and "No ranked daily game finished yet." in content


def test_the_page_title_and_description_name_the_player_and_nothing_else(client, player):
    content = client.get("/players/Ann/").content.decode()
    assert re.search(r"<title>\s*Ann — Heart to Heart\s*</title>", content)
    assert '<meta name="description" content="Ann on Heart to Heart' in content
