"""Chapter 6: what API prices reveal about serving costs, stated once in SymPy and evaluated from there.

1. The long-context price step. At the context where a sequence's KV read per step takes as long as its
   compute, B cancels and the bytes per token follow from the price step's context:
       b_kv = b_w·N_act / (r·L_ctx)                roofline.implied_kv_bytes_expr (reused, not restated)
   and the reverse problem: the step's context from the bytes, L* = b_w·N_act / (r·b_kv).
   The sanity check from the architecture: b_kv = n_KV layers · 2 (K, V) · n_KV heads · d_head · b_el.
2. Input against output price (the len_pass model). A pass of l_pass new tokens per sequence costs
   max(l_pass·t_tok, t_mem): compute grows with the tokens, memory (weights + existing KV) does not
   (prefill's attention stays on chip). Per token: max(l_pass·t_tok, t_mem) / l_pass.
   Prefill (l_pass ≫ 1) is compute-bound at t_tok per token; decode (l_pass = 1) is memory-bound at
   t_mem. If prices follow cost, p_out/p_in = t_mem/t_tok, so decode's utilisation relative to
   prefill's is t_tok/t_mem = p_in/p_out.
3. The context ceiling. Attention adds f_att·L_ctx FLOPs per new token (plus a constant f_win for
   sliding-window layers); weights cost 2·N_act. They are equal at L = (2·N_act − f_win) / f_att.
4. Memory tiers. Holding b_kv bytes for T_hold on a device of capacity C and cost p $/s costs
   b_kv·p·T_hold/C; reading them back into HBM costs b_kv·p/W. The two are equal at T* = C/W (the
   drain time): choose the tier whose drain time matches the hold time. Rematerializing costs a
   forward pass per read: 2·N_act/(F·η) seconds of a chip at p_chip $/hour.
   Prompt caching, as multiples of the base input price: no cache costs 1 + n for n reuses, a cache
   m_write + m_read·n; the cache pays from n* = (m_write − 1)/(1 − m_read) reuses.

Units: seconds, bytes, bytes/s, FLOP, FLOP/s, US dollars; prices in $ per token unless a name says
per million tokens. Numeric functions are `formula.numeric` of these expressions; arrays broadcast.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import sympy as sp

from . import hardware, models, prices, roofline, storage
from .formula import numeric, out
from .lecture import SAID
from .notation import (B, C_dev, F, L_ctx, N_act, T_hold, W_dev, b_el, b_kv, d_head, eta, f_att, f_win, l_pass,
                       m_read, m_write, n_kv, n_kvl, n_read, p_chip, p_dev, p_in, p_out, t_mem, t_tok)
from .units import FLOPS_PER_MAC, HOUR, check_at_least, check_nonnegative, check_positive

# --- 1. the long-context step and the KV bytes it implies ---------------------------------------------
#: per sequence, per decode step: KV read time and compute time (B cancels at the crossover)
kv_time_per_sequence_expr = roofline.t_kv_expr / B
compute_time_per_sequence_expr = roofline.t_compute_expr.subs(l_pass, 1) / B
#: the lecture's sanity check: bytes per token from the architecture
kv_bytes_formula_expr = n_kvl * 2 * n_kv * d_head * b_el


@lru_cache(maxsize=None)
def crossover_kv_bytes_expr():
    """b_kv where a sequence's KV read equals its compute, in F and BW: 2·BW·N_act / (F·L_ctx)."""
    (solution,) = sp.solve(sp.Eq(kv_time_per_sequence_expr, compute_time_per_sequence_expr), b_kv)
    return solution


@lru_cache(maxsize=None)
def step_context_expr():
    """The reverse problem: the context of the price step from the bytes per token, b_w·N_act / (r·b_kv)."""
    (solution,) = sp.solve(sp.Eq(b_kv, roofline.implied_kv_bytes_expr()), L_ctx)
    return solution


@lru_cache(maxsize=None)
def kv_layer_heads_expr():
    """What the bytes say about the architecture: unique KV layers × KV heads = b_kv / (2·d_head·b_el)."""
    (solution,) = sp.solve(sp.Eq(b_kv, kv_bytes_formula_expr), n_kvl)
    return solution * n_kv


