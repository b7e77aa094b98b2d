"""Pipeline parallelism across racks (lecture chapter 3): the rack-boundary test, schedules and bubbles.

**Is a rack boundary a bottleneck?** A pipeline stage is one rack holding L_stage MoE layers. Per token
and per stage, with d_model numbers of b_act bytes per activation vector:

    scale-up bytes  = 2·k·d_model·b_act·L_stage   dispatch to k experts and combine back, every layer
    scale-out bytes = d_model·b_act               the activation crosses once to the next rack
    t_up / t_out    = (2·k·d_model·b_act·L_stage / W_up) / (d_model·b_act / W_out)
                    = (W_up / W_out)⁻¹ · k · L_stage · 2      the lecture's form, with ρ = W_up / W_out

W_up and W_out are per chip and one direction each (both all-to-all and the boundary are full duplex:
every chip sends and receives the same amount); the tokens a chip handles divide out of the ratio.
t_up / t_out >= 1 means the expert traffic inside the rack takes longer than the boundary crossing,
so the boundary is not the bottleneck; it holds from L_stage = ρ / (2k). The lecture's accounting
(kept here) sends all k copies over the scale-up network, including the 1/E that land on the token's
own chip, and dispatches at the activation precision (DeepSeek dispatches fp8 and combines bf16).

**Bubbles.** In units of one stage-pass: t_F (forward), t_B (backward, input gradient) and t_W (weight
gradient) per micro-batch per stage. GPipe-style training runs all M forwards, then all backwards, then
stops for the optimizer step; the last micro-batch leaves the last stage M + P − 1 slots after the
first entered stage 0, in both directions, so

    makespan       = (M + P − 1)·(t_F + t_B + t_W)
    busy per stage = M·(t_F + t_B + t_W)
    bubble         = 1 − busy / makespan = (P − 1) / (M + P − 1)

1F1B has the same bubble (it saves activation memory, not time). The zero-bubble schedule ZB-H1 of
Qi et al. 2024 (arXiv 2401.10241, from outside the lecture) moves the W passes into the tail and
leaves (P − 1)·(t_F + t_B − t_W) idle per stage. Inference has no optimizer step: a stream of M
micro-batches cycling through P stages keeps every stage busy once M >= P (idle 1 − M/P below that).

`schedule(kind, stages, microbatches)` returns the timeline a Gantt chart draws: Pass(stage, start,
end, what) tuples in units of one forward stage-pass; `idle_fraction` measures the bubble on it.

**Capacity.** Pipelining over P racks puts N_total·b_w / P of weights in each rack; the KV of the
sequences in flight does not shrink (P micro-batches in flight, each rack holding its 1/P of the
layers for all of them). The bytes per chip are chapter 4's c_mem (`memory`, stated there once) with
E = the rack's n_chips and B = P micro-batches of b: N_total·b_w/(n·P) + b·L_ctx·b_kv/n.

Units: bytes, bytes/s, seconds or stage-passes, counts; arrays broadcast.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

import numpy as np
import sympy as sp

from . import hardware, memory, models, moe
from .formula import numeric
from .notation import L_st, M_mb, N_tot, P, W_out, W_up, b_act, b_w, d_model, k_act, rho_bw, t_B, t_F, t_W
from .units import check_at_least, check_positive, dtype_bytes

# --- is a rack boundary a bottleneck? ---------------------------------------------------------------
#: bytes one token sends over the scale-up network in one stage: to k experts and back, every MoE layer
scaleup_bytes_expr = 2 * k_act * d_model * b_act * L_st
#: bytes one token sends over the scale-out network at the stage boundary: its activation, once
scaleout_bytes_expr = d_model * b_act
#: per-chip times (each chip's share of the tokens divides out of the ratio), s
t_up_expr = scaleup_bytes_expr / W_up
t_out_expr = scaleout_bytes_expr / W_out
#: the ratio in bandwidths: 2·k·L_stage·W_out / W_up
boundary_ratio_bw_expr = sp.simplify(t_up_expr / t_out_expr)
#: the ratio with ρ = W_up / W_out substituted: 2·k·L_stage / ρ
boundary_ratio_expr = sp.simplify(boundary_ratio_bw_expr.subs(W_up, rho_bw * W_out))
#: the lecture's blackboard form, unevaluated for display: (1/ρ) · k · L_stage · 2
lecture_boundary_expr = sp.Mul(sp.Pow(rho_bw, -1), k_act, L_st, 2, evaluate=False)


@lru_cache(maxsize=None)
def min_layers_expr():
    """L_stage at which t_up / t_out reaches 1: ρ / (2k) (solved once)."""
    (solution,) = sp.solve(sp.Eq(boundary_ratio_expr, 1), L_st)
    return solution


def _check_k(experts_per_token):
    check_at_least("experts_per_token", experts_per_token, 1)


def _experts_per_token(model) -> float:
    m = models.resolve(model)
    if not m.is_moe:
        raise ValueError(f"{m.name} is a dense model: it has no expert all-to-all inside the rack, so the "
                         "rack-boundary test (which compares it with the boundary crossing) does not apply")
    return float(m.experts_per_token)


def boundary_ratio_k(experts_per_token, layers_per_stage, bandwidth_ratio):
    """t_scale-up / t_scale-out for one stage: 2·k·L_stage / ρ (dimensionless; arrays broadcast).

    experts_per_token k >= 1 (routed experts; a shared expert lives on every chip and sends nothing);
    layers_per_stage L_stage > 0 (MoE layers per rack); bandwidth_ratio ρ > 0 = scale-up ÷ scale-out
    bandwidth per chip. >= 1: the boundary is not the bottleneck.
    """
    _check_k(experts_per_token)
    check_positive("layers_per_stage", layers_per_stage)
    check_positive("bandwidth_ratio", bandwidth_ratio)
    return numeric(boundary_ratio_expr)(k_act=experts_per_token, L_stage=layers_per_stage, rho_bw=bandwidth_ratio)


def boundary_ratio(model, layers_per_stage, bandwidth_ratio):
    """The lecture's scale-up / scale-out time ratio for one stage of `model` (an MoE; name or Model).

    = (bandwidth_ratio)⁻¹ · k · layers_per_stage · 2 with k the model's routed experts per token;
    bandwidth_ratio = scale-up ÷ scale-out bandwidth per chip (see `bandwidth_ratio`). Dimensionless.
    """
    return boundary_ratio_k(_experts_per_token(model), layers_per_stage, bandwidth_ratio)


def min_layers_per_stage_k(experts_per_token, bandwidth_ratio):
    """MoE layers per stage at which the ratio reaches 1: ρ / (2k) (a real number; round up for layers)."""
    _check_k(experts_per_token)
    check_positive("bandwidth_ratio", bandwidth_ratio)
    return numeric(min_layers_expr)(k_act=experts_per_token, rho_bw=bandwidth_ratio)


def min_layers_per_stage(model, bandwidth_ratio):
    """`min_layers_per_stage_k` for `model`'s routed experts per token (layers; not rounded)."""
    return min_layers_per_stage_k(_experts_per_token(model), bandwidth_ratio)


