"""Flashcards for notebook 07 (lecture chapter 6, prices as evidence): numeric cards and drills (see cards.py).

The chapter's five lecture cards are L6.01-L6.05 in cards_lecture.py; cards_numeric.py already has
DeepSeek-V3's and Llama-3-70B's KV bytes per token (N6.*) and the KV-bytes drill (D6.kv_bytes). Ids here
start with "N6b." (numeric) and "D6b." (drills) so they never collide with those.
Every answer is computed by lecture_lib when the deck is built (cards) or drawn (drills).
"""
from __future__ import annotations

import random

from ..units import HOUR, fmt
from .cards import Card, Drill

NOTEBOOK = "07"


def _card(cid, front, back, value, unit, rtol=0.02, tags=()):
    return Card(cid, 6, front, back, NOTEBOOK, ("prices",) + tuple(tags), float(value), unit, rtol, "numeric")


def cards() -> list[Card]:
    """The numeric cards of notebook 07 (computed now, from the registries)."""
    from .. import models, prices, pricing, storage
    from ..lecture import SAID as L
    out = []

    g = prices.get("gemini-3.1-pro-preview")
    up_in, up_out = pricing.long_context_multipliers(g)
    out.append(_card("N6b.gemini_input_step", f"{g.model}: by what factor does the INPUT price rise above "
                     f"{g.long_context_threshold:,} prompt tokens?",
                     f"×{up_in:g} ({fmt(g.input, '$')} → {fmt(g.input_long, '$')} per M); output ×{up_out:g}. The "
                     f"lecture's '+{100 * L['long_context_surcharge']:.0f}%' fits output only.", up_in, "×", 0.01,
                     ("erratum",)))

    step = pricing.step_context(L["frontier_active_params"], 2048, L["ratio"])
    out.append(_card("N6b.step_context", f"Reverse problem: 2,048 bytes of KV per token, "
                     f"{fmt(L['frontier_active_params'], 'params')} active, ratio {L['ratio']}. Where should the "
                     "long-context price step sit, in tokens?",
                     f"≈ {step:,.0f} tokens = N_active / (ratio × bytes per token).", step, "tokens", 0.02))

    sanity = pricing.kv_bytes_from_architecture(L["kv_sanity_layers"], L["kv_sanity_kv_heads"],
                                                L["kv_sanity_head_dim"], L["kv_sanity_bytes_per_element"])
    out.append(_card("N6b.kv_sanity", "One global KV layer, 8 KV heads, d_head 128, 1 byte per element: KV bytes "
                     "per token?", f"{sanity:,.0f} B = 1 × 2 (K, V) × 8 × 128 × 1: the lecture's 'about 2 KB'.",
                     sanity, "B", 0.01))

    opus = prices.get("claude-opus-4.6")
    mfu = pricing.decode_mfu_from_prices(opus.input, opus.output)
    out.append(_card("N6b.decode_mfu_claude", f"{opus.model}: {fmt(opus.input, '$')} in, {fmt(opus.output, '$')} out "
                     "per M tokens. Decode MFU as a fraction of prefill MFU?",
                     f"{mfu:.2f} = input ÷ output price (decode memory-bound, prefill compute-bound).",
                     mfu, "", 0.02))

    llama = models.get("Llama-3-70B")
    ceiling = pricing.context_ceiling(llama)
    out.append(_card("N6b.ceiling_llama70b", "Llama-3-70B (full attention in all 80 layers): at what context do "
                     "attention FLOPs per token equal the weight FLOPs 2·N_active, in tokens?",
                     f"≈ {ceiling:,.0f} tokens: f_att = 2 × 80 layers × 2 × 64 query heads × 128 per cached token. "
                     "Few-global-layer models reach millions.", ceiling, "tokens", 0.03))

    for kind in ("flash", "disk"):
        d = storage.by_kind(kind)
        t = pricing.tier_drain_time(d.capacity, d.bandwidth)
        guess = L["drain_flash_s"] if kind == "flash" else L["drain_disk_s"]
        unit, scale = ("min", 60.0) if kind == "flash" else ("h", HOUR)
        out.append(_card(f"N6b.drain_{kind}", f"Drain time of a {d.description.split(', ')[-1]} "
                         f"({fmt(d.capacity, 'B')} at {fmt(d.bandwidth, 'B/s')}), in {unit}?",
                         f"{t / scale:.3g} {unit} = capacity ÷ bandwidth (the lecture guessed {fmt(guess, 's')}; "
                         "datasheet figure recalled).", t / scale, unit, 0.02, ("erratum",)))

    m = pricing.cache_multipliers(opus)
    for key, label in (("write_5m", "5-minute"), ("write_1h", "1-hour")):
        n = pricing.min_reuses(m[key], m["read"])
        out.append(_card(f"N6b.reuses_{key[6:]}", f"Cache write {m[key]:g}× and hit {m['read']:g}× the input price "
                         f"({label} cache): from how many reuses does caching pay?",
                         f"{n}: {m[key]:g} + {m['read']:g}·n < 1 + n from n = {n} "
                         f"(break-even n* = {pricing.break_even_reuses(m[key], m['read']):.2f}).", n, "reuses", 0.01))
    return out


