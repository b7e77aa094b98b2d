"""Training compute, C = 6·N·D FLOPs (2 forward + 4 backward per parameter per token), and token counts.

Chinchilla (Hoffmann et al. 2022, https://arxiv.org/abs/2203.15556): compute-optimal training uses
about 20 tokens per parameter; `overtraining` says how many times past that a run went.
"""
from __future__ import annotations

import numpy as np
import sympy as sp

from .notation import D, N
from .units import check_nonnegative, check_positive

FORWARD_FLOPS_PER_PARAM = 2    # one multiply-add per weight per token
BACKWARD_FLOPS_PER_PARAM = 4   # gradients w.r.t. activations and w.r.t. weights: ~2x forward

flops_expr = (FORWARD_FLOPS_PER_PARAM + BACKWARD_FLOPS_PER_PARAM) * N * D
_flops = sp.lambdify((N, D), flops_expr, "numpy")


def flops(params, tokens):
    """Training FLOPs for `params` (active) parameters over `tokens` tokens: 6·N·D (FLOP)."""
    check_positive("params", params)
    check_positive("tokens", tokens)
    out = np.asarray(_flops(np.asarray(params, float), np.asarray(tokens, float)))
    return float(out) if out.ndim == 0 else out


CHINCHILLA_TOKENS_PER_PARAM = 20   # Hoffmann et al. 2022 (arXiv 2203.15556), the lecture's "about 20"


def chinchilla_tokens(params):
    """Compute-optimal training tokens for `params` parameters: 20 tokens per parameter (tokens)."""
    check_positive("params", params)
    out = np.asarray(params, float) * CHINCHILLA_TOKENS_PER_PARAM
    return float(out) if out.ndim == 0 else out


def overtraining(params, tokens):
    """How many times the Chinchilla-optimal token count `tokens` is, for `params` parameters (×)."""
    check_positive("tokens", tokens)
    out = np.asarray(tokens, float) / chinchilla_tokens(params)
    return float(out) if out.ndim == 0 else out


def tokens_served(tokens_per_second, seconds):
    """Tokens generated at `tokens_per_second` for `seconds` (tokens)."""
    check_nonnegative("tokens_per_second", tokens_per_second)
    check_nonnegative("seconds", seconds)
    out = np.asarray(tokens_per_second, float) * np.asarray(seconds, float)
    return float(out) if out.ndim == 0 else out
