"""Flashcards for notebook 05 (lecture chapter 4, the memory wall): numeric cards and drills (see cards.py).

The chapter's lecture card is L4.01 in cards_lecture.py (and L3.03 asks why KV does not shrink with P).
Every answer here is computed by lecture_lib when the deck is built. Ids start with "N4." (numeric) and
"D4." (drills).
"""
from __future__ import annotations

import random

from ..units import GB, MS, fmt
from .cards import Card, Drill

NOTEBOOK = "05"


def _card(cid, front, back, value, unit, rtol=0.02, tags=()):
    return Card(cid, 4, front, back, NOTEBOOK, ("memory-wall",) + tuple(tags), float(value), unit, rtol, "numeric")


def cards() -> list[Card]:
    """The numeric cards of notebook 05 (computed now, from the library and the lecture's figures)."""
    from .. import hardware, memory, models
    from ..lecture import SAID as L
    out = []
    toy = memory.lecture_model()
    E, b, P = L["expert_parallel"], L["dsv3_balance_batch"], L["pipeline_stages"]
    ctx = 100_000
    r = memory.per_chip_bytes_micro(toy, b, ctx, E, P)
    kv_b = fmt(toy.kv_bytes_per_token("bf16"), "B/token")
    out.append(_card("N4.kv_per_gpu", f"{fmt(toy.total_params * 1.0, 'B')} of fp8 weights, E = {E}, P = {P}, "
                     f"micro-batch b = {b:,}, {fmt(ctx)} tokens at {kv_b}: KV per GPU, in GB?",
                     f"{fmt(r.kv, 'B')} = b·L·b_kv/E. P cancels: P micro-batches in flight, 1/P of the layers each.",
                     r.kv / GB, "GB"))
    out.append(_card("N4.weights_per_gpu", f"The same setup: weights per GPU, in GB?",
                     f"{fmt(r.weights, 'B')} = N·b_w/(E·P): the only term pipelining shrinks.", r.weights / GB, "GB"))

    h = memory.hop_range()
    out.append(_card("N4.hop_said", f"A {fmt(L['hop_step_before_s'], 's')} decode step pipelined over {P} racks, "
                     f"{fmt(L['hop_s'], 's')} per rack hop: step time in ms?",
                     f"{fmt(h.said, 's')} = T + P·t_hop (P hops: the loop returns to the first stage).", h.said / MS, "ms"))
    u = L["hop_uncertainty"]
    out.append(_card("N4.hop_high", f"The same, with the hop {u}× slower (the lecture's 'off by an order of "
                     f"magnitude'): step time in ms?",
                     f"{fmt(h.high, 's')}; at {u}× faster it is {fmt(h.low, 's')}. Quote the range, not one number.",
                     h.high / MS, "ms"))

    one_t = models.Model(name="1T", total_params=1e12, active_params=1e11, n_layers=1, d_model=1, n_heads=1,
                         n_kv_heads=1, head_dim=1)
    box, rack = hardware.get("HGX-H100"), hardware.get("GB200-NVL72")
    t_box, t_rack = memory.weight_read_time(box, one_t), memory.weight_read_time(rack, one_t)
    tb = fmt(one_t.total_params * 1.0, "B")

    def per_gpu(s):
        return f"{s.n_chips} × {fmt(s.hbm_bandwidth / s.n_chips, 'B/s')}"
    out.append(_card("N4.read_box", f"Read {tb} of weights once on an {box.n_chips} × H100 box ({fmt(box.hbm_bandwidth / box.n_chips, 'B/s')} "
                     "each): ms?",
                     f"{fmt(t_box, 's')} = {tb} / ({per_gpu(box)}). Pipelining over more boxes leaves it unchanged.",
                     t_box / MS, "ms"))
    out.append(_card("N4.read_rack", f"Read {tb} of weights once on a GB200 NVL72 ({per_gpu(rack)}): ms?",
                     f"{fmt(t_rack, 's')}: {t_box / t_rack:.0f}× faster than the Hopper box. Scale-up size buys "
                     "bandwidth, i.e. latency.", t_rack / MS, "ms"))

    c = memory.context_ceiling("GB300", "DeepSeek-V3", b, E)
    kv_dsv3 = models.get("DeepSeek-V3").kv_bytes_per_token("bf16")
    out.append(_card("N4.ceiling_dsv3", f"DeepSeek-V3 ({fmt(kv_dsv3, 'B/token')} in bf16), b = {b:,}, E = {E}, "
                     f"{fmt(hardware.get('GB300').hbm_capacity, 'B')} per GPU, weights "
                     "sharded away by pipelining: longest context, in tokens?",
                     f"≈ {fmt(c, 'tok')} = C·E/(b·b_kv). No P raises it.", c, "tokens"))

    hop_d, bw_d = hardware.get("H100-SXM").scale_up_domain, hardware.get("GB200").scale_up_domain
    up = bw_d / hop_d
    out.append(_card("N4.scaleup", "Scale-up domain, Hopper HGX to Blackwell NVL72: how many times more GPUs?",
                     f"{up:.0f}× ({hop_d} → {bw_d}); the lecture says {L['scaleup_growth']}×, counting the "
                     f"{L['ep_used_gpus']} GPUs it uses for experts.", up, "×"))
    return out