def bandwidth_ratio(hw) -> float:
    """Scale-up ÷ scale-out bandwidth per chip of a chip or system (both one direction; dimensionless).

    The two bandwidths come from `moe.scale_bandwidths` (chapter 2, where ρ is introduced). Raises
    ValueError naming the missing figure where the registry has none (TPUs, A100, MI300X, Rubin).
    """
    w_up, w_out = moe.scale_bandwidths(hw)
    if w_out is None:
        raise ValueError(f"{hardware.resolve(hw).name} has no published scale-out bandwidth per chip in the registry")
    return w_up / w_out


def registry_bandwidth_ratios(kind: str = "systems") -> dict[str, float]:
    """{name: scale-up ÷ scale-out bandwidth} for every registry entry of `kind` that has both figures."""
    out_ = {}
    for name in hardware.names(kind):
        try:
            out_[name] = bandwidth_ratio(name)
        except ValueError:
            pass
    return out_


# --- bubbles, derived from the schedule picture ------------------------------------------------------
#: GPipe-style training: the last micro-batch leaves after M + P − 1 slots each way, then the hard stop
makespan_expr = (M_mb + P - 1) * (t_F + t_B + t_W)
busy_expr = M_mb * (t_F + t_B + t_W)
#: idle fraction of the GPipe (and 1F1B) schedule: (P − 1) / (M + P − 1)
bubble_fraction_expr = sp.factor(sp.cancel(1 - busy_expr / makespan_expr))
#: ZB-H1 (Qi et al. 2024, outside the lecture): (P − 1)·(t_F + t_B − t_W) idle per stage
zero_bubble_idle_expr = (P - 1) * (t_F + t_B - t_W)
zero_bubble_fraction_expr = zero_bubble_idle_expr / (busy_expr + zero_bubble_idle_expr)
#: inference: M micro-batches cycling through P stages; a stage is idle while fewer than P are in flight
inference_idle_expr = sp.Max(0, 1 - M_mb / P)


