"""The deployment kit (deploy/) stays whole: its environment example names every variable the
settings read, its timers run every scheduled command, and systemd accepts its units.
tests/system/test_nginx.py runs its nginx site and its daphne command for real."""

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
KIT = ROOT / "deploy"
SYSTEMD = KIT / "systemd"


def variables_read_by_the_settings() -> set[str]:
    return set(re.findall(r'"(H2H_[A-Z0-9_]+)"', (ROOT / "h2h_site/settings.py").read_text()))


def test_the_settings_read_variables_that_this_test_can_see():
    assert {"H2H_SECRET_KEY", "H2H_METRICS_ALLOW", "H2H_METRICS_TOKEN"} <= (
        variables_read_by_the_settings()
    )


def test_the_environment_example_lists_every_variable_the_settings_read():
    example = (KIT / "h2h.env.example").read_text()
    listed = set(re.findall(r"^#?(H2H_[A-Z0-9_]+)=", example, re.M))
    assert listed == variables_read_by_the_settings()


def test_the_deployment_guide_explains_every_variable():
    guide = (ROOT / "docs/deployment.md").read_text()
    assert {name for name in variables_read_by_the_settings() if f"`{name}`" not in guide} == set()


def scheduled_commands() -> set[str]:
    """The commands the timers start, through h2h-command@<command>.service."""
    units = [path.read_text() for path in SYSTEMD.glob("*.timer")]
    return {
        m for text in units for m in re.findall(r"^Unit=h2h-command@(\w+)\.service$", text, re.M)
    }


# Writes a file of the repository while the code is being changed: nothing a server runs.
DEVELOPMENT_COMMANDS = {"write_close_codes"}


def test_a_timer_runs_every_management_command_of_the_game_and_clearsessions():
    commands = {path.stem for path in (ROOT / "game/management/commands").glob("[!_]*.py")}
    assert scheduled_commands() == commands - DEVELOPMENT_COMMANDS | {"clearsessions"}


def test_the_server_unit_listens_on_loopback_only_with_a_deep_queue_and_small_messages():
    unit = (SYSTEMD / "h2h@.service").read_text()
    command = unit.replace("\\\n", " ")
    assert "--endpoint tcp:port=%i:interface=127.0.0.1:backlog=1024 " in command
    assert re.search(r"daphne .* --proxy-headers ", command)
    assert re.search(r"--websocket-max-message-size (\d+)", unit).group(1) == "4096"


def installed_units(folder: Path) -> list[Path]:
    """The kit's units with the checkout and the environment file of this machine."""
    copies = []
    for unit in SYSTEMD.iterdir():
        text = unit.read_text().replace("/srv/h2h", str(ROOT))
        copy = folder / unit.name
        copy.write_text(text.replace("/etc/h2h/h2h.env", os.devnull))
        copies.append(copy)
    return copies


def test_systemd_accepts_every_unit_of_the_kit(tmp_path):
    if not shutil.which("systemd-analyze"):
        if os.environ.get("CI"):
            pytest.fail("systemd-analyze is missing: CI must check the units")
        pytest.skip("needs systemd-analyze (Debian's systemd)")
    instances = {
        "h2h@.service": "h2h@8001.service",
        "h2h-command@.service": "h2h-command@audit_results.service",
    }
    names = [
        str(copy.with_name(instances.get(copy.name, copy.name)))
        for copy in installed_units(tmp_path)
    ]
    outcome = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", *names], capture_output=True, text=True
    )
    # verify exits 0 on most mistakes (a misspelt setting is "ignored"): every word counts.
    assert (outcome.returncode, outcome.stderr.strip(), outcome.stdout.strip()) == (0, "", "")
