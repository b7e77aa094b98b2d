"""Published global token volumes: how many tokens a whole provider serves, dated and sourced.

Volumes are tokens per month as announced; `tokens_per_second` turns them into a rate with an
average Gregorian month (365.25 / 12 days = 30.44 days). These are company announcements, not
audited figures, and they count every token (input and output) across all products.
The figures are in data/traffic.toml, each with its source (url, date checked, quality flag).

    v = traffic.get("google-2025-10")
    traffic.tokens_per_second(v)          # ~4.9e8 tok/s
"""
from __future__ import annotations

from dataclasses import dataclass

from ._registry import DATA, Field, Source, build, load_file, lookup
from .units import YEAR, check_positive

#: seconds in an average month (365.25 / 12 days)
SECONDS_PER_MONTH = YEAR / 12


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


# --- the registry: read from data/traffic.toml ----------------------------------------------------
_FIELDS = {
    "key": Field("text", required=True),
    "provider": Field("text", required=True),
    "as_of": Field("date", required=True),
    "tokens_per_month": Field("number", required=True),
    "source": Field("source", required=True),
    "notes": Field("text"),
}


def load(path=DATA / "traffic.toml") -> list[TokenVolume]:
    """Read and check a token-volume file: [TokenVolume], in file order.

    Raises RegistryError (a ValueError) naming the file, the row and the field of the first bad row.
    """
    rows = load_file(path, {"volumes": _FIELDS}, key={"volumes": ("key",)})["volumes"]
    return [build(path, label, TokenVolume, row) for label, row in rows]


TOKEN_VOLUMES: list[TokenVolume] = load()
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
