"""Web Push's network for tests, all on loopback: push services that are HTTPS servers on
127.0.0.1 (they take a push, answer a status, redirect, or hold the connection dripping a byte
at a time), bare listeners that only count who connects, a name lookup that answers a test name
with whatever address the test says, a certificate authority the sender trusts for the test
(SSL_CERT_FILE, REQUESTS_CA_BUNDLE), and a guard that refuses, and records, any connection off
loopback. Fixtures in this folder's conftest.py put them together (push_net)."""

from __future__ import annotations

import contextlib
import datetime
import errno
import ipaddress
import socket
import ssl
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

WAIT = 30.0
"""Seconds a test waits on a state before it fails (a bound, never a pause)."""

TEST_DOMAIN = "example.net"
"""Push services of the tests are named under it (the certificate covers *.example.net)."""


def certificate_authority(folder: Path) -> tuple[Path, Path, Path]:
    """A test CA and a server certificate for *.example.net: (ca.pem, server.pem, server.key)."""
    now = datetime.datetime.now(datetime.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Bakehouse test CA")])
    ca = (
        x509.CertificateBuilder()
        .subject_name(ca_name)
        .issuer_name(ca_name)
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=False,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=True,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), False)
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    server = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, f"*.{TEST_DOMAIN}")]))
        .issuer_name(ca_name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(f"*.{TEST_DOMAIN}")]), False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), False
        )
        .sign(ca_key, hashes.SHA256())
    )
    paths = folder / "ca.pem", folder / "server.pem", folder / "server.key"
    paths[0].write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    paths[1].write_bytes(server.public_bytes(serialization.Encoding.PEM))
    paths[2].write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return paths


def read_head(stream: Any) -> tuple[str, dict[str, str]] | None:
    """The request line and headers (lower-case names) of an HTTP request, or None at the end."""
    line = stream.readline()
    if not line:
        return None
    headers = {}
    while (header := stream.readline()) not in (b"\r\n", b"\n", b""):
        name, _, value = header.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()
    return line.decode("latin-1").strip(), headers


class PushService:
    """A push service on 127.0.0.1 over TLS: records each POST and answers `status` (with
    `location`, a redirect), or with `drip` holds the connection sending a byte every `drip`
    seconds until the client hangs up (hung_up) or the test lets go (let_go). `first` answers
    the first POSTs instead, in order: each a status and a Retry-After ("" for none)."""

    def __init__(
        self,
        context: ssl.SSLContext,
        status: int = 201,
        location: str = "",
        drip: float = 0.0,
        first: tuple[tuple[int, str], ...] = (),
    ) -> None:
        self.context, self.status, self.location, self.drip = context, status, location, drip
        self.first = list(first)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.received: list[dict[str, Any]] = []
        self.connections = 0
        self.took = threading.Event()  # a push came
        self.holding = threading.Event()  # a push came and the drip began
        self.hung_up = threading.Event()  # the client closed a connection the drip still held
        self.let_go = threading.Event()
        self.threads: list[threading.Thread] = []
        self.start(self.accept)

    def start(self, work: Callable[..., None], *args: Any) -> None:
        thread = threading.Thread(target=work, args=args, daemon=True)
        thread.start()
        self.threads.append(thread)

    def accept(self) -> None:
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:  # closed
                return
            self.connections += 1
            self.start(self.serve, conn)

    def serve(self, conn: socket.socket) -> None:
        try:
            with self.context.wrap_socket(conn, server_side=True) as tls:
                stream = tls.makefile("rb")
                head = read_head(stream)
                if head is None:
                    return
                line, headers = head
                body = stream.read(int(headers.get("content-length", "0")))
                self.received.append({"line": line, "headers": headers, "body": body})
                self.took.set()
                if self.drip:
                    self.hold(tls)
                else:
                    self.answer(tls)
        except (OSError, ssl.SSLError):
            pass

    def answer(self, tls: ssl.SSLSocket) -> None:
        status, wait = self.first.pop(0) if self.first else (self.status, "")
        location = f"Location: {self.location}\r\n" if self.location else ""
        location += f"Retry-After: {wait}\r\n" if wait else ""
        tls.sendall(
            f"HTTP/1.1 {status} Stand-in\r\n{location}"
            "Content-Length: 0\r\nConnection: close\r\n\r\n".encode()
        )

    def hold(self, tls: ssl.SSLSocket) -> None:
        """Answer one byte at a time, each well within any per-read timeout, never ending."""
        self.holding.set()
        drops = iter(b"HTTP/1.1 200 OK\r\nX-Drip: " + b"a" * 100_000)
        while not self.let_go.wait(self.drip):
            try:
                tls.sendall(bytes([next(drops)]))
            except OSError:
                self.hung_up.set()
                return

    def close(self) -> None:
        self.let_go.set()
        # A shutdown wakes the thread blocked in accept(), which a close alone leaves waiting.
        with contextlib.suppress(OSError):
            self.listener.shutdown(socket.SHUT_RDWR)
        self.listener.close()
        for thread in self.threads:
            thread.join(WAIT)