def _check_counts(**counts):
    for name, value in counts.items():
        check_at_least(name, value, 1)
        arr = np.asarray(value, dtype=float)
        if np.any(arr != np.round(arr)):
            raise ValueError(f"{name} must be a whole number, got {value!r}")


def bubble_fraction(stages, microbatches):
    """Idle fraction of the GPipe-style training schedule: (P − 1) / (M + P − 1) (arrays broadcast).

    stages P >= 1 and microbatches M >= 1, whole numbers. The same for 1F1B; not the lecture's formula
    but the standard one (GPipe, Huang et al. 2019), derived in `bubble_fraction_expr` from the picture.
    """
    _check_counts(stages=stages, microbatches=microbatches)
    return numeric(bubble_fraction_expr)(P=stages, M_mb=microbatches)


def zero_bubble_fraction(stages, microbatches, forward=1.0, backward=1.0, weight=1.0):
    """Idle fraction of ZB-H1 (arXiv 2401.10241): (P−1)(t_F+t_B−t_W) / (M(t_F+t_B+t_W) + that).

    forward, backward (input gradient), weight (weight gradient): durations of one stage-pass, with
    weight <= forward + backward; the paper's formula, valid for microbatches >= stages.
    """
    _check_counts(stages=stages, microbatches=microbatches)
    for name, v in (("forward", forward), ("backward", backward), ("weight", weight)):
        check_positive(name, v)
    return numeric(zero_bubble_fraction_expr)(P=stages, M_mb=microbatches, t_F=forward, t_B=backward, t_W=weight)


def inference_idle_fraction(stages, microbatches):
    """Steady-state idle fraction of pipelined inference: max(0, 1 − M/P) (arrays broadcast).

    No optimizer step, so no hard stop: once M >= P micro-batches are in flight, no stage waits.
    """
    _check_counts(stages=stages, microbatches=microbatches)
    return numeric(inference_idle_expr)(P=stages, M_mb=microbatches)


# --- schedules: the timeline a Gantt chart draws ---------------------------------------------------------
KINDS = ("inference", "gpipe", "1f1b", "zero-bubble")
LABELS = {"inference": "inference: micro-batches stream through, no bubble",
          "gpipe": "training, GPipe: forward all, backward all, hard stop",
          "1f1b": "training, 1F1B: one forward, one backward",
          "zero-bubble": "training, zero bubble ZB-H1 (Qi et al. 2024; not in the lecture)"}
SHORT_LABELS = {"inference": "inference", "gpipe": "GPipe (training)", "1f1b": "1F1B (training)",
                "zero-bubble": "zero bubble ZB-H1 (training; outside the lecture)"}