def step_context(active_params, kv_bytes_per_token, ratio=SAID["ratio"], weight_bytes_per_param=1.0):
    """Context (tokens) at which a model with these KV bytes per token turns memory-bound at every batch.

    The reverse of `roofline.implied_kv_bytes_per_token`: L* = b_w·N_act / (r·b_kv).
    active_params: N_active (parameters); kv_bytes_per_token: bytes/token; ratio: the lecture's hardware
    ratio (multiply-adds per weight parameter read, ~300); weight_bytes_per_param: b_w (1 for fp8).
    """
    for name, value in (("active_params", active_params), ("kv_bytes_per_token", kv_bytes_per_token),
                        ("ratio", ratio), ("weight_bytes_per_param", weight_bytes_per_param)):
        check_positive(name, value)
    return numeric(step_context_expr)(N_act=active_params, b_kv=kv_bytes_per_token, r=ratio,
                                      b_w=weight_bytes_per_param)


def kv_bytes_from_architecture(kv_layers, kv_heads, head_dim, bytes_per_element=1.0):
    """n_KV layers × 2 (K and V) × KV heads × head_dim × bytes per element (bytes/token; arrays ok).

    kv_layers: layers with their own full-context KV (a cross-layer-shared KV counts once);
    kv_heads: key/value heads (not query heads); head_dim: numbers per head; bytes_per_element: 2 bf16, 1 fp8.
    """
    for name, value in (("kv_layers", kv_layers), ("kv_heads", kv_heads), ("head_dim", head_dim),
                        ("bytes_per_element", bytes_per_element)):
        check_positive(name, value)
    return numeric(kv_bytes_formula_expr)(n_kvl=kv_layers, n_kv=kv_heads, d_head=head_dim, b_el=bytes_per_element)


def kv_layer_heads(kv_bytes_per_token, head_dim=128, bytes_per_element=1.0):
    """Unique KV layers × KV heads that hold `kv_bytes_per_token` (layer-heads; arrays ok)."""
    for name, value in (("kv_bytes_per_token", kv_bytes_per_token), ("head_dim", head_dim),
                        ("bytes_per_element", bytes_per_element)):
        check_positive(name, value)
    f = numeric(kv_layer_heads_expr)
    return f(b_kv=kv_bytes_per_token, d_head=head_dim, b_el=bytes_per_element)


def long_context_multipliers(price) -> tuple[float, float]:
    """(input, output) price above the long-context step ÷ below it, for a Price or a registry model name."""
    p = price if isinstance(price, prices.Price) else prices.get(price)
    if p.long_context_threshold is None:
        raise ValueError(f"{p.key} has no long-context price step")
    return p.input_long / p.input, p.output_long / p.output


# --- 2. input against output price: the len_pass model ------------------------------------------------
#: time per token of a pass of l_pass new tokens per sequence: memory is read once whatever l_pass is
time_per_token_expr = sp.Max(l_pass * t_tok, t_mem) / l_pass
#: decode (one token per pass, memory-bound) and prefill (compute-bound), per token
decode_time_per_token_expr = t_mem
prefill_time_per_token_expr = t_tok


@lru_cache(maxsize=None)
def compute_bound_length_expr():
    """l_pass from which a pass is compute-bound: l_pass·t_tok = t_mem."""
    (solution,) = sp.solve(sp.Eq(l_pass * t_tok, t_mem), l_pass)
    return solution


@lru_cache(maxsize=None)
def decode_mfu_expr():
    """Decode's utilisation ÷ prefill's, read off the prices: t_tok/t_mem with p_out/p_in = t_mem/t_tok."""
    (t_mem_of_prices,) = sp.solve(sp.Eq(p_out / p_in, decode_time_per_token_expr / prefill_time_per_token_expr),
                                  t_mem)
    return sp.simplify((prefill_time_per_token_expr / decode_time_per_token_expr).subs(t_mem, t_mem_of_prices))