# --- drills ----------------------------------------------------------------------------------------
def _kv_from_price_drill(rng: random.Random):
    from .. import roofline
    active = rng.choice([20, 37, 50, 100, 200, 400])
    ctx_k = rng.choice([64, 128, 200, 272, 500, 1000])
    ratio = rng.choice([150, 200, 300, 400, 600])
    b = roofline.implied_kv_bytes_per_token(active * 1e9, ctx_k * 1e3, ratio)
    return (f"A price steps up at {ctx_k}K tokens of context; {active}B active parameters (1 byte each), hardware "
            f"ratio {ratio}. Implied KV bytes per token?", b,
            f"{active}e9 / ({ratio} × {ctx_k}e3) = {b:,.0f} B")


def _device_drain_drill(rng: random.Random):
    from .. import pricing
    cap_tb = rng.choice([0.5, 1.5, 3.84, 7.68, 15.36, 20, 24, 30])
    bw_gbs = rng.choice([0.25, 0.285, 3.5, 6.8, 13, 100, 460])
    t = pricing.tier_drain_time(cap_tb * 1e12, bw_gbs * 1e9)
    return (f"A device holds {cap_tb} TB and reads at {bw_gbs} GB/s. Drain time, in minutes?", t / 60,
            f"{cap_tb}e12 / {bw_gbs}e9 = {t:,.0f} s = {t / 60:,.3g} min")


def _reuse_drill(rng: random.Random):
    from .. import pricing
    w = rng.choice([1.1, 1.25, 1.5, 2.0, 3.0])
    r = rng.choice([0.05, 0.1, 0.25, 0.5])
    n = pricing.break_even_reuses(w, r)
    return (f"A cache write costs {w}× the input price and a hit {r}×. Break-even number of reuses n* "
            "(cache cost = no-cache cost)?", n, f"(w − 1)/(1 − r) = ({w} − 1)/(1 − {r}) = {n:.3g}")


def _decode_mfu_drill(rng: random.Random):
    from .. import pricing
    p_in = rng.choice([0.25, 0.5, 1, 2, 3, 5, 15])
    ratio = rng.choice([1.5, 3, 4, 5, 6, 8])
    f = pricing.decode_mfu_from_prices(p_in, p_in * ratio)
    return (f"Input ${p_in}/M, output ${p_in * ratio:g}/M tokens. Decode MFU as a fraction of prefill MFU?", f,
            f"input ÷ output = 1/{ratio:g} = {f:.3g}")


DRILLS = [
    Drill("D6b.kv_from_price", 6, _kv_from_price_drill, unit="B", rtol=0.02, notebook=NOTEBOOK),
    Drill("D6b.drain", 6, _device_drain_drill, unit="min", rtol=0.02, notebook=NOTEBOOK),
    Drill("D6b.reuses", 6, _reuse_drill, unit="reuses", rtol=0.02, notebook=NOTEBOOK),
    Drill("D6b.decode_mfu", 6, _decode_mfu_drill, unit="", rtol=0.02, notebook=NOTEBOOK),
]