class Pass(NamedTuple):
    """One box of the Gantt chart: `stage` runs `what` from `start` to `end` (stage-passes).

    what: "F3" forward of micro-batch 3; "B3" its backward (in gpipe/1f1b the whole backward, in
    zero-bubble only the input gradient); "W3" its weight gradient (zero-bubble); "F3.1" in inference
    is micro-batch 3's forward for its token 1 (each decode step is one more trip through the stages).
    """
    stage: int
    start: float
    end: float
    what: str


class Timeline(list):
    """A list of Pass, in start order, plus what it is: kind, stages, microbatches, durations."""

    def __init__(self, passes, kind, stages, microbatches, durations, tokens=None):
        super().__init__(sorted(passes, key=lambda p: (p.start, p.stage)))
        self.kind, self.stages, self.microbatches = kind, stages, microbatches
        self.durations = dict(durations)
        self.tokens = tokens

    @property
    def makespan(self) -> float:
        """End of the last pass (stage-passes); for training, when the optimizer step (hard stop) begins."""
        return max(p.end for p in self)

    @property
    def period(self) -> float:
        """Inference only: time between two tokens of one micro-batch in steady state, max(M, P)·t_F."""
        return max(self.microbatches, self.stages) * self.durations["F"]

    @property
    def steady_window(self) -> tuple[float, float]:
        """Inference only: one period after the fill, (P − 1)·t_F to that plus `period`."""
        start = (self.stages - 1) * self.durations["F"]
        return start, start + self.period


def parse(what: str) -> tuple[str, int, int]:
    """'F3' -> ('F', 3, 0); 'F3.1' -> ('F', 3, 1): pass type, micro-batch, token (inference)."""
    kind, rest = what[0], what[1:]
    micro, _, token = rest.partition(".")
    return kind, int(micro), int(token or 0)


def _times(orders, deps, durations):
    """Start/end of every op, given each stage's op order and each op's dependencies (list scheduling).

    orders: {stage: [op, ...]}; deps: {op: [op, ...]}; durations: {op: duration}. An op starts when its
    stage is free and all its dependencies have ended.
    """
    end, free, pos, waiting = {}, {s: 0.0 for s in orders}, {s: 0 for s in orders}, {}
    todo = list(orders)
    while todo:
        s = todo.pop()
        order = orders[s]
        while pos[s] < len(order):
            op = order[pos[s]]
            missing = next((d for d in deps.get(op, ()) if d not in end), None)
            if missing is not None:             # wake this stage when `missing` is timed
                waiting.setdefault(missing, []).append(s)
                break
            start = max([free[s]] + [end[d] for d in deps.get(op, ())])
            end[op] = free[s] = start + durations[op]
            pos[s] += 1
            todo.extend(waiting.pop(op, ()))
    if any(pos[s] < len(order) for s, order in orders.items()):
        raise RuntimeError("schedule deadlock: an op waits on one that comes later on its own stage")
    return end


def _training_deps(P, M, ops):
    """F(s,m) after F(s−1,m); B(s,m) after B(s+1,m), or after F(P−1,m) on the last stage; W after B."""
    deps = {}
    for (t, s, m) in ops:
        if t == "F":
            deps[(t, s, m)] = [("F", s - 1, m)] if s > 0 else []
        elif t == "B":
            deps[(t, s, m)] = [("B", s + 1, m)] if s < P - 1 else [("F", s, m)]
        else:
            deps[(t, s, m)] = [("B", s, m)]
    return deps


def _gpipe_orders(P, M):
    return {s: [("F", s, m) for m in range(M)] + [("B", s, m) for m in reversed(range(M))] for s in range(P)}


def _1f1b_orders(P, M):
    orders = {}
    for s in range(P):
        warm = min(P - 1 - s, M)
        order = [("F", s, m) for m in range(warm)]
        for i in range(M - warm):
            order += [("F", s, warm + i), ("B", s, i)]
        order += [("B", s, m) for m in range(M - warm, M)]
        orders[s] = order
    return orders


