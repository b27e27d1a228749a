"""kill -9 at random moments loses no acknowledged move and applies none twice."""

import pytest

from tests.harness import crash
from tests.system.conftest import in_thread

pytestmark = pytest.mark.slow


def test_killing_the_server_at_random_moments_loses_and_doubles_nothing():
    report = in_thread(crash.run, 20, 3, seed=7)
    assert report["trials"] == 20 and report["problems"] == []
