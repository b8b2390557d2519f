"""The frozen clock: relative dates ("tomorrow", "next Friday") resolve the same way on every run."""

from __future__ import annotations

import datetime as dt

__all__ = ["DEFAULT_NOW", "FrozenClock"]

DEFAULT_NOW = dt.datetime(2025, 6, 13, 12, 0)
"""The frozen clock's default "now": Friday 13 June 2025, noon (naive local time)."""


class FrozenClock:
    """A clock for :class:`~fsmdial.runtime.Dialogue` that returns a fixed time until told otherwise.

    Relative dates ("tomorrow", "next Friday") then resolve the same way on every run.
    """

    def __init__(self, now: dt.datetime | str = DEFAULT_NOW):
        self.now = _as_datetime(now)

    def __call__(self) -> dt.datetime:
        return self.now

    def set(self, now: dt.datetime | dt.date | str) -> dt.datetime:
        """Freeze at ``now`` (a datetime, a date meaning its midnight, or an ISO string)."""
        self.now = _as_datetime(now)
        return self.now

    def advance(self, delta: dt.timedelta | None = None, **units: float) -> dt.datetime:
        """Move forward by ``delta`` or by ``timedelta`` keyword units (``days=1``, ``minutes=30``)."""
        self.now += (delta or dt.timedelta()) + dt.timedelta(**units)
        return self.now

    def __repr__(self) -> str:
        return f"FrozenClock({self.now.isoformat()})"


def _as_datetime(value: dt.datetime | dt.date | str) -> dt.datetime:
    if isinstance(value, str):
        return dt.datetime.fromisoformat(value)
    if isinstance(value, dt.datetime):
        return value
    if isinstance(value, dt.date):
        return dt.datetime.combine(value, dt.time())
    raise TypeError(f"expected a datetime, a date or an ISO string, not {type(value).__name__}")
