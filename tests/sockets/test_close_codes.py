"""The browser's close codes are the server's: static/socket/close-codes.js is generated from
game.sockets.base (manage.py write_close_codes), and must not drift from it."""

import io

from django.core.management import call_command

from game.management.commands import write_close_codes
from game.management.commands.write_close_codes import MODULE, close_codes_module
from game.sockets import base


def test_the_committed_module_is_what_the_generator_writes_from_the_servers_codes():
    assert MODULE.read_text() == close_codes_module(), "run: manage.py write_close_codes"


def test_every_close_code_of_the_server_is_exported_under_its_name():
    source = close_codes_module()
    assert f"export const LOGGED_OUT = {base.CLOSE_LOGGED_OUT};" in source
    assert f"export const LIVE_PAUSED = {base.CLOSE_LIVE_PAUSED};" in source
    assert source.count("export const ") == sum(name.startswith("CLOSE_") for name in vars(base))


def test_a_changed_code_changes_the_module_the_command_writes(monkeypatch, tmp_path):
    monkeypatch.setattr(base, "CLOSE_FLOODING", 4108)
    monkeypatch.setattr(write_close_codes, "MODULE", tmp_path / "close-codes.js")
    call_command("write_close_codes", stdout=io.StringIO())
    assert "export const FLOODING = 4108;" in (tmp_path / "close-codes.js").read_text()
