"""Published global token volumes: how many tokens a whole provider serves, dated and sourced.

Volumes are tokens per month as announced; `tokens_per_second` turns them into a rate with an
average Gregorian month (365.25 / 12 days = 30.44 days). These are company announcements, not
audited figures, and they count every token (input and output) across all products.

    v = traffic.get("google-2025-10")
    traffic.tokens_per_second(v)          # ~4.9e8 tok/s
"""
from __future__ import annotations

from dataclasses import dataclass

from ._registry import Source, lookup
from .units import DAY, check_positive

#: seconds in an average month (365.25 / 12 days)
SECONDS_PER_MONTH = 365.25 / 12 * DAY


@dataclass(frozen=True)
class TokenVolume:
    """One announced volume: `tokens_per_month` tokens (input + output) served by `provider`."""
    key: str
    provider: str
    as_of: str                 # when the volume was reached / announced (YYYY-MM)
    tokens_per_month: float
    source: Source
    notes: str = ""

    @property
    def tokens_per_second(self) -> float:
        """The volume as an average rate, tok/s."""
        return self.tokens_per_month / SECONDS_PER_MONTH


_D = "2026-11"
_DECODER = Source("https://the-decoder.com/google-boasts-1-3-quadrillion-tokens-each-month-but-the-figure-is-mostly-window-dressing",
                  _D, "S", "reports Google's 1.3 quadrillion/month (Oct 2025) and the earlier 480T and 980T")
_SMITH = Source("https://www.smithstephen.com/p/googles-gemini-likely-just-crossed", _D, "S",
                "collects Google's announced monthly token counts")

TOKEN_VOLUMES: list[TokenVolume] = [
    TokenVolume("google-2025-05", "Google", "2025-05", 480e12, _SMITH,
                "Google I/O 2025: 480 trillion tokens per month across products"),
    TokenVolume("google-2025-07", "Google", "2025-07", 980e12, _SMITH,
                "mid-2025 (Q2 earnings): 980 trillion tokens per month"),
    TokenVolume("google-2025-10", "Google", "2025-10", 1.3e15, _DECODER,
                "October 2025: 1.3 quadrillion tokens per month"),
]

REGISTRY: dict[str, TokenVolume] = {v.key: v for v in TOKEN_VOLUMES}


def get(key: str) -> TokenVolume:
    """A volume by key ('google-2025-10'); KeyError with close matches on a typo."""
    return lookup("token volume", key, REGISTRY)


def tokens_per_second(volume) -> float:
    """tok/s of a TokenVolume, a registry key, or a number of tokens per month."""
    if isinstance(volume, TokenVolume):
        return volume.tokens_per_second
    if isinstance(volume, str):
        return get(volume).tokens_per_second
    check_positive("volume (tokens per month)", volume)
    return float(volume) / SECONDS_PER_MONTH


__all__ = ["TokenVolume", "TOKEN_VOLUMES", "REGISTRY", "SECONDS_PER_MONTH", "get", "tokens_per_second"]
