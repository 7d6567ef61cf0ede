"""Where the site may send a browser's push: a push service on PUSH_SERVICE_HOSTS, over https on
port 443, and only to public addresses, whatever its name resolves to.

A subscription is whatever a page posts, so without this policy anyone signed in could aim the
site's requests (signed with its VAPID key) at the site's own network: a metadata service, a
database port, an admin page. The subscribe service and the sender (push_delivery.py) both
ask it: a subscription stored before a setting changed is judged again before every push.
"""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext
from django.utils.translation import gettext_noop as N_

LONGEST_ENDPOINT = 1000
"""Characters: an endpoint longer than this is no browser's."""

PUSH_PORT = 443

DNS_NAME = re.compile(r"^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$")
"""A host name as DNS spells it, ending in a name of letters (so never an IP address)."""

URL_TEXT = re.compile(r"^[!-~]+$")
"""Printable ASCII without spaces: an endpoint as a browser gives it, nothing for a parser to
read two ways."""

NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
"""IPv6 addresses a NAT64 gateway turns into the IPv4 address in their last 32 bits."""

NOT_A_SUBSCRIPTION = N_("That is not a push subscription.")
"""Marked here, said in the reader's language where it is handed out (gettext)."""


def listed(host: str) -> bool:
    """Whether the host is a push service's on PUSH_SERVICE_HOSTS (a name, or *.domain)."""
    host = host.lower()
    if not DNS_NAME.match(host):
        return False
    for entry in (entry.lower() for entry in settings.PUSH_SERVICE_HOSTS):
        if entry.startswith("*.") and host.endswith(entry[1:]):
            return True
        if host == entry:
            return True
    return False


def is_ip_literal(host: str) -> bool:
    """Whether the host is an IP address written out rather than a name."""
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def endpoint_refusal(endpoint: str) -> str | None:
    """Why the site will not push to this endpoint, in words for the person; None if it may."""
    if len(endpoint) > LONGEST_ENDPOINT or not URL_TEXT.match(endpoint) or "\\" in endpoint:
        return gettext(NOT_A_SUBSCRIPTION)
    try:
        parts = urlsplit(endpoint)
        port = parts.port
    except ValueError:
        return gettext(NOT_A_SUBSCRIPTION)
    if parts.scheme != "https":
        return gettext("A push subscription's address must start with https://.")
    if "@" in parts.netloc:
        return gettext("A push subscription's address may not carry a user name or password.")
    if port not in (None, PUSH_PORT):
        return gettext("A push subscription's address may not name a port other than 443.")
    host = parts.hostname or ""
    if not host:
        return gettext(NOT_A_SUBSCRIPTION)
    if is_ip_literal(host):
        return gettext("A push subscription's address must name a push service, not an IP address.")
    if not listed(host):
        return gettext(
            "This site sends notifications only to the push services browsers use, not %(host)s."
        ) % {"host": host}
    return None


def public_address(address: str) -> bool:
    """Whether a push may connect to this address: a public unicast one, never private,
    loopback, link-local, shared (100.64/10), reserved, multicast or unspecified; an IPv4
    address carried in IPv6 (mapped, 6to4, NAT64) is judged as itself."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address):
        inner = ip.ipv4_mapped or ip.sixtofour
        if inner is None and ip in NAT64:
            inner = ipaddress.IPv4Address(int(ip) & 0xFFFF_FFFF)
        if inner is not None:
            return public_address(str(inner))
    barred = (
        ip.is_private,
        ip.is_loopback,
        ip.is_link_local,
        ip.is_reserved,
        ip.is_multicast,
        ip.is_unspecified,
    )
    return ip.is_global and not any(barred)
