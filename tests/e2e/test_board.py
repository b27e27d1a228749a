"""The board in a real browser: tapping, settings, the piles, and the windows at the end."""

import datetime
import json
import re

import pytest
from playwright.sync_api import expect

from game import engine
from tests.e2e import deals
from tests.e2e.conftest import DESKTOP, PHONE

pytestmark = pytest.mark.e2e


HEART_CARDS = ".h2h-heart .playcard:not(.gone):not(.waste)"


def test_logging_in_opens_the_daily_deal(open_page, artifacts):
    board = open_page("ana", "/daily/")
    assert re.fullmatch(r"HH1-D-[A-Z]{7}", board.code)
    expect(board.page.locator(".h2h-code .h2h-k")).to_have_text(re.compile("Ranked"))
    expect(board.start_screen).to_contain_text("The cards show and the clock starts")
    expect(board.page.locator(HEART_CARDS)).to_have_count(0)
    board.shot(artifacts / "daily-start-desktop.png")
    board.start()
    expect(board.page.locator(".h2h-heart .playcard:not(.gone)")).to_have_count(26)
    board.shot(artifacts / "start-desktop.png")
    board.page.locator("[data-action=copy-code]").click()
    expect(board.page.locator("[data-action=copy-code] [data-slot=copied]")).to_have_text("Copied")


def test_the_ranked_daily_shows_no_card_until_start_and_a_reload_resumes_it(open_page, artifacts):
    board = open_page("dina", "/daily/", locale="ms-MY", device=PHONE)
    page = board.page
    expect(board.start_screen).to_be_visible()
    expect(board.start_screen.locator("h2")).to_contain_text("Agihan harian")
    expect(board.start_screen.locator("[data-action=start]")).to_have_text("Mula")
    expect(page.locator(HEART_CARDS)).to_have_count(0)
    expect(page.locator("[data-stat=time]")).to_have_text("0:00")
    expect(page.locator(".h2h-controls [data-action=resign]")).to_be_disabled()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    board.shot(artifacts / "daily-start-phone-ms.png")
    before = board.frames()
    page.keyboard.press("d")  # a draw before the start is not even sent
    page.wait_for_timeout(300)
    assert board.frames() == before
    page.reload()
    board.wait_ready()
    expect(board.start_screen).to_be_visible()  # a reload starts nothing
    board.start()
    expect(page.locator(HEART_CARDS)).to_have_count(25)
    assert board.tap("stock") == "draw"
    page.wait_for_timeout(1100)
    expect(page.locator("[data-stat=time]")).not_to_have_text("0:00")
    page.reload()
    board.wait_ready()
    expect(board.start_screen).to_be_hidden()  # the started game resumes
    assert board.stat("moves") == "1"


def test_only_the_tip_is_free_and_a_covered_card_ignores_taps(open_page):
    board = open_page("ana", "/play/HH1-N-AAAAAAM/")
    assert board.with_class("free") == [25, "waste"]
    assert "covered" in board.classes(1)
    assert board.tap(1) == "none"
    assert board.with_class("selected") == []
    expect(board.at(1)).to_have_attribute("aria-label", re.compile(r"of hearts, covered$"))
    expect(board.at(25)).to_have_attribute("aria-label", re.compile(r"of hearts, free"))


def test_tapping_the_tip_selects_it_and_tapping_again_deselects_it(open_page):
    board = open_page("ben", f"/play/{deals.code_where(deals.playable, seed=11)}/")
    assert board.tap(25) == "selected"
    assert board.with_class("selected") == [25]
    expect(board.at(25)).to_have_attribute("aria-pressed", "true")
    assert board.tap(25) == "deselected"
    assert board.with_class("selected") == []


