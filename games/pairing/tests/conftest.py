"""Quick pairing's tests see the suite's shared fixtures through the root conftest.py; this one
comes from the web tests' folder. (Its browser test is with the others in tests/e2e/, so the
whole suite starts one browser-test site, not two.)"""

from tests.web.conftest import clock  # noqa: F401  (a fixture)
