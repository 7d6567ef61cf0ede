"""Static file storages whose URLs are worked out once per process.

A board names the same card art and ingredient tokens in every region it renders ({% static %}),
hundreds of times a second under load; each URL costs a manifest lookup and a URL join. The
files do not change while the process runs (collectstatic comes before a start), so each URL is
kept after its first use.
"""

from __future__ import annotations

from typing import Any

from django.contrib.staticfiles.storage import StaticFilesStorage
from whitenoise.storage import CompressedManifestStaticFilesStorage


class CachedUrls:
    """Keeps each static file's URL after it was first asked for."""

    def url(self, name: Any, *args: Any) -> str:
        key = (name, *args)  # the manifest's storage also takes `force`
        urls: dict[tuple[Any, ...], str] = self.__dict__.setdefault("_urls", {})
        if key not in urls:
            urls[key] = super().url(name, *args)  # type: ignore[misc]
        return urls[key]


class CachedManifestStorage(CachedUrls, CompressedManifestStaticFilesStorage):  # type: ignore[misc]  # WhiteNoise: no stubs
    """WhiteNoise's compressed, hashed files (production), URLs kept."""


class CachedStaticFilesStorage(CachedUrls, StaticFilesStorage):
    """Plain files from the finders (DEBUG and tests), URLs kept."""