def _zero_bubble_orders(P, M):
    """ZB-H1 (Qi et al. 2024, fig. 3 top): 1F1B's order with the backward split into B (input gradient)
    and W (weight gradient), and stage s running each W s micro-batches late. B passes then race back
    through the stages; the late W passes fill the tail; every stage holds at most P micro-batches'
    activations (1F1B's peak, on stage 0). Its bubble: (P − 1)·(t_F + t_B − t_W) per stage for M >= P."""
    orders = {}
    for s in range(P):
        warm = min(P - 1 - s, M)
        order, w_next = [("F", s, m) for m in range(warm)], 0
        for j in range(M):
            if j < M - warm:
                order.append(("F", s, warm + j))
            order.append(("B", s, j))
            while w_next <= j - s:
                order.append(("W", s, w_next))
                w_next += 1
        order += [("W", s, m) for m in range(w_next, M)]
        orders[s] = order
    return orders


def schedule(kind: str, stages, microbatches, *, forward: float = 1.0, backward: float = 2.0,
             tokens: int = 3) -> Timeline:
    """The Gantt data of one pipeline schedule: a Timeline (list) of Pass(stage, start, end, what).

    kind: "inference", "gpipe", "1f1b" or "zero-bubble" (ZB-H1, arXiv 2401.10241, not in the lecture).
    stages P >= 1, microbatches M >= 1 (whole numbers). Times are in units of one forward stage-pass
    (`forward`); `backward` is one micro-batch's whole backward through one stage (default 2: the
    backward costs twice the forward, the 4 of 6·N·D); zero-bubble splits it into B and W halves.
    inference: M micro-batches each make `tokens` trips through the P stages (one per decode step);
    a micro-batch re-enters stage 0 as soon as it has left the last stage and stage 0 is free.
    Training schedules end at the hard stop (the optimizer step), `Timeline.makespan`.
    """
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    _check_counts(stages=stages, microbatches=microbatches)
    check_positive("forward", forward)
    check_positive("backward", backward)
    P, M = int(stages), int(microbatches)
    if kind == "inference":
        _check_counts(tokens=tokens)
        T = int(tokens)
        ops = [(s, m, t) for t in range(T) for m in range(M) for s in range(P)]
        orders = {s: [("F", s, m, t) for t in range(T) for m in range(M)] for s in range(P)}
        deps = {}
        for (s, m, t) in ops:
            d = []
            if s > 0:
                d.append(("F", s - 1, m, t))
            elif t > 0:
                d.append(("F", P - 1, m, t - 1))
            deps[("F", s, m, t)] = d
        dur = {op: forward for order in orders.values() for op in order}
        end = _times(orders, deps, dur)
        passes = [Pass(s, e - forward, e, f"F{m}.{t}") for (_, s, m, t), e in end.items()]
        return Timeline(passes, kind, P, M, {"F": forward}, tokens=T)
    if kind == "zero-bubble":
        durations = {"F": forward, "B": backward / 2, "W": backward / 2}
        orders = _zero_bubble_orders(P, M)
    else:
        durations = {"F": forward, "B": backward}
        orders = _gpipe_orders(P, M) if kind == "gpipe" else _1f1b_orders(P, M)
    ops = [op for order in orders.values() for op in order]
    dur = {op: durations[op[0]] for op in ops}
    end = _times(orders, _training_deps(P, M, ops), dur)
    passes = [Pass(s, e - dur[(t, s, m)], e, f"{t}{m}") for (t, s, m), e in end.items()]
    return Timeline(passes, kind, P, M, durations)


def idle_fraction(timeline, window: tuple[float, float] | None = None) -> float:
    """Measured idle fraction of a timeline: 1 − busy stage-time / (stages × window length).

    window: (start, end) in the timeline's units; default (0, makespan), the whole training step up to
    the hard stop. For inference pass `timeline.steady_window` (one period once the pipeline is full).
    """
    lo, hi = window if window is not None else (0.0, timeline.makespan)
    if not hi > lo:
        raise ValueError(f"window must have end > start, got {window!r}")
    busy = sum(max(0.0, min(p.end, hi) - max(p.start, lo)) for p in timeline)
    return 1.0 - busy / (timeline.stages * (hi - lo))


