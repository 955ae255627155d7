"""Value formats of the platform config: durations, quantities, names, windows, data sources.

Each check returns `None` when the value is fine or a message saying why it is not, so the
same rules serve pydantic field validators and the cross-field passes.
"""

from __future__ import annotations

import binascii
import re
from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from typing import Annotated, Any

from pydantic import AfterValidator, BeforeValidator, PlainSerializer
from pydantic_core import PydanticCustomError

Check = Callable[[str], str | None]

_GO_DURATION = re.compile(r"[-+]?(?:(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+\Z")
_GO_UNIT = re.compile(r"(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)")
_GO_SECONDS = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "μs": 1e-6, "ms": 1e-3, "s": 1, "m": 60, "h": 3600}
_PROM_DURATION = re.compile(r"(?:\d+y)?(?:\d+w)?(?:\d+d)?(?:\d+h)?(?:\d+m)?(?:\d+s)?(?:\d+ms)?\Z")
_TIME_WINDOW = re.compile(r"([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-3]):([0-5]\d)\Z")
DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_LABEL = r"[a-z0-9](?:[-a-z0-9]*[a-z0-9])?"
_DNS_LABEL = re.compile(_LABEL + r"\Z")
_DNS_SUBDOMAIN = re.compile(rf"{_LABEL}(?:\.{_LABEL})*\Z")
_QUALIFIED_PART = re.compile(r"(?:[A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\Z")
_QUANTITY = re.compile(r"([+-]?(?:\d+(?:\.\d*)?|\.\d+))(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?\d+)?\Z")
_SUFFIX = {
    "": Decimal(1), "n": Decimal("1e-9"), "u": Decimal("1e-6"), "m": Decimal("1e-3"),
    "k": Decimal("1e3"), "M": Decimal("1e6"), "G": Decimal("1e9"), "T": Decimal("1e12"),
    "P": Decimal("1e15"), "E": Decimal("1e18"), "Ki": Decimal(2**10), "Mi": Decimal(2**20),
    "Gi": Decimal(2**30), "Ti": Decimal(2**40), "Pi": Decimal(2**50), "Ei": Decimal(2**60),
}
DATA_SOURCE = re.compile(
    r"(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*)://(?:(?P<user>[^:@/]+)(?::(?P<password>.*))?@)?"
    r"(?P<host>\[[0-9A-Fa-f:.]+\]|[^:/@\[\]]+):(?P<port>\d+)/(?P<db>[^?/]+)(?:\?.*)?\Z",
    re.DOTALL,
)


def go_duration_seconds(value: str) -> float | None:
    """Seconds of a Go `time.ParseDuration` string (`1m`, `1h30m`, `0`), or None if malformed."""
    if value in ("0", "+0", "-0"):
        return 0.0
    if not _GO_DURATION.match(value):
        return None
    total = sum(float(num) * _GO_SECONDS[unit] for num, unit in _GO_UNIT.findall(value))
    return -total if value.startswith("-") else total


def check_interval(value: str) -> str | None:
    """A positive Go duration, as the secret store's `syncInterval` is a polling period."""
    seconds = go_duration_seconds(value)
    if seconds is None:
        return f"invalid duration {value!r}: use Go duration syntax such as 30s, 1m or 1h30m"
    if seconds <= 0:
        return f"duration {value!r} must be positive"
    return None


def check_retention(value: str) -> str | None:
    """A Prometheus-style duration (`1y`, `4w`, `90d`, `12h`): units descend, integers only."""
    if value == "0" or (value and _PROM_DURATION.match(value)):
        return None
    return f"invalid duration {value!r}: use units y, w, d, h, m, s, ms in that order, such as 1y or 30d"


def check_time_window(value: str) -> str | None:
    """`HH:MM-HH:MM`, 24-hour clock (UTC)."""
    if _TIME_WINDOW.match(value):
        return None
    return f"invalid time window {value!r}: expected HH:MM-HH:MM on a 24-hour clock, such as 02:00-04:00"


def check_day_of_week(value: str) -> str | None:
    """A full English day name; case is ignored, as users write `monday` as often as `Monday`."""
    if value.capitalize() in DAYS:
        return None
    return f"invalid day {value!r}: expected one of {', '.join(DAYS)}"


