"""Shared test set-up: the scaled set-up's services are required in CI and optional elsewhere."""

import os

import pytest

IN_CI = bool(os.environ.get("CI"))


def pytest_collection_modifyitems(config, items):
    needs = {
        "postgres": ("H2H_DATABASE_URL", "PostgreSQL"),
        "redis": ("H2H_REDIS_URL", "Redis"),
    }
    for item in items:
        for marker, (variable, service) in needs.items():
            if marker in item.keywords and not os.environ.get(variable) and not IN_CI:
                item.add_marker(
                    pytest.mark.skip(reason=f"needs {service}: set {variable} (CI always does)")
                )
