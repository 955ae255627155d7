"""Value formats of the platform config: durations, quantities, names, windows, data sources.

Each check returns `None` when the value is fine or a message saying why it is not, so the
same rules serve pydantic field validators and the cross-field passes.
"""

from __future__ import annotations

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


def check_data_source(value: str, *, password_optional: bool = False) -> str | None:
    """The documented form; the password may be left out when tokens replace it."""
    form = "<scheme>://<user>:<password>@<host>:<port>/<db>"
    parts = split_data_source(value)
    if parts is None:
        return f"invalid data source: expected the form {form}"
    if not parts["user"]:
        return f"invalid data source: the user is missing; expected the form {form}"
    if parts["password"] is None and not password_optional:
        return f"invalid data source: the password is missing; expected the form {form}"
    if not 0 < int(parts["port"] or "0") < 65536:
        return "invalid data source: the port must be between 1 and 65535"
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
