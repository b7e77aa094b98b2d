"""Tests for lecture_lib.balance and lecture_lib.traffic (chapter 1, second half), and the roofline functions they use.

Expected values come from outside the code under test: the syllabus's worked answers and published
figures (computed by hand here), a second route through the algebra, or brute force.
"""
import math

import numpy as np
import pytest
import sympy as sp

from lecture_lib import balance, fastmode, hardware, models, queueing, roofline, routing, traffic
from lecture_lib.lecture import SAID
from lecture_lib.notation import BW, F, N_act, N_tot, b_kv, b_w

rng = np.random.default_rng(20260429)


# --- 1. balance batch ----------------------------------------------------------------------------
def test_lecture_form_equals_course_form_symbolically():
    ours = roofline.balance_batch_expr()
    lecture = balance.lecture_balance_batch_expr.subs(roofline.lecture_substitution)
    assert sp.simplify(ours - lecture) == 0
    hw_ratio, model_ratio = balance.hardware_ratio_expr, balance.model_ratio_expr
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
    row = next(r for r in balance.ratio_table() if r["chip"] == chip and r["dtype"] == dtype)
    assert row["lecture_ratio"] == pytest.approx(by_hand, rel=1e-9)


def test_a100_is_about_half_the_lecture_300():
    a100 = roofline.lecture_ratio("A100-80GB", "bf16")
    assert 140 < a100 < 160 and 280 < roofline.lecture_ratio("H100-SXM", "bf16") < 310


def test_deepseek_three_ways_match_syllabus_answers():
    readings = balance.sparsity_readings("DeepSeek-V3")
    b = {k: balance.balance_batch_from_ratio(300, v) for k, v in readings.items()}
    assert b["lecture"] == pytest.approx(2400)
    assert b["parameters"] == pytest.approx(300 * 671 / 37)      # ≈5,440
    assert b["experts"] == pytest.approx(9600)


def test_balance_batch_is_where_step_time_turns_compute_bound():
    """An independent route: bisect step_time's own compute-vs-memory comparison at random configs."""
    from lecture_lib import hardware, models
    for _ in range(15):
        chip = hardware.Chip(name="random chip", flops={"bf16": 10 ** rng.uniform(14, 16)},
                             hbm_bandwidth=10 ** rng.uniform(12, 13), hbm_capacity=1e12)
        active = 10 ** rng.uniform(9, 11)
        m = models.Model(name="random model", total_params=active * rng.uniform(1, 40), active_params=active,
                         n_layers=32, d_model=4096, n_heads=32, n_kv_heads=8, head_dim=128)
        context = rng.uniform(0, 0.5) * roofline.balance_context(chip, m)
        lo, hi = 1e-3, 1e9
        for _ in range(200):
            mid = math.sqrt(lo * hi)
            r = roofline.step_time(chip, m, mid, context)
            lo, hi = (lo, mid) if r.compute >= r.memory else (mid, hi)
        assert roofline.balance_batch(chip, m, context=context) == pytest.approx(lo, rel=1e-6)


# --- 4. drain time and throughput ----------------------------------------------------------------
def test_drain_times_match_syllabus_problem_3():
    rows = {r["chip"]: r["drain_s"] for r in balance.drain_table()}
    assert rows["H100-SXM"] == pytest.approx(80e9 / 3.35e12)             # 23.9 ms
    assert rows["GB300"] == pytest.approx(288e9 / 8e12)                  # 36.0 ms
    assert roofline.drain_time(balance.rubin_as_in_lecture()) == pytest.approx(0.0144)
    assert rows["Rubin"] == pytest.approx(288 / 22 * 1e-3)               # public 22 TB/s: 13.1 ms
    assert all(0.010 < v < 0.040 for v in rows.values())


def test_throughput_lecture_and_gemini_fraction():
    assert balance.throughput(2000, 1 / 64) == pytest.approx(128_000)
    assert balance.steps_per_second(0.020) == pytest.approx(50)
    # 1.3e15 tokens / month of 30.44 days ≈ 494M tok/s
    assert traffic.tokens_per_second("google-2025-10") == pytest.approx(1.3e15 / (30.4375 * 86400))
    frac = balance.fraction_of_volume(128_000, "google-2025-10")
    assert 1 / 4000 < frac < 1 / 3500
    assert 1 / 1500 < balance.fraction_of_volume(128_000, "google-2025-05") < 1 / 1300


def test_throughput_at_balance_is_compute_rate():
    hw = hardware.get("GB200-NVL72")
    m = models.get("DeepSeek-V3")
    by_hand = 72 * 5000e12 / (2 * 37e9)
    for ctx in (0, 500, 1500):
        r = balance.throughput_at_balance(hw, m, "fp8", context=ctx)
        assert r["tok_s"] == pytest.approx(by_hand, rel=1e-9)
    with pytest.raises(ValueError, match="balance context"):
        balance.throughput_at_balance(hw, m, "fp8", context=10_000)


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
    assert roofline.balance_context(hw, m, "fp8", attention="sqrt") == pytest.approx(lc ** 2)


def test_sqrt_balance_context_symbolic():
    expr = roofline.balance_context_sqrt_expr()
    vals = {N_act: 37e9, F: 3.6e17, BW: 5.76e14, b_kv: 70272.0}
    L = float(expr.subs(vals))
    assert math.sqrt(L) * 70272 / 5.76e14 == pytest.approx(2 * 37e9 / 3.6e17, rel=1e-12)


