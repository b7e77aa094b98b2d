"""Chapter 1: the roofline of one forward pass, stated once in SymPy and evaluated from there.

The equations (our form: F counts 2 FLOPs per multiply-add, weights in bytes = params x b_w):

    t_compute = 2·B·l_pass·N_act / F          every new token multiplies every active weight
    t_weights = N_tot·b_w / BW                all weights read once per pass, shared by the batch
    t_kv      = B·L_ctx·b_kv / BW             every sequence reads its own whole KV cache
    t_mem     = t_weights + t_kv
    T_step    = max(t_compute, t_mem)         a lower bound: the lecture's "=" means ">="

The lecture writes t_compute = B·N/FLOPs with FLOPs counted as multiplies and N in bytes at the
serving precision; `lecture_ratio` shows that both forms give the same balance batch.

Numeric functions below are `sympy.lambdify` of these very expressions, so a plotted curve is the
derived equation. All times are seconds, all sizes bytes, rates per second; arrays broadcast.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import sympy as sp

from . import hardware, models
from .notation import (B, BW, C_hbm, F, L_ctx, N_act, N_tot, T_step, b_kv, b_w, l_pass, n_chips,
                       p_chip)
from .units import (FLOPS_PER_MAC, HOUR, canonical_dtype, check_at_least, check_nonnegative,
                    check_positive, dtype_bytes)

# --- the equations ------------------------------------------------------------------------------
t_compute_expr = FLOPS_PER_MAC * B * l_pass * N_act / F
t_weights_expr = N_tot * b_w / BW
t_kv_expr = B * L_ctx * b_kv / BW
t_mem_expr = t_weights_expr + t_kv_expr
t_step_expr = sp.Max(t_compute_expr, t_mem_expr)
step_time_eq = sp.Eq(T_step, t_step_expr)

#: dollars per generated token: the pass's rental cost over the tokens it produces
cost_per_token_expr = t_step_expr * n_chips * p_chip / (sp.Integer(3600) * B * l_pass)
#: HBM drain time: read the whole memory once
drain_time_expr = C_hbm / BW

# the lecture's form: F_mac multiply-adds per second, weights counted in bytes
F_mac = sp.Symbol("F_mac", positive=True)
lecture_t_compute_expr = B * N_act / F_mac    # B·N_active / "FLOPs", FLOPs counted as multiply-adds
lecture_ratio_expr = F_mac * b_w / BW          # "FLOPs / mem_bw" made dimensionless: ~300


@lru_cache(maxsize=None)
def balance_batch_expr(with_kv: bool = False):
    """B* solving t_compute = t_weights (+ t_kv if with_kv) for a decode pass (l_pass = 1)."""
    rhs = t_weights_expr + (t_kv_expr if with_kv else 0)
    (solution,) = sp.solve(sp.Eq(t_compute_expr.subs(l_pass, 1), rhs), B)
    return sp.simplify(solution)


@lru_cache(maxsize=None)
def balance_context_expr():
    """L_ctx at which the KV slope equals the compute slope (d t_kv/dB = d t_compute/dB, decode)."""
    (solution,) = sp.solve(sp.Eq(sp.diff(t_kv_expr, B), sp.diff(t_compute_expr.subs(l_pass, 1), B)), L_ctx)
    return solution


#: the lecture's dimensionless hardware ratio (MAC/s over weight-params/s, "~300")
r_lecture = sp.Symbol("r", positive=True)


@lru_cache(maxsize=None)
def implied_kv_bytes_expr():
    """b_kv that puts the balance context at L_ctx, in the lecture's terms (r = F_mac·b_w/BW).

    Solving L_ctx = 2·BW·N_act/(F·b_kv) for b_kv and writing F = 2·r·BW/b_w gives b_w·N_act/(r·L_ctx):
    the lecture's "bytes = N_active / (300 × context)" with weights at one byte per parameter.
    """
    (solution,) = sp.solve(sp.Eq(L_ctx, balance_context_expr()), b_kv)
    return sp.simplify(solution.subs(F, FLOPS_PER_MAC * r_lecture * BW / b_w))


def implied_kv_bytes_per_token(active_params, context, ratio=300.0, weight_bytes_per_param=1.0):
    """KV bytes per token that would make `context` the compute/memory crossover (bytes/token).

    active_params: N_active (parameters); context: the crossover context (tokens, e.g. a price step);
    ratio: the lecture's hardware ratio; weight_bytes_per_param: b_w (1 for fp8, the lecture's reading).
    """
    for name, value in (("active_params", active_params), ("context", context), ("ratio", ratio),
                        ("weight_bytes_per_param", weight_bytes_per_param)):
        check_positive(name, value)
    f = sp.lambdify((N_act, L_ctx, r_lecture, b_w), implied_kv_bytes_expr(), "numpy")
    return _scalar(f(np.asarray(active_params, float), np.asarray(context, float), ratio, weight_bytes_per_param))


_t_compute = sp.lambdify((B, l_pass, N_act, F), t_compute_expr, "numpy")
_t_weights = sp.lambdify((N_tot, b_w, BW), t_weights_expr, "numpy")
_t_kv = sp.lambdify((B, L_ctx, b_kv, BW), t_kv_expr, "numpy")
_drain = sp.lambdify((C_hbm, BW), drain_time_expr, "numpy")


# --- results ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class StepTime:
    """Lower-bound times of one forward pass, in seconds (floats, or arrays when inputs are)."""
    compute: object
    weights: object
    kv: object
    batch: object
    tokens_per_seq: object

    @property
    def memory(self):
        return self.weights + self.kv

    @property
    def total(self):
        """max(compute, memory): the roofline lower bound on the step time, s."""
        return np.maximum(self.compute, self.memory)

    @property
    def bound(self):
        """'compute' or 'memory' (an array of them for array inputs)."""
        b = np.where(np.asarray(self.compute) >= np.asarray(self.memory), "compute", "memory")
        return str(b) if b.ndim == 0 else b

    @property
    def tokens(self):
        """Tokens the pass produces (batch x tokens per sequence)."""
        return self.batch * self.tokens_per_seq


def _compute_rate(chip: hardware.Chip, weight_dtype: str, compute_dtype: str | None) -> float:
    dtype = compute_dtype or weight_dtype
    try:
        return chip.flops(dtype)
    except ValueError:
        if compute_dtype is None:
            raise ValueError(f"{chip.name} has no dense {canonical_dtype(dtype)} rate for "
                             f"weight_dtype={weight_dtype!r}; pass compute_dtype= one of {chip.dtypes} "
                             f"(e.g. weight-only quantization computes in bf16)") from None
        raise


def _check_dtypes(weight_dtype, kv_dtype, compute_dtype=None):
    canonical_dtype(weight_dtype, "weight_dtype")
    canonical_dtype(kv_dtype, "kv_dtype")
    if compute_dtype is not None:
        canonical_dtype(compute_dtype, "compute_dtype")


def _scalar(x):
    x = np.asarray(x, dtype=float)
    return float(x) if x.ndim == 0 else x


def step_time(hw, model, batch, context=0, weight_dtype: str = "bf16", kv_dtype: str = "bf16",
              tokens_per_seq=1, compute_dtype: str | None = None) -> StepTime:
    """Roofline time of one pass of `batch` sequences at `context` tokens of KV each.

    hw: a Chip/System or registry name; model: a Model or registry name.
    batch: sequences (> 0); context: tokens already cached per sequence (>= 0);
    tokens_per_seq: new tokens per sequence in this pass (1 = decode; >1 = a prefill-like pass).
    weight_dtype / kv_dtype: storage formats; compute_dtype defaults to weight_dtype.
    Weights: all N_total are read each pass (the lecture's model; for an MoE this is exact once the
    batch touches every expert). Returns a StepTime (seconds).
    """
    chip, m = hardware.resolve(hw), models.resolve(model)
    check_positive("batch", batch)
    check_nonnegative("context", context)
    check_at_least("tokens_per_seq", tokens_per_seq, 1)
    _check_dtypes(weight_dtype, kv_dtype, compute_dtype)
    flops = _compute_rate(chip, weight_dtype, compute_dtype)
    kv_seq = m.kv_bytes_per_sequence(context, kv_dtype)          # = L_ctx · b_kv, bytes per sequence
    batch_a = np.asarray(batch, dtype=float)
    return StepTime(
        compute=_scalar(_t_compute(batch_a, np.asarray(tokens_per_seq, float), m.active_params, flops)),
        weights=_scalar(_t_weights(m.total_params, dtype_bytes(weight_dtype, "weight_dtype"), chip.hbm_bandwidth)
                        + 0 * batch_a),
        kv=_scalar(_t_kv(batch_a, 1.0, np.asarray(kv_seq, float), chip.hbm_bandwidth)),
        batch=_scalar(batch_a), tokens_per_seq=_scalar(tokens_per_seq))


def cost_per_token(hw, model, batch, context=0, weight_dtype: str = "bf16", kv_dtype: str = "bf16",
                   dollars_per_chip_hour=2.0, tokens_per_seq=1, compute_dtype: str | None = None):
    """Dollars per generated token: step time x chips x $/chip-hour / 3600 / tokens in the pass."""
    check_positive("dollars_per_chip_hour", dollars_per_chip_hour)
    chip = hardware.resolve(hw)
    r = step_time(chip, model, batch, context, weight_dtype, kv_dtype, tokens_per_seq, compute_dtype)
    return _scalar(r.total * chip.n_chips * dollars_per_chip_hour / HOUR / r.tokens)


@dataclass(frozen=True)
class CostParts:
    """Dollars per generated token, split like the lecture's Graph 2 (floats or arrays)."""
    compute: object     # flat in batch: the cost floor
    weights: object     # falls as 1/B: the amortized weight fetch
    kv: object          # flat in batch: every sequence reads its own cache
    memory: object      # weights + kv
    total: object       # max(compute, memory) = cost_per_token


