"""Quick pairing's tests see the suite's shared fixtures through the root conftest.py; these
come from the web tests' and the browser tests' own folders."""

from tests.e2e.conftest import artifacts, browser, daphne_site  # noqa: F401  (fixtures)
from tests.web.conftest import clock  # noqa: F401  (a fixture)