def time_per_token(memory_time, compute_time_per_token, len_pass):
    """max(len_pass·t_tok, t_mem) / len_pass: seconds per new token of one sequence's pass (arrays ok).

    memory_time: t_mem, the pass's memory time shared by its tokens (s); compute_time_per_token: t_tok (s);
    len_pass: new tokens per sequence in the pass (1 = decode).
    """
    check_positive("memory_time", memory_time)
    check_positive("compute_time_per_token", compute_time_per_token)
    check_at_least("len_pass", len_pass, 1)
    return numeric(time_per_token_expr)(t_mem=memory_time, t_tok=compute_time_per_token, l_pass=len_pass)


def compute_bound_length(memory_time, compute_time_per_token):
    """Tokens per pass from which prefill is compute-bound: t_mem / t_tok (tokens)."""
    check_positive("memory_time", memory_time)
    check_positive("compute_time_per_token", compute_time_per_token)
    return numeric(compute_bound_length_expr)(t_mem=memory_time, t_tok=compute_time_per_token)


def decode_mfu_from_prices(input_price, output_price):
    """Decode's utilisation as a fraction of prefill's that the prices imply: input ÷ output price.

    Prices in any one unit ($ per token or per million). Reading: prefill is compute-bound, decode
    memory-bound, and prices follow time per token, so a 5× output premium means decode runs at 1/5 of
    prefill's MFU. A ratio above 1 (output cheaper than input) is not what the model predicts.
    """
    check_positive("input_price", input_price)
    check_positive("output_price", output_price)
    return numeric(decode_mfu_expr)(p_in=input_price, p_out=output_price)


def output_input_table(tier: str = "standard") -> list[dict]:
    """Every registry price of `tier`: provider, model, input and output ($/M), ratio and implied decode MFU."""
    rows = []
    for p in prices.PRICES:
        if p.tier != tier:
            continue
        rows.append(dict(provider=p.provider, model=p.model, input=p.input, output=p.output,
                         ratio=p.output / p.input, decode_mfu=decode_mfu_from_prices(p.input, p.output),
                         source=p.source))
    return rows


# --- 3. the context ceiling: attention FLOPs against weight FLOPs --------------------------------------
#: attention FLOPs per new token at L_ctx cached tokens (full layers grow, windowed layers are constant)
attention_flops_expr = f_att * L_ctx + f_win
#: weight FLOPs per new token
weight_flops_expr = FLOPS_PER_MAC * N_act


@lru_cache(maxsize=None)
def context_ceiling_expr():
    """L_ctx where attention FLOPs per new token equal the weights' 2·N_act: (2·N_act − f_win) / f_att."""
    (solution,) = sp.solve(sp.Eq(attention_flops_expr, weight_flops_expr), L_ctx)
    return solution


def _window_flops(m: models.Model) -> float:
    """f_win: attention FLOPs per new token in the windowed layers once the context fills their window."""
    w = m.sliding_window or 0
    return m.attention_flops_per_sequence(w) - m.attention_flops_per_token() * w


def context_ceiling(model) -> float:
    """Context (tokens) at which attention FLOPs per new token equal the weight FLOPs 2·N_active.

    Uses the model's attention FLOPs (Q·K and P·V over every full-attention layer, all query heads; MLA in
    its absorbed form; sliding-window layers as a constant). inf if the model has no full-attention layer.
    """
    m = models.resolve(model)
    if m.n_full_layers == 0:
        return float("inf")
    return numeric(context_ceiling_expr)(N_act=m.active_params, f_att=m.attention_flops_per_token(),
                                         f_win=_window_flops(m))


def attention_flops_multiple(model, context):
    """Attention FLOPs ÷ weight FLOPs per new token at `context` cached tokens (dimensionless; arrays ok)."""
    m = models.resolve(model)
    check_nonnegative("context", context)
    attention = np.asarray(m.attention_flops_per_sequence(context), dtype=float)
    return out(attention / numeric(weight_flops_expr)(N_act=m.active_params))


