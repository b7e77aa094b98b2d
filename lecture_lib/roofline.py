"""Chapter 1: the roofline of one forward pass, stated once in SymPy and evaluated from there.

The equations (our form: F counts 2 FLOPs per multiply-add, weights in bytes = params x b_w):

    t_compute = 2·B·l_pass·N_act / F          every new token multiplies every active weight
    t_weights = N_tot·b_w / BW                all weights read once per pass, shared by the batch
    t_kv      = B·L_ctx·b_kv / BW             every sequence reads its own whole KV cache
    t_mem     = t_weights + t_kv
    T_step    = max(t_compute, t_mem)         a lower bound: the lecture's "=" means ">="

The lecture writes t_compute = B·N/FLOPs with FLOPs counted as multiplies and N in bytes at the
serving precision; `lecture_ratio` shows that both forms give the same balance batch.

Beyond the blackboard (a bound must be true at the edges):

    t_weights = (N_always + N_routed·(1 − (1 − k/n)^(B·l_pass)))·b_w / BW
                                              experts="touched" (default): an MoE step reads the
                                              experts its tokens touch; at B = 1 that is ~N_active.
                                              experts="all" is the lecture's N_tot·b_w/BW.
    t_attn    = B·l_pass·L_ctx·f_att / F      attention_flops=True adds it to t_compute; the result
                                              reports it either way (f_att from the architecture).
    HBM used  = N_tot·b_w + B·L_ctx·b_kv      reported on the result with `fits`.

Numeric functions below are `sympy.lambdify` of these very expressions, so a plotted curve is the
derived equation. All times are seconds, all sizes bytes, rates per second; arrays broadcast.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import sympy as sp

from . import hardware, models, routing
from .formula import numeric, out
from .notation import (B, BW, C_hbm, F, F_mac, L_ctx, N_act, N_tot, T_step, b_kv, b_w, f_att, l_pass,
                       n_chips, p_chip, r_hw)
from .units import (FLOPS_PER_MAC, HOUR, canonical_dtype, check_at_least, check_nonnegative,
                    check_positive, dtype_bytes)

# --- the equations ------------------------------------------------------------------------------
t_compute_expr = FLOPS_PER_MAC * B * l_pass * N_act / F
t_weights_expr = N_tot * b_w / BW
t_kv_expr = B * L_ctx * b_kv / BW
t_mem_expr = t_weights_expr + t_kv_expr
t_step_expr = sp.Max(t_compute_expr, t_mem_expr)
step_time_eq = sp.Eq(T_step, t_step_expr)

#: the fuller model's two extra terms (module docstring, "Beyond the blackboard"):
#: an MoE step reads only the weights its B·l_pass tokens touch (uniform independent routing) ...
t_weights_touched_expr = routing.weights_read_expr.subs(B, B * l_pass) * b_w / BW
#: ... and attention multiplies every new token against every cached token (off by default, as in the lecture)
t_attention_expr = B * l_pass * L_ctx * f_att / F

#: tokens per second of a pass that emits B·l_pass tokens every T_step
throughput_expr = B * l_pass / T_step
#: dollars per generated token from a step time: the pass's rental cost over the tokens it produces
cost_from_step_expr = T_step * n_chips * p_chip / (sp.Integer(HOUR) * B * l_pass)
#: ... and with the roofline's step time substituted
cost_per_token_expr = cost_from_step_expr.subs(T_step, t_step_expr)
#: HBM drain time: read the whole memory once
drain_time_expr = C_hbm / BW
#: HBM a batch occupies: the weights once, plus every sequence's KV cache
hbm_used_expr = N_tot * b_w + B * L_ctx * b_kv
#: the ridge point: FLOP per byte of HBM traffic
hardware_ratio_expr = F / BW

# the lecture's form: F_mac multiply-adds per second, weights counted in bytes
lecture_t_compute_expr = B * N_act / F_mac    # B·N_active / "FLOPs", FLOPs counted as multiply-adds
lecture_ratio_expr = F_mac * b_w / BW          # "FLOPs / mem_bw" made dimensionless: ~300
#: the lecture's F_mac is our F / 2
lecture_substitution = {F_mac: F / FLOPS_PER_MAC}
#: r_hw (the lecture's hardware ratio, ~300) as a name for F_mac·b_w/BW
r_lecture = r_hw


@lru_cache(maxsize=None)
def balance_batch_expr(with_kv: bool = False, with_attention: bool = False):
    """B* solving t_compute (+ t_attn) = t_weights (+ t_kv) for a decode pass (l_pass = 1)."""
    lhs = t_compute_expr + (t_attention_expr if with_attention else 0)
    rhs = t_weights_expr + (t_kv_expr if with_kv else 0)
    (solution,) = sp.solve(sp.Eq(lhs.subs(l_pass, 1), rhs), B)
    return sp.simplify(solution)


def _balance_batch_with_kv_expr():
    return balance_batch_expr(with_kv=True)


def _balance_batch_with_kv_attention_expr():
    return balance_batch_expr(with_kv=True, with_attention=True)


@lru_cache(maxsize=None)
def balance_context_expr():
    """L_ctx at which the KV slope equals the compute slope (d t_kv/dB = d t_compute/dB, decode)."""
    (solution,) = sp.solve(sp.Eq(sp.diff(t_kv_expr, B), sp.diff(t_compute_expr.subs(l_pass, 1), B)), L_ctx)
    return solution


@lru_cache(maxsize=None)
def max_batch_expr():
    """B at which the weights plus B KV caches fill HBM exactly (solve hbm_used = C_hbm)."""
    (solution,) = sp.solve(sp.Eq(hbm_used_expr, C_hbm), B)
    return solution


@lru_cache(maxsize=None)
def implied_kv_bytes_expr():
    """b_kv that puts the balance context at L_ctx, in the lecture's terms (r = F_mac·b_w/BW).

    Solving L_ctx = 2·BW·N_act/(F·b_kv) for b_kv and writing F = 2·r·BW/b_w gives b_w·N_act/(r·L_ctx):
    the lecture's "bytes = N_active / (300 × context)" with weights at one byte per parameter.
    """
    (solution,) = sp.solve(sp.Eq(L_ctx, balance_context_expr()), b_kv)
    (f_of_r,) = sp.solve(sp.Eq(r_hw, lecture_ratio_expr.subs(lecture_substitution)), F)
    return sp.simplify(solution.subs(F, f_of_r))


def implied_kv_bytes_per_token(active_params, context, ratio=300.0, weight_bytes_per_param=1.0):
    """KV bytes per token that would make `context` the compute/memory crossover (bytes/token).

    active_params: N_active (parameters); context: the crossover context (tokens, e.g. a price step);
    ratio: the lecture's hardware ratio; weight_bytes_per_param: b_w (1 for fp8, the lecture's reading).
    """
    for name, value in (("active_params", active_params), ("context", context), ("ratio", ratio),
                        ("weight_bytes_per_param", weight_bytes_per_param)):
        check_positive(name, value)
    return numeric(implied_kv_bytes_expr)(N_act=active_params, L_ctx=context, r=ratio,
                                          b_w=weight_bytes_per_param)


# --- results ------------------------------------------------------------------------------------
EXPERTS = ("touched", "all")


@dataclass(frozen=True)
class StepTime:
    """Lower-bound times of one forward pass, in seconds (floats, or arrays when inputs are).

    compute:    matmul time at peak, including attention when attention_flops=True
    weights:    weight-read time (the weights the step touches, or all of them with experts="all")
    kv:         KV-cache read time
    attention:  the attention FLOPs' time, reported whether or not it is in `compute`
    hbm_bytes:  bytes resident in HBM: all weights plus every sequence's KV cache
    hbm_capacity: the system's HBM, bytes; `fits` says whether hbm_bytes <= hbm_capacity
    """
    compute: object
    weights: object
    kv: object
    batch: object
    tokens_per_seq: object
    attention: object = 0.0
    hbm_bytes: object = float("nan")
    hbm_capacity: float = float("nan")
    experts: str = "touched"
    attention_flops: bool = False

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

    @property
    def fits(self):
        """Whether the weights and the batch's KV caches fit in HBM (bool, or an array of them)."""
        f = np.asarray(self.hbm_bytes) <= self.hbm_capacity
        return bool(f) if f.ndim == 0 else f


