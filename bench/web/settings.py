"""The settings of the sites bench-web starts: the site's own, with static files collected into
the set-up's temp folder (BENCH_WEB_STATIC_ROOT) instead of the checkout's staticfiles/, which
`make run` and tests running meanwhile read."""

import os
from pathlib import Path

from bakery_site.settings import *  # noqa: F403

STATIC_ROOT = Path(os.environ["BENCH_WEB_STATIC_ROOT"])
