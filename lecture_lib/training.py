"""Training compute, C = 6·N·D FLOPs (2 forward + 4 backward per parameter per token), and token counts.

Chinchilla (Hoffmann et al. 2022, https://arxiv.org/abs/2203.15556): compute-optimal training uses
about 20 tokens per parameter; `overtraining` says how many times past that a run went.
"""
from __future__ import annotations

from .formula import numeric
from .notation import D, N, R_tok, t_dep
from .units import check_nonnegative, check_positive

FORWARD_FLOPS_PER_PARAM = 2    # one multiply-add per weight per token
BACKWARD_FLOPS_PER_PARAM = 4   # gradients w.r.t. activations and w.r.t. weights: ~2x forward

flops_expr = (FORWARD_FLOPS_PER_PARAM + BACKWARD_FLOPS_PER_PARAM) * N * D


def flops(params, tokens):
    """Training FLOPs for `params` (active) parameters over `tokens` tokens: 6·N·D (FLOP)."""
    check_positive("params", params)
    check_positive("tokens", tokens)
    return numeric(flops_expr)(N=params, D=tokens)


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
