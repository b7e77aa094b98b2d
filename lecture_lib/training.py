"""Training, RL and inference compute (lecture chapter 5): 6·N·D, the "terms equal" heuristic, the cost
split across pre-training / RL / inference, and how many tokens a model serves.

1. Where the 6 comes from: one weight matrix W (d_in × d_out) and one token x (1 × d_in).
   Forward  y = x·W:          d_in·d_out multiply-adds = 2 FLOPs per parameter.
   Backward dL/dx = dL/dy·Wᵀ and dL/dW = xᵀ·dL/dy: two matmuls of the same size = 4 FLOPs per parameter.
   So C = 6·N·D FLOPs.
2. A cost a·x^(-p) + b·x^q is smallest where the two terms stand in the ratio A/B = q/p: exactly equal
   only when p = q (a/x + b·x), roughly equal otherwise ("set A = B").
3. Lifetime compute: C_PT = k_PT·N·D_PT (k_PT = 6), C_RL = k_RL·N·D_RL·u_RL (k_RL 2 to 6),
   C_inf = k_inf·N·D_inf·u_inf (k_inf = 2), u the inefficiency multipliers (>= 1). Fixing the shares of
   compute s_PT : s_RL : s_inf fixes the token ratios, and N_active cancels.
4. Tokens served: D_inf = R_world·t_deploy·f_keep / n_family; chips to serve R tok/s: k_inf·N·R / (F·η).

Chinchilla (Hoffmann et al. 2022, https://arxiv.org/abs/2203.15556): compute-optimal training uses
about 20 tokens per parameter; `overtraining` says how many times past that a run went.
Units: FLOPs (2 per multiply-add), tokens, parameters (counts), seconds, FLOP/s.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import sympy as sp

from .formula import numeric
from .notation import (D, D_PT, D_RL, D_inf, F, N, N_act, R_tok, R_world, T_chip, a_h, b_h, d_in, d_out, eta,
                       f_keep, k_PT, k_RL, k_inf, n_fam, p_h, q_h, s_PT, s_RL, s_inf, t_dep, u_RL, u_inf, x_h)
from .units import FLOPS_PER_MAC, HOUR, check_at_least, check_nonnegative, check_positive


# --- 1. 6·N·D from the matmul shapes -----------------------------------------------------------------
def matmul_flops(m, k, n):
    """FLOPs of an (m × k)·(k × n) matmul: m·k·n multiply-adds, 2 FLOPs each."""
    return FLOPS_PER_MAC * m * k * n


#: parameters of one weight matrix W (d_in × d_out)
layer_params_expr = d_in * d_out
#: forward, per token: y (1 × d_out) = x (1 × d_in) · W (d_in × d_out)
forward_flops_expr = matmul_flops(1, d_in, d_out)
#: backward, per token: the gradient for the input, dL/dx (1 × d_in) = dL/dy (1 × d_out) · Wᵀ (d_out × d_in)
backward_input_flops_expr = matmul_flops(1, d_out, d_in)
#: backward, per token: the gradient for the weights, dL/dW (d_in × d_out) = xᵀ (d_in × 1) · dL/dy (1 × d_out)
backward_weight_flops_expr = matmul_flops(d_in, 1, d_out)

FORWARD_FLOPS_PER_PARAM = int(forward_flops_expr / layer_params_expr)                       # 2
BACKWARD_FLOPS_PER_PARAM = int((backward_input_flops_expr + backward_weight_flops_expr)
                               / layer_params_expr)                                          # 4
TRAIN_FLOPS_PER_PARAM = FORWARD_FLOPS_PER_PARAM + BACKWARD_FLOPS_PER_PARAM                   # 6
INFERENCE_FLOPS_PER_PARAM = FORWARD_FLOPS_PER_PARAM                                          # 2

flops_expr = (FORWARD_FLOPS_PER_PARAM + BACKWARD_FLOPS_PER_PARAM) * N * D
#: utilisation of a run: training FLOPs over (chip-seconds × peak FLOP/s)
mfu_expr = flops_expr / (T_chip * F)


def flops(params, tokens):
    """Training FLOPs for `params` (active) parameters over `tokens` tokens: 6·N·D (FLOP)."""
    check_positive("params", params)
    check_positive("tokens", tokens)
    return numeric(flops_expr)(N=params, D=tokens)


def mfu(params, tokens, chip_seconds, peak_flops):
    """Model FLOP utilisation of a run: 6·N·D / (chip_seconds × peak_flops) (fraction, 0 to 1 if honest).

    params: active parameters; tokens; chip_seconds: accelerator-seconds (GPU-hours × 3600);
    peak_flops: one chip's dense peak FLOP/s at the run's number format.
    """
    for name, value in (("params", params), ("tokens", tokens), ("chip_seconds", chip_seconds),
                        ("peak_flops", peak_flops)):
        check_positive(name, value)
    return numeric(mfu_expr)(N=params, D=tokens, T_chip=chip_seconds, F=peak_flops)


def run_mfu(run, dtype: str | None = None):
    """MFU of a published run (a training_runs name or TrainingRun) against its chip's peak at `dtype`
    (default: the format the run used). ValueError if the paper gives no chip-hours."""
    from . import hardware, training_runs
    r = run if isinstance(run, training_runs.TrainingRun) else training_runs.get(run)
    if r.chip_hours is None:
        raise ValueError(f"run {r.name!r} has no published chip-hours, so no MFU")
    peak = hardware.get(r.chip).flops(dtype or r.dtype)
    return mfu(r.params, r.tokens, r.chip_hours * HOUR, peak)


CHINCHILLA_TOKENS_PER_PARAM = 20   # Hoffmann et al. 2022 (arXiv 2203.15556), the lecture's "about 20"
#: compute-optimal training tokens for N parameters
chinchilla_tokens_expr = CHINCHILLA_TOKENS_PER_PARAM * N
#: times past Chinchilla-optimal that D tokens are
overtraining_expr = D / chinchilla_tokens_expr
#: tokens a model serves at R_tok tokens/s over t_dep seconds
tokens_served_expr = R_tok * t_dep


def chinchilla_tokens(params):
    """Compute-optimal training tokens for `params` parameters: 20 tokens per parameter (tokens)."""
    check_positive("params", params)
    return numeric(chinchilla_tokens_expr)(N=params)


def overtraining(params, tokens):
    """How many times the Chinchilla-optimal token count `tokens` is, for `params` parameters (×)."""
    check_positive("params", params)
    check_positive("tokens", tokens)
    return numeric(overtraining_expr)(N=params, D=tokens)


def tokens_served(tokens_per_second, seconds):
    """Tokens generated at `tokens_per_second` for `seconds` (tokens)."""
    check_nonnegative("tokens_per_second", tokens_per_second)
    check_nonnegative("seconds", seconds)
    return numeric(tokens_served_expr)(R_tok=tokens_per_second, t_dep=seconds)


# --- 2. "the minimum is where the terms are equal" ---------------------------------------------------
#: the falling and the rising term of a trade-off, and their sum
falling_term_expr = a_h * x_h ** (-p_h)
rising_term_expr = b_h * x_h ** q_h
tradeoff_cost_expr = falling_term_expr + rising_term_expr


@lru_cache(maxsize=None)
def optimum_x_expr():
    """x at the minimum of a·x^(-p) + b·x^q: (p·a / (q·b))^(1/(p+q))."""
    (x_star,) = sp.solve(sp.diff(tradeoff_cost_expr, x_h), x_h)
    return x_star


@lru_cache(maxsize=None)
def equal_terms_x_expr():
    """x where the two terms are equal (the heuristic's pick): (a / b)^(1/(p+q))."""
    (x_eq,) = sp.solve(sp.Eq(falling_term_expr, rising_term_expr), x_h)
    return x_eq


@lru_cache(maxsize=None)
def optimum_term_ratio_expr():
    """A/B, falling over rising term, at the true minimum: q/p."""
    return sp.simplify((falling_term_expr / rising_term_expr).subs(x_h, optimum_x_expr()))


@lru_cache(maxsize=None)
def heuristic_x_ratio_expr():
    """x_equal / x_optimal: how far the heuristic's knob lands from the optimum, (q/p)^(1/(p+q))."""
    return sp.simplify(sp.powsimp(equal_terms_x_expr() / optimum_x_expr(), force=True))


@lru_cache(maxsize=None)
def heuristic_cost_ratio_expr():
    """Total cost at the heuristic's x over the minimum cost (>= 1; 1 when p = q).

    The ratio does not depend on a and b (they only set the units of x and of cost; tests check this),
    so the expression is written at a = b = 1 and depends on p and q only.
    """
    unit = {a_h: 1, b_h: 1}
    at_equal = tradeoff_cost_expr.subs(x_h, equal_terms_x_expr()).subs(unit)
    at_optimum = tradeoff_cost_expr.subs(x_h, optimum_x_expr()).subs(unit)
    return sp.simplify(at_equal / at_optimum)


def _check_exponents(p, q):
    check_positive("p", p)
    check_positive("q", q)


def power_law_optimum(p, q):
    """A/B, the falling term over the rising term, at the minimum of a·x^(-p) + b·x^q (= q/p; 1 for a/x + b·x)."""
    _check_exponents(p, q)
    return numeric(optimum_term_ratio_expr)(p_h=p, q_h=q)


def heuristic_cost_penalty(p, q):
    """How much more the "set A = B" choice costs than the true minimum of a·x^(-p) + b·x^q (ratio >= 1)."""
    _check_exponents(p, q)
    return numeric(heuristic_cost_ratio_expr)(p_h=p, q_h=q)


def heuristic_x_miss(p, q):
    """x where the terms are equal over x at the minimum ((q/p)^(1/(p+q)); 1 when p = q)."""
    _check_exponents(p, q)
    return numeric(heuristic_x_ratio_expr)(p_h=p, q_h=q)


# --- 3. pre-training, RL and inference at fixed shares of compute ------------------------------------
#: lifetime compute, FLOP: pre-training, RL rollouts, inference (N_act: active parameters)
pretrain_cost_expr = k_PT * N_act * D_PT
rl_cost_expr = k_RL * N_act * D_RL * u_RL
inference_cost_expr = k_inf * N_act * D_inf * u_inf
lifetime_cost_expr = pretrain_cost_expr + rl_cost_expr + inference_cost_expr


@lru_cache(maxsize=None)
def _token_solution():
    """D_RL and D_inf when C_RL : C_PT = s_RL : s_PT and C_inf : C_PT = s_inf : s_PT."""
    sol = sp.solve([sp.Eq(rl_cost_expr / pretrain_cost_expr, s_RL / s_PT),
                    sp.Eq(inference_cost_expr / pretrain_cost_expr, s_inf / s_PT)], [D_RL, D_inf], dict=True)
    return sol[0]


@lru_cache(maxsize=None)
def rl_token_ratio_expr():
    """D_RL / D_PT at the given shares of compute: (s_RL/s_PT)·k_PT / (k_RL·u_RL)."""
    return sp.simplify(_token_solution()[D_RL] / D_PT)


@lru_cache(maxsize=None)
def inference_token_ratio_expr():
    """D_inf / D_PT at the given shares of compute: (s_inf/s_PT)·k_PT / (k_inf·u_inf)."""
    return sp.simplify(_token_solution()[D_inf] / D_PT)


#: shares of lifetime compute (pre-training, RL, inference): the lecture's thirds, and Dwarkesh's
#: "half training (pre-training + RL), half inference"
SPLITS = {"thirds": (1 / 3, 1 / 3, 1 / 3), "50/50": (1 / 4, 1 / 4, 1 / 2)}


@dataclass(frozen=True)
class TokenSplit:
    """Token counts relative to pre-training (D / D_PT) when compute is split in `shares`."""
    rl: float            # D_RL / D_PT
    inference: float     # D_inf / D_PT
    shares: tuple        # (pre-training, RL, inference) shares of lifetime compute, summing to 1

    @property
    def pretrain(self) -> float:
        return 1.0


def _check_inefficiency(name, value):
    try:
        check_at_least(name, value, 1)
    except ValueError:
        raise ValueError(f"{name} is a cost multiplier >= 1 (3 for a chip running at a third of training's "
                         f"utilisation; pass 3, not 0.3 or 1/3), got {value!r}") from None


def cost_split(rl_flops_per_token=3, rl_inefficiency=3, inference_inefficiency=3, pretrain_flops_per_token=6,
               inference_flops_per_token=2, shares="thirds") -> TokenSplit:
    """RL and inference tokens relative to pre-training tokens when compute is split in `shares`.

    FLOPs per token are per active parameter (pre-training 6, RL 2 to 6, inference 2); the inefficiencies
    are cost multipliers >= 1. shares: 'thirds', '50/50' (see SPLITS) or three positive weights
    (pre-training, RL, inference), normalised. Arrays broadcast.
    """
    check_positive("rl_flops_per_token", rl_flops_per_token)
    check_positive("pretrain_flops_per_token", pretrain_flops_per_token)
    check_positive("inference_flops_per_token", inference_flops_per_token)
    _check_inefficiency("rl_inefficiency", rl_inefficiency)
    _check_inefficiency("inference_inefficiency", inference_inefficiency)
    if isinstance(shares, str):
        if shares not in SPLITS:
            raise ValueError(f"shares={shares!r} is not a known split; use one of {list(SPLITS)} or three weights")
        shares = SPLITS[shares]
    if len(shares) != 3:
        raise ValueError(f"shares must be three weights (pre-training, RL, inference), got {shares!r}")
    for name, value in zip(("pre-training share", "RL share", "inference share"), shares):
        check_positive(name, value)
    total = sum(shares)
    s = tuple(float(v) / total for v in shares)
    common = dict(k_PT=pretrain_flops_per_token, s_PT=s[0])
    rl = numeric(rl_token_ratio_expr)(k_RL=rl_flops_per_token, u_RL=rl_inefficiency, s_RL=s[1], **common)
    inf = numeric(inference_token_ratio_expr)(k_inf=inference_flops_per_token, u_inf=inference_inefficiency,
                                              s_inf=s[2], **common)
    return TokenSplit(rl=rl, inference=inf, shares=s)


def equal_cost_split(rl_flops_per_token=3, rl_inefficiency=3, inference_inefficiency=3,
                     pretrain_flops_per_token=6, inference_flops_per_token=2) -> TokenSplit:
    """Token counts of RL and inference relative to pre-training when the three costs are equal.

    The flashcard's numbers (defaults): 6·D_PT = 3·3·D_RL = 2·3·D_inf, so .rl = 2/3 and .inference = 1.
    """
    return cost_split(rl_flops_per_token, rl_inefficiency, inference_inefficiency, pretrain_flops_per_token,
                      inference_flops_per_token, shares="thirds")


# --- 4. how many tokens a model serves, and how many chips that takes ----------------------------------
#: tokens one model of a family serves: the world's rate × deployment time × the share it keeps, ÷ family size
inference_tokens_expr = R_world * t_dep * f_keep / n_fam
#: chips that serve R_tok tokens/s: inference FLOP/s over one chip's achieved FLOP/s
serving_chips_expr = k_inf * N_act * R_tok / (F * eta)


def inference_tokens(world_tokens_per_second, seconds, family_size=1, keep=1.0):
    """Tokens one model serves: world rate (tok/s) × deployment (s) × keep (expected fraction of the
    deployment it really serves, 0 to 1) ÷ the number of models sharing the traffic (tokens)."""
    check_positive("world_tokens_per_second", world_tokens_per_second)
    check_positive("seconds", seconds)
    check_at_least("family_size", family_size, 1)
    check_positive("keep", keep)
    if np.any(np.asarray(keep, dtype=float) > 1):
        raise ValueError(f"keep is a fraction of the deployment, 0 < keep <= 1, got {keep!r}")
    return numeric(inference_tokens_expr)(R_world=world_tokens_per_second, t_dep=seconds, n_fam=family_size,
                                          f_keep=keep)


def serving_chips(active_params, tokens_per_second, peak_flops, utilisation=1.0,
                  flops_per_token=INFERENCE_FLOPS_PER_PARAM):
    """Chips needed to serve `tokens_per_second`: 2·N_active·R / (peak FLOP/s × utilisation) (chips).

    utilisation 1 is the compute bound of chapter 1 (every chip at the balance batch or beyond);
    the lecture's realistic figure is about 0.3.
    """
    check_positive("active_params", active_params)
    check_positive("tokens_per_second", tokens_per_second)
    check_positive("peak_flops", peak_flops)
    check_positive("utilisation", utilisation)
    check_positive("flops_per_token", flops_per_token)
    return numeric(serving_chips_expr)(k_inf=flops_per_token, N_act=active_params, R_tok=tokens_per_second,
                                       F=peak_flops, eta=utilisation)


def lifetime_overtraining(active_params, world_tokens_per_second, seconds, family_size=1, keep=1.0,
                          split: TokenSplit | None = None):
    """Times past Chinchilla-optimal when pre-training tokens follow inference tokens at equal cost.

    D_inf from `inference_tokens`, D_PT = D_inf / split.inference (split: the flashcard's equal split by
    default, where D_PT = D_inf), then D_PT / (20·N_active) (×).
    """
    split = split or equal_cost_split()
    d_inf = inference_tokens(world_tokens_per_second, seconds, family_size, keep)
    return overtraining(active_params, d_inf / split.inference)


__all__ = ["matmul_flops", "layer_params_expr", "forward_flops_expr", "backward_input_flops_expr",
           "backward_weight_flops_expr", "FORWARD_FLOPS_PER_PARAM", "BACKWARD_FLOPS_PER_PARAM",
           "TRAIN_FLOPS_PER_PARAM", "INFERENCE_FLOPS_PER_PARAM", "flops_expr", "mfu_expr", "flops", "mfu",
           "run_mfu", "CHINCHILLA_TOKENS_PER_PARAM", "chinchilla_tokens_expr", "overtraining_expr",
           "tokens_served_expr", "chinchilla_tokens", "overtraining", "tokens_served", "falling_term_expr",
           "rising_term_expr", "tradeoff_cost_expr", "optimum_x_expr", "equal_terms_x_expr",
           "optimum_term_ratio_expr", "heuristic_x_ratio_expr", "heuristic_cost_ratio_expr", "power_law_optimum",
           "heuristic_cost_penalty", "heuristic_x_miss", "pretrain_cost_expr", "rl_cost_expr",
           "inference_cost_expr", "lifetime_cost_expr", "rl_token_ratio_expr", "inference_token_ratio_expr",
           "SPLITS", "TokenSplit", "cost_split", "equal_cost_split", "inference_tokens_expr",
           "serving_chips_expr", "inference_tokens", "serving_chips", "lifetime_overtraining"]
