"""API price snapshots, USD per million tokens, each dated and sourced.

Prices drift: every entry is a snapshot with the date it was checked, never "the current price".
Long-context steps: above `long_context_threshold` prompt tokens the whole request is billed at
`input_long` / `output_long`. Cache prices: `cache_read` (a hit), `cache_write_5m`, `cache_write_1h`.

    p = prices.get("claude-opus-4.6", tier="fast")
    p.output / prices.get("claude-opus-4.6").output    # 6.0
"""
from __future__ import annotations

from dataclasses import dataclass

from ._registry import Source, UnknownNameError, lookup

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

    @property
    def output_input_ratio(self) -> float:
        return self.output / self.input

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
_D = "2026-11"
_ANTHROPIC = Source("https://platform.claude.com/docs/en/about-claude/pricing", _D, "P")
_FAST = Source("https://platform.claude.com/docs/en/build-with-claude/fast-mode", _D, "P",
               "fast mode: up to 2.5x output tokens/s for 6x price (Opus 4.6)")
_OPUS5_FAST = Source("https://openrouter.ai/anthropic/claude-opus-5-fast-20260723", _D, "S")
_OPENAI = Source("https://openai.com/api/pricing", _D, "S", "via openai-cost / adk-model crates on docs.rs")
_OPENAI_55 = Source("https://openai.com/api/pricing", _D, "S", "via litellm-rs gpt55 tests; long-context step at 272K")
_PRIORITY = Source("https://openai.com/api-priority-processing/", _D, "P")
_GEMINI_25 = Source("https://ai.google.dev/gemini-api/docs/pricing", _D, "S", "via deploybase.ai (Jan 2026)")
_GEMINI_3 = Source("https://ai.google.dev/gemini-api/docs/pricing", _D, "S", "via aifreeapi.com (Jan 2026)")
_GEMINI_31 = Source("https://ai.google.dev/gemini-api/docs/pricing", _D, "S",
                    "via blog.laozhang.ai (Gemini 3.1 Pro preview, the lecture's example)")
_DEEPSEEK = Source("https://api-docs.deepseek.com/quick_start/pricing-details-usd", _D, "P")
_DEEPSEEK_32 = Source("https://api-docs.deepseek.com/quick_start/pricing-details-usd", _D, "S",
                      "via Roo-Code deepseek.ts, 'Updated Dec 9, 2025'")

PRICES: list[Price] = [
    # Anthropic: cache writes 1.25x (5 min) / 2x (1 h), reads 0.1x; >200K prompts: input 2x, output 1.5x
    Price("Anthropic", "claude-opus-4.6", "standard", 5.00, 25.00, _ANTHROPIC, 0.50, 6.25, 10.00,
          200_000, 10.00, 37.50, notes="long-context prices from the 2x/1.5x multiplier [R]"),
    Price("Anthropic", "claude-opus-4.6", "fast", 30.00, 150.00, _FAST, None, None, None,
          200_000, 60.00, 225.00, speedup=2.5, notes="'up to 2.5x higher output tokens per second'"),
    Price("Anthropic", "claude-opus-5", "standard", 5.00, 25.00, _ANTHROPIC, 0.50, 6.25, 10.00),
    Price("Anthropic", "claude-opus-5", "fast", 10.00, 50.00, _OPUS5_FAST, notes="2x standard"),
    Price("Anthropic", "claude-sonnet-4.5", "standard", 3.00, 15.00, _ANTHROPIC, 0.30, 3.75, 6.00,
          200_000, 6.00, 22.50),
    Price("Anthropic", "claude-haiku-4.5", "standard", 1.00, 5.00, _ANTHROPIC, 0.10, 1.25, 2.00),
    # OpenAI: priority processing is the paid "faster" tier
    Price("OpenAI", "gpt-5", "standard", 1.25, 10.00, _OPENAI, 0.125),
    Price("OpenAI", "gpt-5", "priority", 2.50, 20.00, _PRIORITY, 0.25),
    Price("OpenAI", "gpt-5.4", "standard", 2.50, 15.00, _OPENAI, 0.25),
    Price("OpenAI", "gpt-5.4", "priority", 5.00, 30.00, _PRIORITY, 0.50),
    Price("OpenAI", "gpt-5.5", "standard", 5.00, 30.00, _OPENAI_55, 0.50, None, None, 272_000, 10.00, 45.00),
    Price("OpenAI", "gpt-5.5", "priority", 12.50, 75.00, _PRIORITY, 1.25),
    # Google: the >200K step is input 2x, output 1.5x
    Price("Google", "gemini-2.5-pro", "standard", 1.25, 10.00, _GEMINI_25, 0.125, None, None,
          200_000, 2.50, 15.00),
    Price("Google", "gemini-3-pro-preview", "standard", 2.00, 12.00, _GEMINI_3, None, None, None,
          200_000, 4.00, 18.00),
    Price("Google", "gemini-3.1-pro-preview", "standard", 2.00, 12.00, _GEMINI_31, 0.20, None, None,
          200_000, 4.00, 18.00, notes="the lecture's '+50% above 200K' matches output only; input doubles"),
    # DeepSeek: cache-hit input is the cached price
    Price("DeepSeek", "deepseek-chat-v3-2025", "standard", 0.27, 1.10, _DEEPSEEK, 0.07,
          notes="early 2025 deepseek-chat (V3)"),
    Price("DeepSeek", "deepseek-reasoner-r1-2025", "standard", 0.55, 2.19, _DEEPSEEK, 0.14,
          notes="early 2025 deepseek-reasoner (R1)"),
    Price("DeepSeek", "deepseek-v3.2", "standard", 0.28, 0.42, _DEEPSEEK_32, 0.028),
]

REGISTRY: dict[str, Price] = {p.key: p for p in PRICES}


def get(model: str, tier: str = "standard") -> Price:
    """The price snapshot of `model` in `tier`; KeyError with close matches on a typo."""
    key = model if tier == "standard" else f"{model}:{tier}"
    return lookup("price entry", key, REGISTRY)


def snapshots(provider: str | None = None) -> list[Price]:
    """All snapshots, optionally of one provider ('Anthropic', 'OpenAI', 'Google', 'DeepSeek')."""
    return [p for p in PRICES if provider is None or p.provider.lower() == provider.lower()]