def cost_parts(hw, model, batch, context=0, weight_dtype: str = "bf16", kv_dtype: str = "bf16",
               dollars_per_chip_hour=2.0, tokens_per_seq=1, compute_dtype: str | None = None) -> CostParts:
    """Each part of the step time priced per token: part x chips x $/chip-hour / 3600 / tokens ($/token)."""
    check_positive("dollars_per_chip_hour", dollars_per_chip_hour)
    chip = hardware.resolve(hw)
    r = step_time(chip, model, batch, context, weight_dtype, kv_dtype, tokens_per_seq, compute_dtype)
    per_second = chip.n_chips * dollars_per_chip_hour / HOUR / r.tokens      # $/token per second of step
    return CostParts(*(_scalar(x * per_second) for x in (r.compute, r.weights, r.kv, r.memory, r.total)))


def tokens_per_second(hw, model, batch, context=0, weight_dtype: str = "bf16", kv_dtype: str = "bf16",
                      tokens_per_seq=1, compute_dtype: str | None = None):
    """Tokens per second the whole system produces (batch x tokens per sequence / step time)."""
    r = step_time(hw, model, batch, context, weight_dtype, kv_dtype, tokens_per_seq, compute_dtype)
    return _scalar(r.tokens / r.total)


def drain_time(hw) -> float:
    """HBM capacity / HBM bandwidth, s: the time to read the whole memory once."""
    chip = hardware.resolve(hw)
    return float(_drain(chip.hbm_capacity, chip.hbm_bandwidth))


