"""A private CA and a serving certificate, made with `cryptography` on first start.

kubectl only sends bearer tokens over TLS, so even the loopback default needs a certificate;
the CA goes into the kubeconfig as `certificate-authority-data`.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import os
from pathlib import Path

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


def ensure_certificates(data_dir: Path, listen_host: str) -> tuple[Path, Path, Path]:
    """Create (or reuse) the CA and a serving cert covering the listen host.

    Returns (ca.crt, tls.crt, tls.key). The CA is kept across restarts so existing
    kubeconfigs stay valid; the serving cert is re-issued when the host set changes.
    """
    ca_crt, ca_key_path = data_dir / "ca.crt", data_dir / "ca.key"
    tls_crt, tls_key = data_dir / "tls.crt", data_dir / "tls.key"
    if ca_crt.exists() and ca_key_path.exists():
        ca_cert = x509.load_pem_x509_certificate(ca_crt.read_bytes())
        loaded = serialization.load_pem_private_key(ca_key_path.read_bytes(), None)
        assert isinstance(loaded, ec.EllipticCurvePrivateKey)
        ca_key = loaded
    else:
        ca_key, ca_cert = _make_ca()
        _write_private(ca_key_path, _key_pem(ca_key))
        ca_crt.write_bytes(ca_cert.public_bytes(serialization.Encoding.PEM))
    hosts = serving_hosts(listen_host)
    if not (tls_crt.exists() and tls_key.exists() and _covers(tls_crt, hosts)):
        key, cert = _make_serving(ca_key, ca_cert, hosts)
        _write_private(tls_key, _key_pem(key))
        tls_crt.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    return ca_crt, tls_crt, tls_key
