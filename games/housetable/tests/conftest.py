"""The house table's tests see the suite's shared fixtures through the root conftest.py; the
clock comes from the web tests' folder."""

from tests.web.conftest import clock  # noqa: F401  (a fixture)
