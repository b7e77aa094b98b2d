"""Flashcards for notebook 02 (lecture chapter 1, second half): numeric cards and drills (see cards.py).

Every answer is computed by lecture_lib when the deck is built. Ids start with "N1b." (numeric) and
"D1b." (drills) so they never collide with cards_numeric's chapter-1 cards.
"""
from __future__ import annotations

import random

from ..units import fmt
from .cards import Card, Drill

NOTEBOOK = "02"


def _card(cid, front, back, value, unit, rtol=0.02, tags=()):
    return Card(cid, 1, front, back, NOTEBOOK, ("balance-batch",) + tuple(tags), float(value), unit, rtol,
                "numeric")


def cards() -> list[Card]:
    """The numeric cards of notebook 02 (computed now, from the registries)."""
    from .. import balance, fastmode, hardware, models, moe, queueing, roofline, routing, traffic
    from ..lecture import SAID
    from ..units import MS
    L = SAID
    dsv3, rack = models.get("DeepSeek-V3"), hardware.get("GB200-NVL72")
    out = []

    a100 = roofline.lecture_ratio("A100-80GB", "bf16")
    out.append(_card("N1b.a100_ratio", "A100 in bf16, in the lecture's units (multiply-adds/s ÷ weight params/s)?",
                     f"≈ {a100:.0f}: about half the lecture's '~300', which only holds from Hopper on.",
                     a100, "", 0.05, ("erratum",)))

    ratio_params = dsv3.total_params / dsv3.active_params
    b = balance.balance_batch_from_ratio(L["ratio"], ratio_params)
    out.append(_card("N1b.dsv3_balance_300", f"DeepSeek-V3's balance batch at the lecture's ratio of {L['ratio']}, "
                     f"using parameter counts (not the lecture's '{L['dsv3_active_experts']} of "
                     f"{L['dsv3_experts']}'), in sequences?",
                     f"≈ {fmt(b)} = {L['ratio']} × {ratio_params:.1f} ({fmt(dsv3.total_params, 'params')} / "
                     f"{fmt(dsv3.active_params, 'params')}) = {L['ratio']} / sparsity. The lecture's "
                     f"{L['dsv3_balance_batch']:,} used "
                     f"{L['dsv3_active_experts']} active experts; the config routes {dsv3.experts_per_token} "
                     f"(+{dsv3.n_shared_experts} shared).", b, "sequences", 0.03, ("erratum",)))

    b99 = routing.batch_to_touch(0.99, dsv3.experts_per_token, dsv3.n_experts)
    k, n = dsv3.experts_per_token, dsv3.n_experts
    out.append(_card("N1b.experts_99", f"DeepSeek-V3 routes each token to {k} of {n} experts. How many tokens "
                     "in a step touch 99% of the experts (on average)?",
                     f"≈ {b99:.0f} tokens: 1 − (1 − {k}/{n})^B = 0.99. Far below the balance batch, so the "
                     "weight term reads all experts.", b99, "tokens", 0.03))

    wall = roofline.balance_context(rack, dsv3, "fp8", "bf16")
    out.append(_card("N1b.wall_dsv3", "DeepSeek-V3 on a GB200-NVL72 (fp8 weights, bf16 KV): past what context "
                     "does no batch balance compute and memory, in tokens?",
                     f"≈ {fmt(wall)} tokens, where one sequence's KV read (L·b_kv/BW) equals its compute "
                     "(2·N_active/F).", wall, "tokens", 0.03))

    mean_s, worst_s = queueing.train_latency(L["step_s"])
    period = L["step_s"] / MS
    out.append(_card("N1b.train_mean", f"Trains leave every {period:.0f} ms and there are free seats: mean latency "
                     "of a randomly arriving request (wait + ride), in ms?",
                     f"{mean_s / MS:.0f} ms = {period / 2:.0f} ms mean wait + {period:.0f} ms ride (worst case "
                     f"{worst_s / MS:.0f} ms).",
                     mean_s / MS, "ms", 0.02))

    rubin_l, rubin_p = balance.rubin_as_in_lecture(), hardware.get("Rubin")
    rubin = roofline.drain_time(rubin_l)
    out.append(_card("N1b.rubin_lecture_drain", f"Rubin as the lecture had it, {fmt(rubin_l.hbm_capacity, 'B')} at "
                     f"{fmt(rubin_l.hbm_bandwidth, 'B/s')}: drain time in ms?",
                     f"{rubin / MS:.1f} ms (the lecture said ≈{L['rubin_drain_s'] / MS:.0f}; at the public "
                     f"{fmt(rubin_p.hbm_bandwidth, 'B/s')} it is {roofline.drain_time(rubin_p) / MS:.1f} ms).",
                     rubin / MS, "ms", 0.02, ("erratum",)))

    step64 = 1 / L["steps_per_second"]
    sps = L["steps_per_second"]
    out.append(_card("N1b.step_64", f"The lecture's 'tokens/s ≈ {sps} × B': what step time does {sps} steps per "
                     "second imply, in ms?", f"{step64 / MS:.1f} ms, not {period:.0f} ms (which gives "
                     f"{1 / L['step_s']:.0f} × B).",
                     step64 / MS, "ms", 0.02, ("erratum",)))

    google = traffic.get("google-2025-10")
    one_in = traffic.tokens_per_second(google.key) / L["deployment_tok_s"]
    out.append(_card("N1b.google_one_in", f"{fmt(L['deployment_tok_s'], 'tok/s')} against Google's "
                     f"{google.tokens_per_month / 1e15:g} quadrillion tokens/month ({google.as_of}): one in how many?",
                     f"≈ 1 in {fmt(one_in)} (the lecture: '1/{1 / L['fraction_of_gemini']:.0f} of Gemini'). Not like "
                     "for like: Google counts input and output tokens, a deployment's figure is output only.",
                     one_in, "", 0.03, ("erratum",)))

    peak = balance.throughput_at_balance(rack, dsv3, "fp8")["tok_s"]
    out.append(_card("N1b.rack_peak", "GB200-NVL72 serving DeepSeek-V3 (fp8) at its balance batch with no "
                     "context: tokens per second at peak FLOP/s? (e.g. 1.0e6)",
                     f"≈ {fmt(peak, 'tok/s')} = F / (2·N_active), whatever the batch or total parameters: a "
                     "ceiling, since real sequences hold a KV cache.", peak, "tok/s", 0.03))

    ctx = 3000
    full = balance.throughput_at_max_batch(rack, dsv3, ctx, "fp8")
    out.append(_card("N1b.rack_3k", f"GB200-NVL72 serving DeepSeek-V3 (fp8 weights, bf16 KV) at {fmt(ctx)} tokens "
                     "of context with the largest batch that fits: tokens per second? (e.g. 1.0e6)",
                     f"≈ {fmt(full['tok_s'], 'tok/s')}: {fmt(full['batch'])} sequences fill HBM, and the "
                     f"memory-bound step reads it all once: {fmt(full['step_s'], 's')} = the drain time.",
                     full["tok_s"], "tok/s", 0.03))

    k_, n_ = dsv3.experts_per_token, dsv3.n_experts
    b_exp = moe.expert_balance_batch_from_ratio(L["ratio"], k_, n_)
    out.append(_card("N1b.expert_balance", f"DeepSeek-V3 routes each token to {k_} of {n_} experts. At the "
                     f"lecture's ratio of {L['ratio']}, how many tokens per step make each routed expert's matmul "
                     "compute-bound on its own (the per-expert balance batch)?",
                     f"≈ {fmt(b_exp)} = {L['ratio']} × {n_}/{k_}: each expert must see ≈{L['ratio']} tokens. "
                     f"The aggregate roofline's {fmt(b)} assumes all operations of the step overlap.",
                     b_exp, "tokens", 0.02))

    toy = fastmode.FastModeToy.problem8()
    x25 = toy.context_for_speedup(L["fast_speed"]) / toy.balance_context
    out.append(_card("N1b.fast_context", f"Fast mode: from what fraction of the balance context (where KV per "
                     f"sequence = compute per sequence) does a {L['fast_speed']}× speed-up become possible at "
                     "any price, in %?",
                     f"{100 * x25:.0f}%: the ceiling c/(c − k) = 1/(1 − L/L_wall) reaches {L['fast_speed']} at "
                     f"L = (1 − 1/{L['fast_speed']})·L_wall. At context 0 the ceiling is 1.",
                     100 * x25, "%", 0.02))
    s6 = toy.speedup_for_cost(L["fast_price"])
    out.append(_card("N1b.fast_6x", f"Fast-mode toy (weights {fmt(toy.weights_s, 's')}, balance step "
                     f"{fmt(toy.balance_step_s, 's')}): the speed-up for {L['fast_price']:g}× the price per token?", f"≈ {s6:.2f}× (ceiling {toy.max_speedup:.2f}×: the weight read is a floor).",
                     s6, "×", 0.02))

    clark = balance.CLARK_2022
    q = clark.quality_multiple
    out.append(_card("N1b.clark", f"Clark et al. 2022: {clark.n_experts} experts at {fmt(clark.active_params, 'params')} "
                     f"active match a dense {fmt(clark.dense_equivalent_params, 'params')}. How many times the active "
                     f"size is that?", f"≈ {q:.1f}× (the lecture: '{L['expert_multiple']}× for "
                     f"{L['quality_multiple']}×').",
                     q, "×", 0.03, ("erratum",)))
    return out


