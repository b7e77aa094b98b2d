"""Tests for lecture_lib.serving and lecture_lib.traffic (chapter 1, second half).

Expected values come from outside the code under test: the syllabus's worked answers and published
figures (computed by hand here), brute-force simulations, or a second route through the algebra.
"""
import math

import numpy as np
import pytest
import sympy as sp

from lecture_lib import hardware, models, roofline, serving, traffic
from lecture_lib.notation import B, BW, F, L_ctx, N_act, N_tot, b_kv, b_w, k_act, n_exp

rng = np.random.default_rng(20260429)


# --- 1. balance batch ----------------------------------------------------------------------------
def test_lecture_form_equals_course_form_symbolically():
    ours = roofline.balance_batch_expr()
    lecture = serving.lecture_balance_batch_expr.subs(serving.lecture_substitution)
    assert sp.simplify(ours - lecture) == 0
    hw_ratio, model_ratio = serving.balance_split()
    assert sp.simplify(hw_ratio * model_ratio - ours) == 0
    assert not (hw_ratio.free_symbols & {N_tot, N_act})          # the hardware part has no model symbol
    assert not (model_ratio.free_symbols & {F, BW, b_w})         # and the model part no hardware symbol


@pytest.mark.parametrize("chip,dtype,by_hand", [
    ("A100-80GB", "bf16", 312e12 / 2 / (2.039e12 / 2)),         # ≈153 (syllabus §3.1)
    ("H100-SXM", "bf16", 989e12 / 2 / (3.35e12 / 2)),           # ≈295
    ("H100-SXM", "fp8", 1979e12 / 2 / (3.35e12 / 1)),           # ≈295
    ("B200", "fp4", 9000e12 / 2 / (8e12 / 0.5)),                # ≈281
])
def test_ratio_table_matches_hand_arithmetic(chip, dtype, by_hand):
    row = next(r for r in serving.ratio_table() if r["chip"] == chip and r["dtype"] == dtype)
    assert row["lecture_ratio"] == pytest.approx(by_hand, rel=1e-9)


def test_a100_is_about_half_the_lecture_300():
    a100 = roofline.lecture_ratio("A100-80GB", "bf16")
    assert 140 < a100 < 160 and 280 < roofline.lecture_ratio("H100-SXM", "bf16") < 310


def test_deepseek_three_ways_match_syllabus_answers():
    readings = serving.sparsity_readings("DeepSeek-V3")
    b = {k: serving.balance_batch_from_ratio(300, v) for k, v in readings.items()}
    assert b["lecture"] == pytest.approx(2400)
    assert b["parameters"] == pytest.approx(300 * 671 / 37)      # ≈5,440
    assert b["experts"] == pytest.approx(9600)


def test_balance_batch_from_parts_is_roofline_balance_batch_at_random_points():
    expr = roofline.balance_batch_expr()
    for _ in range(20):
        vals = {F: 10 ** rng.uniform(14, 17), BW: 10 ** rng.uniform(12, 15), b_w: rng.choice([0.5, 1, 2]),
                N_act: 10 ** rng.uniform(9, 11)}
        vals[N_tot] = vals[N_act] * rng.uniform(1, 50)
        numeric = serving._balance_from_parts(*(vals[s] for s in (F, BW, b_w, N_tot, N_act)))
        assert float(expr.subs(vals)) == pytest.approx(numeric, rel=1e-12)


# --- 2. experts touched --------------------------------------------------------------------------
def test_experts_touched_matches_monte_carlo_routing():
    n, k = 64, 4
    for batch in (1, 8, 40):
        hits = []
        for _ in range(300):
            chosen = np.zeros(n, bool)
            for _ in range(batch):
                chosen[rng.choice(n, size=k, replace=False)] = True
            hits.append(chosen.mean())
        assert serving.experts_touched_fraction(batch, k, n) == pytest.approx(np.mean(hits), abs=0.02)


def test_experts_touched_limits_and_symbolic_equals_numeric():
    assert serving.experts_touched_fraction(0, 8, 256) == 0
    assert serving.experts_touched_fraction(1, 8, 256) == pytest.approx(8 / 256)
    assert serving.experts_touched_fraction(10_000, 8, 256) == pytest.approx(1.0)
    f = serving.experts_touched_fraction(np.arange(1, 200), 8, 256)
    assert np.all(np.diff(f) > 0)
    for _ in range(10):
        bb, kk, nn = rng.uniform(0, 500), rng.integers(1, 9), rng.integers(9, 400)
        sym = float(serving.experts_touched_expr.subs({B: bb, k_act: kk, n_exp: nn}))
        assert serving.experts_touched_fraction(bb, kk, nn) == pytest.approx(sym, rel=1e-12)


