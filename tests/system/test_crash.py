"""kill -9 at random moments loses no acknowledged move and applies none twice."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]


def test_killing_the_server_at_random_moments_loses_and_doubles_nothing():
    # A process of its own: the harness runs its own event loop and kills its own servers.
    command = [
        sys.executable,
        "-m",
        "bench.crash",
        "--trials",
        "20",
        "--players",
        "3",
        "--seed",
        "7",
    ]
    outcome = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert outcome.returncode == 0, outcome.stderr
    report = json.loads(outcome.stdout.strip().splitlines()[-1])
    assert report["trials"] == 20 and report["problems"] == []
