"""Changing the e-mail address on a real daphne, as a browser does it: sign up, ask for a new
address with and without the password, read the link from the mail the server wrote out (the
console backend, in the server's log), follow it. A taken address gets the same answer."""

import http.client
import re
from urllib.parse import urlencode

import pytest

from tests.harness.server import Server, manage, server_env

PASSWORD = "heart-shaped-42"
LINK = re.compile(r"http://127\.0\.0\.1:\d+(/accounts/email/confirm/\S+/)")


class Browser:
    """Cookies kept across requests, a page's CSRF token sent back with each form."""

    def __init__(self, server: Server) -> None:
        self.server, self.cookies, self.page = server, {"django_language": "en"}, ""

    def request(self, method: str, path: str, form: dict | None = None):
        """(status, Location) of one request; the page's text is kept in self.page."""
        connection = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=10)
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        body = None
        if form is not None:
            token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', self.page).group(1)
            body = urlencode({"csrfmiddlewaretoken": token, **form})
            headers |= {"Content-Type": "application/x-www-form-urlencoded"}
            headers |= {"Origin": self.server.origin}
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        for cookie in response.headers.get_all("Set-Cookie") or []:
            name, value = cookie.split(";", 1)[0].split("=", 1)
            self.cookies[name] = value
        self.page = response.read().decode()
        return response.status, response.headers.get("Location")

    def submit(self, path: str, form: dict):
        """GET the page of the form, then POST it."""
        self.request("GET", path)
        return self.request("POST", path, form)


def sign_up(server: Server, name: str) -> Browser:
    browser = Browser(server)
    form = {
        "username": name,
        "email": f"{name}@example.org",
        "display_name": name.title(),
        "password1": PASSWORD,
        "password2": PASSWORD,
    }
    assert browser.submit("/accounts/signup/", form) == (302, "/")
    return browser


def said(page: str) -> str:
    """The page's messages (the notice after a redirect)."""
    return re.search(r'<ul class="messages".*?</ul>', page, re.DOTALL).group(0)


def links_mailed(server: Server) -> list[str]:
    with open(server.log_path, encoding="utf-8", errors="replace") as log:
        return LINK.findall(log.read())


@pytest.fixture(scope="module")
def server(tmp_path_factory, static_collected):
    """One server for the module (each test signs up accounts of its own), its mail written to
    its log by the console backend."""
    workdir = tmp_path_factory.mktemp("email-change")
    env = server_env(sqlite_path=str(workdir / "db.sqlite3"), H2H_EMAIL_URL="")
    manage(env, "migrate", "--noinput")
    with Server(env, log_path=str(workdir / "daphne.log")) as running:
        yield running


def test_on_daphne_the_address_changes_with_the_password_and_the_link_only(server):
    ann = sign_up(server, "ann")
    before = len(links_mailed(server))
    stolen = ann.submit("/accounts/email/", {"email": "thief@example.net"})
    assert stolen == (200, None) and "This field is required." in ann.page
    guessed = ann.submit("/accounts/email/", {"email": "thief@example.net", "password": "guess"})
    assert guessed == (200, None) and "That is not your password." in ann.page
    assert len(links_mailed(server)) == before

    asked = ann.submit("/accounts/email/", {"email": "ann@new.example", "password": PASSWORD})
    assert asked == (302, "/accounts/profile/")
    ann.request("GET", "/accounts/profile/")
    assert "your address changes once you open it" in said(ann.page)
    assert "Your e-mail address</a>: ann@example.org" in ann.page  # not changed yet

    (link,) = links_mailed(server)[before:]
    assert Browser(server).submit(link, {}) == (302, "/accounts/login/")  # any browser
    ann.request("GET", "/accounts/profile/")
    assert "Your e-mail address</a>: ann@new.example" in ann.page


def test_on_daphne_a_taken_address_gets_the_same_answer_as_a_free_one(server):
    sign_up(server, "bea")
    cat = sign_up(server, "cat")
    before = len(links_mailed(server))
    free = cat.submit("/accounts/email/", {"email": "free@example.net", "password": PASSWORD})
    cat.request("GET", "/accounts/profile/")
    said_for_free = said(cat.page).replace("free@example.net", "ADDRESS")
    taken = cat.submit("/accounts/email/", {"email": "bea@example.org", "password": PASSWORD})
    cat.request("GET", "/accounts/profile/")
    assert taken == free == (302, "/accounts/profile/")
    assert said(cat.page).replace("bea@example.org", "ADDRESS") == said_for_free
    assert len(links_mailed(server)) == before + 1  # the free address's link; none to bea's
