"""Model registry: architecture numbers, parameter counts and KV-cache bytes per token.

KV bytes are COMPUTED from the architecture, never typed in:
  MHA / GQA / MQA  : 2 (K and V) x KV heads x head_dim x bytes/element, per full-attention layer
  MLA (DeepSeek)   : (kv_lora_rank + rope dims) x bytes/element, per layer (one shared latent)
  sliding window   : windowed layers hold at most `sliding_window` tokens, a fixed cost per sequence
KV heads, not query heads, set the cache size: the query heads belong to the new token only.

    m = models.get("DeepSeek-V3")
    m.total_params, m.active_params      # parameters (counts, not bytes)
    m.kv_bytes_per_token("bf16")         # bytes of KV cache per token of context
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ._registry import Source, UnknownNameError, lookup
from .units import check_nonnegative, check_positive, dtype_bytes

FIGURES = ("total_params", "active_params", "architecture", "training_tokens")


@dataclass(frozen=True)
class Model:
    """A transformer's numbers. Parameters are counts; bytes come from a dtype at use.

    n_heads: query heads; n_kv_heads: key/value heads (= n_heads for MHA, 1 for MQA).
    kv_lora_rank, qk_rope_dim: MLA latent size and decoupled RoPE dims (None if not MLA).
    n_sliding_layers, sliding_window: layers with windowed attention and their window (tokens).
    n_experts, experts_per_token, n_shared_experts: MoE routing (None/0 for dense models).
    """
    name: str
    total_params: float
    active_params: float
    n_layers: int
    d_model: int
    n_heads: int
    n_kv_heads: int
    head_dim: int
    kv_lora_rank: int | None = None
    qk_rope_dim: int | None = None
    n_sliding_layers: int = 0
    sliding_window: int | None = None
    n_experts: int | None = None
    experts_per_token: int | None = None
    n_shared_experts: int = 0
    training_tokens: float | None = None   # pre-training tokens, where published
    year: int | None = None
    source: Source | dict | None = None
    notes: str = ""
    sources: dict = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        check_positive("total_params", self.total_params)
        check_positive("active_params", self.active_params)
        if self.active_params > self.total_params:
            raise ValueError(f"active_params ({self.active_params:g}) must be <= total_params "
                             f"({self.total_params:g})")
        for name in ("n_layers", "d_model", "n_heads", "n_kv_heads", "head_dim"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
        if self.n_kv_heads > self.n_heads:
            raise ValueError(f"n_kv_heads ({self.n_kv_heads}) must be <= n_heads ({self.n_heads})")
        if not 0 <= self.n_sliding_layers <= self.n_layers:
            raise ValueError(f"n_sliding_layers must be between 0 and n_layers={self.n_layers}")
        if self.n_sliding_layers and not self.sliding_window:
            raise ValueError("sliding_window (tokens) is required when n_sliding_layers > 0")
        if (self.kv_lora_rank is None) != (self.qk_rope_dim is None):
            raise ValueError("MLA needs both kv_lora_rank and qk_rope_dim")
        src = self.source
        spread = {} if src is None else ({f: src for f in FIGURES} if isinstance(src, Source) else dict(src))
        object.__setattr__(self, "sources", spread)

    # --- architecture facts ---
    @property
    def attention(self) -> str:
        """'MLA', 'MHA', 'MQA' or 'GQA', with '+sliding-window' when some layers are windowed."""
        if self.kv_lora_rank is not None:
            kind = "MLA"
        elif self.n_kv_heads == self.n_heads:
            kind = "MHA"
        elif self.n_kv_heads == 1:
            kind = "MQA"
        else:
            kind = "GQA"
        return kind + ("+sliding-window" if self.n_sliding_layers else "")

    @property
    def is_moe(self) -> bool:
        return bool(self.n_experts)

    @property
    def sparsity(self) -> float:
        """active / total parameters (the lecture's 'sparsity'; 1 for a dense model)."""
        return self.active_params / self.total_params

    @property
    def n_full_layers(self) -> int:
        """Layers whose KV cache grows with the whole context."""
        return self.n_layers - self.n_sliding_layers

    def kv_elements_per_layer_token(self) -> int:
        """Numbers stored per token per layer: 2·KV heads·head_dim, or the MLA latent + RoPE dims."""
        if self.kv_lora_rank is not None:
            return self.kv_lora_rank + self.qk_rope_dim
        return 2 * self.n_kv_heads * self.head_dim

    # --- bytes ---
    def kv_bytes_per_token(self, dtype: str = "bf16") -> float:
        """KV-cache bytes per token of context, over the full-attention layers (bytes/token).

        Windowed layers add a fixed amount per sequence instead: see kv_bytes_per_sequence.
        """
        return self.n_full_layers * self.kv_elements_per_layer_token() * dtype_bytes(dtype, "kv_dtype")

    def kv_bytes_per_sequence(self, context, dtype: str = "bf16"):
        """KV-cache bytes one sequence holds at `context` tokens (bytes; arrays accepted)."""
        check_nonnegative("context", context)
        ctx = np.asarray(context, dtype=float)
        per_layer_tok = self.kv_elements_per_layer_token() * dtype_bytes(dtype, "kv_dtype")
        full = self.n_full_layers * per_layer_tok * ctx
        windowed = self.n_sliding_layers * per_layer_tok * np.minimum(ctx, self.sliding_window or 0)
        out = full + windowed
        return float(out) if out.ndim == 0 else out

    def weight_bytes(self, dtype: str = "bf16") -> float:
        """Bytes of all (total) weights at `dtype`."""
        return self.total_params * dtype_bytes(dtype, "weight_dtype")

    def source_for(self, figure: str) -> Source | None:
        return self.sources.get(figure)


_CHECKED = "2026-11"
_LLAMA3 = Source("https://arxiv.org/abs/2407.21783", _CHECKED, "P", "Llama 3 herd paper, architecture table")
_LLAMA2 = Source("https://arxiv.org/abs/2307.09288", _CHECKED, "R", "Llama 2 paper; 7B uses multi-head attention")
_GPT3 = Source("https://arxiv.org/abs/2005.14165", _CHECKED, "R", "GPT-3 paper, Table 2.1")
_MIXTRAL = Source("https://arxiv.org/abs/2401.04088", _CHECKED, "R")
_QWEN25 = Source("https://arxiv.org/abs/2505.09343", _CHECKED, "S", "ISCA'25 DeepSeek paper quotes 327.680 KB/token")
_QWEN3 = Source("https://github.com/zyzshishui/slime/blob/main/scripts/models/qwen3-235B-A22B.sh", _CHECKED, "P", "mirrors the HF config")
_DSV3 = Source("https://arxiv.org/abs/2412.19437", _CHECKED, "P", "DeepSeek-V3 report; config_671B.json; 70.272 KB/token in arXiv 2505.09343")
_KIMI = Source("https://huggingface.co/moonshotai/Kimi-K2-Instruct", _CHECKED, "S", "config dumps: 61 layers, 64 heads, kv_lora 512")
_GPTOSS = Source("https://github.com/openai/gpt-oss", _CHECKED, "S", "reference config: 36 layers, 128 experts, 4/token, window 128")
_PALM = Source("https://arxiv.org/abs/2204.02311", _CHECKED, "R", "PaLM paper, Table 1 (multi-query attention)")

MODELS: dict[str, Model] = {m.name: m for m in [
    Model("Llama-2-7B", 6.74e9, 6.74e9, 32, 4096, 32, 32, 128, year=2023, source=_LLAMA2),
    Model("GPT-3-175B", 175e9, 175e9, 96, 12288, 96, 96, 128, year=2020, source=_GPT3),
    Model("Llama-3-8B", 8.03e9, 8.03e9, 32, 4096, 32, 8, 128, training_tokens=15e12, year=2024, source=_LLAMA3),
    Model("Llama-3-70B", 70.6e9, 70.6e9, 80, 8192, 64, 8, 128, training_tokens=15e12, year=2024, source=_LLAMA3),
    Model("Llama-3-405B", 405e9, 405e9, 126, 16384, 128, 8, 128, training_tokens=15.6e12, year=2024, source=_LLAMA3),
    Model("Mixtral-8x7B", 46.7e9, 12.9e9, 32, 4096, 32, 8, 128, n_experts=8, experts_per_token=2,
          year=2023, source=_MIXTRAL),
    Model("Qwen2.5-72B", 72.7e9, 72.7e9, 80, 8192, 64, 8, 128, year=2024, source=_QWEN25),
    Model("Qwen3-235B-A22B", 235e9, 22e9, 94, 4096, 64, 4, 128, n_experts=128, experts_per_token=8,
          year=2025, source=_QWEN3),
    Model("DeepSeek-V3", 671e9, 37e9, 61, 7168, 128, 128, 128, kv_lora_rank=512, qk_rope_dim=64,
          n_experts=256, experts_per_token=8, n_shared_experts=1, training_tokens=14.8e12, year=2024, source=_DSV3,
          notes="671B excludes the 14B multi-token-prediction module; first 3 layers dense"),
    Model("Kimi-K2", 1.04e12, 32e9, 61, 7168, 64, 64, 128, kv_lora_rank=512, qk_rope_dim=64,
          n_experts=384, experts_per_token=8, n_shared_experts=1, year=2025, source=_KIMI),
    Model("gpt-oss-120b", 116.8e9, 5.1e9, 36, 2880, 64, 8, 64, n_sliding_layers=18, sliding_window=128,
          n_experts=128, experts_per_token=4, year=2025, source=_GPTOSS,
          notes="alternating 128-token sliding-window and full-attention layers; MXFP4 experts"),
    Model("PaLM-540B", 540e9, 540e9, 118, 18432, 48, 1, 256, year=2022, source=_PALM),
]}

_ALIASES = {"DeepSeek-R1": "DeepSeek-V3", "Kimi-K2-Instruct": "Kimi-K2", "Mixtral": "Mixtral-8x7B"}


def get(name: str) -> Model:
    """A model by name ('DeepSeek-V3', 'Llama-3-70B'); KeyError with close matches on a typo."""
    return lookup("model", name, MODELS, _ALIASES)


def resolve(model) -> Model:
    """Accept a Model object or a registry name."""
    if isinstance(model, Model):
        return model
    return get(model)


def names() -> list[str]:
    return list(MODELS)


__all__ = ["Model", "Source", "UnknownNameError", "get", "resolve", "names", "MODELS"]
