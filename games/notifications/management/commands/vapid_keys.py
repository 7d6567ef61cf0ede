"""Make a VAPID key pair for Web Push, printed as the environment's two settings."""

from __future__ import annotations

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.management.base import BaseCommand
from py_vapid.utils import b64urlencode


def key_pair() -> tuple[str, str]:
    """A fresh P-256 key pair: the private number and the public point, base64url, as
    pywebpush and the browsers' applicationServerKey take them."""
    private = ec.generate_private_key(ec.SECP256R1())
    secret = private.private_numbers().private_value.to_bytes(32, "big")
    point = private.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return str(b64urlencode(secret)), str(b64urlencode(point))


class Command(BaseCommand):
    help = "Make a VAPID key pair for Web Push; put both lines in the site's environment."

    def handle(self, *args: object, **options: object) -> None:
        private, public = key_pair()
        self.stdout.write(f"VAPID_PRIVATE_KEY={private}")
        self.stdout.write(f"VAPID_PUBLIC_KEY={public}")