def lecture_model(active_params=SAID["frontier_active_params"]) -> models.Model:
    """The lecture's guess at a frontier model's attention (hypothetical, not a registry model).

    `active_params` dense parameters; attention like ONE global layer (the Character.AI trick of
    sharing global KV across layers, local layers ignored) with SAID's 8 KV heads × d_head 128 and 64
    query heads: 2,048 bytes per token at 1 byte per element.
    """
    check_positive("active_params", active_params)
    heads, d = SAID["kv_sanity_kv_heads"], SAID["kv_sanity_head_dim"]
    return models.Model(name="the lecture's guess (hypothetical)", total_params=active_params,
                        active_params=active_params, n_layers=SAID["kv_sanity_layers"], d_model=64 * d,
                        n_heads=64, n_kv_heads=heads, head_dim=d,
                        notes="hypothetical: one global KV layer, as in the lecture's sanity check")


# --- 4. memory tiers and prompt caching ---------------------------------------------------------------
#: cost of holding one token's KV on a device for T_hold, and of reading it back into HBM once ($/token)
hold_cost_expr = b_kv * p_dev * T_hold / C_dev
retrieve_cost_expr = b_kv * p_dev / W_dev
tier_cost_expr = hold_cost_expr + n_read * retrieve_cost_expr
#: rematerializing: one forward pass per read, 2·N_act/(F·η) seconds of a chip at p_chip $/hour
remat_cost_expr = n_read * FLOPS_PER_MAC * N_act * p_chip / (sp.Integer(HOUR) * F * eta)
#: prompt caching in multiples of the base input price: n reuses without a cache, and with one
no_cache_cost_expr = 1 + n_read
cache_cost_expr = m_write + m_read * n_read


@lru_cache(maxsize=None)
def drain_rule_expr():
    """The hold time at which holding costs as much as one retrieval: T* = C/W (the drain time)."""
    (solution,) = sp.solve(sp.Eq(hold_cost_expr, retrieve_cost_expr), T_hold)
    return solution


@lru_cache(maxsize=None)
def break_even_reuses_expr():
    """Reuses at which a cache costs as much as none: n* = (m_write − 1) / (1 − m_read)."""
    (solution,) = sp.solve(sp.Eq(no_cache_cost_expr, cache_cost_expr), n_read)
    return solution


def tier_drain_time(capacity_bytes, bandwidth):
    """capacity / bandwidth: seconds to read a whole device once, the hold time it suits (s; arrays ok)."""
    check_positive("capacity_bytes", capacity_bytes)
    check_positive("bandwidth", bandwidth)
    return numeric(drain_rule_expr)(C_dev=capacity_bytes, W_dev=bandwidth)


def break_even_reuses(write_multiplier, read_multiplier):
    """Reuses n* from which caching is cheaper: (m_write − 1)/(1 − m_read) (reuses; arrays ok).

    write_multiplier: cache-write price ÷ base input price (> 1 for Anthropic's 1.25× and 2×);
    read_multiplier: cache-hit price ÷ base input price (in [0, 1)).
    """
    check_positive("write_multiplier", write_multiplier)
    check_nonnegative("read_multiplier", read_multiplier)
    if np.any(np.asarray(read_multiplier, float) >= 1):
        raise ValueError(f"read_multiplier must be < 1 (a hit cheaper than a fresh token), got {read_multiplier!r}")
    n = numeric(break_even_reuses_expr)(m_write=write_multiplier, m_read=read_multiplier)
    return out(np.maximum(n, 0.0))


def min_reuses(write_multiplier, read_multiplier) -> int:
    """The smallest whole number of reuses at which the cache is strictly cheaper than none."""
    n = break_even_reuses(write_multiplier, read_multiplier)
    return int(np.floor(n)) + 1


def cache_multipliers(price) -> dict:
    """{'write_5m', 'write_1h', 'read'}: cache prices ÷ base input price, for a Price or model name."""
    p = price if isinstance(price, prices.Price) else prices.get(price)
    out_ = {}
    for key, field in (("write_5m", "cache_write_5m"), ("write_1h", "cache_write_1h"), ("read", "cache_read")):
        value = getattr(p, field)
        if value is not None:
            out_[key] = value / p.input
    return out_


