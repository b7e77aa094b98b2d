"""pricing (chapter 6): properties of the equations, hand arithmetic from published figures, clear errors.

Expected values are worked out by hand from the lecture, the price pages and the datasheets (as quoted in
syllabus.md and reference/specs.md), not read back from lecture_lib.
"""
import numpy as np
import pytest
import sympy as sp

from lecture_lib import notation as nt
from lecture_lib import prices, pricing, roofline, storage
from lecture_lib.formula import numeric

RNG = np.random.default_rng(7)
YEAR_S = 365.25 * 86400


# --- hand arithmetic -------------------------------------------------------------------------------
def test_lecture_kv_bytes_and_reverse_problem():
    # syllabus ch.6 (a): (1/300) × 1e11 / 2e5 = 1,667 bytes; problem 2: 2 KB and 100B → ≈163K tokens
    assert roofline.implied_kv_bytes_per_token(1e11, 2e5, 300) == pytest.approx(1e11 / 300 / 2e5)
    assert pricing.step_context(1e11, 2048, 300) == pytest.approx(1e11 / (300 * 2048))
    assert pricing.step_context(1e11, 2048, 300) == pytest.approx(162_760, rel=1e-4)
    # variants from the syllabus: 200B active → 3.3 KB; crossover at 128K → 2.6 KB
    assert roofline.implied_kv_bytes_per_token(2e11, 2e5, 300) == pytest.approx(3333, rel=1e-3)
    assert roofline.implied_kv_bytes_per_token(1e11, 128_000, 300) == pytest.approx(2604, rel=1e-3)


def test_kv_bytes_from_architecture_matches_published_figures():
    assert pricing.kv_bytes_from_architecture(1, 8, 128, 1) == 2048                 # the lecture's sanity check
    assert pricing.kv_bytes_from_architecture(80, 8, 128, 2) == 327_680             # Llama-3-70B (specs.md)
    assert pricing.kv_bytes_from_architecture(126, 8, 128, 2) == 516_096            # Llama-3-405B (specs.md)
    assert pricing.kv_layer_heads(2048, 128, 1) == pytest.approx(8)


def test_gemini_step_is_input_x2_output_x1_5():
    # Gemini 3.1 Pro: $2/$12 at ≤200K, $4/$18 above (syllabus §3.3)
    assert pricing.long_context_multipliers("gemini-3.1-pro-preview") == (4 / 2, 18 / 12)
    with pytest.raises(ValueError, match="no long-context price step"):
        pricing.long_context_multipliers("claude-haiku-4.5")


def test_decode_mfu_from_published_prices():
    assert pricing.decode_mfu_from_prices(5, 25) == pytest.approx(0.2)              # Claude Opus 4.6
    assert pricing.decode_mfu_from_prices(2, 12) == pytest.approx(1 / 6)           # Gemini 3.1 Pro
    for row in pricing.output_input_table():
        p = prices.get(row["model"])
        assert row["ratio"] == pytest.approx(p.output / p.input)
        assert row["decode_mfu"] == pytest.approx(p.input / p.output)


def test_prefill_compute_bound_length_problem_7():
    # syllabus ch.6 problem 7: t_mem = 10 ms, t_compute = 0.1 ms per token → len = 100
    assert pricing.compute_bound_length(10e-3, 0.1e-3) == pytest.approx(100)


def test_context_ceiling_by_hand():
    # Llama-3-70B: f_att = 2 FLOP × 80 layers × 2 × 64 query heads × 128; weights 2 × 70.6e9
    assert pricing.context_ceiling("Llama-3-70B") == pytest.approx(2 * 70.6e9 / (2 * 80 * 2 * 64 * 128))
    # gpt-oss-120b: 18 full layers, 18 windowed (128 tokens), 64 query heads × 64; 5.1e9 active
    per_layer_tok = 2 * 2 * 64 * 64
    expected = (2 * 5.1e9 - 18 * 128 * per_layer_tok) / (18 * per_layer_tok)
    assert pricing.context_ceiling("gpt-oss-120b") == pytest.approx(expected)
    # the lecture's guess: one global layer of 64 query heads × 128, 100B active: millions of tokens
    assert pricing.context_ceiling(pricing.lecture_model()) == pytest.approx(2e11 / (2 * 2 * 64 * 128))
    assert pricing.attention_flops_multiple("Llama-3-70B", 2 * 70.6e9 / (2 * 80 * 2 * 64 * 128)) == pytest.approx(1)