# --- drills ----------------------------------------------------------------------------------------
def _kv_drill(rng: random.Random):
    from .. import memory, models
    b = rng.choice([256, 512, 1000, 2000, 2400, 4000])
    ctx = rng.choice([8_000, 32_000, 100_000, 200_000, 1_000_000])
    kv_heads = rng.choice([1, 2, 4, 8])
    E = rng.choice([8, 32, 64, 72])
    P = rng.choice([1, 2, 4, 8])
    m = models.Model(name="drill model", total_params=1e12, active_params=5e10, n_layers=1, d_model=8192,
                     n_heads=64, n_kv_heads=kv_heads, head_dim=128)
    kv = memory.per_chip_bytes_micro(m, b, ctx, E, P).kv
    b_kv = m.kv_bytes_per_token("bf16")
    return (f"KV per GPU in GB: micro-batch b = {b:,}, P = {P} stages (P micro-batches in flight), E = {E} GPUs per "
            f"stage, {ctx:,} tokens at {b_kv:,.0f} B/token?", kv / GB,
            f"b·L·b_kv/E = {b:,} × {ctx:,} × {b_kv:,.0f} / {E} = {fmt(kv, 'B')} (P cancels)")


def _read_drill(rng: random.Random):
    from .. import hardware, memory, models
    params = rng.choice([0.3e12, 0.6e12, 1e12, 2e12, 5e12])
    n = rng.choice([8, 16, 64, 72])
    bw = rng.choice([2, 3.35, 4.8, 8, 13, 20])
    P = rng.choice([1, 2, 4])
    m = models.Model(name="drill model", total_params=params, active_params=params / 20, n_layers=1, d_model=1,
                     n_heads=1, n_kv_heads=1, head_dim=1)
    chip = hardware.Chip(name="drill chip", flops={"fp8": 1e15}, hbm_bandwidth=bw * 1e12, hbm_capacity=1e11)
    t = memory.weight_read_time(hardware.system(chip, n), m, "fp8", pipeline_stages=P)
    return (f"{fmt(params, 'params')} in fp8, pipelined over P = {P} domains of {n} GPUs at {bw:g} TB/s each: "
            "weight-read time per step, in ms?", t / MS,
            f"N·b_w/(n·BW) = {fmt(params, 'B')} / ({n} × {bw:g} TB/s) = {fmt(t, 's')}; P cancels")


def _hop_drill(rng: random.Random):
    from .. import memory
    T = rng.choice([10, 15, 20, 30, 40]) * MS
    P = rng.choice([2, 3, 4, 6, 8])
    hop = rng.choice([0.25, 0.5, 1, 2.5, 5, 10, 25]) * MS
    t = memory.hop_step_time(T, P, hop)
    return (f"Decode step {fmt(T, 's')} without hops, P = {P} stages, {fmt(hop, 's')} per rack hop: step time in ms?",
            t / MS, f"T + P·t_hop = {fmt(T, 's')} + {P} × {fmt(hop, 's')} = {fmt(t, 's')}")


DRILLS = [
    Drill("D4.kv_per_gpu", 4, _kv_drill, unit="GB", rtol=0.02, notebook=NOTEBOOK),
    Drill("D4.weight_read", 4, _read_drill, unit="ms", rtol=0.02, notebook=NOTEBOOK),
    Drill("D4.hop_step", 4, _hop_drill, unit="ms", rtol=0.02, notebook=NOTEBOOK),
]