# --- 6 and 7 --------------------------------------------------------------------------------------
def test_clark_quality_multiple():
    assert balance.CLARK_2022.quality_multiple == pytest.approx(1.3 / 0.37)
    assert balance.CLARK_2022.quality_multiple < SAID["quality_multiple"]


def test_sparsity_costs_memory():
    sw = balance.sparsity_sweep("GB200-NVL72", "DeepSeek-V3", [1, 4, 16, 64, 256], context=1000, weight_dtype="fp8")
    assert np.all(np.diff(sw["balance_batch"]) > 0)
    assert np.all(np.diff(sw["max_batch"]) < 0)
    assert np.all(np.diff(sw["headroom"]) < 0)
    assert sw["headroom"][-1] < 1          # 256× the active weights: the balance batch no longer fits


def test_sqrt_attention_slope_is_flatter():
    ctx = np.array([1e3, 1e4, 1e5, 1e6])
    dense = roofline.kv_time_per_sequence("GB200-NVL72", "DeepSeek-V3", ctx)
    sparse = roofline.kv_time_per_sequence("GB200-NVL72", "DeepSeek-V3", ctx, attention="sqrt")
    np.testing.assert_allclose(dense / sparse, np.sqrt(ctx))
    assert dense[1] / dense[0] == pytest.approx(10) and sparse[1] / sparse[0] == pytest.approx(math.sqrt(10))


# --- bad input --------------------------------------------------------------------------------------
@pytest.mark.parametrize("call,name", [
    (lambda: routing.experts_touched_fraction(-1, 8, 256), "batch"),
    (lambda: routing.experts_touched_fraction(4, 0, 256), "experts_per_token"),
    (lambda: routing.experts_touched_fraction(4, 300, 256), "experts_per_token"),
    (lambda: queueing.simulate_trains(0, 100), "period_s"),
    (lambda: queueing.simulate_trains(0.02, -5), "arrival_rate"),
    (lambda: queueing.simulate_trains(0.02, 100, capacity=0), "capacity"),
    (lambda: queueing.simulate_trains(0.02, 100, n_requests=0), "n_requests"),
    (lambda: queueing.train_latency(float("nan")), "period_s"),
    (lambda: balance.balance_batch_from_ratio(300, 0.5), "total_over_active"),
    (lambda: fastmode.FastModeToy.problem8().batch_for_cost(0.5), "multiple"),
    (lambda: fastmode.FastModeToy(2e12, 1e11, 1, 3e17, 5e14, 1e9, 2e3), "context"),
    (lambda: balance.throughput(2000, -1), "step_s"),
    (lambda: balance.sparsity_sweep("H100-SXM", "DeepSeek-V3", [0.5], 1000), "total_over_active"),
    (lambda: roofline.balance_context("H100-SXM", "DeepSeek-V3", attention="linear"), "attention"),
    (lambda: traffic.tokens_per_second(-3), "volume"),
])
def test_bad_input_names_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_unknown_volume_suggests_close_match():
    with pytest.raises(KeyError, match="google-2025-10"):
        traffic.get("google-2025-1O")
    assert balance.sparsity_readings("DeepSeek-V3")["lecture"] == 8
    with pytest.raises(ValueError, match="model"):
        balance.sparsity_readings("Llama-3-70B")


def test_expert_balance_batch_on_a_rack_by_hand():
    # GB200-NVL72 in fp8: r = (72·5e15 / 2) / (72·8e12 / 1 byte) = 312.5; × 256/8 = 10,000
    assert balance.expert_balance_batch("GB200-NVL72", "DeepSeek-V3", "fp8") == pytest.approx(10_000)
    assert balance.expert_balance_batch("GB200-NVL72", "DeepSeek-V3", "fp8") > \
        roofline.balance_batch("GB200-NVL72", "DeepSeek-V3", "fp8")
    with pytest.raises(ValueError, match="dense"):
        balance.expert_balance_batch("GB200-NVL72", "Llama-3-70B", "fp8")


def test_throughput_at_max_batch_is_the_drain_time_when_memory_bound():
    # DeepSeek-V3 fp8 on GB200-NVL72 at 3K tokens: (13.824e12 - 671e9) B / (3000 × 70,272 B) sequences,
    # 13.824 TB / 576 TB/s = 24 ms drain (registry capacity may be the usable figure: read it back)
    rack = hardware.get("GB200-NVL72")
    r = balance.throughput_at_max_batch(rack, "DeepSeek-V3", 3000, "fp8")
    by_hand = math.floor((rack.hbm_capacity - 671e9) / (3000 * 61 * 576 * 2))
    assert r["batch"] == by_hand and r["fits"] and r["bound"] == "memory"
    assert r["step_s"] == pytest.approx(rack.hbm_capacity / rack.hbm_bandwidth, rel=0.01)
    assert r["tok_s"] == pytest.approx(by_hand / r["step_s"])
    with pytest.raises(ValueError, match="fits"):
        balance.throughput_at_max_batch("H100-SXM", "DeepSeek-V3", 3000, "bf16")   # 1.34 TB of weights, 80 GB
