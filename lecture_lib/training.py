"""Training compute: C = 6·N·D FLOPs (2 forward + 4 backward per parameter per token)."""
from __future__ import annotations

import numpy as np
import sympy as sp

from .notation import D, N
from .units import check_positive

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