def test_drain_times_of_the_syllabus_devices():
    # syllabus ch.6 problem 6: NVMe 7.68 TB @ 7 GB/s ≈ 18 min; HDD 24 TB @ 285 MB/s ≈ 23 h
    assert pricing.tier_drain_time(7.68e12, 7e9) / 60 == pytest.approx(18.29, rel=1e-3)
    assert pricing.tier_drain_time(24e12, 285e6) / 3600 == pytest.approx(23.39, rel=1e-3)
    hdd = storage.get("HDD 24 TB")
    assert pricing.tier_drain_time(hdd.capacity, hdd.bandwidth) == pytest.approx(24e12 / 285e6)


def test_break_even_reuses_anthropic():
    # syllabus ch.6 problem 5: 5-min cache pays from n = 1 (1.35 vs 2), 1-h cache from n = 2 (2.2 vs 3)
    assert pricing.break_even_reuses(1.25, 0.1) == pytest.approx(0.25 / 0.9)
    assert pricing.break_even_reuses(2.0, 0.1) == pytest.approx(1 / 0.9)
    assert (pricing.min_reuses(1.25, 0.1), pricing.min_reuses(2.0, 0.1)) == (1, 2)
    assert pricing.cache_multipliers("claude-opus-4.6") == {"write_5m": 1.25, "write_1h": 2.0, "read": 0.1}
    assert pricing.break_even_reuses(0.9, 0.1) == 0          # a write cheaper than a miss pays at once


def test_remat_and_hold_costs_by_hand():
    # remat: 2·N/(F·η) seconds of an H200 (fp8 1,979 TFLOP/s) at $2/hour
    assert pricing.remat_cost(1e11) == pytest.approx(2e11 / (1979e12 * 0.5) * 2.0 / 3600)
    assert pricing.remat_cost(1e11, reads=3) == pytest.approx(3 * pricing.remat_cost(1e11))
    # HDD: $430 over 5 years; hold 2 KB for an hour + one read
    p = 430 / (5 * YEAR_S)
    expected = 2048 * p * 3600 / 24e12 + 2048 * p / 285e6
    assert pricing.hold_and_retrieve_cost("HDD 24 TB", 3600, 1, 2048) == pytest.approx(expected)
    # HBM: reads are free (the lecture), holding is the GPU's rent share
    hbm = storage.by_kind("HBM")
    assert pricing.hold_and_retrieve_cost(hbm, 10, 5, 2048) == pytest.approx(2048 * (2.0 / 3600) * 10 / 141e9)


# --- properties -------------------------------------------------------------------------------------
def test_symbolic_equals_numeric_at_random_points():
    for _ in range(20):
        n, l, r, bw = RNG.uniform(1e9, 1e12), RNG.uniform(1e3, 1e7), RNG.uniform(50, 1000), RNG.uniform(0.5, 2)
        b = roofline.implied_kv_bytes_per_token(n, l, r, bw)
        assert pricing.step_context(n, b, r, bw) == pytest.approx(l)                 # the reverse problem inverts
        F, BW = RNG.uniform(1e14, 1e16), RNG.uniform(1e12, 1e13)
        b2 = float(pricing.crossover_kv_bytes_expr().subs({nt.F: F, nt.BW: BW, nt.N_act: n, nt.L_ctx: l}))
        # at those bytes a sequence's KV read equals its compute
        assert l * b2 / BW == pytest.approx(2 * n / F)
        w, rd = RNG.uniform(1, 4), RNG.uniform(0, 0.9)
        nstar = pricing.break_even_reuses(w, rd)
        assert 1 + nstar == pytest.approx(w + rd * nstar)


def test_drain_rule_is_capacity_over_bandwidth():
    assert pricing.drain_rule_expr() == nt.C_dev / nt.W_dev
    for _ in range(10):
        C, W, p, b = RNG.uniform(1e9, 1e14), RNG.uniform(1e8, 1e13), RNG.uniform(1e-7, 1e-3), RNG.uniform(100, 1e6)
        hold = numeric(pricing.hold_cost_expr)(b_kv=b, p_dev=p, T_hold=C / W, C_dev=C)
        retrieve = numeric(pricing.retrieve_cost_expr)(b_kv=b, p_dev=p, W_dev=W)
        assert hold == pytest.approx(retrieve)


def test_time_per_token_limits_and_monotone():
    lp = np.geomspace(1, 1e5, 50)
    t = pricing.time_per_token(10e-3, 0.1e-3, lp)
    assert t[0] == pytest.approx(10e-3)                    # decode pays the whole memory read
    assert t[-1] == pytest.approx(0.1e-3)                  # long prefill: compute per token only
    assert np.all(np.diff(t) <= 1e-15)