def test_routed_split_matches_config_accounting():
    # specs.md: routed experts 58 layers x 256 x 3·7168·2048 ≈ 654B; non-routed ≈ 16B
    shared, routed = serving.routed_split("DeepSeek-V3")
    assert routed == pytest.approx(58 * 256 * 3 * 7168 * 2048, rel=0.01)
    assert shared == pytest.approx(16.1e9, rel=0.05)
    assert serving.weight_params_read("DeepSeek-V3", 1) == pytest.approx(37e9, rel=1e-9)
    assert serving.weight_params_read("DeepSeek-V3", 5000) == pytest.approx(671e9, rel=1e-6)
    assert serving.weight_params_read("Llama-3-70B", 3) == models.get("Llama-3-70B").total_params


# --- 3. the train schedule -----------------------------------------------------------------------
def test_train_mean_30ms_worst_40ms_by_symbolic_and_simulation():
    assert serving.train_latency(0.020) == pytest.approx((0.030, 0.040))
    sim = serving.simulate_trains(0.020, arrival_rate=2000, n_requests=50_000, seed=1)
    assert sim.latency.mean() == pytest.approx(0.030, abs=0.0005)
    assert sim.latency.max() <= 0.040 + 1e-12
    assert sim.latency.min() >= 0.020 - 1e-12
    assert sim.miss_fraction == 0


def _brute_force_fifo(arrival, period, capacity):
    """One request at a time: board the first train at/after arrival that has a free seat."""
    seats, out = {}, []
    for a in arrival:
        t = math.ceil(a / period)
        while seats.get(t, 0) >= capacity:
            t += 1
        seats[t] = seats.get(t, 0) + 1
        out.append(t * period)
    return np.array(out)


@pytest.mark.parametrize("rate,capacity", [(900, 20), (1000, 20), (1300, 20), (500, 3)])
def test_vectorised_fifo_equals_brute_force(rate, capacity):
    sim = serving.simulate_trains(0.02, rate, capacity=capacity, n_requests=3000, seed=7)
    np.testing.assert_allclose(sim.departure, _brute_force_fifo(sim.arrival, 0.02, capacity), atol=1e-12)


def test_overload_misses_trains_and_latency_grows():
    ok = serving.simulate_trains(0.02, 500, capacity=20, n_requests=20_000, seed=3)     # load 0.5
    over = serving.simulate_trains(0.02, 1500, capacity=20, n_requests=20_000, seed=3)  # load 1.5
    assert ok.load == pytest.approx(0.5) and over.load == pytest.approx(1.5)
    assert ok.miss_fraction < 0.01           # P(Poisson(10) > 20) ≈ 0.2 % of trains overflow
    assert over.miss_fraction > 0.9
    # by hand: the queue grows at λ − C/T requests/s and drains at C/T, so a request arriving at t
    # waits ≈ t·(λT/C − 1) = 0.5·t
    t = over.arrival[-1]
    assert over.latency[-1] == pytest.approx(0.5 * t, rel=0.05)


# --- 4. drain time and throughput ----------------------------------------------------------------
def test_drain_times_match_syllabus_problem_3():
    rows = {r["chip"]: r["drain_s"] for r in serving.drain_table()}
    assert rows["H100-SXM"] == pytest.approx(80e9 / 3.35e12)             # 23.9 ms
    assert rows["GB300"] == pytest.approx(288e9 / 8e12)                  # 36.0 ms
    assert roofline.drain_time(serving.rubin_as_in_lecture()) == pytest.approx(0.0144)
    assert rows["Rubin"] == pytest.approx(288 / 22 * 1e-3)               # public 22 TB/s: 13.1 ms
    assert all(0.010 < v < 0.040 for v in rows.values())


def test_throughput_lecture_and_gemini_fraction():
    assert serving.throughput(2000, 1 / 64) == pytest.approx(128_000)
    assert serving.steps_per_second(0.020) == pytest.approx(50)
    # 1.3e15 tokens / month of 30.44 days ≈ 494M tok/s
    assert traffic.tokens_per_second("google-2025-10") == pytest.approx(1.3e15 / (30.4375 * 86400))
    frac = serving.fraction_of_volume(128_000, "google-2025-10")
    assert 1 / 4000 < frac < 1 / 3500
    assert 1 / 1500 < serving.fraction_of_volume(128_000, "google-2025-05") < 1 / 1300


