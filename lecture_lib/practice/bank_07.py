"""Problem bank for notebook 07 (prices as evidence: the long-context step, KV bytes from a price, input
vs output price, the context ceiling, memory tiers and prompt caching; lecture chapter 6).

Every expected value is computed by lecture_lib when check() runs. The "given" numbers live in GIVEN,
so the worksheet prints exactly what the bank checks against.
"""
from __future__ import annotations

from types import SimpleNamespace

from .. import models, prices, pricing, roofline, storage
from .. import notation as nt
from ..lecture import SAID
from ..units import HOUR, MS
from .problems import Problem, Slip, Vary, register, steps

#: the worksheet's numbers (names are registry keys; sizes in bytes and tokens; times in seconds)
GIVEN = SimpleNamespace(
    # problems 1-3: the lecture's price step
    active_params=SAID["frontier_active_params"], step_context=SAID["price_step_context"], ratio=SAID["ratio"],
    # problem 4: the reverse problem
    kv_bytes=2048.0,
    # problem 5: the lecture's sanity check
    kv_layers=SAID["kv_sanity_layers"], kv_heads=SAID["kv_sanity_kv_heads"], head_dim=SAID["kv_sanity_head_dim"],
    bytes_per_element=SAID["kv_sanity_bytes_per_element"], query_heads=64,
    # problems 6 and 10: a dense GQA model
    dense_model="Llama-3-70B", dense_kv_dtype="bf16",
    # problem 7: the long-context step
    step_price="gemini-3.1-pro-preview",
    # problem 8: input vs output price
    mfu_price="gemini-3.1-pro-preview",
    # problem 9: the len_pass model (syllabus chapter 6, problem 7)
    t_mem_s=10 * MS, t_tok_s=0.1 * MS,
    # problems 11-12: drain times
    disk="HDD 24 TB",
    # problem 13: prompt caching
    cache_price="claude-opus-4.6",
)


def _dense():
    return models.get(GIVEN.dense_model)


def _implied(active=None, context=None):
    return roofline.implied_kv_bytes_per_token(active or GIVEN.active_params, context or GIVEN.step_context,
                                               GIVEN.ratio)


def _mult():
    return pricing.cache_multipliers(GIVEN.cache_price)


def _disk():
    return storage.get(GIVEN.disk)


register(Problem(
    id="07.kv_from_step", title="KV bytes per token from a price step", unit="bytes", points=1, rtol=0.01,
    expected=lambda: _implied(),
    slips=[Slip(lambda: GIVEN.active_params * GIVEN.step_context / GIVEN.ratio,
                "You put the context in the numerator (the lecture's first try, too). More context means each "
                "token may hold FEWER bytes before the KV read catches up with compute."),
           Slip(lambda: _implied() / 2,
                "Off by 2: the lecture's ratio already counts multiply-adds, so do not halve again.")],
    hints=["At the crossover a sequence's KV read equals its compute: L·b_kv/BW = N_act/F_mac; B cancels.",
           "In the lecture's units: b_kv = N_active / (ratio × context), weights at 1 byte per parameter."],
))

register(Problem(
    id="07.kv_expr", title="derive b_kv at the crossover (SymPy)", kind="symbolic", points=2,
    expected=lambda: pricing.crossover_kv_bytes_expr(),
    symbols={s.name: s for s in (nt.B, nt.F, nt.BW, nt.N_act, nt.L_ctx, nt.b_kv)},
    slips=[Slip(lambda: pricing.crossover_kv_bytes_expr() / 2,
                "Off by 2: F counts 2 FLOPs per multiply-add, so the compute per token is 2·N_act/F.")],
    hints=["Per decode step: t_kv = B·L_ctx·b_kv/BW and t_compute = 2·B·N_act/F.",
           "sympy.solve(sympy.Eq(t_kv, t_compute), b_kv)[0]"],
))

register(Problem(
    id="07.kv_spread", title="the same step with twice the active parameters", unit="bytes", points=1, rtol=0.01,
    expected=lambda: _implied(active=2 * GIVEN.active_params),
    slips=[Slip(lambda: _implied(active=GIVEN.active_params / 2),
                "You halved it. More active parameters mean more compute per token, so the KV may be LARGER "
                "before memory catches up.")],
    hints=["b_kv is proportional to N_active at a fixed step context."],
))