def test_decode_mfu_is_what_the_len_pass_model_gives():
    # with prices following time per token, decode/prefill time per token is the price ratio
    t_mem, t_tok = 7e-3, 0.5e-3
    p_in, p_out = pricing.time_per_token(t_mem, t_tok, 1e6), pricing.time_per_token(t_mem, t_tok, 1)
    assert pricing.decode_mfu_from_prices(p_in, p_out) == pytest.approx(t_tok / t_mem)


def test_cheapest_tier_moves_down_the_hierarchy_with_hold_time():
    holds = np.geomspace(1e-3, 3e6, 60)
    choice = pricing.cheapest_tier(holds, 1, 2048)
    drains = {r["name"]: r["drain_s"] for r in pricing.drain_table()}
    d = [drains[n] for n in choice.name if n in drains]
    assert np.all(np.diff(d) >= 0)                         # slower, roomier tiers for longer holds
    assert choice.name[0] == storage.by_kind("HBM").name and choice.name[-1] == storage.by_kind("disk").name
    # array and scalar calls agree; the cheapest costs no more than any tier
    for i in (0, 20, 59):
        one = pricing.cheapest_tier(holds[i], 1, 2048)
        assert one.name == choice.name[i] and one.cost == pytest.approx(choice.cost[i])
        assert all(one.cost <= c + 1e-30 for c in one.costs.values())
    assert pricing.cheapest_tier(3600, 0).name == pricing.REMAT              # never read again: nothing to keep
    assert pricing.cheapest_tier(3600, 1).name == storage.by_kind("flash").name


def test_more_reads_favour_faster_tiers():
    drains = {r["name"]: r["drain_s"] for r in pricing.drain_table()}
    picked = [pricing.cheapest_tier(3600, n, 2048).name for n in (1, 10, 100, 1000, 10_000)]
    d = [drains[n] for n in picked]
    assert np.all(np.diff(d) <= 0) and d[-1] < d[0]


def test_crossover_hold_equalises_two_tiers():
    flash, disk = storage.by_kind("flash"), storage.by_kind("disk")
    t = pricing.crossover_hold(flash, disk)
    assert pricing.hold_and_retrieve_cost(flash, t, 1, 5000) == pytest.approx(pricing.hold_and_retrieve_cost(disk, t, 1, 5000))
    assert 3600 < t < 86400
    assert pricing.tier_by_drain_time(300) == flash.name and pricing.tier_by_drain_time(1e5) == disk.name
    assert pricing.tier_by_drain_time(0.02) == storage.by_kind("HBM").name


def test_expressions_use_notation_symbols_only():
    for expr in (pricing.kv_bytes_formula_expr, pricing.time_per_token_expr, pricing.tier_cost_expr,
                 pricing.remat_cost_expr, pricing.context_ceiling_expr(), pricing.decode_mfu_expr(),
                 pricing.step_context_expr(), pricing.break_even_reuses_expr()):
        assert expr.free_symbols <= set(nt.SYMBOLS.values()), expr
    assert isinstance(pricing.decode_mfu_expr(), sp.Expr) and pricing.decode_mfu_expr() == nt.p_in / nt.p_out


# --- bad input --------------------------------------------------------------------------------------
@pytest.mark.parametrize("call,name", [
    (lambda: pricing.step_context(-1, 2048), "active_params"),
    (lambda: pricing.step_context(1e11, 0), "kv_bytes_per_token"),
    (lambda: pricing.decode_mfu_from_prices(0, 5), "input_price"),
    (lambda: pricing.decode_mfu_from_prices(1, float("nan")), "output_price"),
    (lambda: pricing.tier_drain_time(0, 1e9), "capacity_bytes"),
    (lambda: pricing.tier_drain_time(1e12, -5), "bandwidth"),
    (lambda: pricing.break_even_reuses(1.25, 1.2), "read_multiplier"),
    (lambda: pricing.remat_cost(1e11, utilisation=1.5), "utilisation"),
    (lambda: pricing.hold_and_retrieve_cost("HDD 24 TB", 10, 1, 0), "kv_bytes_per_token"),
    (lambda: pricing.cheapest_tier(-1), "hold_seconds"),
    (lambda: pricing.time_per_token(1e-3, 1e-4, 0.5), "len_pass"),
    (lambda: pricing.kv_bytes_from_architecture(1, 0, 128), "kv_heads"),
])
def test_bad_input_names_the_parameter(call, name):
    with pytest.raises((ValueError, TypeError), match=name):
        call()


def test_unknown_device_suggests_close_matches():
    with pytest.raises(KeyError, match="Did you mean"):
        pricing.hold_and_retrieve_cost("HDD 42 TB", 10)