def check_dns_label(value: str) -> str | None:
    """RFC 1123 label, as Kubernetes requires for namespaces."""
    if len(value) > 63:
        return "must be no more than 63 characters"
    if not _DNS_LABEL.match(value):
        return (f"invalid DNS label {value!r}: lowercase letters, digits and '-', "
                "starting and ending with a letter or digit")
    return None


def check_dns_subdomain(value: str) -> str | None:
    """RFC 1123 subdomain, as Kubernetes requires for most object names."""
    if len(value) > 253:
        return "must be no more than 253 characters"
    if not _DNS_SUBDOMAIN.match(value):
        return (f"invalid DNS subdomain {value!r}: lowercase letters, digits, '-' and '.', "
                "starting and ending with a letter or digit")
    return None


def check_qualified_name(value: str) -> str | None:
    """Kubernetes qualified name: optional DNS-subdomain prefix and `/`, then a 63-char name."""
    prefix, slash, name = value.rpartition("/")
    if slash and not prefix:
        return f"invalid qualified name {value!r}: prefix before '/' must not be empty"
    if prefix and (problem := check_dns_subdomain(prefix)):
        return f"invalid qualified name {value!r}: prefix: {problem}"
    if not name or len(name) > 63 or not _QUALIFIED_PART.match(name):
        return (f"invalid qualified name {value!r}: the name part must be 1-63 characters of "
                "letters, digits, '-', '_' or '.', starting and ending with a letter or digit")
    return None


def check_label_value(value: str) -> str | None:
    """Label values are empty or a 63-character name part."""
    if value == "" or (len(value) <= 63 and _QUALIFIED_PART.match(value)):
        return None
    return (f"invalid label value {value!r}: at most 63 characters of letters, digits, '-', '_' "
            "or '.', starting and ending with a letter or digit")


def parse_quantity(value: str) -> Decimal | None:
    """Kubernetes resource quantity (`500m`, `1Gi`, `2`, `1e3`) as a Decimal, None if malformed."""
    match = _QUANTITY.match(value)
    if match is None:
        return None
    number, suffix = match.group(1), match.group(2) or ""
    try:
        if suffix[:1] in ("e", "E"):
            return Decimal(number) * Decimal(10) ** int(suffix[1:])
        return Decimal(number) * _SUFFIX[suffix]
    except (InvalidOperation, ValueError, OverflowError):
        return None


def check_quantity(value: str) -> str | None:
    """A parseable resource quantity."""
    if parse_quantity(value) is None:
        return f"invalid quantity {value!r}: expected a number with an optional suffix such as 500m, 2 or 1Gi"
    return None


def split_data_source(value: str) -> dict[str, str | None] | None:
    """Parts of `<scheme>://<user>:<password>@<host>:<port>/<db>`, None when it has another form."""
    match = DATA_SOURCE.match(value)
    return match.groupdict() if match else None


KINE_SCHEMES = ("postgres", "postgresql", "mysql", "sqlite", "nats", "http", "https")
_SCHEME = re.compile(r"(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*)://(?P<rest>.*)\Z", re.DOTALL)
_MYSQL_ADDRESS = re.compile(r"(?:[a-z]+(?:\((?P<addr>[^)]*)\))?|(?P<hostport>[^()]*))\Z")
_DATA_SOURCE_FORMS = ("postgres://<user>:<password>@<host>[:<port>][/<db>][?params], "
                      "mysql://<user>:<password>@tcp(<host>:<port>)/<db>, or sqlite://<path>")


def _query(text: str) -> dict[str, str]:
    """`a=1&b=2` as a dict (the first value of a repeated key wins, as Go's Get does)."""
    out: dict[str, str] = {}
    for pair in text.split("&"):
        key, _, value = pair.partition("=")
        if key:
            out.setdefault(key, value)
    return out


def _split_dsn(rest: str) -> tuple[str | None, str | None, str, str]:
    """(user, password, address, query) of what follows `scheme://`; the last `@` before
    the query ends the credentials, so passwords may hold `@` and `:`."""
    body, _, query = rest.partition("?")
    user = password = None
    if "@" in body:
        info, _, body = body.rpartition("@")
        user, sep, pw = info.partition(":")
        password = pw if sep else None
    address = body.split("/", 1)[0]
    return user, password, address, query


