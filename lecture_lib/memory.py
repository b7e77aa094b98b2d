"""Chapter 4: the memory wall. Memory per GPU under expert parallelism E and pipelining P, why the KV
term does not shrink with P, hop latency, and why scale-up size buys bandwidth (latency), not capacity.

**Memory per GPU** (the lecture's even sharding: weights split evenly over the E GPUs of a rack and
the layers evenly over P racks; the KV caches hand-waved the same way), in bytes:

    c_mem = (N_tot·b_w + B·L_ctx·b_kv) / (E·P)
    B     = P·b                      the decode loop keeps P micro-batches of b in flight: the fewest
                                     that leave no stage idle when the loop wraps around
    c_mem = N_tot·b_w/(E·P) + b·L_ctx·b_kv/E        P cancels out of the KV term

Each rack stores KV for its 1/P of the layers, but for P times as many sequences. The longest context
that fits beside the weights solves c_mem = C (C = HBM per GPU) for L_ctx; as P → ∞ the weights vanish
and it tends to C·E/(b·b_kv): pipelining removes the limit on model size, not on context length.

**Hop latency.** A decode loop over P racks crosses P rack boundaries per token (P − 1 between stages
and one back from the last stage to the first): T = T_step + P·t_hop. The lecture's t_hop is "a few ms",
explicitly uncertain by 10× either way (syllabus §6 item 12), so functions here return the range.

**Bandwidth, not capacity.** The n GPUs of one scale-up domain read their shares of the weights at the
same time: t_weights = N_tot·b_w/(n·BW) with BW per GPU (roofline's t_weights with BW → n·BW). Pipelined
over P domains, each reads only N/P, but one after the other: P·(N/P)·b_w/(n·BW), the same time.

Units: bytes, bytes/s, seconds, tokens, sequences, GPUs; arrays broadcast. Weights default to fp8 (the
lecture's N in bytes at one byte per parameter), KV to bf16.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import sympy as sp

from . import hardware, models, roofline
from .formula import numeric, out
from .lecture import SAID
from .notation import B, BW, C_hbm, E, L_ctx, N_tot, P, T_step, b_kv, b_mb, b_w, c_mem, n_chips, t_hop
from .units import check_at_least, check_nonnegative, check_positive, dtype_bytes

# --- memory per GPU --------------------------------------------------------------------------------
#: the lecture's blackboard equation: total demand spread evenly over E·P GPUs (bytes per GPU)
c_mem_expr = (N_tot * b_w + B * L_ctx * b_kv) / (E * P)
c_mem_eq = sp.Eq(c_mem, c_mem_expr)
#: its two parts
weights_per_chip_expr = N_tot * b_w / (E * P)
kv_per_chip_expr = B * L_ctx * b_kv / (E * P)
#: the decode loop: P micro-batches of b sequences in flight
global_batch_expr = P * b_mb
#: c_mem with B = P·b substituted and expanded: N_tot·b_w/(E·P) + b·L_ctx·b_kv/E
c_mem_micro_expr = sp.expand(c_mem_expr.subs(B, global_batch_expr))
kv_per_chip_micro_expr = sp.simplify(kv_per_chip_expr.subs(B, global_batch_expr))


@lru_cache(maxsize=None)
def max_context_expr():
    """L_ctx at which c_mem fills the HBM of one GPU, C_hbm: solve c_mem = C_hbm (global batch B)."""
    (solution,) = sp.solve(sp.Eq(c_mem_expr, C_hbm), L_ctx)
    return solution


@lru_cache(maxsize=None)
def context_ceiling_expr():
    """The longest context as P → ∞ at fixed micro-batch b: C_hbm·E/(b·b_kv). No P buys more."""
    return sp.limit(max_context_expr().subs(B, global_batch_expr), P, sp.oo)


# --- hop latency -----------------------------------------------------------------------------------
#: one decode step with P rack hops in the loop
hop_step_expr = T_step + P * t_hop

# --- bandwidth, not capacity -----------------------------------------------------------------------
#: n GPUs of one scale-up domain, BW each, read the weights in parallel (roofline's t_weights, BW → n·BW)
t_weights_domain_expr = roofline.t_weights_expr.subs(BW, n_chips * BW)
#: pipelined over P domains: each reads N/P, one stage after the other. Unevaluated for display: SymPy
#: cancels the P as soon as the product is evaluated (`.doit()`), which is the point
t_weights_pipelined_expr = sp.Mul(P, t_weights_domain_expr.subs(N_tot, N_tot / P), evaluate=False)


# --- results ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class PerChip:
    """Bytes one GPU holds (floats, or arrays when the inputs are): its weights and its KV caches."""
    weights: object
    kv: object

    @property
    def total(self):
        """weights + kv, bytes: c_mem."""
        return out(np.asarray(self.weights) + np.asarray(self.kv))

    def fits(self, hw):
        """Whether `total` fits in the HBM of one GPU of `hw` (bool, or an array of them)."""
        f = np.asarray(self.total) <= hbm_per_chip(hw)
        return bool(f) if f.ndim == 0 else f


def _check_extents(expert_parallel, pipeline_stages):
    for name, value in (("expert_parallel", expert_parallel), ("pipeline_stages", pipeline_stages)):
        check_at_least(name, value, 1)
        if np.any(np.asarray(value, float) != np.round(np.asarray(value, float))):
            raise ValueError(f"{name} must be a whole number of GPUs/stages, got {value!r}")


def _values(m, context, weight_dtype, kv_dtype) -> dict:
    return dict(N_tot=m.total_params, b_w=dtype_bytes(weight_dtype, "weight_dtype"),
                L_ctx=context, b_kv=roofline.kv_bytes_per_token_at(m, context, kv_dtype))


def _pick(expr, values: dict, **extra):
    f = numeric(expr)
    return f(**{k: v for k, v in {**values, **extra}.items() if k in f.names})


def per_chip_bytes(model, batch, context, expert_parallel, pipeline_stages=1, weight_dtype: str = "fp8",
                   kv_dtype: str = "bf16") -> PerChip:
    """Bytes per GPU under the lecture's even sharding: (N_tot·b_w + B·L_ctx·b_kv) / (E·P).

    model: a Model or registry name; batch: B, sequences in flight in the whole pipeline (>= 0);
    context: L_ctx, tokens cached per sequence (>= 0; sliding-window layers use their average bytes per
    token at that context); expert_parallel: E, GPUs per stage (>= 1); pipeline_stages: P (>= 1).
    With batch = P·b at fixed b, `.kv` does not change with P and `.weights` falls as 1/P.
    Returns PerChip(weights, kv) in bytes (`.total`, `.fits(hw)`); arrays broadcast.
    """
    m = models.resolve(model)
    check_nonnegative("batch", batch)
    check_nonnegative("context", context)
    _check_extents(expert_parallel, pipeline_stages)
    v = _values(m, context, weight_dtype, kv_dtype)
    ext = dict(E=expert_parallel, P=pipeline_stages)
    weights = _pick(weights_per_chip_expr, v, **ext)
    kv = _pick(kv_per_chip_expr, v, B=batch, **ext)
    shape = np.broadcast(np.asarray(weights), np.asarray(kv)).shape
    return PerChip(out(np.broadcast_to(weights, shape)), out(np.broadcast_to(kv, shape)))


def per_chip_bytes_micro(model, micro_batch, context, expert_parallel, pipeline_stages=1,
                         weight_dtype: str = "fp8", kv_dtype: str = "bf16") -> PerChip:
    """`per_chip_bytes` for the decode loop: P micro-batches of `micro_batch` (b) sequences in flight.

    Evaluates the substituted expression N_tot·b_w/(E·P) + b·L_ctx·b_kv/E term by term (bytes per GPU).
    """
    m = models.resolve(model)
    check_nonnegative("micro_batch", micro_batch)
    check_nonnegative("context", context)
    _check_extents(expert_parallel, pipeline_stages)
    v = _values(m, context, weight_dtype, kv_dtype)
    weights = _pick(weights_per_chip_expr, v, E=expert_parallel, P=pipeline_stages)
    kv = _pick(kv_per_chip_micro_expr, v, b_mb=micro_batch, E=expert_parallel)
    shape = np.broadcast(np.asarray(weights), np.asarray(kv), np.asarray(pipeline_stages, float)).shape
    return PerChip(out(np.broadcast_to(weights, shape)), out(np.broadcast_to(kv, shape)))


def hbm_per_chip(hw) -> float:
    """HBM capacity of one GPU of a chip or system, bytes (a system's total over its n_chips)."""
    chip = hardware.resolve(hw)
    return chip.hbm_capacity / chip.n_chips


def _default_extent(chip, expert_parallel):
    return chip.n_chips if expert_parallel is None else expert_parallel


def max_context(hw, model, batch, weight_dtype: str = "fp8", kv_dtype: str = "bf16", expert_parallel=None,
                pipeline_stages=1):
    """The longest context (tokens, floored) at which `batch` sequences fit beside the weights.

    hw: a chip or system (its HBM per GPU is the limit C); model: a Model or registry name;
    batch: B > 0, sequences in flight in the whole pipeline; expert_parallel: E (default: the system's
    n_chips, 1 for a single chip); pipeline_stages: P >= 1. Solves c_mem = C for L_ctx. Returns 0 when
    the weights alone do not fit. Sliding-window layers hold a fixed amount per sequence: their average
    bytes per token is iterated to the fixed point. Arrays broadcast.
    """
    chip, m = hardware.resolve(hw), models.resolve(model)
    check_positive("batch", batch)
    E_ = _default_extent(chip, expert_parallel)
    _check_extents(E_, pipeline_stages)
    f = numeric(max_context_expr)
    args = dict(N_tot=m.total_params, b_w=dtype_bytes(weight_dtype, "weight_dtype"), B=batch, E=E_,
                P=pipeline_stages, C_hbm=hbm_per_chip(chip))
    length = np.asarray(f(**args, b_kv=m.kv_bytes_per_token(kv_dtype)), dtype=float)
    if m.n_sliding_layers:          # b_kv(L) = full + windowed/L past the window: a contraction, converges fast
        for _ in range(60):
            guess = np.maximum(length, 1.0)
            new = np.asarray(f(**args, b_kv=roofline.kv_bytes_per_token_at(m, guess, kv_dtype)), dtype=float)
            if np.allclose(new, length, rtol=1e-9, atol=0.5):
                length = new
                break
            length = new
    return out(np.floor(np.maximum(length, 0.0)))


def context_ceiling(hw, model, micro_batch, expert_parallel=None, kv_dtype: str = "bf16"):
    """The longest context any number of pipeline stages allows: C·E/(b·b_kv), tokens (P → ∞).

    hw: a chip or system (C = HBM per GPU); micro_batch: b > 0 sequences; expert_parallel: E (default
    the system's n_chips); uses the model's full-attention KV bytes per token. Arrays broadcast.
    """
    chip, m = hardware.resolve(hw), models.resolve(model)
    check_positive("micro_batch", micro_batch)
    E_ = _default_extent(chip, expert_parallel)
    _check_extents(E_, 1)
    return numeric(context_ceiling_expr)(C_hbm=hbm_per_chip(chip), E=E_, b_mb=micro_batch,
                                         b_kv=m.kv_bytes_per_token(kv_dtype))


# --- hop latency -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class HopRange:
    """Step times (s) with P rack hops: at the hop latency ÷ spread, as said, and × spread."""
    low: object
    said: object
    high: object
    hop_low: float
    hop_said: float
    hop_high: float


def hop_step_time(step_time, stages, hop_latency):
    """T_step + P·t_hop: one decode step when the loop crosses P rack boundaries, s (arrays broadcast).

    step_time: T_step without hops, s (>= 0); stages: P >= 1; hop_latency: t_hop per crossing, s (>= 0).
    """
    check_nonnegative("step_time", step_time)
    check_at_least("stages", stages, 1)
    check_nonnegative("hop_latency", hop_latency)
    return numeric(hop_step_expr)(T_step=step_time, P=stages, t_hop=hop_latency)


def hop_range(step_time=SAID["hop_step_before_s"], stages=SAID["pipeline_stages"], hop_latency=SAID["hop_s"],
              spread=SAID["hop_uncertainty"]) -> HopRange:
    """The step time with hops at hop_latency/spread, hop_latency and hop_latency·spread (s).

    The lecture's hop latency is "a few ms" and "could be off by an order of magnitude": spread = 10.
    """
    check_positive("hop_latency", hop_latency)
    check_at_least("spread", spread, 1)
    lo, hi = hop_latency / spread, hop_latency * spread
    return HopRange(*(hop_step_time(step_time, stages, h) for h in (lo, hop_latency, hi)), lo, hop_latency, hi)


# --- bandwidth, not capacity -----------------------------------------------------------------------
def weight_read_time(hw, model, weight_dtype: str = "fp8", pipeline_stages=1, n_chips=None):
    """Time to read all weights once, s: N_tot·b_w / (n·BW per GPU), whatever the pipeline depth.

    hw: a system (n = its n_chips, BW its chip's) or a chip with n_chips given; pipeline_stages P: the
    model split over P such domains, read one after the other (P cancels; kept to show it). Arrays broadcast.
    """
    chip, m = hardware.resolve(hw), models.resolve(model)
    n = chip.n_chips if n_chips is None else n_chips
    check_at_least("n_chips", n, 1)
    _check_extents(1, pipeline_stages)
    per_gpu = chip.hbm_bandwidth / chip.n_chips
    t = numeric(t_weights_pipelined_expr.doit())(N_tot=m.total_params, b_w=dtype_bytes(weight_dtype, "weight_dtype"),
                                                 n_chips=n, BW=per_gpu)
    return out(t + 0 * np.asarray(pipeline_stages, dtype=float))


#: NVIDIA's data-centre GPUs by generation, for the "1.5-2× per generation" check (registry names)
GENERATIONS = (("Ampere", "A100-80GB"), ("Hopper", "H100-SXM"), ("Hopper (H200)", "H200"),
               ("Blackwell", "B200"), ("Blackwell Ultra", "GB300"), ("Rubin (announced)", "Rubin"))


def bandwidth_by_generation(generations=GENERATIONS) -> list[dict]:
    """HBM bandwidth per GPU by generation, from the hardware registry, with two growth factors:
    `step`, against the row before (×), and `launch_step`, on an architecture's first chip only, against
    the previous architecture's first chip (A100 → H100 → B200 → Rubin).

    Rows: {generation, chip, year, status, bandwidth (B/s), capacity (B), scale_up_domain, step, launch_step}.
    """
    rows, launches = [], []
    for gen, name in generations:
        chip = hardware.get(name)
        arch = gen.split()[0]
        first = not launches or launches[-1][0] != arch and all(a != arch for a, _ in launches)
        step = chip.hbm_bandwidth / rows[-1]["bandwidth"] if rows else None
        launch_step = chip.hbm_bandwidth / launches[-1][1] if first and launches else None
        if first:
            launches.append((arch, chip.hbm_bandwidth))
        rows.append(dict(generation=gen, chip=name, year=chip.year, status=chip.status,
                         bandwidth=chip.hbm_bandwidth, capacity=chip.hbm_capacity,
                         scale_up_domain=chip.scale_up_domain, step=step, launch_step=launch_step))
    return rows


# --- the lecture's ~2 KB/token model ---------------------------------------------------------------
def lecture_model(total_params=2e12, active_params=100e9) -> models.Model:
    """The chapter's hypothetical frontier model: 2T parameters (2 TB in fp8), 100B active, and
    ~2 KB of KV per token (what Gemini's long-context price implies, chapter 6).

    The KV is one global attention layer with 4 KV heads × 128 dims in bf16 = 2,048 bytes/token (the
    same bytes as the lecture's 8 heads at 1 byte each). Hypothetical: not a registry model.
    """
    check_positive("total_params", total_params)
    check_positive("active_params", active_params)
    return models.Model(name="the lecture's ~2 KB/token model (hypothetical)", total_params=total_params,
                        active_params=active_params, n_layers=1, d_model=8192, n_heads=64, n_kv_heads=4,
                        head_dim=128, notes="hypothetical: one global KV layer, 2,048 bytes per token in bf16")


__all__ = ["c_mem_expr", "c_mem_eq", "weights_per_chip_expr", "kv_per_chip_expr", "global_batch_expr",
           "c_mem_micro_expr", "kv_per_chip_micro_expr", "max_context_expr", "context_ceiling_expr",
           "hop_step_expr", "t_weights_domain_expr", "t_weights_pipelined_expr", "PerChip", "per_chip_bytes",
           "per_chip_bytes_micro", "hbm_per_chip", "max_context", "context_ceiling", "HopRange",
           "hop_step_time", "hop_range", "weight_read_time", "GENERATIONS", "bandwidth_by_generation",
           "lecture_model"]