def remat_cost(active_params, hw=None, dtype: str = "fp8", utilisation=0.5, dollars_per_chip_hour=None,
               reads=1):
    """$ per token to recompute a token's KV `reads` times: 2·N_act/(F·η) chip-seconds each.

    hw: the chip doing the prefill (default: the chip of the registry's HBM device); dtype: its compute
    format; utilisation: η, prefill's MFU (an assumption, 0 < η <= 1); dollars_per_chip_hour: rental
    (default: the HBM device's, the lecture's $2/hour).
    """
    hbm = storage.by_kind("HBM")
    chip = hardware.resolve(hw if hw is not None else hbm.chip)
    rent = hbm.dollars_per_hour if dollars_per_chip_hour is None else dollars_per_chip_hour
    check_positive("active_params", active_params)
    check_positive("utilisation", utilisation)
    check_positive("dollars_per_chip_hour", rent)
    check_nonnegative("reads", reads)
    if np.any(np.asarray(utilisation, float) > 1):
        raise ValueError(f"utilisation must be <= 1, got {utilisation!r}")
    return numeric(remat_cost_expr)(n_read=reads, N_act=active_params, p_chip=rent, F=chip.flops(dtype),
                                    eta=utilisation)


def hold_and_retrieve_cost(device, hold_seconds, reads=1, kv_bytes_per_token=2048.0):
    """$ per token to hold a token's KV on `device` for hold_seconds and read it back `reads` times.

    device: a storage Device or registry name. HBM reads cost nothing here (the lecture: HBM is where
    inference needs the KV, and HBM → SRAM reads overlap compute). Arrays broadcast.
    """
    d = storage.resolve(device)
    check_nonnegative("hold_seconds", hold_seconds)
    check_nonnegative("reads", reads)
    check_positive("kv_bytes_per_token", kv_bytes_per_token)
    n = 0 * np.asarray(reads, float) if d.kind == "HBM" else reads
    return numeric(tier_cost_expr)(b_kv=kv_bytes_per_token, p_dev=d.dollars_per_second, T_hold=hold_seconds,
                                   C_dev=d.capacity, W_dev=d.bandwidth, n_read=n)


REMAT = "remat"


def tier_costs(hold_seconds, reads=1, kv_bytes_per_token=2048.0, active_params=SAID["frontier_active_params"],
               hw=None, dtype: str = "fp8", utilisation=0.5, dollars_per_chip_hour=None, devices=None) -> dict:
    """{'remat' or device name: $ per token} to serve `reads` reuses of a token's KV after hold_seconds.

    devices: storage devices to consider (default: every registry device). Arrays broadcast.
    """
    devs = [storage.resolve(d) for d in (devices if devices is not None else storage.names())]
    costs = {REMAT: out(remat_cost(active_params, hw, dtype, utilisation, dollars_per_chip_hour, reads)
                        + 0 * np.asarray(hold_seconds, float))}
    for d in devs:
        costs[d.name] = hold_and_retrieve_cost(d, hold_seconds, reads, kv_bytes_per_token)
    return costs


@dataclass(frozen=True)
class TierChoice:
    """The cheapest way to have a token's KV again after a hold: tier name and its cost ($/token)."""
    name: object          # "remat" or a device name (an array of names for array inputs)
    cost: object          # $ per token: the price the hold justifies, at cost
    costs: dict           # every tier's cost

    @property
    def cost_per_million(self):
        """The cheapest cost per million tokens ($/M)."""
        return out(np.asarray(self.cost, float) * prices.PER_MILLION)


def cheapest_tier(hold_seconds, reads=1, kv_bytes_per_token=2048.0, active_params=SAID["frontier_active_params"],
                  hw=None, dtype: str = "fp8", utilisation=0.5, dollars_per_chip_hour=None,
                  devices=None) -> TierChoice:
    """The cheapest tier for holding a token's KV hold_seconds and reading it `reads` times.

    Compares rematerializing (a forward pass per read) with holding in each storage device (capacity
    share × device $/s × hold, plus bytes/bandwidth × device $/s per read). Costs are capex or rental
    only, so they are floors, not prices. Returns a TierChoice (name, cost in $/token, every tier's cost).
    """
    costs = tier_costs(hold_seconds, reads, kv_bytes_per_token, active_params, hw, dtype, utilisation,
                       dollars_per_chip_hour, devices)
    names = list(costs)
    stack = np.stack([np.broadcast_to(np.asarray(costs[n], float), np.broadcast(*[np.asarray(c) for c in costs.values()]).shape)
                      for n in names])
    best = np.argmin(stack, axis=0)
    name = np.asarray(names, dtype=object)[best]
    return TierChoice(name=str(name) if np.ndim(name) == 0 else name, cost=out(np.min(stack, axis=0)), costs=costs)