register(Problem(
    id="07.step_context", title="the reverse problem: where the price step belongs", unit="tokens", points=1,
    rtol=0.01, expected=lambda: pricing.step_context(GIVEN.active_params, GIVEN.kv_bytes, GIVEN.ratio),
    slips=[Slip(lambda: GIVEN.kv_bytes * GIVEN.ratio / GIVEN.active_params,
                "That is the reciprocal (tokens per ... nothing sensible): L* = N_active / (ratio × b_kv).")],
    hints=["Solve b_kv = N_active / (ratio × L) for L."],
))

register(Problem(
    id="07.kv_sanity", title="the lecture's sanity check in bytes", unit="bytes", points=1, rtol=0.01,
    expected=lambda: pricing.kv_bytes_from_architecture(GIVEN.kv_layers, GIVEN.kv_heads, GIVEN.head_dim,
                                                        GIVEN.bytes_per_element),
    slips=[Slip(lambda: pricing.kv_bytes_from_architecture(GIVEN.kv_layers, GIVEN.query_heads, GIVEN.head_dim,
                                                           GIVEN.bytes_per_element),
                "You used the QUERY heads. Only key/value heads are stored per past token; queries belong to "
                "the new token and are thrown away."),
           Slip(lambda: pricing.kv_bytes_from_architecture(GIVEN.kv_layers, GIVEN.kv_heads, GIVEN.head_dim,
                                                           GIVEN.bytes_per_element) / 2,
                "Off by 2: both K and V are stored."),
           Slip(lambda: pricing.kv_bytes_from_architecture(GIVEN.kv_layers, GIVEN.kv_heads, GIVEN.head_dim, 2),
                "That is at 2 bytes per element (bf16); the question says 1 byte.")],
    hints=["bytes = unique KV layers × 2 (K, V) × KV heads × d_head × bytes per element."],
))

register(Problem(
    id="07.dense_step", title="where a dense GQA model's step would sit", unit="tokens", points=2, rtol=0.01,
    expected=lambda: pricing.step_context(_dense().active_params, _dense().kv_bytes_per_token(GIVEN.dense_kv_dtype),
                                          GIVEN.ratio),
    slips=[Slip(lambda: pricing.step_context(_dense().active_params, _dense().kv_bytes_per_token("fp8"), GIVEN.ratio),
                "That is with an fp8 KV cache; the question stores it in bf16 (2 bytes per element)."),
           Slip(lambda: pricing.step_context(_dense().active_params,
                                             pricing.kv_bytes_from_architecture(_dense().n_layers, _dense().n_heads,
                                                                                _dense().head_dim, 2), GIVEN.ratio),
                "You sized the cache with the query heads; use the KV heads.")],
    hints=["First the KV bytes per token: 2 × layers × KV heads × head_dim × 2 bytes.",
           "Then L* = N_active / (ratio × b_kv), weights at 1 byte per parameter."],
))

register(Problem(
    id="07.gemini_step", title="what Gemini's long-context step really is", kind="choice", points=1,
    choices={"a": "Input and output both rise by 50% above 200K prompt tokens.",
             "b": "Input doubles and output rises by 50% above 200K prompt tokens; the lecture's '50%' fits output only.",
             "c": "Only tokens beyond the 200K-th are billed at the higher price.",
             "d": "Output doubles and input rises by 50%."},
    expected=lambda: "b",
    hints=["Look at prices.get('gemini-3.1-pro-preview'): input, input_long, output, output_long."],
))

register(Problem(
    id="07.decode_mfu", title="decode MFU read off a price sheet", unit="", points=1, rtol=0.01,
    expected=lambda: pricing.decode_mfu_from_prices(prices.get(GIVEN.mfu_price).input,
                                                    prices.get(GIVEN.mfu_price).output),
    slips=[Slip(lambda: prices.get(GIVEN.mfu_price).output / prices.get(GIVEN.mfu_price).input,
                "That is the output premium itself; decode's utilisation relative to prefill is its reciprocal.")],
    hints=["Prefill is compute-bound, decode memory-bound; prices follow time per token.",
           "Decode MFU ÷ prefill MFU = input price ÷ output price."],
))

register(Problem(
    id="07.prefill_len", title="when prefill turns compute-bound", unit="tokens", points=1, rtol=0.01,
    expected=lambda: pricing.compute_bound_length(GIVEN.t_mem_s, GIVEN.t_tok_s),
    slips=[Slip(lambda: GIVEN.t_tok_s / GIVEN.t_mem_s, "Upside down: len_pass = t_mem / t_tok.")],
    hints=["Cost per token = max(t_tok·len, t_mem) / len; the two are equal at len = t_mem / t_tok."],
))

