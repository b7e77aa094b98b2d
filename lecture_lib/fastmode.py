"""Fast mode: give up some amortisation of the weight read to shorten the step (chapter 1).

A provider that serves at the balance batch B* pays the least per token. Serving a smaller batch B
shortens the step (the weight read is the floor) but spreads the weight read over fewer tokens:

    cost multiple  m(B) = T_step(B) / B  ÷  T_step(B*) / B*          (>= 1)
    fast batch     B_m  solves (t_weights + B·t_kv/B) / B = m · t_compute/B
    speed-up       T_step(B*) / T_step(B_m),  at most T_step(B*) / t_weights as B → 0
    ceiling        c / (c − k) = 1 / (1 − L_ctx / L_wall)       (c, k: compute, KV time per sequence)
    context for S  the L_ctx at which a speed-up S becomes possible: at infinite price (the ceiling)
                   L = (1 − 1/S)·L_wall, at m × the price L = m(S − 1)/(mS − 1)·L_wall

At context 0 the ceiling is 1: below B* the step sits on the weight floor, so a smaller batch is no
faster. This is the lecture's all-weights toy (every weight read every step); for an MoE at very small
batch the touched-experts read (`roofline.step_time`, the default) is lower still, but a batch that
costs a few times the balance point's still touches essentially every expert.

Everything is the roofline of `roofline` with one new token per sequence (decode); `FastModeToy` holds
the numbers of one model on one system and evaluates these expressions. Units: seconds, FLOP/s,
bytes/s, bytes, parameters, tokens.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import sympy as sp

from . import hardware, models, roofline
from .formula import numeric
from .lecture import SAID
from .notation import B, L_ctx, S_fast, l_pass, m_cost
from .units import FLOPS_PER_MAC, TB, check_at_least, check_nonnegative, check_positive, dtype_bytes

#: per-sequence compute and KV time and the per-step weight time of a decode step, s
compute_per_seq_expr = (roofline.t_compute_expr / B).subs(l_pass, 1)
kv_per_seq_expr = roofline.t_kv_expr / B
weights_expr = roofline.t_weights_expr
#: the decode step, s
decode_step_expr = roofline.t_step_expr.subs(l_pass, 1)
#: cost per token at B over the cost per token at the (compute-bound) balance point
cost_multiple_expr = decode_step_expr / (B * compute_per_seq_expr)


@lru_cache(maxsize=None)
def balance_step_expr():
    """Step time at the balance batch with KV (compute-bound there): c · B*_kv, s."""
    return compute_per_seq_expr * roofline.balance_batch_expr(with_kv=True)


@lru_cache(maxsize=None)
def fast_batch_expr():
    """The batch whose cost per token is m_cost times the balance point's (memory-bound side)."""
    (solution,) = sp.solve(sp.Eq((weights_expr + B * kv_per_seq_expr) / B, m_cost * compute_per_seq_expr), B)
    return solution


@lru_cache(maxsize=None)
def fast_speedup_expr():
    """Step-time speed-up of the fast batch over the balance step."""
    return sp.simplify(balance_step_expr() / (weights_expr + fast_batch_expr() * kv_per_seq_expr))


@lru_cache(maxsize=None)
def speedup_ceiling_expr():
    """The most any cut in batch can buy: balance step / weight-read floor."""
    return sp.simplify(balance_step_expr() / weights_expr)


@lru_cache(maxsize=None)
def ceiling_context_expr():
    """L_ctx at which the ceiling c/(c − k) reaches S_fast: where S_fast becomes possible at all."""
    (solution,) = sp.solve(sp.Eq(speedup_ceiling_expr(), S_fast), L_ctx)
    return sp.simplify(solution)


@lru_cache(maxsize=None)
def speedup_context_expr():
    """L_ctx at which paying m_cost × the balance price buys a speed-up of S_fast."""
    (solution,) = sp.solve(sp.Eq(fast_speedup_expr(), S_fast), L_ctx)
    return sp.simplify(solution)


def _speedup_at_batch_expr():
    return balance_step_expr() / decode_step_expr


def _balance_batch_expr():
    return roofline.balance_batch_expr(with_kv=True)