class Listener:
    """A TCP port that never answers: it only counts the connections made to it."""

    def __init__(self, address: str) -> None:
        family = socket.AF_INET6 if ":" in address else socket.AF_INET
        self.socket = socket.create_server((address, 0), family=family)
        self.socket.setblocking(False)
        self.port = self.socket.getsockname()[1]
        self.accepted: list[socket.socket] = []

    def connections(self) -> int:
        """How many connected so far (the kernel completed them whether or not we accept)."""
        while True:
            try:
                conn, _ = self.socket.accept()
            except BlockingIOError:
                return len(self.accepted)
            self.accepted.append(conn)

    def close(self) -> None:
        for conn in self.accepted:
            conn.close()
        self.socket.close()


class NameLookup:
    """socket.getaddrinfo as the test's DNS: names it was told answer the address (and the
    port of the stand-in listening there); any other name is looked up as usual."""

    def __init__(self, real: Callable[..., Any]) -> None:
        self.real = real
        self.names: dict[str, tuple[str, int]] = {}
        self.later: dict[str, tuple[str, int]] = {}  # what a name answers from its second lookup
        self.asked: list[str] = []

    def __call__(self, host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        name = host.decode() if isinstance(host, bytes) else host
        if name not in self.names:
            return self.real(host, port, *args, **kwargs)
        first = name not in self.asked
        self.asked.append(name)
        address, real_port = self.names[name] if first else self.later.get(name, self.names[name])
        if ":" in address:
            return [(socket.AF_INET6, socket.SOCK_STREAM, 6, "", (address, real_port, 0, 0))]
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, real_port))]


class LoopbackOnly:
    """socket.connect for the tests: a connection anywhere but loopback is refused, and
    recorded (so a test proves the site never tried, even before a fix)."""

    def __init__(self) -> None:
        self.refused: list[str] = []

    def allowed(self, address: Any) -> bool:
        if not isinstance(address, tuple):
            return True  # a Unix socket
        host = str(address[0]).split("%", 1)[0]
        try:
            return ipaddress.ip_address(host).is_loopback
        except ValueError:
            return host == "localhost"

    def guarding(self, real: Callable[..., Any]) -> Callable[..., Any]:
        """socket.socket's connect (or connect_ex), refusing what is not loopback."""

        def connect(sock: socket.socket, address: Any) -> Any:
            if not self.allowed(address):
                self.refused.append(str(address[0]))
                raise OSError(errno.ENETUNREACH, f"the tests connect only to loopback: {address}")
            return real(sock, address)

        return connect


class PushNet:
    """The tests' network for pushes: push services and listeners behind test names."""

    def __init__(self, folder: Path, lookup: NameLookup, guard: LoopbackOnly) -> None:
        self.ca, cert, key = certificate_authority(folder)
        self.context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        self.context.load_cert_chain(cert, key)
        self.lookup, self.guard = lookup, guard
        self.services: list[PushService] = []
        self.listeners: list[Listener] = []

    def service(self, name: str, **answer: Any) -> PushService:
        """A push service on loopback that `name` (under example.net) resolves to."""
        service = PushService(self.context, **answer)
        self.lookup.names[name] = ("127.0.0.1", service.port)
        self.services.append(service)
        return service

    def listener(self, name: str, address: str) -> Listener:
        """A name that resolves to this address, and a listener on loopback counting who
        connects there (off loopback, where none can listen, the guard records any try)."""
        loopback = ipaddress.ip_address(address).is_loopback
        listener = Listener(address if loopback else "127.0.0.1")
        self.lookup.names[name] = (address, listener.port if loopback else 443)
        self.listeners.append(listener)
        return listener

    def close(self) -> None:
        for service in self.services:
            service.close()
        for listener in self.listeners:
            listener.close()