def tier_by_drain_time(hold_seconds) -> str:
    """The registry device whose drain time is nearest `hold_seconds` on a log scale (the drain-time rule)."""
    check_positive("hold_seconds", hold_seconds)
    rows = drain_table()
    gaps = [abs(np.log(r["drain_s"] / hold_seconds)) for r in rows]
    return rows[int(np.argmin(gaps))]["name"]


@lru_cache(maxsize=None)
def crossover_hold_expr():
    """Hold time at which two devices (1, 2) cost the same for n_read reads: solve tier cost 1 = tier cost 2."""
    c1, w1, p1, c2, w2, p2 = sp.symbols("C_1 W_1 p_1 C_2 W_2 p_2", positive=True)
    one = tier_cost_expr.subs({C_dev: c1, W_dev: w1, p_dev: p1})
    two = tier_cost_expr.subs({C_dev: c2, W_dev: w2, p_dev: p2})
    (solution,) = sp.solve(sp.Eq(one, two), T_hold)
    return solution


def crossover_hold(device_1, device_2, reads=1):
    """Hold time (s) beyond which the device with the cheaper capacity wins over the one with the cheaper reads.

    Both devices' reads are charged (also HBM's, unlike `hold_and_retrieve_cost`); KV bytes cancel.
    nan if one device is cheaper at every hold time.
    """
    d1, d2 = storage.resolve(device_1), storage.resolve(device_2)
    check_positive("reads", reads)
    t = numeric(crossover_hold_expr)(C_1=d1.capacity, W_1=d1.bandwidth, p_1=d1.dollars_per_second,
                                     C_2=d2.capacity, W_2=d2.bandwidth, p_2=d2.dollars_per_second, n_read=reads)
    return out(np.where(np.asarray(t) > 0, t, np.nan))


def drain_table() -> list[dict]:
    """Every storage device: name, kind, capacity, bandwidth, drain time (s), $/s and sources."""
    rows = []
    for d in storage.DEVICES.values():
        rows.append(dict(name=d.name, kind=d.kind, capacity=d.capacity, bandwidth=d.bandwidth,
                         drain_s=tier_drain_time(d.capacity, d.bandwidth), dollars_per_second=d.dollars_per_second,
                         dollars_per_byte=d.dollars_per_byte, device=d))
    return rows


__all__ = ["kv_time_per_sequence_expr", "compute_time_per_sequence_expr", "kv_bytes_formula_expr",
           "crossover_kv_bytes_expr", "step_context_expr", "kv_layer_heads_expr", "step_context",
           "kv_bytes_from_architecture", "kv_layer_heads", "long_context_multipliers", "time_per_token_expr",
           "decode_time_per_token_expr", "prefill_time_per_token_expr", "compute_bound_length_expr",
           "decode_mfu_expr", "time_per_token", "compute_bound_length", "decode_mfu_from_prices",
           "output_input_table", "attention_flops_expr", "weight_flops_expr", "context_ceiling_expr",
           "context_ceiling", "attention_flops_multiple", "lecture_model", "hold_cost_expr", "retrieve_cost_expr",
           "tier_cost_expr", "remat_cost_expr", "no_cache_cost_expr", "cache_cost_expr", "drain_rule_expr",
           "break_even_reuses_expr", "tier_drain_time", "break_even_reuses", "min_reuses", "cache_multipliers",
           "remat_cost", "hold_and_retrieve_cost", "tier_costs", "TierChoice", "cheapest_tier", "drain_table",
           "REMAT", "tier_by_drain_time", "crossover_hold_expr", "crossover_hold"]
