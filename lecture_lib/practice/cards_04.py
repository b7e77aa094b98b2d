"""Flashcards for notebook 04 (lecture chapter 3: pipeline parallelism): numeric cards and drills (see cards.py).

The chapter's three lecture cards (11-13) are L3.01-L3.03 in cards_lecture.py. Every answer here is
computed by lecture_lib when the deck is built. Ids start with "N3." (numeric) and "D3." (drills).
"""
from __future__ import annotations

import random

from ..units import fmt
from .cards import Card, Drill

NOTEBOOK = "04"
CHAPTER = 3


def _card(cid, front, back, value, unit, rtol=0.02, tags=()):
    return Card(cid, CHAPTER, front, back, NOTEBOOK, ("pipeline",) + tuple(tags), float(value), unit, rtol, "numeric")


def cards() -> list[Card]:
    """The numeric cards of notebook 04 (computed now, from the library)."""
    from .. import hardware, pipeline
    from ..lecture import SAID
    out = []

    k, rho = SAID["typical_k"], SAID["scaleout_slower"]
    r = pipeline.boundary_ratio_k(k, 1, rho)
    out.append(_card("N3.boundary_lecture", f"Rack-boundary test with the lecture's numbers: k = {k} experts per token, "
                     f"one MoE layer per rack, scale-out {rho}× slower. t_scale-up / t_scale-out = ?",
                     f"{r:g} = (1/{rho}) · {k} · 1 · 2 (dispatch + combine). ≥ 1, so even one rack per layer works.",
                     r, ""))

    rho300 = pipeline.bandwidth_ratio("GB300-NVL72")
    g300 = hardware.get("GB300-NVL72")
    out.append(_card("N3.gb300_rho", "GB300-NVL72: scale-up ÷ scale-out bandwidth per GPU, one direction each?",
                     f"{rho300:g} = {fmt(g300.scaleup_bandwidth, 'B/s')} (NVLink 5, half of "
                     f"{fmt(g300.scale_up_bandwidth, 'B/s')} both ways) ÷ {fmt(g300.scaleout_bandwidth, 'B/s')} "
                     f"(the NIC: {g300.scaleout_bandwidth * 8 / 1e9:g} Gb/s). The lecture: \"about {rho}×\".", rho300, "×"))

    rho200 = pipeline.bandwidth_ratio("GB200-NVL72")
    nic200 = hardware.get("GB200-NVL72").scaleout_bandwidth * 8 / 1e9
    need = pipeline.min_layers_per_stage_k(k, rho200)
    out.append(_card("N3.gb200_min_layers", f"GB200-NVL72 ({nic200:g} Gb/s NIC per GPU), k = {k}: minimum MoE layers "
                     "per stage, ρ/(2k), before rounding?",
                     f"{need:.4g} = {rho200:g} / {2 * k}, so {int(-(-need // 1))} whole layers per rack: one rack per "
                     "layer just fails here.", need, "layers"))

    b = pipeline.bubble_fraction(4, 4)
    out.append(_card("N3.bubble_4_4", "GPipe bubble with P = 4 stages and M = 4 micro-batches, in %?",
                     f"{100 * b:.0f}% = (P−1)/(M+P−1) = {4 - 1}/{4 + 4 - 1}. M = 16 gives "
                     f"{100 * pipeline.bubble_fraction(4, 16):.0f}%.",
                     100 * b, "%"))

    m5 = next(m for m in range(1, 10_000) if pipeline.bubble_fraction(8, m) <= 0.05)
    out.append(_card("N3.microbatches_5pct", "P = 8 stages: how many micro-batches per step keep the bubble ≤ 5%?",
                     f"{m5}: solve {8 - 1}/(M + {8 - 1}) = 0.05, M = {8 - 1} × {1 / 0.05 - 1:g}. Small bubbles need "
                     "big batches.", m5, "micro-batches",
                     rtol=0.001))

    w = SAID["model_1t_params"] * 1.0 / hardware.get("GB300-NVL72").hbm_capacity
    out.append(_card("N3.weight_fraction", "A 1T-parameter model in fp8 on one GB300-NVL72: what % of the rack's "
                     "HBM do the weights take?",
                     f"{100 * w:.1f}% = {fmt(SAID['model_1t_params'], 'B')} / "
                     f"{fmt(hardware.get('GB300-NVL72').hbm_capacity, 'B')}: rack memory is "
                     "in surplus for weights; pipelining's capacity gain is rarely needed.", 100 * w, "%"))

    zb, one = pipeline.schedule("zero-bubble", 4, 8), pipeline.schedule("1f1b", 4, 8)
    gain = (pipeline.idle_fraction(one) * one.makespan) / (pipeline.idle_fraction(zb) * zb.makespan)
    out.append(_card("N3.zero_bubble_gain", "Zero-bubble ZB-H1 (arXiv 2401.10241, not in the lecture) vs 1F1B with "
                     "t_F = t_B = t_W: how many times less idle time per stage?",
                     f"{gain:.0f}×: (P−1)(t_F+t_B−t_W) against (P−1)(t_F+t_B+t_W). The weight-gradient passes, "
                     "which nothing waits for, fill the tail.", gain, "×"))
    return out


# --- drills ----------------------------------------------------------------------------------------
def _boundary_drill(rng: random.Random):
    from .. import pipeline
    k, L, rho = rng.choice([1, 2, 4, 6, 8, 16]), rng.randint(1, 6), rng.choice([4, 8, 9, 12, 16, 18, 32])
    value = pipeline.boundary_ratio_k(k, L, rho)
    verdict = "fine" if value >= 1 else "the boundary is the bottleneck"
    return (f"k = {k} experts per token, {L} MoE layer{'s' if L > 1 else ''} per rack, scale-up {rho}× faster than "
            "scale-out: t_scale-up / t_scale-out?", value, f"(1/{rho}) · {k} · {L} · 2 = {value:.4g}: {verdict}")


def _bubble_drill(rng: random.Random):
    from .. import pipeline
    P, M = rng.choice([2, 3, 4, 6, 8, 16]), rng.choice([1, 2, 4, 8, 12, 16, 32, 64])
    value = 100 * pipeline.bubble_fraction(P, M)
    return (f"GPipe schedule, P = {P} stages, M = {M} micro-batches: bubble in %?", value,
            f"(P−1)/(M+P−1) = {P - 1}/{M + P - 1} = {value:.3g}%")


def _layers_drill(rng: random.Random):
    from .. import pipeline
    k, rho = rng.choice([1, 2, 4, 8, 16]), rng.choice([4, 8, 9, 12, 16, 18, 32, 36])
    value = pipeline.min_layers_per_stage_k(k, rho)
    return (f"Scale-up ÷ scale-out = {rho}, k = {k}: MoE layers per stage at which the boundary stops being the "
            "bottleneck (before rounding)?", value, f"ρ/(2k) = {rho}/{2 * k} = {value:.4g}")


DRILLS = [
    Drill("D3.boundary", CHAPTER, _boundary_drill, unit="", rtol=0.02, notebook=NOTEBOOK),
    Drill("D3.bubble", CHAPTER, _bubble_drill, unit="%", rtol=0.02, notebook=NOTEBOOK),
    Drill("D3.min_layers", CHAPTER, _layers_drill, unit="layers", rtol=0.02, notebook=NOTEBOOK),
]