register(Problem(
    id="07.attention_ceiling", title="where attention FLOPs catch up with the weights", unit="tokens", points=2,
    rtol=0.01, expected=lambda: pricing.context_ceiling(_dense()),
    slips=[Slip(lambda: pricing.context_ceiling(_dense()) * _dense().n_heads / _dense().n_kv_heads,
                "You counted KV heads. Every QUERY head computes scores against every cached key: the FLOPs "
                "scale with the query heads."),
           Slip(lambda: pricing.context_ceiling(_dense()) * 2,
                "Off by 2: per head and layer, Q·K and P·V are two dot products of d_head each.")],
    hints=["Attention per new token per cached token: 2 FLOPs × 2·n_heads·d_head per layer.",
           "Weights per token: 2·N_active. Solve f_att·L = 2·N_active for L."],
))

register(Problem(
    id="07.drain_expr", title="derive the drain-time rule (SymPy)", kind="symbolic", points=2,
    expected=lambda: pricing.drain_rule_expr(),
    symbols={s.name: s for s in (nt.T_hold, nt.b_kv, nt.p_dev, nt.C_dev, nt.W_dev)},
    slips=[Slip(lambda: 1 / pricing.drain_rule_expr(), "Upside down: T* = capacity / bandwidth, in seconds.")],
    hints=["Hold: b_kv·p_dev·T_hold/C_dev. Retrieve once: b_kv·p_dev/W_dev.",
           "sympy.solve(sympy.Eq(hold, retrieve), T_hold)[0]"],
))

register(Problem(
    id="07.drain_disk_h", title="drain time of a large hard disk", unit="h", points=1, rtol=0.01,
    expected=lambda: pricing.tier_drain_time(_disk().capacity, _disk().bandwidth) / HOUR,
    slips=[Slip(lambda: pricing.tier_drain_time(_disk().capacity, _disk().bandwidth) / HOUR * 8,
                "Off by 8: the bandwidth is in megaBYTES per second, not megabits."),
           Slip(lambda: SAID["drain_disk_s"] / HOUR,
                "That is the lecture's guess; compute it from the drive's capacity and bandwidth."),
           Slip(lambda: pricing.tier_drain_time(_disk().capacity, _disk().bandwidth) / 60,
                "That looks like minutes; the question asks for hours.")],
    hints=["Drain time = capacity / bandwidth; 1 TB = 10^12 bytes, 1 MB/s = 10^6 bytes/s."],
))

register(Problem(
    id="07.tier_1h", title="which tier suits a 1-hour cache", kind="choice", points=1,
    choices={"a": "Spinning disk: it drains in about an hour, as the lecture said.",
             "b": "HBM: it is the only tier fast enough for a cache hit.",
             "c": "Flash: a datacenter NVMe drive drains in tens of minutes, a large disk in about a day, so by "
                  "drain time the 1-hour tier is closer to flash.",
             "d": "DDR: it drains in about an hour."},
    expected=lambda: "c",
    hints=["Compute capacity / bandwidth for each device in lecture_lib.storage and compare with 3,600 s."],
))

register(Problem(
    id="07.cache_reuses", title="reuses from which a 1-hour cache pays", unit="reuses", points=1, rtol=0.01,
    expected=lambda: float(pricing.min_reuses(_mult()["write_1h"], _mult()["read"])),
    slips=[Slip(lambda: pricing.break_even_reuses(_mult()["write_1h"], _mult()["read"]),
                "That is the break-even point; the question asks for the smallest WHOLE number of reuses at "
                "which the cache is cheaper."),
           Slip(lambda: float(pricing.min_reuses(_mult()["write_5m"], _mult()["read"])),
                "That is the 5-minute cache; the 1-hour write costs more.")],
    hints=["Without a cache: 1 + n base prices. With one: write multiple + n × read multiple.",
           "Divide the cache prices printed above by the base input price to get the multiples."],
))


#: givens that differ per student under `assign --roster` (see lecture_lib.practice.variants)
VARIES = (
    Vary("active_params", steps(50e9, 200e9, 10e9), "active parameters (problems 1 and 3), parameters"),
    Vary("kv_bytes", steps(1024.0, 4096.0, 256.0), "KV bytes per token (problem 4), bytes"),
    Vary("t_tok_s", steps(0.05e-3, 0.5e-3, 0.05e-3), "compute time per token (problem 9), s"),
)
