"""A private CA and a serving certificate, made with `cryptography` on first start.

kubectl only sends bearer tokens over TLS, so even the loopback default needs a certificate;
the CA goes into the kubeconfig as `certificate-authority-data`.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import json
import os
from collections.abc import Callable
from pathlib import Path

from cryptography.exceptions import InvalidSignature

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

_CA_DAYS = 3650
_SERVING_DAYS = 825


def _write_private(path: Path, data: bytes) -> None:
    """Write a key readable by the owner only."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)


def _key_pem(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )


def _make_ca() -> tuple[ec.EllipticCurvePrivateKey, x509.Certificate]:
    """A self-signed P-256 CA that may sign only leaf certificates (path length 0)."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "syncpatch-ca")])
    now = dt.datetime.now(dt.timezone.utc)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=_CA_DAYS))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(False, False, False, False, False, True, True, False, False),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), False)
        .sign(key, hashes.SHA256())
    )
    return key, cert


def _san_entries(hosts: list[str]) -> list[x509.GeneralName]:
    entries: list[x509.GeneralName] = []
    for host in hosts:
        try:
            entries.append(x509.IPAddress(ipaddress.ip_address(host)))
        except ValueError:
            entries.append(x509.DNSName(host))
    return entries


def _make_serving(
    ca_key: ec.EllipticCurvePrivateKey, ca_cert: x509.Certificate, hosts: list[str]
) -> tuple[ec.EllipticCurvePrivateKey, x509.Certificate]:
    """A server-auth leaf for the given hosts (kubectl checks the SAN, not the CN)."""
    key = ec.generate_private_key(ec.SECP256R1())
    now = dt.datetime.now(dt.timezone.utc)
    cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "syncpatch")]))
        .issuer_name(ca_cert.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=_SERVING_DAYS))
        .add_extension(x509.SubjectAlternativeName(_san_entries(hosts)), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), False)
        .add_extension(
            x509.KeyUsage(True, False, False, False, False, False, False, False, False),
            critical=True,
        )
        # strict verifiers (CPython 3.13's default context, RFC 5280 4.2.1.1) require the AKI
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), False)
        .sign(ca_key, hashes.SHA256())
    )
    return key, cert


def serving_hosts(listen_host: str) -> list[str]:
    """Names the serving certificate covers: loopback always, plus the listen host."""
    hosts = ["127.0.0.1", "::1", "localhost"]
    if listen_host not in hosts and listen_host not in ("0.0.0.0", "::", ""):
        hosts.append(listen_host)
    return hosts


def _covers(cert_path: Path, hosts: list[str]) -> bool:
    cert = x509.load_pem_x509_certificate(cert_path.read_bytes())
    try:
        san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
        cert.extensions.get_extension_for_class(x509.AuthorityKeyIdentifier)  # older leaves lack it
    except x509.ExtensionNotFound:
        return False
    have = {str(v) for v in san.get_values_for_type(x509.IPAddress)}
    have |= set(san.get_values_for_type(x509.DNSName))
    expires = cert.not_valid_after_utc
    fresh = expires - dt.datetime.now(dt.timezone.utc) > dt.timedelta(days=30)
    return fresh and all(str(ipaddress.ip_address(h)) in have if _is_ip(h) else h in have
                         for h in hosts)


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


Shared = Callable[[str, Callable[[], str]], str]


def _pem_cert(cert: x509.Certificate) -> str:
    return cert.public_bytes(serialization.Encoding.PEM).decode()


def _bundle(key: ec.EllipticCurvePrivateKey, cert: x509.Certificate) -> str:
    return json.dumps({"cert": _pem_cert(cert), "key": _key_pem(key).decode()})


def _unbundle(text: str) -> tuple[ec.EllipticCurvePrivateKey, x509.Certificate]:
    data = json.loads(text)
    key = serialization.load_pem_private_key(data["key"].encode(), None)
    assert isinstance(key, ec.EllipticCurvePrivateKey)
    return key, x509.load_pem_x509_certificate(data["cert"].encode())


def _load_pair(crt: Path, key_path: Path) -> tuple[ec.EllipticCurvePrivateKey, x509.Certificate] | None:
    if not (crt.exists() and key_path.exists()):
        return None
    key = serialization.load_pem_private_key(key_path.read_bytes(), None)
    assert isinstance(key, ec.EllipticCurvePrivateKey)
    return key, x509.load_pem_x509_certificate(crt.read_bytes())


def _save_pair(crt: Path, key_path: Path, key: ec.EllipticCurvePrivateKey,
               cert: x509.Certificate) -> None:
    pem = _pem_cert(cert).encode()
    if not crt.exists() or crt.read_bytes() != pem:
        _write_private(key_path, _key_pem(key))
        crt.write_bytes(pem)


def ensure_certificates(data_dir: Path, listen_host: str,
                        shared: Shared | None = None) -> tuple[Path, Path, Path]:
    """Create (or reuse) the CA and a serving cert covering the listen host.

    Returns (ca.crt, tls.crt, tls.key). The CA is kept across restarts so existing
    kubeconfigs stay valid; the serving cert is re-issued when the host set changes.
    With `shared` (the store of replicas on one database), the CA and the serving identity
    come from the store, so a kubeconfig made by one replica works against every replica;
    the first replica offers what its --data already holds.
    """
    ca_crt, ca_key_path = data_dir / "ca.crt", data_dir / "ca.key"
    tls_crt, tls_key = data_dir / "tls.crt", data_dir / "tls.key"
    hosts = serving_hosts(listen_host)
    local_ca = _load_pair(ca_crt, ca_key_path)
    if shared is None:
        ca_key, ca_cert = local_ca or _make_ca()
    else:
        ca_key, ca_cert = _unbundle(shared("ca", lambda: _bundle(*(local_ca or _make_ca()))))
    _save_pair(ca_crt, ca_key_path, ca_key, ca_cert)

    def fresh_serving() -> tuple[ec.EllipticCurvePrivateKey, x509.Certificate]:
        local = _load_pair(tls_crt, tls_key)
        if local and local[1].issuer == ca_cert.subject and _covers(tls_crt, hosts) and \
                _signed_by(local[1], ca_cert):
            return local
        return _make_serving(ca_key, ca_cert, hosts)

    if shared is None:
        key, cert = fresh_serving()
    else:
        key, cert = _unbundle(shared("serving", lambda: _bundle(*fresh_serving())))
    _save_pair(tls_crt, tls_key, key, cert)
    if not (_covers(tls_crt, hosts) and _signed_by(cert, ca_cert)):
        key, cert = _make_serving(ca_key, ca_cert, hosts)  # this replica's own host
        _save_pair(tls_crt, tls_key, key, cert)
    return ca_crt, tls_crt, tls_key


def _signed_by(cert: x509.Certificate, ca: x509.Certificate) -> bool:
    try:
        cert.verify_directly_issued_by(ca)
    except (ValueError, TypeError, InvalidSignature):
        return False
    return True
