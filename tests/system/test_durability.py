"""SQLite runs in WAL mode with synchronous=NORMAL, or FULL when a deployment asks for it."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHOW = (
    "from django.db import connection; c = connection.cursor(); "
    "print(c.execute('PRAGMA journal_mode').fetchone()[0], "
    "c.execute('PRAGMA synchronous').fetchone()[0])"
)


def pragmas(tmp_path, **env) -> str:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("H2H_")}
    environment |= {"H2H_DEBUG": "1", "H2H_SQLITE_PATH": str(tmp_path / "db.sqlite3"), **env}
    command = [sys.executable, "manage.py", "shell", "-c", SHOW]
    output = subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, text=True)
    return output.stdout.strip().splitlines()[-1] if output.returncode == 0 else output.stderr


@pytest.mark.parametrize(
    ("setting", "shown"), [({}, "wal 1"), ({"H2H_SQLITE_SYNCHRONOUS": "full"}, "wal 2")]
)
def test_sqlite_is_wal_with_the_chosen_synchronous_level(tmp_path, setting, shown):
    assert pragmas(tmp_path, **setting) == shown


def test_any_other_synchronous_level_is_refused(tmp_path):
    assert "must be NORMAL or FULL" in pragmas(tmp_path, H2H_SQLITE_SYNCHRONOUS="OFF")