def hardware_ratio(hw, dtype: str = "bf16") -> float:
    """Peak FLOP/s / HBM bytes/s at `dtype`: the ridge point, FLOP per byte."""
    chip = hardware.resolve(hw)
    return chip.flops(dtype) / chip.hbm_bandwidth


def lecture_ratio(hw, dtype: str = "bf16") -> float:
    """The lecture's dimensionless ~300: multiply-adds per second / weight parameters per second.

    = (F / 2) / (BW / bytes per parameter), with weights stored at `dtype`.
    """
    chip = hardware.resolve(hw)
    return (chip.flops(dtype) / FLOPS_PER_MAC) / (chip.hbm_bandwidth / dtype_bytes(dtype))


def balance_batch(hw, model, weight_dtype: str = "bf16", context=0, kv_dtype: str = "bf16",
                  compute_dtype: str | None = None):
    """Batch (sequences) at which compute time equals memory time in decode.

    With context = 0 this is the lecture's B* = t_weights / (compute per sequence)
    = (F / BW) x (b_w / 2) x (N_total / N_active). With context > 0 the KV reads use up bandwidth and
    B* grows; at or beyond `balance_context` no batch balances and the result is inf.
    """
    chip, m = hardware.resolve(hw), models.resolve(model)
    check_nonnegative("context", context)
    _check_dtypes(weight_dtype, kv_dtype, compute_dtype)
    flops = _compute_rate(chip, weight_dtype, compute_dtype)
    weights_s = m.total_params * dtype_bytes(weight_dtype, "weight_dtype") / chip.hbm_bandwidth
    compute_per_seq = FLOPS_PER_MAC * m.active_params / flops
    kv_per_seq = np.asarray(m.kv_bytes_per_sequence(context, kv_dtype), float) / chip.hbm_bandwidth
    margin = compute_per_seq - kv_per_seq
    with np.errstate(divide="ignore"):
        out = np.where(margin > 0, weights_s / np.where(margin > 0, margin, 1.0), np.inf)
    return _scalar(out)


