"""Flashcards for notebook 03 (lecture chapter 2: MoE models on GPU racks): numeric cards and drills (see cards.py).

The chapter's lecture card (10) is L2.01 in cards_lecture.py. Every answer here is computed by lecture_lib
when the deck is built. Ids start with "N2." (numeric) and "D2." (drills).
"""
from __future__ import annotations

import random

from ..units import fmt
from .cards import Card, Drill

NOTEBOOK = "03"
CHAPTER = 2


def _card(cid, front, back, value, unit, rtol=0.02, tags=()):
    return Card(cid, CHAPTER, front, back, NOTEBOOK, ("moe",) + tuple(tags), float(value), unit, rtol, "numeric")


def cards() -> list[Card]:
    """The numeric cards of notebook 03 (computed now, from the library)."""
    from .. import hardware, models, moe, pipeline
    from ..lecture import SAID
    out = []
    m, rack = models.get("DeepSeek-V3"), hardware.get("GB200-NVL72")

    lay = moe.expert_layout(m.n_experts, rack.n_chips)
    out.append(_card("N2.experts_per_gpu", f"{m.name}'s {m.n_experts} experts on a {rack.n_chips}-GPU rack: experts "
                     "per GPU, and how many GPUs?",
                     f"{lay.per_chip} per GPU on {lay.used} GPUs ({lay.idle} idle): {rack.n_chips} does not divide "
                     f"{m.n_experts}.", lay.per_chip, "experts", rtol=0.001))

    b = moe.param_budget(m)
    out.append(_card("N2.dsv3_total", f"{m.name}: total parameters summed from the config (embedding, head, MLA, "
                     "dense MLPs, shared and routed experts, routers), in billions?",
                     f"{b.total / 1e9:.0f}B, of which routed experts {b.routed_experts / 1e9:.0f}B "
                     f"({b.routed_experts / b.total:.0%}); active {b.active / 1e9:.1f}B.", b.total / 1e9, "billion params",
                     rtol=0.005))

    per_tok = moe.dispatch_bytes(m, 1, "fp8") + moe.combine_bytes(m, 1, "bf16")
    out.append(_card("N2.bytes_per_token", f"{m.name}, one token, one MoE layer: dispatch (fp8) + combine (bf16) "
                     "bytes, in KB?",
                     f"{per_tok / 1e3:.0f} KB = {m.experts_per_token} × {m.d_model:,} × (1 + 2) bytes: k copies of "
                     f"d_model each way; × {m.n_moe_layers} layers = {fmt(per_tok * m.n_moe_layers, 'B')} per token.",
                     per_tok / 1e3, "KB"))

    s2 = moe.slowdown(2, SAID["scaleout_slower"])
    out.append(_card("N2.two_racks", f"An expert layer over 2 racks, scale-out {SAID['scaleout_slower']}× slower: "
                     "how much slower is its all-to-all (same tokens per GPU)?",
                     f"{s2:g}×: half the traffic leaves the rack over a link {SAID['scaleout_slower']}× slower. "
                     "It tends to ρ as racks are added.", s2, "×"))

    rho = pipeline.bandwidth_ratio("GB200-NVL72")
    out.append(_card("N2.gb200_rho", "GB200-NVL72: NVLink 5 per GPU (one direction) ÷ its 400 Gb/s NIC?",
                     f"{rho:g}× = {fmt(rack.scaleup_bandwidth, 'B/s')} ÷ {fmt(rack.scaleout_bandwidth, 'B/s')}; "
                     f"the lecture says about {SAID['scaleout_slower']}×.", rho, "×"))

    d = moe.domain_capacity("GB200-NVL72", "fp8", 0.5)
    out.append(_card("N2.rack_max_model", "Largest fp8 model a GB200-NVL72 holds with half its HBM left for KV, "
                     "in trillions of parameters?",
                     f"{d.max_params / 1e12:.1f}T = ½ × {fmt(d.hbm_capacity, 'B')} / 1 byte; read once in "
                     f"{fmt(d.weight_floor_s, 's')}.", d.max_params / 1e12, "trillion params"))

    h = moe.domain_capacity("HGX-H100", "fp8", 0.5)
    out.append(_card("N2.hopper_max_model", "Largest fp8 model an 8×H100 box holds with half its HBM left for KV, "
                     "in billions of parameters?",
                     f"{h.max_params / 1e9:.0f}B = ½ × {fmt(h.hbm_capacity, 'B')}. GPT-4 was RUMOURED at over 1T.",
                     h.max_params / 1e9, "billion params"))
    return out


# --- drills ----------------------------------------------------------------------------------------
def _leave_drill(rng: random.Random):
    from .. import moe
    from .. import notation as nt
    R = rng.choice([2, 3, 4, 5, 8, 16])
    value = float(moe.frac_out_of_rack_expr.subs(nt.R_rk, R))
    return (f"An expert layer spans {R} racks, routing uniform: what fraction of its routed traffic leaves "
            "the rack? (0 to 1)", value, f"(R − 1)/R = {R - 1}/{R} = {value:.3g}")


def _slowdown_drill(rng: random.Random):
    from .. import moe
    R, rho = rng.choice([2, 3, 4, 8]), rng.choice([4, 8, 9, 16, 18])
    value = moe.slowdown(R, rho)
    return (f"{R} racks, scale-out {rho}× slower than scale-up: all-to-all slowdown against one rack (×)?", value,
            f"max(1/R, ρ·(R−1)/R) = {value:.3g}")


def _bytes_drill(rng: random.Random):
    from .. import moe
    from ..formula import numeric
    k, d, b = rng.choice([1, 2, 4, 8]), rng.choice([2048, 4096, 5120, 7168, 8192]), rng.choice([1, 2])
    value = numeric(moe.dispatch_bytes_expr)(B=1, k_act=k, d_model=d, b_disp=b) / 1e3
    return (f"k = {k}, d_model = {d:,}, {b}-byte activations: dispatch bytes of one token in one MoE layer, in KB?",
            value, f"k · d_model · bytes = {k} × {d:,} × {b} = {value:.4g} KB")


DRILLS = [
    Drill("D2.leave_rack", CHAPTER, _leave_drill, unit="", rtol=0.02, notebook=NOTEBOOK),
    Drill("D2.slowdown", CHAPTER, _slowdown_drill, unit="×", rtol=0.02, notebook=NOTEBOOK),
    Drill("D2.dispatch_bytes", CHAPTER, _bytes_drill, unit="KB", rtol=0.02, notebook=NOTEBOOK),
]
