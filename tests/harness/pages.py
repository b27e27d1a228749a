"""A logged-in player's pages over plain HTTP, asked for as the browser asks for them."""

import http.client
import re

from tests.harness.server import Server


def get_page(connection: http.client.HTTPConnection, session_key: str, path: str = "/") -> None:
    """A GET of `path` on a kept-alive connection; raises unless 200."""
    connection.request("GET", path, headers={"Cookie": f"sessionid={session_key}"})
    response = connection.getresponse()
    response.read()
    if response.status != 200:
        raise RuntimeError(f"{path} answered {response.status}")


def request(server: Server, method: str, path: str, headers: dict, body: str = ""):
    """(status, headers, text) of one request on a connection of its own."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    connection.request(method, path, body=body, headers=headers)
    response = connection.getresponse()
    return response.status, response.headers, response.read().decode()


def delete_account(server: Server, sessionid: str, password: str) -> int:
    """The account's deletion page, then its form posted with the password: the status."""
    cookie = f"sessionid={sessionid}"
    _, headers, page = request(server, "GET", "/accounts/delete/", {"Cookie": cookie})
    csrf = re.search(r"csrftoken=([^;]+)", headers["Set-Cookie"]).group(1)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    form = {
        "Content-Type": "application/x-www-form-urlencoded",
        "Cookie": f"{cookie}; csrftoken={csrf}",
        "Origin": server.origin,
    }
    body = f"csrfmiddlewaretoken={token}&password={password}"
    return request(server, "POST", "/accounts/delete/", form, body)[0]