@pytest.mark.parametrize(
    ("user", "device"),
    [pytest.param("eli", DESKTOP, id="desktop"), pytest.param("dina", PHONE, id="phone")],
)
def test_a_card_freed_by_a_pair_takes_a_tap_while_the_pair_flies_off(open_page, user, device):
    code = deals.code_where(deals.tip_matches_waste, seed=31)
    board = open_page(user, f"/play/{code}/", device=device)
    page = board.page
    box = board.at(24).bounding_box()
    # Where the tip lies over card 24, and where its leave animation passes.
    spot = (box["x"] + box["width"] * 0.3, box["y"] + box["height"] * 0.6)
    assert board.tap(25) == "selected"
    assert board.tap("waste") == "pair"
    page.wait_for_timeout(50)  # the tip is still flying off
    (page.touchscreen.tap if device is PHONE else page.mouse.click)(*spot)
    expect(board.at(24)).to_have_class(re.compile(r"\bselected\b"), timeout=3000)


def mismatch_code():
    return deals.code_where(deals.tip_mismatches_waste, seed=12)


def test_a_mismatch_moves_the_selection_silently_without_move_errors(open_page):
    board = open_page("cai", f"/play/{mismatch_code()}/")
    board.tap(25)
    assert board.tap("waste") == "mismatch"
    assert board.with_class("selected") == ["waste"]
    expect(board.page.locator(".h2h-toast")).to_be_hidden()


def test_a_mismatch_says_must_be_same_rank_with_move_errors_on(open_page):
    board = open_page("cai", f"/play/{mismatch_code()}/", locale="ms-MY")
    board.toggle_setting("moveErrors", True)
    board.tap(25)
    assert board.tap("waste") == "mismatch"
    expect(board.page.locator(".h2h-toast")).to_have_text("Mesti sama pangkat")


def test_placement_help_circles_partners_and_darkens_non_matching_cards(open_page, artifacts):
    code = deals.code_where(deals.tip_matches_waste, seed=13)
    board = open_page("dina", f"/play/{code}/")
    assert board.with_class("hint") == [25, "waste"]
    board.tap("stock")  # the new waste top no longer matches the tip
    assert board.with_class("hint") == []
    board.undo()
    board.tap(25)
    dimmed = board.with_class("dim")
    tip = deals.new_game(code).heart[24]
    same_rank = [p for p in range(1, 25) if deals.new_game(code).heart[p - 1] == tip]
    assert set(dimmed) == set(range(1, 25)) - set(same_rank)
    board.shot(artifacts / "help-desktop.png")
    board.toggle_setting("placementHelp", False)
    assert board.with_class("hint") == []
    assert board.with_class("dim") == []
    board.page.reload()
    board.wait_ready()
    expect(board.page.locator("[data-setting=placementHelp]")).not_to_be_checked()
    assert board.with_class("hint") == []


def test_drawing_through_the_whole_stock_then_redealing(open_page):
    board = open_page("eli", f"/play/{deals.code_where(deals.playable, seed=14)}/")
    for left in range(25, -1, -1):
        assert board.tap("stock") == "draw"
        expect(board.at("stock")).to_have_attribute("aria-label", re.compile(f"{left} card|empty"))
    assert "redeal" in board.classes("stock")
    expect(board.at("waste").locator(".count")).to_have_text("27")
    assert board.tap("stock") == "redeal"
    expect(board.at("stock").locator(".count")).to_have_text("27")
    assert "empty" in board.classes("waste")
    assert board.stat("moves") == "27"


