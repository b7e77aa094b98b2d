"""Which weights a batch touches: uniform independent top-k routing (chapter 1's weight term).

    touched  = 1 − (1 − k/n)^B                      expected fraction of one layer's routed experts
    N_total  = N_always + N_routed                  every parameter sits in memory
    N_active = N_always + N_routed · k/n            each token reads the always-on part and k of n experts
    read(B)  = N_always + N_routed · touched(B)     expected parameters one step of B tokens reads
    untouched = (1 − k/n)^B                         computed as a power, not as 1 − touched (which
                                                    cancels to 0 in double precision: ≈1e-75 is not 0)

`roofline` reads its MoE weight term from here; `moe` (chapter 2: experts on a rack, the all-to-all)
builds on it. Assumption, stated wherever it is used: each token picks its k experts uniformly at
random and independently of the other tokens (real routers are skewed, which touches fewer experts).
Units: parameters, tokens, dimensionless fractions; arrays broadcast.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np
import sympy as sp

from . import models
from .formula import numeric, out
from .notation import B, N_act, N_rt, N_sh, N_tot, f_touch, k_act, n_exp
from .units import check_at_least, check_nonnegative, check_positive

#: expected fraction of one layer's routed experts that a batch of B tokens touches
experts_touched_expr = 1 - (1 - k_act / n_exp) ** B
#: total and active parameters in terms of the always-read and the routed parameters
total_params_eq = sp.Eq(N_tot, N_sh + N_rt)
active_params_eq = sp.Eq(N_act, N_sh + N_rt * k_act / n_exp)
#: ... and the fraction it leaves untouched, as a power (1 − touched cancels to 0 in floating point)
experts_untouched_expr = (1 - k_act / n_exp) ** B
#: expected parameters read from HBM in one step of B tokens
weights_read_expr = N_sh + N_rt * experts_touched_expr


@lru_cache(maxsize=None)
def batch_to_touch_expr():
    """The batch at which the expected touched fraction reaches f_touch (solved once, on first use)."""
    (solution,) = sp.solve(sp.Eq(experts_touched_expr, f_touch), B)
    return solution


@lru_cache(maxsize=None)
def routed_split_expr():
    """{N_sh: ..., N_rt: ...} solved from the total and active parameter counts."""
    return sp.solve([total_params_eq, active_params_eq], [N_sh, N_rt], dict=True)[0]


def _split_exprs():
    s = routed_split_expr()
    return s[N_sh], s[N_rt]


def _always_expr():
    return _split_exprs()[0]


def _routed_expr():
    return _split_exprs()[1]


def _check_routing(batch, experts_per_token, n_experts):
    """Clear errors for a batch (tokens >= 0) and k of n experts (1 <= k <= n)."""
    check_nonnegative("batch", batch)
    check_at_least("experts_per_token", experts_per_token, 1)
    check_at_least("n_experts", n_experts, 1)
    if np.any(np.asarray(experts_per_token, float) > np.asarray(n_experts, float)):
        raise ValueError(f"experts_per_token ({experts_per_token}) must be <= n_experts ({n_experts})")


def experts_touched_fraction(batch, experts_per_token, n_experts):
    """Expected fraction of routed experts touched by `batch` tokens: 1 − (1 − k/n)^B.

    batch: tokens in the step (>= 0; arrays broadcast); experts_per_token k: 1 <= k <= n_experts.
    """
    _check_routing(batch, experts_per_token, n_experts)
    return numeric(experts_touched_expr)(B=batch, k_act=experts_per_token, n_exp=n_experts)


def experts_untouched_fraction(batch, experts_per_token, n_experts):
    """Expected fraction of routed experts a batch of `batch` tokens leaves untouched: (1 − k/n)^B.

    Evaluated as a power, so it stays accurate where 1 − touched would round to 0 (e.g. ≈1e-75 for
    DeepSeek-V3 at B ≈ 5,400). batch: tokens (>= 0); 1 <= experts_per_token <= n_experts.
    """
    _check_routing(batch, experts_per_token, n_experts)
    return numeric(experts_untouched_expr)(B=batch, k_act=experts_per_token, n_exp=n_experts)


def batch_to_touch(fraction, experts_per_token, n_experts):
    """Tokens per step at which the expected fraction of experts touched reaches `fraction`.

    fraction: 0 < fraction < 1; = log(1 − fraction) / log(1 − k/n) (arrays broadcast).
    """
    check_positive("fraction", fraction)
    if np.any(np.asarray(fraction, float) >= 1):
        raise ValueError(f"fraction must be < 1 (every expert is only reached as B → ∞), got {fraction!r}")
    check_at_least("experts_per_token", experts_per_token, 1)
    if np.any(np.asarray(experts_per_token, float) >= np.asarray(n_experts, float)):
        raise ValueError(f"experts_per_token ({experts_per_token}) must be < n_experts ({n_experts})")
    return numeric(batch_to_touch_expr)(f_touch=fraction, k_act=experts_per_token, n_exp=n_experts)


def routed_split(model) -> tuple[float, float]:
    """(always-read parameters, routed-expert parameters) of a model, from total, active, k and n.

    A dense model is all always-read: (total, 0).
    """
    m = models.resolve(model)
    if not m.is_moe:
        return m.total_params, 0.0
    v = dict(N_tot=m.total_params, N_act=m.active_params, k_act=m.experts_per_token, n_exp=m.n_experts)
    return numeric(_always_expr)(**v), numeric(_routed_expr)(**v)


def weight_params_read(model, batch):
    """Expected parameters read from HBM in one step of `batch` tokens (arrays broadcast).

    Dense model: all of them. MoE: the always-read part plus the touched fraction of the experts,
    which approaches N_total once B·k ≫ n (the lecture's weight term) and N_active at B = 1.
    """
    m = models.resolve(model)
    check_at_least("batch", batch, 1)
    always, routed = routed_split(m)
    if not m.is_moe:
        return out(always + 0 * np.asarray(batch, float))
    return numeric(weights_read_expr)(N_sh=always, N_rt=routed, B=batch, k_act=m.experts_per_token,
                                      n_exp=m.n_experts)


__all__ = ["experts_touched_expr", "experts_untouched_expr", "total_params_eq", "active_params_eq",
           "weights_read_expr", "batch_to_touch_expr", "routed_split_expr", "experts_touched_fraction",
           "experts_untouched_fraction", "batch_to_touch", "routed_split", "weight_params_read"]