# --- what pipelining buys in inference: capacity -------------------------------------------------------
#: weight bytes each of P racks (stages) holds
weights_per_stage_expr = N_tot * b_w / P


@dataclass(frozen=True)
class Capacity:
    """What one rack holds when a model is pipelined over `stages` racks (bytes; per chip where named)."""
    rack: str
    model: str
    stages: int
    rack_hbm: float               # bytes in the rack
    weights_per_rack: float       # bytes of weights each rack holds
    weight_fraction: float        # weights_per_rack / rack_hbm
    hbm_per_chip: float           # bytes of HBM each chip has
    weights_per_chip: float       # bytes of weights each chip holds


def capacity(hw, model, stages=1, weight_dtype: str = "fp8") -> Capacity:
    """The memory side of pipelining `model` over `stages` racks of `hw` (a system or chip).

    Weights only; see `hbm_per_chip_needed` for the KV of the sequences in flight.
    """
    chip, m = hardware.resolve(hw), models.resolve(model)
    _check_counts(stages=stages)
    per_rack = numeric(weights_per_stage_expr)(N_tot=m.total_params, b_w=dtype_bytes(weight_dtype, "weight_dtype"),
                                               P=stages)
    return Capacity(chip.name, m.name, int(stages), chip.hbm_capacity, per_rack, per_rack / chip.hbm_capacity,
                    memory.hbm_per_chip(chip), per_rack / chip.n_chips)


def hbm_per_chip_needed(hw, model, stages, batch, context, weight_dtype: str = "fp8", kv_dtype: str = "bf16"):
    """HBM per chip (bytes) for the weights split over `stages` racks plus the KV of `batch` sequences
    at `context` tokens per micro-batch in flight (arrays broadcast). The KV term does not shrink with P.

    Chapter 4's c_mem (`memory.per_chip_bytes_micro`) with E = the rack's n_chips and b = batch.
    """
    chip = hardware.resolve(hw)
    _check_counts(stages=stages)
    return memory.per_chip_bytes_micro(model, batch, context, chip.n_chips, stages, weight_dtype, kv_dtype).total


def fill_context(hw, model, batch, stages=1, weight_dtype: str = "fp8", kv_dtype: str = "bf16"):
    """Context (tokens, floored) at which `batch` sequences per micro-batch (P of them in flight) plus the
    weights (split over `stages`) fill each rack of `hw`; 0 if the weights alone do not fit.

    Chapter 4's `memory.max_context` with E = the rack's n_chips and B = stages·batch.
    """
    chip = hardware.resolve(hw)
    _check_counts(stages=stages)
    check_positive("batch", batch)
    return memory.max_context(chip, model, np.asarray(stages, float) * np.asarray(batch, float), weight_dtype,
                              kv_dtype, expert_parallel=chip.n_chips, pipeline_stages=stages)


__all__ = ["scaleup_bytes_expr", "scaleout_bytes_expr", "t_up_expr", "t_out_expr", "boundary_ratio_bw_expr",
           "boundary_ratio_expr", "lecture_boundary_expr", "min_layers_expr", "boundary_ratio", "boundary_ratio_k",
           "min_layers_per_stage", "min_layers_per_stage_k", "bandwidth_ratio", "registry_bandwidth_ratios",
           "makespan_expr", "busy_expr", "bubble_fraction_expr", "zero_bubble_idle_expr",
           "zero_bubble_fraction_expr", "inference_idle_expr", "bubble_fraction", "zero_bubble_fraction",
           "inference_idle_fraction", "KINDS", "LABELS", "SHORT_LABELS", "Pass", "Timeline", "parse", "schedule", "idle_fraction",
           "weights_per_stage_expr", "Capacity", "capacity",
           "hbm_per_chip_needed", "fill_context"]
