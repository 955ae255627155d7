"""Back-off for password login, per user and per client address.

Every login attempt takes one token from the bucket of the username and one from the bucket
of the client address before the (deliberately slow) password hash runs; a success gives
them back. An empty bucket answers 429 with Retry-After at once, without hashing, so a
client guessing passwords gets a few tries and then one every few seconds, and a flood costs
the server almost nothing. Buckets live in the process (each replica counts its own).
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from . import errors as E


@dataclass(frozen=True)
class Rate:
    burst: float  # attempts allowed at once
    per_second: float  # attempts regained each second


USER_RATE = Rate(burst=5, per_second=0.2)  # 5 tries, then one every 5 s per username
ADDRESS_RATE = Rate(burst=20, per_second=1.0)  # 20 tries, then one a second per address
MAX_KEYS = 10_000  # buckets kept per kind; the least recently used go first


class _Buckets:
    def __init__(self, rate: Rate, clock: Callable[[], float]) -> None:
        self.rate, self.clock = rate, clock
        self.level: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def tokens(self, key: str) -> float:
        now = self.clock()
        tokens, since = self.level.get(key, (self.rate.burst, now))
        return min(self.rate.burst, tokens + (now - since) * self.rate.per_second)

    def set(self, key: str, tokens: float) -> None:
        self.level[key] = (tokens, self.clock())
        self.level.move_to_end(key)
        while len(self.level) > MAX_KEYS:
            self.level.popitem(last=False)

    def wait_for_one(self, tokens: float) -> int:
        return max(1, math.ceil((1 - tokens) / self.rate.per_second))


class LoginThrottle:
    def __init__(self, user_rate: Rate = USER_RATE, address_rate: Rate = ADDRESS_RATE,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._users = _Buckets(user_rate, clock)
        self._addresses = _Buckets(address_rate, clock)
        self._lock = threading.Lock()

    def acquire(self, user: str, address: str) -> None:
        """Take one attempt for this user and address, or raise 429 TooManyRequests."""
        user = user[:128]
        with self._lock:
            have_user, have_addr = self._users.tokens(user), self._addresses.tokens(address)
            if have_user < 1 or have_addr < 1:
                wait = max(self._users.wait_for_one(have_user) if have_user < 1 else 0,
                           self._addresses.wait_for_one(have_addr) if have_addr < 1 else 0)
                raise E.TooManyRequests(f"too many login attempts; try again in {wait} seconds",
                                        retry_after=wait)
            self._users.set(user, have_user - 1)
            self._addresses.set(address, have_addr - 1)

    def succeeded(self, user: str, address: str) -> None:
        """A correct password gives its attempt back."""
        user = user[:128]
        with self._lock:
            self._users.set(user, min(self._users.rate.burst, self._users.tokens(user) + 1))
            self._addresses.set(address, min(self._addresses.rate.burst,
                                             self._addresses.tokens(address) + 1))
