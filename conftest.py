"""Every test folder's fixtures (tests/ and the features' games/<feature>/tests/): the shared
ones live in tests/fixtures.py."""

pytest_plugins = ["tests.fixtures"]