def test_winning_the_daily_deal_along_the_solvers_plan(open_page, artifacts):
    board = open_page("ben", "/daily/")
    board.start()
    plan = engine.solve(board.code, key=deals.DEAL_KEY)
    board.play(plan[: len(plan) // 2])
    board.shot(artifacts / "mid-game-desktop.png")
    board.play(plan[len(plan) // 2 :])
    win = board.page.locator("#h2h-win")
    expect(win).to_be_visible()
    expect(win.locator("[data-slot=score]")).to_have_text("250")
    expect(win.locator("[data-slot=rank]")).to_have_text(re.compile(r"#1"))
    share = win.locator("[data-slot=share]").input_value()
    assert share.startswith("Heart to Heart · Daily deal ") and "⏱" in share
    board.shot(artifacts / "win-desktop.png")
    win.locator("[data-action=copy-share]").click()
    expect(win.locator("[data-action=copy-share] [data-slot=copied]")).to_have_text("Copied")
    win.locator("[data-slot=leaderboard]").click()
    expect(board.page.locator("main")).to_contain_text("Ben")


def test_the_deadlock_window_then_undo_leaves_it(open_page, artifacts):
    code, taps = deals.deadlock_path()
    board = open_page("ana", f"/play/{code}/")
    board.play(taps)
    window = board.page.locator("#h2h-deadlock")
    expect(window).to_be_visible()
    expect(window).to_contain_text("No more moves possible")
    board.shot(artifacts / "deadlock-desktop.png")
    before = board.frames()
    window.locator("[data-action=undo]").click()
    board.answered(before)
    expect(window).to_be_hidden()
    assert board.root.get_attribute("class").split().count("over") == 0


# How a button looks: its colours, its opacity and its cursor.
LOOK = """b => { const s = getComputedStyle(b);
    return [s.backgroundColor, s.color, s.borderColor, s.opacity, s.cursor].join(" / "); }"""


def test_a_button_that_cannot_be_pressed_looks_it_in_both_themes(open_page, artifacts):
    code = deals.code_where(lambda state: not deals.playable(state), seed=32)
    board = open_page("cai", f"/play/{code}/")
    page, window = board.page, board.page.locator("#h2h-deadlock")
    expect(window).to_be_visible()  # stuck before the first move: nothing to undo
    undo = window.locator("[data-action=undo]")
    expect(undo).to_be_disabled()
    for device, size in (("desktop", DESKTOP["viewport"]), ("phone", PHONE["viewport"])):
        page.set_viewport_size(size)
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            page.wait_for_timeout(200)
            disabled = {b.evaluate(LOOK) for b in page.locator(".button:disabled").all()}
            enabled = {b.evaluate(LOOK) for b in page.locator(".button:enabled").all()}
            assert len(disabled) == 1, disabled  # the window's Undo looks like the board's
            assert disabled.isdisjoint(enabled), (disabled, enabled)
            assert disabled.pop().endswith("not-allowed")
            board.shot(artifacts / f"deadlock-stuck-{device}-{scheme}.png")


def test_keyboard_only_play(open_page, artifacts):
    code = deals.code_where(deals.tip_matches_waste, seed=15)
    board = open_page("ben", f"/play/{code}/")
    page = board.page
    page.keyboard.press("Tab")
    while not page.evaluate("document.activeElement.dataset.target"):
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.dataset.target") == "25"
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.target") == "waste"
    assert board.press("Enter") == "selected"
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("document.activeElement.dataset.target") == "25"
    assert board.press("Space") == "pair"
    assert board.stat("score") == "10"
    expect(page.locator(".h2h-live")).to_contain_text("Pair removed")
    assert page.evaluate("document.activeElement.dataset.target") in {"23", "24"}
    assert board.press("d") == "draw"
    assert board.press("u") == "undo"
    assert board.press("Control+z") == "undo"
    assert board.stat("score") == "0"
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.dataset.target") == "25"
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    board.shot(artifacts / "keyboard-focus-desktop.png")


def test_the_browser_language_picks_malay_when_nothing_fits_and_the_switch_overrides(open_page):
    board = open_page("cai", "/daily/", locale="fr-FR")
    expect(board.page.locator("[data-setting=moveErrors] + span")).to_have_text("Ralat langkah")
    board.page.locator("footer .language button[value=en]").click()
    board.wait_ready()
    expect(board.page.locator("[data-setting=moveErrors] + span")).to_have_text("Move errors")


def test_english_and_malay_pages(open_page):
    english = open_page("cai", "/daily/", locale="en-US")
    english.start()
    expect(english.page.locator("[data-setting=placementHelp] + span")).to_have_text(
        "Placement help"
    )
    expect(english.at(25)).to_have_attribute("aria-label", re.compile("of hearts, free"))
    malay = open_page("cai", "/daily/", locale="ms-MY")
    expect(malay.page.locator("[data-setting=placementHelp] + span")).to_have_text(
        "Bantuan penempatan"
    )
    expect(malay.page.locator("[data-setting=moveErrors] + span")).to_have_text("Ralat langkah")
    expect(malay.at(25)).to_have_attribute("aria-label", re.compile("hati, bebas"))
    expect(malay.page.locator("[data-action=undo]").first).to_contain_text("Nyahbuat")


def test_a_phone_plays_by_touch_without_scrolling(open_page, artifacts):
    code, plan = deals.winnable_plan(seed=16, longest=100)
    board = open_page("dina", f"/play/{code}/", device=PHONE)
    page = board.page
    board.shot(artifacts / "start-phone.png")
    heart = page.locator(".h2h-table").bounding_box()
    assert heart["x"] >= 0 and heart["x"] + heart["width"] <= 360
    assert heart["y"] + heart["height"] <= 740
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    rank_px = page.eval_on_selector(
        ".playcard .rk", "n => parseFloat(getComputedStyle(n).fontSize)"
    )
    assert rank_px >= 18
    touch_action = "getComputedStyle(document.getElementById('board')).touchAction"
    assert page.evaluate(touch_action) == "manipulation"  # no double-tap zoom
    for i, action in enumerate(plan):
        board.tap(action, touch=True)
        if i == len(plan) // 2:
            board.shot(artifacts / "mid-game-phone.png")
    expect(page.locator("#h2h-win")).to_be_visible()
    board.shot(artifacts / "win-phone.png")


def test_deadlock_on_a_phone(open_page, artifacts):
    code, taps = deals.deadlock_path(seed=17)
    board = open_page("eli", f"/play/{code}/", device=PHONE, color_scheme="dark")
    for target in taps:
        board.tap(target, touch=True)
    expect(board.page.locator("#h2h-deadlock")).to_be_visible()
    board.shot(artifacts / "deadlock-phone-dark.png")
    board.page.keyboard.press("Escape")
    board.shot(artifacts / "deadlocked-board-phone-dark.png")


def test_the_board_reconnects_after_the_server_restarts(open_page, server):
    code = deals.code_where(deals.playable, seed=18)
    board = open_page("eli", f"/play/{code}/")
    board.tap("stock")
    board.tap("stock")
    server.stop()
    expect(board.page.locator(".h2h-offline")).to_be_visible()
    expect(board.page.locator("[data-action=undo]").first).to_be_disabled()
    server.start()
    expect(board.page.locator(".h2h-offline")).to_be_hidden(timeout=15000)
    assert board.stat("moves") == "2"
    assert board.tap("stock") == "draw"
    assert board.stat("moves") == "3"
    board.page.reload()
    board.wait_ready()
    assert board.stat("moves") == "3"


class DropFirstDrawAnswer:
    """Proxy the play socket, and cut it where the server's answer to the first draw would
    arrive: the move is stored, but the board never hears so. Records what the board sent."""

    def __init__(self):
        self.dropped = False
        self.sent = []

    def __call__(self, page):
        page.route_web_socket(re.compile(r"/ws/play/"), self.route)

    def route(self, ws):
        server = ws.connect_to_server()

        def from_page(message):
            self.sent.append(json.loads(message))
            server.send(message)

        def from_server(message):
            if not self.dropped and json.loads(message).get("event") == "draw":
                self.dropped = True
                ws.close(code=4000, reason="test")
                return
            ws.send(message)

        ws.on_message(from_page)
        server.on_message(from_server)


def test_a_move_whose_answer_was_lost_is_resent_once_and_applied_once(open_page):
    code = deals.code_where(deals.playable, seed=19)
    proxy = DropFirstDrawAnswer()
    board = open_page("dina", f"/play/{code}/", setup=proxy)
    board.page.locator("[data-target=stock]").click()
    expect(board.page.locator(".h2h-offline")).to_be_visible()
    expect(board.page.locator(".h2h-offline")).to_be_hidden()
    expect(board.page.locator("[data-stat=moves]")).to_have_text("1")
    expect(board.root).to_have_attribute("data-pending", "0")
    assert board.tap("stock") == "draw"
    assert board.stat("moves") == "2"
    draws = [frame["seq"] for frame in proxy.sent if frame.get("target") == "stock"]
    assert len(draws) == 3 and draws[0] == draws[1] < draws[2]
    expect(board.page.locator(".h2h-toast")).to_be_hidden()


class Refuse:
    """Stand in for the server and refuse every play socket as it does: an error frame, then a
    close with `code`. Counts the board's attempts."""

    def __init__(self, code: int, error: str, message: str):
        self.code, self.frame, self.attempts = code, {"type": "error", "error": error}, 0
        self.frame |= {"seq": None, "message": message}

    def route(self, ws):
        self.attempts += 1
        ws.send(json.dumps(self.frame))
        ws.close(code=self.code, reason="refused")


def refused_page(open_page, refuse: Refuse):
    code = deals.code_where(deals.playable, seed=23)
    page = open_page("cai", f"/play/{code}/").page.context.new_page()
    page.route_web_socket(re.compile(r"/ws/play/"), refuse.route)
    page.goto(f"/play/{code}/")
    return page


def test_a_refused_board_says_why_and_never_retries(open_page):
    refuse = Refuse(4003, "race_lobby", "The race has not started: its deal opens at the start.")
    page = refused_page(open_page, refuse)
    expect(page.locator(".h2h-offline")).to_have_text(refuse.frame["message"])
    page.wait_for_timeout(2500)
    assert refuse.attempts == 1
    expect(page.locator(".h2h-offline")).to_have_attribute("data-notice", "final")


def test_a_board_refused_as_one_tab_too_many_waits_long_before_it_asks_again(open_page):
    refuse = Refuse(4009, "too_many_sockets", "Too many open connections: close another tab.")
    page = refused_page(open_page, refuse)
    expect(page.locator(".h2h-offline")).to_have_text(refuse.frame["message"])
    page.evaluate("window.dispatchEvent(new Event('online'))")  # no early retry either
    page.wait_for_timeout(2500)
    assert refuse.attempts == 1


def test_the_clock_counts_the_servers_time_even_when_the_device_clock_is_wrong(open_page):
    wrong = datetime.datetime.now() + datetime.timedelta(hours=3, minutes=7)
    code = deals.code_where(deals.playable, seed=20)
    board = open_page("cai", f"/play/{code}/", setup=lambda page: page.clock.install(time=wrong))
    expect(board.page.locator("[data-stat=time]")).to_have_text(re.compile(r"^0:0\d$"))
    board.page.wait_for_timeout(1200)
    expect(board.page.locator("[data-stat=time]")).not_to_have_text("0:00")


def test_new_game_and_resign_ask_first_when_a_ranked_game_would_end(open_page):
    board = open_page("eli", "/daily/")
    board.start()
    page, confirm = board.page, board.page.locator("#h2h-confirm")
    page.locator(".h2h-controls [type=submit]").click()
    expect(confirm).to_be_visible()
    confirm.locator("[value=no]").click()
    expect(confirm).to_be_hidden()
    page.locator(".h2h-controls [data-action=resign]").click()
    expect(confirm).to_be_visible()
    confirm.locator("[value=no]").click()
    page.locator(".h2h-controls [type=submit]").click()
    confirm.locator("[value=yes]").click()
    page.wait_for_url(re.compile(r"/play/HH1-N-[A-Z]{7}/$"))
    board.open(f"/play/{deals.code_where(deals.playable, seed=21)}/")  # a fresh deal may be stuck
    before = board.frames()
    page.locator(".h2h-controls [data-action=resign]").click()  # not ranked: no question
    board.answered(before)
    expect(page.locator("#h2h-ended")).to_be_visible()
    expect(page.locator("[data-action=undo]").first).to_be_disabled()


def test_logging_out_in_another_tab_takes_the_board_off_the_account(open_page):
    code = deals.code_where(deals.playable, seed=22)
    board = open_page("fay", f"/play/{code}/")
    board.tap("stock")
    other = board.page.context.new_page()
    other.goto("/")
    other.locator(".site-header form [type=submit]").click()
    # The board reloads: no longer the account's game, but a guest's fresh one of the deal.
    expect(board.page.locator(".h2h-guest")).to_be_visible(timeout=8000)
    board.wait_ready()
    assert board.code == code and board.stat("moves") == "0"
    expect(board.page.locator(".site-header")).to_contain_text("Log in")