def test_throughput_at_balance_is_compute_rate():
    hw = hardware.get("GB200-NVL72")
    m = models.get("DeepSeek-V3")
    by_hand = 72 * 5000e12 / (2 * 37e9)
    for ctx in (0, 500, 1500):
        r = serving.throughput_at_balance(hw, m, "fp8", context=ctx)
        assert r["tok_s"] == pytest.approx(by_hand, rel=1e-9)
    with pytest.raises(ValueError, match="balance context"):
        serving.throughput_at_balance(hw, m, "fp8", context=10_000)


# --- balance batch with KV (roofline functions used throughout this part) ------------------------
def test_balance_batch_with_kv_grows_and_diverges():
    hw, m = "GB200-NVL72", "DeepSeek-V3"
    b0 = roofline.balance_batch(hw, m, "fp8")
    ctx = np.linspace(0, 1600, 50)
    b = roofline.balance_batch(hw, m, "fp8", context=ctx)
    assert np.all(b >= b0 - 1e-9) and np.all(np.diff(b) > 0)
    lc = roofline.balance_context(hw, m, "fp8")
    # by hand: compute per seq = 2·37e9 / (72·5e15); KV per token = 61·576·2 bytes; BW = 72·8e12
    assert lc == pytest.approx((2 * 37e9 / (72 * 5e15)) * (72 * 8e12) / (61 * 576 * 2), rel=1e-9)
    assert np.isinf(roofline.balance_batch(hw, m, "fp8", context=lc * 1.01))
    assert serving.balance_context(hw, m, "sqrt", "fp8") == pytest.approx(lc ** 2)


def test_sqrt_balance_context_symbolic():
    expr = serving.balance_context_sqrt_expr()
    vals = {N_act: 37e9, F: 3.6e17, BW: 5.76e14, b_kv: 70272.0}
    L = float(expr.subs(vals))
    assert math.sqrt(L) * 70272 / 5.76e14 == pytest.approx(2 * 37e9 / 3.6e17, rel=1e-12)


# --- 5. fast mode ---------------------------------------------------------------------------------
def test_fast_mode_problem8_matches_syllabus():
    toy = serving.FastModeToy.problem8()
    assert toy.weights_s == pytest.approx(3.906e-3, rel=1e-3)
    assert toy.compute_per_seq_s == pytest.approx(0.651e-6, rel=1e-3)
    assert toy.kv_per_seq_s == pytest.approx(0.391e-6, rel=1e-3)
    assert toy.balance_batch == pytest.approx(15_000, rel=1e-6)
    assert toy.balance_step_s == pytest.approx(9.77e-3, rel=1e-3)
    assert toy.step_s(1100) == pytest.approx(4.34e-3, rel=1e-3)
    assert toy.cost_multiple(1100) == pytest.approx(6.05, rel=2e-3)
    assert toy.speedup(1100) == pytest.approx(2.25, rel=2e-3)
    assert toy.max_speedup == pytest.approx(9.77 / 3.906, rel=1e-3)
    assert toy.speedup_for_cost(6) == pytest.approx(2.25, rel=1e-3)


def test_fast_mode_symbolic_equals_bisection_and_stays_below_floor():
    for _ in range(20):
        toy = serving.FastModeToy(10 ** rng.uniform(11, 13), 10 ** rng.uniform(9.5, 11), rng.choice([0.5, 1, 2]),
                                  10 ** rng.uniform(16, 18), 10 ** rng.uniform(13.5, 15), rng.uniform(0, 2e4),
                                  rng.uniform(0, 500))
        if toy.n_active > toy.n_total:
            continue
        m = rng.uniform(1.01, 50)
        lo, hi = 1e-6, toy.balance_batch        # cost_multiple falls from huge to 1 on (0, B*]
        for _ in range(200):
            mid = math.sqrt(lo * hi)
            lo, hi = (mid, hi) if toy.cost_multiple(mid) > m else (lo, mid)
        assert toy.batch_for_cost(m) == pytest.approx(lo, rel=1e-6)
        s = toy.speedup_for_cost(m)
        assert 1 < s < toy.max_speedup
        assert toy.speedup_for_cost(1) == pytest.approx(1)
    ms = np.geomspace(1, 1e6, 50)
    s = serving.FastModeToy.problem8().speedup_for_cost(ms)
    assert np.all(np.diff(s) > 0) and s[-1] < serving.FastModeToy.problem8().max_speedup


# --- 6 and 7 --------------------------------------------------------------------------------------
def test_clark_quality_multiple():
    assert serving.CLARK_2022.quality_multiple == pytest.approx(1.3 / 0.37)
    assert serving.CLARK_2022.quality_multiple < serving.LECTURE["quality_multiple"]


