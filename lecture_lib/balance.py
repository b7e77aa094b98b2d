"""The balance batch, and what follows from it when a model is served (chapter 1, second half).

    B*    = r · N_tot / N_act = r / sparsity,   r = (F / 2) · b_w / BW     hardware ratio (~300) × model ratio
    B*_kv = t_weights / (2·N_act/F − L_ctx·b_kv/BW)              the KV reads use up bandwidth
    B*_expert = r · n / k                                        per-expert reading (moe): each routed
                                                                 expert sees >= r tokens per step
    tok/s = B / T_step                                           throughput of one deployment

Sparsity, one meaning throughout the course: sparsity = N_active / N_total (`Model.sparsity`, a
fraction; DeepSeek-V3 ≈ 0.055), so the balance batch is r / sparsity = r × N_total / N_active
(syllabus §2 ch.1). The lecture's "sparsity 8" is N_total / N_active = 1 / sparsity.

The equations themselves live in `roofline`; this module reads them across the registry (the ratio
across chip generations, drain times, throughput against global traffic) and varies the model's
sparsity. The lecture's own figures are in `lecture.SAID`, shown beside every computed one.
Units: seconds, bytes, FLOP/s, bytes/s, tokens, sequences; arrays broadcast where a docstring says so.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from . import hardware, models, moe, roofline, traffic
from ._registry import Source
from .formula import numeric, out
from .lecture import SAID
from .notation import N_act, N_tot, l_pass, r_hw
from .units import check_at_least, check_positive, dtype_bytes

# --- the balance batch as hardware ratio × model ratio -------------------------------------------
#: (F / 2) · b_w / BW: multiply-adds per second over weight parameters read per second (~300)
hardware_ratio_expr = roofline.lecture_ratio_expr.subs(roofline.lecture_substitution)
#: sparsity = N_act / N_tot (a fraction, `Model.sparsity`; DeepSeek-V3 ≈ 0.055)
sparsity_expr = N_act / N_tot
#: N_tot / N_act = 1 / sparsity (the lecture's "sparsity 8" is this ratio)
model_ratio_expr = 1 / sparsity_expr
#: the lecture's form: B* = ("FLOPs" / mem_bw) · N_tot / N_act with FLOPs = multiply-adds, N in bytes
lecture_balance_batch_expr = roofline.lecture_ratio_expr * model_ratio_expr
#: the same with the hardware ratio given as a number r
balance_batch_from_ratio_expr = r_hw * model_ratio_expr


def balance_batch_from_ratio(ratio, total_over_active):
    """The lecture's B* = ratio × N_total / N_active (sequences); arrays broadcast.

    ratio: the dimensionless hardware ratio (≈300); total_over_active: 1 / sparsity (>= 1).
    """
    check_positive("ratio", ratio)
    check_at_least("total_over_active", total_over_active, 1)
    return numeric(balance_batch_from_ratio_expr)(r=ratio, N_tot=total_over_active, N_act=1.0)


def expert_balance_batch(hw, model, weight_dtype: str = "bf16", compute_dtype: str | None = None) -> float:
    """Per-expert balance batch on a system: r · n / k tokens per step (sequences in decode).

    The batch at which each routed expert's matmuls (B·k/n tokens against its weights) take as long as
    reading that expert's weights, with r = F·b_w/(2·BW) of `hw` at `weight_dtype`. Assumes no overlap
    between operations: each expert's read hides only behind its own matmuls (the aggregate roofline,
    `roofline.balance_batch`, lets all operations of a step overlap). Uniform routing, KV left out.
    """
    chip, m = hardware.resolve(hw), models.resolve(model)
    if not m.is_moe:
        raise ValueError(f"model={m.name!r} is dense; the per-expert balance batch needs an MoE model")
    return numeric(moe.expert_balance_batch_expr)(
        F=roofline._compute_rate(chip, weight_dtype, compute_dtype), BW=chip.hbm_bandwidth,
        b_w=dtype_bytes(weight_dtype, "weight_dtype"), k_act=m.experts_per_token, n_exp=m.n_experts)


def sparsity_readings(model="DeepSeek-V3", lecture_active_experts: int | None = None) -> dict:
    """Three readings of N_total / N_active (= 1 / sparsity) for an MoE model (dimensionless).

    'lecture': n_experts / lecture_active_experts (the lecture's '32 of 256' for DeepSeek-V3);
    'parameters': total_params / active_params (what the weight-fetch term really needs);
    'experts': n_experts / experts_per_token (routed experts only; ignores the shared weights).
    """
    m = models.resolve(model)
    if not m.is_moe:
        raise ValueError(f"model={m.name!r} is dense; sparsity readings need an MoE model")
    ratio = numeric(model_ratio_expr)
    out_ = {"parameters": ratio(N_tot=m.total_params, N_act=m.active_params),
            "experts": ratio(N_tot=m.n_experts, N_act=m.experts_per_token)}
    if lecture_active_experts is None and m.name == "DeepSeek-V3":
        lecture_active_experts = SAID["dsv3_active_experts"]
    if lecture_active_experts is not None:
        check_positive("lecture_active_experts", lecture_active_experts)
        out_ = {"lecture": ratio(N_tot=m.n_experts, N_act=lecture_active_experts), **out_}
    return out_


def ratio_table(names=None, dtypes=("bf16", "fp8", "fp4")) -> list[dict]:
    """One row per (chip, dtype) with a published rate: the hardware ratio two ways.

    Keys: chip, vendor, year, status, dtype, flop_per_byte (F / BW, FLOP/byte),
    lecture_ratio ((F/2) / (BW / b_w): multiply-adds per weight parameter read, dimensionless).
    """
    rows = []
    for name in names or hardware.names("chips"):
        chip = hardware.resolve(name)
        for dtype in dtypes:
            if dtype not in chip.peak_flops:
                continue
            rows.append(dict(chip=chip.name, vendor=chip.vendor, year=chip.year, status=chip.status,
                             dtype=dtype, flop_per_byte=roofline.hardware_ratio(chip, dtype),
                             lecture_ratio=roofline.lecture_ratio(chip, dtype)))
    return rows


# --- drain time ------------------------------------------------------------------------------------
def drain_table(names=None) -> list[dict]:
    """One row per chip: capacity (bytes), bandwidth (bytes/s), drain time (s), status."""
    rows = []
    for name in names or hardware.names("chips"):
        chip = hardware.resolve(name)
        rows.append(dict(chip=chip.name, vendor=chip.vendor, year=chip.year, status=chip.status,
                         capacity=chip.hbm_capacity, bandwidth=chip.hbm_bandwidth,
                         drain_s=roofline.drain_time(chip)))
    return rows


def rubin_as_in_lecture() -> hardware.Chip:
    """Rubin with the lecture's 20 TB/s (the registry's public figure is ~22 TB/s)."""
    public = hardware.get("Rubin")
    return hardware.Chip("Rubin (lecture: 20 TB/s)", dict(public.peak_flops), SAID["rubin_bandwidth"],
                         SAID["rubin_capacity"], status="announced",
                         source=Source("https://www.dwarkesh.com/p/reiner-pope", "2026-04-29", "U",
                                       "the lecture's round figure"))


# --- throughput ----------------------------------------------------------------------------------
#: tokens per second of a decode deployment that emits B tokens every T_step
throughput_expr = roofline.throughput_expr.subs(l_pass, 1)


def throughput(batch, step_s):
    """Tokens per second = batch / step time (arrays broadcast)."""
    check_positive("batch", batch)
    check_positive("step_s", step_s)
    return numeric(throughput_expr)(B=batch, T_step=step_s)


def steps_per_second(step_s):
    """1 / step time (Hz)."""
    check_positive("step_s", step_s)
    return numeric(throughput_expr)(B=1.0, T_step=step_s)


def throughput_at_balance(hw, model, weight_dtype="bf16", context=0, kv_dtype="bf16",
                          compute_dtype=None) -> dict:
    """A system at its balance batch: dict(batch, step_s, tok_s).

    At the balance point the step is compute-bound, so tok/s = F / (2·N_act) whatever the context;
    a longer context only lengthens the step (and the batch). ValueError past the balance context.
    """
    batch = roofline.balance_batch(hw, model, weight_dtype, context, kv_dtype, compute_dtype)
    if not np.isfinite(batch):
        raise ValueError(f"context={context} is at or beyond the balance context: no batch balances")
    r = roofline.step_time(hw, model, batch, context, weight_dtype, kv_dtype, compute_dtype=compute_dtype)
    return dict(batch=float(batch), step_s=float(r.total), tok_s=throughput(batch, float(r.total)))


def throughput_at_max_batch(hw, model, context, weight_dtype="bf16", kv_dtype="bf16",
                            compute_dtype=None) -> dict:
    """A system at the largest batch whose KV caches fit beside the weights (`roofline.max_batch`).

    Returns dict(batch, step_s, tok_s, drain_s, bound, hbm_bytes, fits): the step (s) at that batch,
    tokens per second, the drain time (s), which side of the roofline binds, the bytes in HBM.
    When that step is memory-bound it reads the whole of (full) HBM once: step ≈ drain time, the
    lecture's "why 20 ms". context: tokens per sequence (> 0). ValueError if the weights do not fit.
    """
    batch = roofline.max_batch(hw, model, context, weight_dtype, kv_dtype)
    if np.any(np.asarray(batch) < 1):
        raise ValueError(f"not one sequence at context={context} fits beside the weights on "
                         f"{hardware.resolve(hw).name}")
    r = roofline.step_time(hw, model, batch, context, weight_dtype, kv_dtype, compute_dtype=compute_dtype)
    return dict(batch=out(np.asarray(batch, float)), step_s=out(r.total),
                tok_s=throughput(batch, r.total), drain_s=roofline.drain_time(hw), bound=r.bound,
                hbm_bytes=out(r.hbm_bytes), fits=r.fits)


def fraction_of_volume(tok_s, volume="google-2025-10"):
    """tok_s as a fraction of a published global volume (a traffic key, TokenVolume or tokens/month).

    The published volumes count every token, input (prefill) and output (decode); a decode deployment's
    tok/s counts output only, so the fraction is a rough share, not like for like.
    """
    check_positive("tok_s", tok_s)
    return out(np.asarray(tok_s, float) / traffic.tokens_per_second(volume))


# --- sparsity against quality, and what sparsity costs instead -----------------------------------
@dataclass(frozen=True)
class RoutedScalingPoint:
    """A routed (MoE) model matched in quality by a dense model (Clark et al. 2022)."""
    n_experts: int
    active_params: float
    dense_equivalent_params: float
    source: Source

    @property
    def quality_multiple(self) -> float:
        """Dense-equivalent parameters / active parameters: what the experts buy."""
        return self.dense_equivalent_params / self.active_params


CLARK_2022 = RoutedScalingPoint(
    n_experts=64, active_params=370e6, dense_equivalent_params=1.3e9,
    source=Source("https://arxiv.org/abs/2202.01169", "2026-11", "S",
                  "Unified Scaling Laws for Routed Language Models (Clark et al., DeepMind 2022), as shown "
                  "in the lecture: a 64-expert model with 370M active parameters matches a dense 1.3B model"))


def sparsity_sweep(hw, model, total_over_active, context, weight_dtype="bf16", kv_dtype="bf16",
                   compute_dtype=None) -> dict:
    """Keep `model`'s active parameters and KV, vary N_total / N_active; arrays of:

    total_params, weight_bytes, balance_batch (with the KV at `context`), max_batch (sequences that
    fit in HBM beside the weights), headroom = max_batch / balance_batch (< 1: the balance batch no
    longer fits: the sparser model needs more memory, i.e. more chips).
    """
    chip, m = hardware.resolve(hw), models.resolve(model)
    check_positive("context", context)
    ratios = np.atleast_1d(np.asarray(check_at_least("total_over_active", total_over_active, 1), float))
    res = {k: np.empty(ratios.size) for k in ("total_params", "weight_bytes", "balance_batch", "max_batch")}
    for i, r in enumerate(ratios):
        mi = replace(m, name=f"{m.name} x{r:g}", total_params=r * m.active_params, source=None)
        res["total_params"][i] = mi.total_params
        res["weight_bytes"][i] = mi.weight_bytes(weight_dtype)
        res["balance_batch"][i] = roofline.balance_batch(chip, mi, weight_dtype, context, kv_dtype, compute_dtype)
        res["max_batch"][i] = roofline.max_batch(chip, mi, context, weight_dtype, kv_dtype)
    res["headroom"] = res["max_batch"] / res["balance_batch"]
    res["total_over_active"] = ratios
    return res


__all__ = ["hardware_ratio_expr", "sparsity_expr", "model_ratio_expr", "expert_balance_batch",
           "throughput_at_max_batch", "lecture_balance_batch_expr",
           "balance_batch_from_ratio_expr", "balance_batch_from_ratio", "sparsity_readings", "ratio_table",
           "drain_table", "rubin_as_in_lecture", "throughput_expr", "throughput", "steps_per_second",
           "throughput_at_balance", "fraction_of_volume", "RoutedScalingPoint", "CLARK_2022",
           "sparsity_sweep"]
