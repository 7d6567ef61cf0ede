"""The suite's shared fixtures (tests/conftest.py), for the tests that live beside the code."""

from tests.conftest import (  # noqa: F401  (fixtures, found by name)
    _bots_inline,
    _database_pools_closed_last,
    _fast_passwords,
    _fresh_table_caches,
    _own_channel_prefix,
    _presence_quiet,
    django_db_modify_db_settings,
    make_user,
    open_table,
    outsider,
    player,
    rival,
    running_game,
)
from tests.e2e.conftest import artifacts, browser, daphne_site  # noqa: F401
from tests.web.conftest import clock  # noqa: F401
