"""API price snapshots, USD per million tokens, each dated and sourced.

Prices drift: every entry is a snapshot with the date it was checked, never "the current price".
Long-context steps: above `long_context_threshold` prompt tokens the whole request is billed at
`input_long` / `output_long`. Cache prices: `cache_read` (a hit), `cache_write_5m`, `cache_write_1h`.

The figures are in data/prices.toml: one labelled row per (model, tier), each with its source (url,
date checked, quality flag). `load` reads and checks that file.

    p = prices.get("claude-opus-4.6", tier="fast")
    p.output / prices.get("claude-opus-4.6").output    # 6.0
"""
from __future__ import annotations

from dataclasses import dataclass

from ._registry import DATA, Field, Source, build, load_file, lookup

PER_MILLION = 1e6   # prices are quoted per 1e6 tokens


@dataclass(frozen=True)
class Price:
    """One model's list price in one tier ('standard', 'fast', 'priority'), $ per million tokens."""
    provider: str
    model: str
    tier: str
    input: float
    output: float
    source: Source
    cache_read: float | None = None
    cache_write_5m: float | None = None
    cache_write_1h: float | None = None
    long_context_threshold: int | None = None     # prompt tokens
    input_long: float | None = None
    output_long: float | None = None
    speedup: float | None = None          # claimed output tokens/s vs the standard tier ("up to")
    notes: str = ""

    @property
    def key(self) -> str:
        return self.model if self.tier == "standard" else f"{self.model}:{self.tier}"

    def per_token(self, kind: str = "output", prompt_tokens: int = 0) -> float:
        """Dollars per token of `kind` ('input', 'output', 'cache_read', ...) at this prompt length."""
        long = self.long_context_threshold is not None and prompt_tokens > self.long_context_threshold
        if long and kind in ("input", "output"):
            value = self.input_long if kind == "input" else self.output_long
        else:
            value = getattr(self, kind, None) if kind in _KINDS else None
            if kind not in _KINDS:
                raise ValueError(f"kind must be one of {_KINDS}, got {kind!r}")
        if value is None:
            raise ValueError(f"{self.key} has no published {kind} price")
        return value / PER_MILLION


_KINDS = ("input", "output", "cache_read", "cache_write_5m", "cache_write_1h")
TIERS = ("standard", "fast", "priority")

# --- the registry: read from data/prices.toml -----------------------------------------------------
_FIELDS = {
    "provider": Field("text", required=True),
    "model": Field("text", required=True),
    "tier": Field("text", required=True, choices=TIERS),
    "input": Field("number", required=True),
    "output": Field("number", required=True),
    "source": Field("source", required=True),
    "cache_read": Field("number"),
    "cache_write_5m": Field("number"),
    "cache_write_1h": Field("number"),
    "long_context_threshold": Field("count"),
    "input_long": Field("number"),
    "output_long": Field("number"),
    "speedup": Field("number"),
    "notes": Field("text"),
}


def load(path=DATA / "prices.toml") -> list[Price]:
    """Read and check a price file: [Price], in file order.

    Raises RegistryError (a ValueError) naming the file, the row and the field of the first bad row.
    """
    rows = load_file(path, {"prices": _FIELDS}, key={"prices": ("model", "tier")})["prices"]
    return [build(path, label, Price, row) for label, row in rows]


PRICES: list[Price] = load()
REGISTRY: dict[str, Price] = {p.key: p for p in PRICES}


def get(model: str, tier: str = "standard") -> Price:
    """The price snapshot of `model` in `tier`; KeyError with close matches on a typo."""
    key = model if tier == "standard" else f"{model}:{tier}"
    return lookup("price entry", key, REGISTRY)


def snapshots(provider: str | None = None) -> list[Price]:
    """All snapshots, optionally of one provider ('Anthropic', 'OpenAI', 'Google', 'DeepSeek')."""
    return [p for p in PRICES if provider is None or p.provider.lower() == provider.lower()]