def test_sparsity_costs_memory():
    sw = serving.sparsity_sweep("GB200-NVL72", "DeepSeek-V3", [1, 4, 16, 64, 256], context=1000)
    assert np.all(np.diff(sw["balance_batch"]) > 0)
    assert np.all(np.diff(sw["max_batch"]) < 0)
    assert np.all(np.diff(sw["headroom"]) < 0)
    assert sw["headroom"][-1] < 1          # 256× the active weights: the balance batch no longer fits


def test_sqrt_attention_slope_is_flatter():
    ctx = np.array([1e3, 1e4, 1e5, 1e6])
    dense = serving.kv_time_per_sequence("GB200-NVL72", "DeepSeek-V3", ctx)
    sparse = serving.kv_time_per_sequence("GB200-NVL72", "DeepSeek-V3", ctx, attention="sqrt")
    np.testing.assert_allclose(dense / sparse, np.sqrt(ctx))
    assert dense[1] / dense[0] == pytest.approx(10) and sparse[1] / sparse[0] == pytest.approx(math.sqrt(10))


# --- bad input --------------------------------------------------------------------------------------
@pytest.mark.parametrize("call,name", [
    (lambda: serving.experts_touched_fraction(-1, 8, 256), "batch"),
    (lambda: serving.experts_touched_fraction(4, 0, 256), "experts_per_token"),
    (lambda: serving.experts_touched_fraction(4, 300, 256), "experts_per_token"),
    (lambda: serving.simulate_trains(0, 100), "period_s"),
    (lambda: serving.simulate_trains(0.02, -5), "arrival_rate"),
    (lambda: serving.simulate_trains(0.02, 100, capacity=0), "capacity"),
    (lambda: serving.simulate_trains(0.02, 100, n_requests=0), "n_requests"),
    (lambda: serving.train_latency(float("nan")), "period_s"),
    (lambda: serving.balance_batch_from_ratio(300, 0.5), "total_over_active"),
    (lambda: serving.FastModeToy.problem8().batch_for_cost(0.5), "multiple"),
    (lambda: serving.FastModeToy(2e12, 1e11, 1, 3e17, 5e14, 1e9, 2e3), "context"),
    (lambda: serving.throughput(2000, -1), "step_s"),
    (lambda: serving.sparsity_sweep("H100-SXM", "DeepSeek-V3", [0.5], 1000), "total_over_active"),
    (lambda: serving.balance_context("H100-SXM", "DeepSeek-V3", "linear"), "attention"),
    (lambda: traffic.tokens_per_second(-3), "volume"),
])
def test_bad_input_names_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_unknown_volume_suggests_close_match():
    with pytest.raises(KeyError, match="google-2025-10"):
        traffic.get("google-2025-1O")
    assert serving.sparsity_readings("DeepSeek-V3")["lecture"] == 8
    with pytest.raises(ValueError, match="model"):
        serving.sparsity_readings("Llama-3-70B")


def test_batch_to_touch_inverts_touched_fraction():
    for f, k, n in [(0.5, 8, 256), (0.99, 8, 256), (0.9, 2, 8), (0.999, 4, 128)]:
        b = serving.batch_to_touch(f, k, n)
        assert serving.experts_touched_fraction(b, k, n) == pytest.approx(f, rel=1e-9)
    # by hand: half of 256 experts at 8 per token: B = ln 0.5 / ln(31/32)
    assert serving.batch_to_touch(0.5, 8, 256) == pytest.approx(math.log(0.5) / math.log(31 / 32))
    for bad in (0, 1, 1.5):
        with pytest.raises(ValueError, match="fraction"):
            serving.batch_to_touch(bad, 8, 256)


def test_fast_mode_expressions_are_consistent():
    m = serving.m_cost
    assert sp.simplify(serving.fast_speedup_expr().subs(m, 1) - 1) == 0
    assert sp.simplify(sp.limit(serving.fast_speedup_expr(), m, sp.oo) - serving.speedup_ceiling_expr()) == 0
    toy = serving.FastModeToy.problem8()
    vals = {N_tot: toy.n_total, b_w: toy.bytes_per_param, BW: toy.bandwidth, N_act: toy.n_active, F: toy.flops,
            L_ctx: toy.context, b_kv: toy.kv_bytes_per_token, m: 6}
    assert float(serving.fast_batch_expr().subs(vals)) == pytest.approx(toy.batch_for_cost(6), rel=1e-12)
    assert float(serving.balance_step_expr().subs(vals)) == pytest.approx(toy.balance_step_s, rel=1e-12)