# --- drills ----------------------------------------------------------------------------------------
def _train_drill(rng: random.Random):
    from .. import queueing
    period_ms = rng.choice([5, 10, 15, 20, 25, 30, 40])
    worst = rng.random() < 0.5
    mean_s, worst_s = queueing.train_latency(period_ms / 1e3)
    value = (worst_s if worst else mean_s) * 1e3
    kind = "worst-case" if worst else "mean"
    return (f"Steps leave every {period_ms} ms with free seats. {kind.capitalize()} latency (wait + ride) of a "
            "randomly arriving request, in ms?", value,
            f"{'2' if worst else '1.5'} × {period_ms} ms = {value:g} ms")


def _touched_drill(rng: random.Random):
    from .. import routing
    n = rng.choice([8, 16, 64, 128, 256, 384])
    k = rng.choice([k for k in (1, 2, 4, 8) if k < n])
    b = rng.choice([1, 4, 16, 32, 64, 128])
    f = routing.experts_touched_fraction(b, k, n)
    return (f"Each token picks {k} of {n} experts. What fraction of the experts does a batch of {b} tokens touch "
            "on average? (0 to 1)", f, f"1 − (1 − {k}/{n})^{b} = {f:.3g}")


def _balance_300_drill(rng: random.Random):
    from .. import balance
    from ..lecture import SAID
    r = SAID["ratio"]
    total = rng.choice([100, 235, 400, 671, 1000, 2000])
    active = rng.choice([a for a in (5, 10, 22, 37, 50, 100) if a < total])
    b = balance.balance_batch_from_ratio(r, total / active)
    return (f"Hardware ratio {r} (lecture units); a model with {total}B total and {active}B active parameters. "
            "Balance batch, KV ignored, in sequences?", b, f"{r} × {total}/{active} = {b:,.0f}")


DRILLS = [
    Drill("D1b.train", 1, _train_drill, unit="ms", notebook=NOTEBOOK),
    Drill("D1b.touched", 1, _touched_drill, unit="", rtol=0.03, notebook=NOTEBOOK),
    Drill("D1b.balance_300", 1, _balance_300_drill, unit="sequences", rtol=0.03, notebook=NOTEBOOK),
]