@dataclass(frozen=True)
class FastModeToy:
    """A model on a system, reduced to the numbers fast mode trades.

    n_total, n_active: parameters; bytes_per_param: b_w; flops: F (FLOP/s, 2 per multiply-add);
    bandwidth: BW (bytes/s); context: tokens of KV per sequence; kv_bytes_per_token: b_kv.
    """
    n_total: float
    n_active: float
    bytes_per_param: float
    flops: float
    bandwidth: float
    context: float
    kv_bytes_per_token: float

    def __post_init__(self):
        for name in ("n_total", "n_active", "bytes_per_param", "flops", "bandwidth"):
            check_positive(name, getattr(self, name))
        check_nonnegative("context", self.context)
        check_nonnegative("kv_bytes_per_token", self.kv_bytes_per_token)
        if self.kv_per_seq_s >= self.compute_per_seq_s:
            raise ValueError(f"context={self.context:g} is at or past the balance context: no batch "
                             "balances, so there is no balance point to compare fast mode with")

    @classmethod
    def problem8(cls, ratio: float = SAID["ratio"]) -> "FastModeToy":
        """Syllabus §5 ch.1 problem 8: 64 GPUs × 8 TB/s, 2T params fp8, 100B active, 100K × 2 kB KV.

        The lecture's "FLOPs" = ratio × bandwidth multiply-adds per second at 1 byte per weight,
        i.e. F = 2 · ratio · BW FLOP/s in this course's units.
        """
        bw = 64 * 8 * TB
        return cls(n_total=2e12, n_active=100e9, bytes_per_param=1.0, flops=FLOPS_PER_MAC * ratio * bw,
                   bandwidth=bw, context=100e3, kv_bytes_per_token=2e3)

    @classmethod
    def from_system(cls, hw, model, context, weight_dtype="bf16", kv_dtype="bf16", compute_dtype=None):
        """The toy for a registry chip/system and model (full-attention KV bytes per token)."""
        chip, m = hardware.resolve(hw), models.resolve(model)
        flops = roofline._compute_rate(chip, weight_dtype, compute_dtype)
        return cls(n_total=m.total_params, n_active=m.active_params,
                   bytes_per_param=dtype_bytes(weight_dtype, "weight_dtype"), flops=flops,
                   bandwidth=chip.hbm_bandwidth, context=float(context),
                   kv_bytes_per_token=m.kv_bytes_per_token(kv_dtype))

    @property
    def symbols(self) -> dict:
        """This toy's values by notation-table symbol name."""
        return dict(N_tot=self.n_total, N_act=self.n_active, b_w=self.bytes_per_param, F=self.flops,
                    BW=self.bandwidth, L_ctx=self.context, b_kv=self.kv_bytes_per_token)

    def _eval(self, expr, **extra):
        f = numeric(expr)
        return f(**{**{k: v for k, v in self.symbols.items() if k in f.names}, **extra})

    def _check_context(self, context):
        check_nonnegative("context", context)
        if np.any(np.asarray(context, float) >= self.balance_context):
            raise ValueError(f"context must stay below the balance context ({self.balance_context:,.0f} "
                             "tokens): past it no batch balances")
        return context

    def ceiling_at(self, context):
        """The ceiling c/(c − k) with this toy's numbers at another context (tokens; arrays broadcast)."""
        return self._eval(speedup_ceiling_expr, L_ctx=self._check_context(context))

    def speedup_for_cost_at(self, multiple, context):
        """speedup_for_cost(multiple) at another context (tokens; arrays broadcast)."""
        check_at_least("multiple", multiple, 1)
        return self._eval(fast_speedup_expr, m_cost=multiple, L_ctx=self._check_context(context))

    @property
    def weights_s(self) -> float:
        """Time to read every weight once: the latency floor, s."""
        return self._eval(weights_expr)

    @property
    def compute_per_seq_s(self) -> float:
        """2·N_act / F: one sequence's matmuls in one decode step, s."""
        return self._eval(compute_per_seq_expr)

    @property
    def kv_per_seq_s(self) -> float:
        """L_ctx·b_kv / BW: one sequence's KV read in one decode step, s."""
        return self._eval(kv_per_seq_expr)

    @property
    def balance_batch(self) -> float:
        """Sequences at which compute = weights + KV."""
        return self._eval(_balance_batch_expr)

    @property
    def balance_step_s(self) -> float:
        return self._eval(balance_step_expr)

    def step_s(self, batch):
        """max(compute, weights + KV) for `batch` sequences, s (arrays broadcast)."""
        check_positive("batch", batch)
        return self._eval(decode_step_expr, B=batch)

    def cost_multiple(self, batch):
        """Cost per token at `batch` over the cost per token at the balance batch (>= 1)."""
        check_positive("batch", batch)
        return self._eval(cost_multiple_expr, B=batch)

    def speedup(self, batch):
        """Balance step / step at `batch` (> 1 below the balance batch, < 1 above)."""
        check_positive("batch", batch)
        return self._eval(_speedup_at_batch_expr, B=batch)

    def batch_for_cost(self, multiple):
        """Batch whose cost per token is `multiple` × the balance point's (multiple >= 1)."""
        check_at_least("multiple", multiple, 1)
        return self._eval(fast_batch_expr, m_cost=multiple)

    def speedup_for_cost(self, multiple):
        """Speed-up bought by paying `multiple` × the balance cost per token (multiple >= 1)."""
        check_at_least("multiple", multiple, 1)
        return self._eval(fast_speedup_expr, m_cost=multiple)

    @property
    def balance_context(self) -> float:
        """Context (tokens) at which KV per sequence equals compute per sequence: no batch balances."""
        return self._eval(roofline.balance_context_expr)

    def context_for_speedup(self, target, multiple=None):
        """Context (tokens) from which a speed-up of `target` is possible (target >= 1).

        multiple=None: at any price (the ceiling reaches target); else at `multiple` × the balance
        cost per token. Uses this toy's numbers; its own context does not enter. Arrays broadcast.
        """
        check_at_least("target", target, 1)
        if multiple is None:
            return self._eval(ceiling_context_expr, S_fast=target)
        check_at_least("multiple", multiple, 1)
        return self._eval(speedup_context_expr, S_fast=target, m_cost=multiple)

    @property
    def max_speedup(self) -> float:
        """Balance step / weight-read floor: the speed-up as batch → 0 at infinite cost."""
        return self._eval(speedup_ceiling_expr)


__all__ = ["compute_per_seq_expr", "kv_per_seq_expr", "weights_expr", "decode_step_expr",
           "cost_multiple_expr", "balance_step_expr", "fast_batch_expr", "fast_speedup_expr",
           "speedup_ceiling_expr", "ceiling_context_expr", "speedup_context_expr", "FastModeToy"]
