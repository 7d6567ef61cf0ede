"""The shared fixtures are in tests/fixtures.py (a plugin of the root conftest.py, so the
features' own test folders see them too); the helpers tests import are named here as before."""

from tests.fixtures import client_for, needs_env, own_prefix

__all__ = ["client_for", "needs_env", "own_prefix"]