def _port_problem(hostport: str) -> str | None:
    """A port, when one is given (`host:5432`, `[::1]:5432`), must be 1-65535."""
    if hostport.startswith("["):
        _, _, tail = hostport.partition("]")
        port = tail[1:] if tail.startswith(":") else None
    else:
        port = hostport.rpartition(":")[2] if ":" in hostport else None
    if port is not None and (not port.isdigit() or not 0 < int(port) < 65536):
        return "invalid data source: the port must be between 1 and 65535"
    return None


def check_data_source(value: str, *, password_optional: bool = False) -> str | None:
    """A data source kine accepts: a PostgreSQL URL (the port and database may be left out;
    `user` and `password` may be query parameters), a Go MySQL DSN
    (`user:pass@tcp(host:3306)/db`), or `sqlite://...`; the password may be left out when an
    identity provider issues tokens."""
    scheme_match = _SCHEME.match(value)
    if scheme_match is None:
        return f"invalid data source: expected {_DATA_SOURCE_FORMS}"
    scheme, rest = scheme_match.group("scheme").lower(), scheme_match.group("rest")
    if scheme not in KINE_SCHEMES:
        return (f"invalid data source: unsupported scheme {scheme!r}: expected one of "
                f"{', '.join(KINE_SCHEMES)}")
    if scheme not in ("postgres", "postgresql", "mysql"):
        return None  # sqlite paths, NATS and etcd (http/https) endpoints: no credentials to check
    user, password, address, query_text = _split_dsn(rest)
    if scheme == "mysql":
        shape = _MYSQL_ADDRESS.match(address)
        if shape is None or "/" not in rest.partition("?")[0].rpartition("@")[2]:
            return "invalid data source: expected the form mysql://<user>:<password>@tcp(<host>:<port>)/<db>"
        hostport = shape.group("addr") or shape.group("hostport") or ""
    else:
        hostport = address
    problem = _port_problem(hostport)
    if problem:
        return problem
    query = _query(query_text)
    user = user or query.get("user")
    password = password if password is not None else query.get("password")
    form = f"{scheme}://<user>:<password>@... (or user= and password= query parameters)"
    if not user:
        return f"invalid data source: the user is missing; expected {form}"
    if password is None and not password_optional:
        return f"invalid data source: the password is missing; expected {form}"
    return None


_STD_BASE64 = re.compile(r"(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?\Z")


def base64_bytes(value: str) -> bytes | None:
    """The bytes of standard, padded base64 (line breaks ignored, as Go ignores them), or
    None when `value` is not exactly that."""
    text = value.replace("\r", "").replace("\n", "")
    if not _STD_BASE64.match(text):
        return None
    return binascii.a2b_base64(text.encode("ascii"))


def check_base64(value: str) -> str | None:
    """Standard base64 with padding, as Go decodes a `[]byte` field from JSON; line breaks
    are ignored, as Go's decoder ignores them."""
    if base64_bytes(value) is None:
        return ("invalid base64: expected standard base64 with padding, such as the output "
                "of `base64 -w0 ca.crt`")
    return None


def check_storage_class(value: str) -> str | None:
    """`-` or empty disables provisioning; anything else must name a StorageClass object."""
    if value in ("", "-"):
        return None
    problem = check_dns_subdomain(value)
    return f"invalid storage class name: {problem}" if problem else None


def validator(check: Check) -> AfterValidator:
    """Turn a check into a pydantic validator whose message reaches the user verbatim."""

    def run(value: str) -> str:
        problem = check(value)
        if problem is not None:
            raise PydanticCustomError("syncpatch", "{reason}", {"reason": problem})
        return value

    return AfterValidator(run)


def _number_to_text(value: Any) -> Any:
    """YAML reads `cpu: 2` as a number; Kubernetes accepts numeric quantities, so keep text."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    return value


Interval = Annotated[str, validator(check_interval)]
Retention = Annotated[str, validator(check_retention)]
TimeWindow = Annotated[str, validator(check_time_window)]
DayOfWeek = Annotated[str, validator(check_day_of_week)]
StorageClass = Annotated[str, validator(check_storage_class)]
Quantity = Annotated[str, BeforeValidator(_number_to_text), validator(check_quantity)]


def _plain_number(value: float) -> int | float:
    """`73` stays `73` on the wire rather than becoming `73.0`."""
    return int(value) if value.is_integer() else value


Number = Annotated[float, PlainSerializer(_plain_number, return_type=int | float)]
