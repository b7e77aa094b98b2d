"""Flashcards for notebook 06 (lecture chapter 5, RL and over-training): numeric cards and drills (see cards.py).

The chapter's six lecture cards are L5.* in cards_lecture.py; 6·N·D for Llama-3-70B and the 6·N·D and
Chinchilla drills are in cards_numeric.py. Every answer here is computed by lecture_lib when the deck is
built. Ids start with "N5b." (numeric) and "D5b." (drills) so they never collide with those.
"""
from __future__ import annotations

import random

from ..units import fmt
from .cards import Card, Drill

NOTEBOOK = "06"


def _card(cid, front, back, value, unit, rtol=0.02, tags=()):
    return Card(cid, 5, front, back, NOTEBOOK, ("overtraining",) + tuple(tags), float(value), unit, rtol, "numeric")


def cards() -> list[Card]:
    """The numeric cards of notebook 06 (computed now, from the registries and the lecture's guesses)."""
    from .. import hardware, training, training_runs
    from ..lecture import SAID as L
    from ..units import DAY
    out = []

    run = training_runs.get("Llama-3-405B")
    c = training.flops(run.params, run.tokens)
    out.append(_card("N5b.six_nd_llama405b", f"6·N·D for Llama 3 405B on {fmt(run.tokens)} tokens? (e.g. 1.2e25)",
                     f"≈ {c:.3g} FLOP; the paper reports {run.reported_flops:.2g}.", c, "FLOP", 0.03))

    ds = training.run_mfu("DeepSeek-V3")
    ds_run = training_runs.get("DeepSeek-V3")
    out.append(_card("N5b.dsv3_mfu", f"DeepSeek-V3: 6·N_active·D over its {fmt(ds_run.chip_hours)} H800-hours. "
                     "MFU against the H800's dense FP8 peak, in %?",
                     f"≈ {100 * ds:.0f}% (against BF16 it would read {100 * training.run_mfu('DeepSeek-V3', 'bf16'):.0f}%: "
                     "always say which peak).", 100 * ds, "%", 0.05))

    r = training.power_law_optimum(1, 2)
    out.append(_card("N5b.ratio_1_2", "At the minimum of a/x + b·x², the falling term is how many times the rising one?",
                     f"{r:g} = q/p. Equal terms only when the exponents match; here 'A = B' costs "
                     f"{100 * (training.heuristic_cost_penalty(1, 2) - 1):.0f}% more than the minimum.", r, "×"))

    s = training.equal_cost_split(rl_flops_per_token=L["rl_flops_high"], rl_inefficiency=1 / L["rl_efficiency"])
    out.append(_card("N5b.rl_trained_30pct", f"Equal cost, RL trained on every rollout ({L['rl_flops_high']} FLOPs per "
                     f"parameter per token) at {100 * L['rl_efficiency']:.0f}% efficiency: D_RL / D_PT?",
                     f"{s.rl:.2f} = 6 / ({L['rl_flops_high']} × {1 / L['rl_efficiency']:.2f}).", s.rl, ""))

    f = training.cost_split(shares="50/50")
    out.append(_card("N5b.fifty_fifty", "Dwarkesh's split, half the compute for training (pre-training + RL), half for "
                     "inference, with the flashcard's numbers: D_inf / D_PT?",
                     f"{f.inference:g}: inference has twice pre-training's compute (50% vs 25%).", f.inference, ""))

    w = training.inference_tokens(L["world_tok_s"], L["deployment_days"] * DAY)
    out.append(_card("N5b.world_2mo", f"The world's ~{fmt(L['world_tok_s'], 'tok/s')} (a guess) for "
                     f"{L['deployment_days']} days: how many tokens? (e.g. 1e15)",
                     f"≈ {w:.2g} tokens (Dwarkesh: {L['world_tokens_2mo']:.2g}).", w, "tokens", 0.03))

    b200 = hardware.get("B200")
    n = training.serving_chips(L["frontier_active_params"], L["model_tok_s"], b200.flops("fp8"), L["rl_efficiency"])
    out.append(_card("N5b.b200s", f"B200s (fp8, {100 * L['rl_efficiency']:.0f}% utilisation) to serve "
                     f"{fmt(L['model_tok_s'], 'tok/s')} of a model with {fmt(L['frontier_active_params'], 'params')} active?",
                     f"≈ {n:,.0f} = 2 × N × R / ({fmt(b200.flops('fp8'), 'FLOP/s')} × {L['rl_efficiency']}).",
                     n, "chips", 0.03))

    x = training.overtraining(L["frontier_active_params"], L["rumoured_pretrain_tokens"])
    out.append(_card("N5b.rumour", f"Rumour (not well sourced): ~{fmt(L['rumoured_pretrain_tokens'])} pre-training "
                     f"tokens for ~{fmt(L['frontier_active_params'], 'params')} active. How many × Chinchilla?",
                     f"{x:.0f}× = {fmt(L['rumoured_pretrain_tokens'])} / (20 × "
                     f"{fmt(L['frontier_active_params'], 'params')}).", x, "×", 0.02, ("rumour",)))
    return out


# --- drills ----------------------------------------------------------------------------------------
def _split_drill(rng: random.Random):
    from .. import training
    k = rng.choice([2, 3, 4, 6])
    u = rng.choice([1.5, 2, 3, 4, 5])
    s = training.equal_cost_split(rl_flops_per_token=k, rl_inefficiency=u)
    return (f"Equal cost: pre-training 6 FLOPs per parameter per token; RL {k} FLOPs at {u}× inefficiency. "
            "D_RL / D_PT?", s.rl, f"6 / ({k} × {u}) = {s.rl:.3g}")


def _ratio_drill(rng: random.Random):
    from .. import training
    p = rng.choice([0.5, 1, 2, 3])
    q = rng.choice([0.5, 1, 2, 3])
    r = training.power_law_optimum(p, q)
    return (f"At the minimum of a·x^(−{p:g}) + b·x^{q:g}, the falling term ÷ the rising term?", r,
            f"q/p = {q:g}/{p:g} = {r:.3g}")


def _chips_drill(rng: random.Random):
    from .. import training
    n_b = rng.choice([20, 37, 50, 100, 200])
    r_m = rng.choice([5, 10, 50, 100])
    pf = rng.choice([1, 2, 4.5, 9])
    eta = rng.choice([0.2, 0.3, 0.5])
    n = training.serving_chips(n_b * 1e9, r_m * 1e6, pf * 1e15, eta)
    return (f"Serve {r_m}M tok/s of a model with {n_b}B active parameters on chips of {pf:g} PFLOP/s at "
            f"{eta:.0%} utilisation: how many chips?", n,
            f"2 × {n_b}e9 × {r_m}e6 / ({pf:g}e15 × {eta}) = {n:,.0f}")


DRILLS = [
    Drill("D5b.equal_split", 5, _split_drill, unit="", rtol=0.02, notebook=NOTEBOOK),
    Drill("D5b.term_ratio", 5, _ratio_drill, unit="", rtol=0.02, notebook=NOTEBOOK),
    Drill("D5b.serving_chips", 5, _chips_drill, unit="chips", rtol=0.03, notebook=NOTEBOOK),
]
