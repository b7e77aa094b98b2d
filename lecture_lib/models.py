"""Model registry: architecture numbers, parameter counts and KV-cache bytes per token.

KV bytes are COMPUTED from the architecture, never typed in:
  MHA / GQA / MQA  : 2 (K and V) x KV heads x head_dim x bytes/element, per full-attention layer
  MLA (DeepSeek)   : (kv_lora_rank + rope dims) x bytes/element, per layer (one shared latent)
  sliding window   : windowed layers hold at most `sliding_window` tokens, a fixed cost per sequence
KV heads, not query heads, set the cache size: the query heads belong to the new token only.

The figures are in data/models.toml: one labelled row per model, each with its source (url, date
checked, quality flag). `load` reads and checks that file.

    m = models.get("DeepSeek-V3")
    m.total_params, m.active_params      # parameters (counts, not bytes)
    m.kv_bytes_per_token("bf16")         # bytes of KV cache per token of context
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ._registry import DATA, Field, Source, UnknownNameError, build, load_file, lookup, spread_sources
from .units import check_nonnegative, check_positive, dtype_bytes

FIGURES = ("total_params", "active_params", "architecture", "training_tokens")


@dataclass(frozen=True)
class Model:
    """A transformer's numbers. Parameters are counts; bytes come from a dtype at use.

    n_heads: query heads; n_kv_heads: key/value heads (= n_heads for MHA, 1 for MQA).
    kv_lora_rank, qk_rope_dim: MLA latent size and decoupled RoPE dims (None if not MLA).
    n_sliding_layers, sliding_window: layers with windowed attention and their window (tokens).
    n_experts, experts_per_token, n_shared_experts: MoE routing (None/0 for dense models).
    n_dense_layers: leading layers of an MoE model with a dense MLP instead of experts (DeepSeek-V3: 3).
    d_ff, d_ff_expert: hidden width of the dense MLP and of one expert's MLP (None where not recorded).
    vocab_size: tokens in the vocabulary (embedding and output head are untied in every row here).
    q_lora_rank: MLA's query compression rank (None: the query is projected directly).
    The last five let `moe.param_budget` account the parameters from the config (chapter 2).
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
    n_dense_layers: int = 0
    d_ff: int | None = None
    d_ff_expert: int | None = None
    vocab_size: int | None = None
    q_lora_rank: int | None = None
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
        if not 0 <= self.n_dense_layers <= self.n_layers:
            raise ValueError(f"n_dense_layers must be between 0 and n_layers={self.n_layers}, got {self.n_dense_layers!r}")
        for name in ("d_ff", "d_ff_expert", "vocab_size", "q_lora_rank"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise ValueError(f"{name} must be a positive integer or None, got {value!r}")
        if (self.kv_lora_rank is None) != (self.qk_rope_dim is None):
            raise ValueError("MLA needs both kv_lora_rank and qk_rope_dim")
        object.__setattr__(self, "sources", spread_sources(self.source, FIGURES))

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
    def n_moe_layers(self) -> int:
        """Layers whose MLP is a mixture of experts (0 for a dense model)."""
        return self.n_layers - self.n_dense_layers if self.is_moe else 0

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

    def attention_macs_per_layer_token(self) -> int:
        """Multiply-adds one new token spends on one cached token in one layer (MAC).

        MHA/GQA/MQA: every query head takes a dot product with the cached key (head_dim MACs) and adds
        the cached value in (head_dim MACs): 2·n_heads·head_dim, whatever the number of KV heads.
        MLA, absorbed (DeepSeek's decode form): each head works in the latent space, a dot product over
        the latent and RoPE dims (d_c + d_rope) and a weighted sum over the latent (d_c):
        n_heads·(2·d_c + d_rope).
        """
        if self.kv_lora_rank is not None:
            return self.n_heads * (2 * self.kv_lora_rank + self.qk_rope_dim)
        return 2 * self.n_heads * self.head_dim

    def attention_flops_per_token(self) -> float:
        """Attention FLOPs per new token per cached token, over the full-attention layers (FLOP/token).

        2 FLOPs per multiply-add. Windowed layers attend to at most `sliding_window` tokens: see
        attention_flops_per_sequence. (The lecture leaves this term out as small; for MLA it is not.)
        """
        return 2.0 * self.n_full_layers * self.attention_macs_per_layer_token()

    def attention_flops_per_sequence(self, context):
        """Attention FLOPs one new token spends on a context of `context` cached tokens (FLOP; arrays ok)."""
        check_nonnegative("context", context)
        ctx = np.asarray(context, dtype=float)
        per_layer_tok = 2.0 * self.attention_macs_per_layer_token()
        out = per_layer_tok * (self.n_full_layers * ctx
                               + self.n_sliding_layers * np.minimum(ctx, self.sliding_window or 0))
        return float(out) if out.ndim == 0 else out

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

    def windowed_kv_bytes_per_sequence(self, dtype: str = "bf16") -> float:
        """KV bytes the sliding-window layers hold per sequence once the context passes the window
        (a fixed cost per sequence, bytes; 0 without windowed layers)."""
        per_layer_tok = self.kv_elements_per_layer_token() * dtype_bytes(dtype, "kv_dtype")
        return float(self.n_sliding_layers * per_layer_tok * (self.sliding_window or 0))

    def weight_bytes(self, dtype: str = "bf16") -> float:
        """Bytes of all (total) weights at `dtype`."""
        return self.total_params * dtype_bytes(dtype, "weight_dtype")

    def source_for(self, figure: str) -> Source | None:
        return self.sources.get(figure)


# --- the registry: read from data/models.toml -----------------------------------------------------
_FIELDS = {
    "name": Field("text", required=True),
    "total_params": Field("number", required=True),
    "active_params": Field("number", required=True),
    "n_layers": Field("count", required=True),
    "d_model": Field("count", required=True),
    "n_heads": Field("count", required=True),
    "n_kv_heads": Field("count", required=True),
    "head_dim": Field("count", required=True),
    "kv_lora_rank": Field("count"),
    "qk_rope_dim": Field("count"),
    "n_sliding_layers": Field("count0"),
    "sliding_window": Field("count"),
    "n_experts": Field("count"),
    "experts_per_token": Field("count"),
    "n_shared_experts": Field("count0"),
    "n_dense_layers": Field("count0"),
    "d_ff": Field("count"),
    "d_ff_expert": Field("count"),
    "vocab_size": Field("count"),
    "q_lora_rank": Field("count"),
    "training_tokens": Field("number"),
    "year": Field("count"),
    "source": Field("source", required=True),
    "notes": Field("text"),
}


def load(path=DATA / "models.toml") -> dict[str, Model]:
    """Read and check a model file: {name: Model}.

    Raises RegistryError (a ValueError) naming the file, the row and the field of the first bad row.
    """
    rows = load_file(path, {"models": _FIELDS}, figures=FIGURES)["models"]
    return {row["name"]: build(path, label, Model, row) for label, row in rows}


MODELS: dict[str, Model] = load()

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