def _compute_rate(chip: hardware.Chip, weight_dtype: str, compute_dtype: str | None) -> float:
    """F for a pass whose weights are stored at weight_dtype (computed at compute_dtype if given)."""
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


def kv_bytes_per_token_at(model, context, kv_dtype: str = "bf16"):
    """b_kv at `context`: KV bytes per sequence / context tokens (bytes/token; arrays broadcast).

    For full attention this is the model's constant bytes per token; with sliding-window layers it is
    the average over the context (the windowed layers stop growing past their window). At context 0
    it is the full-attention figure (nothing is read then anyway).
    """
    m = models.resolve(model)
    ctx = np.asarray(context, dtype=float)
    per_seq = np.asarray(m.kv_bytes_per_sequence(ctx, kv_dtype), dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return out(np.where(ctx > 0, per_seq / np.where(ctx > 0, ctx, 1.0), m.kv_bytes_per_token(kv_dtype)))


def attention_flops_per_token_at(model, context):
    """f_att at `context`: attention FLOPs per new token / context tokens (FLOP/token; arrays broadcast).

    The architecture's constant for full attention; with sliding-window layers, the average over the
    context. At context 0, the full-attention figure.
    """
    m = models.resolve(model)
    ctx = np.asarray(context, dtype=float)
    per_seq = np.asarray(m.attention_flops_per_sequence(ctx), dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return out(np.where(ctx > 0, per_seq / np.where(ctx > 0, ctx, 1.0), m.attention_flops_per_token()))


def _check_options(experts, attention_flops):
    if experts not in EXPERTS:
        raise ValueError(f"experts must be 'touched' (the weights the batch's tokens route to) or 'all' "
                         f"(the lecture's reading), got {experts!r}")
    if not isinstance(attention_flops, (bool, np.bool_)):
        raise TypeError(f"attention_flops must be True or False, got {attention_flops!r}")


def _symbols(chip, m, weight_dtype, kv_dtype, compute_dtype, context) -> dict:
    """The notation-table values of one configuration, by symbol name."""
    always, routed = routing.routed_split(m)
    return dict(N_tot=m.total_params, N_act=m.active_params, b_w=dtype_bytes(weight_dtype, "weight_dtype"),
                F=_compute_rate(chip, weight_dtype, compute_dtype), BW=chip.hbm_bandwidth,
                L_ctx=context, b_kv=kv_bytes_per_token_at(m, context, kv_dtype),
                f_att=attention_flops_per_token_at(m, context), N_sh=always, N_rt=routed,
                k_act=m.experts_per_token or 1, n_exp=m.n_experts or 1)


def _evaluate(expr, values: dict, **extra):
    """numeric(expr) with the values it needs picked from `values` (plus `extra`)."""
    f = numeric(expr)
    return f(**{k: v for k, v in {**values, **extra}.items() if k in f.names})


def step_time(hw, model, batch, context=0, weight_dtype: str = "bf16", kv_dtype: str = "bf16",
              tokens_per_seq=1, compute_dtype: str | None = None, experts: str = "touched",
              attention_flops: bool = False) -> StepTime:
    """Roofline time of one pass of `batch` sequences at `context` tokens of KV each.

    hw: a Chip/System or registry name; model: a Model or registry name.
    batch: sequences (> 0); context: tokens already cached per sequence (>= 0);
    tokens_per_seq: new tokens per sequence in this pass (1 = decode; >1 = a prefill-like pass).
    weight_dtype / kv_dtype: storage formats; compute_dtype defaults to weight_dtype.
    experts: "touched" (default) reads, for an MoE, the always-on weights plus the experts the step's
        B·tokens_per_seq tokens are expected to touch (uniform independent routing): about N_active at
        B = 1, all N_total once B·k ≫ n. "all" reads every weight every step (the lecture's model).
    attention_flops: add the attention matmuls (every new token against every cached token, at the
        pass's compute rate) to `compute`; the result reports them as `attention` either way.
    Returns a StepTime (seconds) that also says whether the batch fits in HBM (`fits`).
    """
    chip, m = hardware.resolve(hw), models.resolve(model)
    check_positive("batch", batch)
    check_nonnegative("context", context)
    check_at_least("tokens_per_seq", tokens_per_seq, 1)
    _check_dtypes(weight_dtype, kv_dtype, compute_dtype)
    _check_options(experts, attention_flops)
    v = _symbols(chip, m, weight_dtype, kv_dtype, compute_dtype, context)
    batch_a = np.asarray(batch, dtype=float)
    matmul = _evaluate(t_compute_expr, v, B=batch_a, l_pass=tokens_per_seq)
    attention = _evaluate(t_attention_expr, v, B=batch_a, l_pass=tokens_per_seq)
    weights_expr = t_weights_touched_expr if experts == "touched" and m.is_moe else t_weights_expr
    weights = _evaluate(weights_expr, v, B=batch_a, l_pass=tokens_per_seq)
    return StepTime(
        compute=out(matmul + attention) if attention_flops else matmul,
        weights=out(weights + 0 * batch_a),
        kv=_evaluate(t_kv_expr, v, B=batch_a),
        batch=out(batch_a), tokens_per_seq=out(tokens_per_seq), attention=attention,
        hbm_bytes=_evaluate(hbm_used_expr, v, B=batch_a), hbm_capacity=chip.hbm_capacity,
        experts=experts, attention_flops=bool(attention_flops))


@dataclass(frozen=True)
class CostParts:
    """Dollars per generated token, split like the lecture's Graph 2 (floats or arrays)."""
    compute: object     # flat in batch: the cost floor
    weights: object     # falls as 1/B: the amortized weight fetch
    kv: object          # flat in batch: every sequence reads its own cache
    memory: object      # weights + kv
    total: object       # max(compute, memory) = cost_per_token


def cost_parts(hw, model, batch, context=0, weight_dtype: str = "bf16", kv_dtype: str = "bf16",
               dollars_per_chip_hour=2.0, tokens_per_seq=1, compute_dtype: str | None = None,
               experts: str = "touched", attention_flops: bool = False) -> CostParts:
    """Each part of the step time priced per token: part x chips x $/chip-hour / 3600 / tokens ($/token).

    experts / attention_flops: as in `step_time`.
    """
    check_positive("dollars_per_chip_hour", dollars_per_chip_hour)
    chip = hardware.resolve(hw)
    r = step_time(chip, model, batch, context, weight_dtype, kv_dtype, tokens_per_seq, compute_dtype,
                  experts, attention_flops)
    price = numeric(cost_from_step_expr)
    return CostParts(*(price(T_step=part, n_chips=chip.n_chips, p_chip=dollars_per_chip_hour, B=r.batch,
                             l_pass=r.tokens_per_seq)
                       for part in (r.compute, r.weights, r.kv, r.memory, r.total)))


def cost_per_token(hw, model, batch, context=0, weight_dtype: str = "bf16", kv_dtype: str = "bf16",
                   dollars_per_chip_hour=2.0, tokens_per_seq=1, compute_dtype: str | None = None,
                   experts: str = "touched", attention_flops: bool = False):
    """Dollars per generated token: step time x chips x $/chip-hour / 3600 / tokens in the pass."""
    return cost_parts(hw, model, batch, context, weight_dtype, kv_dtype, dollars_per_chip_hour,
                      tokens_per_seq, compute_dtype, experts, attention_flops).total


def tokens_per_second(hw, model, batch, context=0, weight_dtype: str = "bf16", kv_dtype: str = "bf16",
                      tokens_per_seq=1, compute_dtype: str | None = None, experts: str = "touched",
                      attention_flops: bool = False):
    """Tokens per second the whole system produces (batch x tokens per sequence / step time)."""
    r = step_time(hw, model, batch, context, weight_dtype, kv_dtype, tokens_per_seq, compute_dtype,
                  experts, attention_flops)
    return numeric(throughput_expr)(B=r.batch, l_pass=r.tokens_per_seq, T_step=r.total)


def drain_time(hw) -> float:
    """HBM capacity / HBM bandwidth, s: the time to read the whole memory once."""
    chip = hardware.resolve(hw)
    return numeric(drain_time_expr)(C_hbm=chip.hbm_capacity, BW=chip.hbm_bandwidth)


def hardware_ratio(hw, dtype: str = "bf16") -> float:
    """Peak FLOP/s / HBM bytes/s at `dtype`: the ridge point, FLOP per byte."""
    chip = hardware.resolve(hw)
    return numeric(hardware_ratio_expr)(F=chip.flops(dtype), BW=chip.hbm_bandwidth)


def lecture_ratio(hw, dtype: str = "bf16") -> float:
    """The lecture's dimensionless ~300: multiply-adds per second / weight parameters per second.

    = (F / 2) / (BW / bytes per parameter), with weights stored at `dtype`.
    """
    chip = hardware.resolve(hw)
    return numeric(lecture_ratio_expr.subs(lecture_substitution))(
        F=chip.flops(dtype), BW=chip.hbm_bandwidth, b_w=dtype_bytes(dtype))


def balance_batch(hw, model, weight_dtype: str = "bf16", context=0, kv_dtype: str = "bf16",
                  compute_dtype: str | None = None, experts: str = "touched", attention_flops: bool = False):
    """Batch (sequences) at which compute time equals memory time in decode.

    With context = 0 and experts="all" this is the lecture's B* = t_weights / (compute per sequence)
    = (F / BW) x (b_w / 2) x (N_total / N_active), the closed form of `balance_batch_expr`. With
    context > 0 the KV reads use up bandwidth and B* grows; at or beyond `balance_context` no batch
    balances and the result is inf. With experts="touched" (default) an MoE's weight read grows with
    the batch, so B* is the root of t_compute(B) = t_weights_touched(B) + t_kv(B), found by bisection
    below the all-weights closed form (the two agree once B·k ≫ n_experts).
    """
    chip, m = hardware.resolve(hw), models.resolve(model)
    check_nonnegative("context", context)
    _check_dtypes(weight_dtype, kv_dtype, compute_dtype)
    _check_options(experts, attention_flops)
    v = _symbols(chip, m, weight_dtype, kv_dtype, compute_dtype, context)
    closed = _balance_batch_with_kv_attention_expr if attention_flops else _balance_batch_with_kv_expr
    b_all = np.asarray(_evaluate(closed, v), dtype=float)
    # the solution's denominator (compute per sequence - KV per sequence) is <= 0 past the balance context
    b_all = np.where(np.isfinite(b_all) & (b_all > 0), b_all, np.inf)
    if experts == "all" or not m.is_moe:
        return out(b_all)
    # compute - memory is convex in B, negative at 0 (the always-read weights), >= 0 at b_all: one root
    lo, hi = np.zeros_like(b_all), np.where(np.isfinite(b_all), b_all, 0.0)
    gap = numeric(_touched_gap_attention_expr if attention_flops else _touched_gap_expr)
    for _ in range(64):
        mid = (lo + hi) / 2
        above = np.asarray(gap(**{k: val for k, val in v.items() if k in gap.names}, B=mid)) >= 0
        lo, hi = np.where(above, lo, mid), np.where(above, mid, hi)
    return out(np.where(np.isfinite(b_all), hi, np.inf))


def _touched_gap_expr():
    """Compute minus memory time of a decode step with touched weights (s); zero at the balance batch."""
    return t_compute_expr.subs(l_pass, 1) - (t_weights_touched_expr.subs(l_pass, 1) + t_kv_expr)


def _touched_gap_attention_expr():
    """The same with the attention FLOPs counted as compute (s)."""
    return _touched_gap_expr() + t_attention_expr.subs(l_pass, 1)


@lru_cache(maxsize=None)
def balance_context_attention_expr():
    """L_ctx at which the KV slope equals the compute slope with attention FLOPs in the compute."""
    per_seq = sp.diff(t_compute_expr.subs(l_pass, 1) + t_attention_expr.subs(l_pass, 1), B)
    (solution,) = sp.solve(sp.Eq(sp.diff(t_kv_expr, B), per_seq), L_ctx)
    return solution


def balance_context(hw, model, weight_dtype: str = "bf16", kv_dtype: str = "bf16",
                    compute_dtype: str | None = None, attention: str = "dense",
                    attention_flops: bool = False) -> float:
    """Context (tokens) where KV time per sequence equals compute time per sequence.

    Beyond it decode is memory-bound at every batch size. Uses the full-attention KV bytes per token.
    attention: 'dense' reads the whole context; 'sqrt' (the lecture's toy of sparse attention) reads
    ~sqrt(context) tokens, which squares the balance context.
    attention_flops: count the attention matmuls as compute (dense only); when they grow as fast as the
    KV reads (f_att/F >= b_kv/BW) no context is memory-bound at every batch and the result is inf.
    """
    chip, m = hardware.resolve(hw), models.resolve(model)
    _check_dtypes(weight_dtype, kv_dtype, compute_dtype)
    _check_options("all", attention_flops)
    expr = {"dense": balance_context_expr, "sqrt": balance_context_sqrt_expr}.get(attention)
    if expr is None:
        raise ValueError(f"attention must be 'dense' or 'sqrt', got {attention!r}")
    v = dict(N_act=m.active_params, F=_compute_rate(chip, weight_dtype, compute_dtype),
             BW=chip.hbm_bandwidth, b_kv=m.kv_bytes_per_token(kv_dtype), f_att=m.attention_flops_per_token())
    if attention_flops:
        if attention != "dense":
            raise ValueError("attention_flops=True is modelled for attention='dense' only")
        l_star = _evaluate(balance_context_attention_expr, v)
        return l_star if l_star > 0 else float("inf")
    return _evaluate(expr, v)


def max_batch(hw, model, context, weight_dtype: str = "bf16", kv_dtype: str = "bf16"):
    """Sequences whose KV caches fit in HBM beside the weights: floor((C - weights) / KV per seq).

    Returns 0 when the weights alone do not fit. context must be > 0 tokens.
    """
    chip, m = hardware.resolve(hw), models.resolve(model)
    check_positive("context", context)
    _check_dtypes(weight_dtype, kv_dtype)
    room = numeric(max_batch_expr)(C_hbm=chip.hbm_capacity, N_tot=m.total_params,
                                   b_w=dtype_bytes(weight_dtype, "weight_dtype"), L_ctx=context,
                                   b_kv=kv_bytes_per_token_at(m, context, kv_dtype))
    fits = np.floor(np.maximum(np.asarray(room), 0)).astype(np.int64)
    return int(fits) if fits.ndim == 0 else fits


# --- dense against (toy) sparse attention: the context slope -------------------------------------
@lru_cache(maxsize=None)
def balance_context_sqrt_expr():
    """L_ctx where sqrt(L)·b_kv/BW (toy sparse attention) equals 2·N_act/F (per sequence)."""
    kv_per_seq = (t_kv_expr / B).subs(L_ctx, sp.sqrt(L_ctx))
    (solution,) = sp.solve(sp.Eq(kv_per_seq, (t_compute_expr / B).subs(l_pass, 1)), L_ctx)
    return solution


def kv_tokens_read(context, attention: str = "dense"):
    """Tokens of KV each sequence reads per step: all of them (dense) or ~sqrt(context) (toy sparse).

    'sqrt' is the lecture's rough description of DeepSeek's sparse attention: the context term
    grows like the square root of the context length instead of linearly.
    """
    check_nonnegative("context", context)
    if attention == "dense":
        return out(context)
    if attention == "sqrt":
        return out(np.sqrt(np.asarray(context, float)))
    raise ValueError(f"attention must be 'dense' or 'sqrt', got {attention!r}")


def kv_time_per_sequence(hw, model, context, attention: str = "dense", kv_dtype: str = "bf16"):
    """KV read time of one sequence in one decode step, s: tokens read × b_kv / BW (arrays ok).

    attention: 'dense' reads every cached token; 'sqrt' reads ~sqrt(context) of them (toy model of
    DeepSeek's sparse attention). Uses the full-attention KV bytes per token.
    """
    chip, m = hardware.resolve(hw), models.resolve(model)
    return numeric(t_kv_expr)(B=1, L_ctx=kv_tokens_read(context, attention),
                              b_kv=m.kv_bytes_per_token(kv_dtype), BW=chip.hbm_bandwidth)


def compute_time_per_sequence(hw, model, weight_dtype: str = "bf16", compute_dtype: str | None = None) -> float:
    """2·N_act / F: one sequence's share of a decode step's matmuls, s."""
    chip, m = hardware.resolve(hw), models.resolve(model)
    _check_dtypes(weight_dtype, "bf16", compute_dtype)
    return numeric(t_compute_expr)(B=1, l_pass=1, N_act=m.active_params,
                                   F=_compute_rate(chip, weight_dtype, compute_dtype))


__all__ = ["StepTime", "CostParts", "step_time", "cost_per_token", "cost_parts", "tokens_per_second", "drain_time",
           "balance_batch", "balance_context", "max_batch", "hardware_ratio", "lecture_ratio",
           "kv_tokens_read", "kv_time_per_sequence", "compute_time_per_sequence", "kv_bytes_per_token_at",
           "t_compute_expr", "t_weights_expr", "t_kv_expr", "t_mem_expr",
           "t_step_expr", "step_time_eq", "cost_per_token_expr", "cost_from_step_expr", "throughput_expr",
           "drain_time_expr", "hbm_used_expr", "hardware_ratio_expr", "lecture_t_compute_expr",
           "lecture_ratio_expr", "lecture_substitution", "balance_batch_expr", "balance_context_expr",
           "balance_context_sqrt_expr", "max_batch_expr", "implied_kv_bytes_expr", "implied_kv_bytes_per_token",
           "EXPERTS", "t_weights_touched_expr", "t_attention_expr", "attention_flops_per_token_at",
           "balance_context_attention_expr"]