def balance_context(hw, model, weight_dtype: str = "bf16", kv_dtype: str = "bf16",
                    compute_dtype: str | None = None) -> float:
    """Context (tokens) where KV time per sequence equals compute time per sequence.

    Beyond it decode is memory-bound at every batch size. Uses the full-attention KV bytes per token.
    """
    chip, m = hardware.resolve(hw), models.resolve(model)
    flops = _compute_rate(chip, weight_dtype, compute_dtype)
    expr = balance_context_expr()
    return float(expr.subs({N_act: m.active_params, F: flops, BW: chip.hbm_bandwidth,
                            b_kv: m.kv_bytes_per_token(kv_dtype)}))


def max_batch(hw, model, context, weight_dtype: str = "bf16", kv_dtype: str = "bf16"):
    """Sequences whose KV caches fit in HBM beside the weights: floor((C - weights) / KV per seq).

    Returns 0 when the weights alone do not fit. context must be > 0 tokens.
    """
    chip, m = hardware.resolve(hw), models.resolve(model)
    check_positive("context", context)
    free = chip.hbm_capacity - m.weight_bytes(weight_dtype)
    kv_seq = np.asarray(m.kv_bytes_per_sequence(context, kv_dtype), float)
    out = np.floor(np.maximum(free, 0) / kv_seq).astype(np.int64)
    return int(out) if out.ndim == 0 else out


def kv_tokens_read(context, attention: str = "dense"):
    """Tokens of KV each sequence reads per step: all of them (dense) or ~sqrt(context) (toy sparse).

    'sqrt' is the lecture's rough description of DeepSeek's sparse attention: the context term
    grows like the square root of the context length instead of linearly.
    """
    check_nonnegative("context", context)
    if attention == "dense":
        return _scalar(context)
    if attention == "sqrt":
        return _scalar(np.sqrt(np.asarray(context, float)))
    raise ValueError(f"attention must be 'dense' or 'sqrt', got {attention!r}")


__all__ = ["StepTime", "CostParts", "step_time", "cost_per_token", "cost_parts", "tokens_per_second", "drain_time",
           "balance_batch", "balance_context", "max_batch", "hardware_ratio", "lecture_ratio",
           "kv_tokens_read", "t_compute_expr", "t_weights_expr", "t_kv_expr", "t_mem_expr",
           "t_step_expr", "step_time_eq", "cost_per_token_expr", "drain_time_expr",
           "balance_batch_expr", "balance_context_expr", "implied_kv_bytes_expr", "implied_kv_bytes_per_token"]
