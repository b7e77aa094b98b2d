"""Roofline formulas: symbolic = numeric, monotonic, total = max, limits, and clear errors for bad input."""
import numpy as np
import pytest
import sympy as sp

from lecture_lib import hardware, models, roofline, training
from lecture_lib.notation import B, BW, F, L_ctx, N_act, N_tot, b_kv, b_w, l_pass

RNG = np.random.default_rng(20260429)


def _random_setup():
    flops = 10 ** RNG.uniform(14, 16)          # FLOP/s
    bw = 10 ** RNG.uniform(11.5, 13)           # bytes/s
    total = 10 ** RNG.uniform(9, 12)
    active = total * RNG.uniform(0.02, 1)
    n_layers, n_kv, hd = int(RNG.integers(2, 100)), int(RNG.integers(1, 16)), 128
    chip = hardware.Chip("rand", {"bf16": flops}, bw, 1e12)
    model = models.Model("rand", total, active, n_layers, 4096, 16 * n_kv, n_kv, hd)
    return chip, model


@pytest.mark.parametrize("seed", range(12))
def test_symbolic_equals_numeric_at_random_points(seed):
    chip, m = _random_setup()
    batch, ctx, tps = float(RNG.integers(1, 5000)), float(RNG.integers(0, 300_000)), float(RNG.integers(1, 8))
    subs = {B: batch, l_pass: tps, N_act: m.active_params, N_tot: m.total_params, b_w: 2.0,
            F: chip.flops("bf16"), BW: chip.hbm_bandwidth, L_ctx: ctx, b_kv: m.kv_bytes_per_token("bf16")}
    r = roofline.step_time(chip, m, batch=batch, context=ctx, tokens_per_seq=tps)
    assert r.compute == pytest.approx(float(roofline.t_compute_expr.subs(subs)), rel=1e-12)
    assert r.weights == pytest.approx(float(roofline.t_weights_expr.subs(subs)), rel=1e-12)
    assert r.kv == pytest.approx(float(roofline.t_kv_expr.subs(subs)), rel=1e-12)
    assert r.total == pytest.approx(float(roofline.t_step_expr.subs(subs)), rel=1e-12)


def test_hand_computed_step_time_for_the_lecture_example():
    # DeepSeek-V3 on a GB200 NVL72, fp8 weights, batch 2048, 100K context of bf16 MLA cache
    rack, m = hardware.get("GB200-NVL72"), models.get("DeepSeek-V3")
    r = roofline.step_time(rack, m, batch=2048, context=100_000, weight_dtype="fp8", kv_dtype="bf16")
    assert r.compute == pytest.approx(2 * 2048 * 37e9 / (72 * 5000e12))
    assert r.weights == pytest.approx(671e9 * 1 / (72 * 8e12))
    assert r.kv == pytest.approx(2048 * 100_000 * 61 * 576 * 2 / (72 * 8e12))
    assert r.total == max(r.compute, r.memory) and r.bound == "memory"


def test_total_is_max_of_compute_and_memory_over_a_grid():
    batch = np.logspace(0, 5, 60)
    r = roofline.step_time("H100-SXM", "Llama-3-70B", batch=batch, context=256, weight_dtype="fp8")
    np.testing.assert_array_equal(r.total, np.maximum(r.compute, r.weights + r.kv))
    # the regime flips once, at the balance batch computed by hand from the datasheet figures:
    # B* = t_weights / (compute per seq - KV per seq) with F = 1979e12, BW = 3.35e12, fp8 weights,
    # KV per token = 80 layers × 2 × 8 KV heads × 128 dims × 2 bytes
    c, k, w = 2 * 70.6e9 / 1979e12, 256 * 80 * 2 * 8 * 128 * 2 / 3.35e12, 70.6e9 / 3.35e12
    b_star = w / (c - k)
    expected = np.where(batch > b_star, "compute", "memory")
    assert list(r.bound) == list(expected) and set(r.bound) == {"compute", "memory"}


@pytest.mark.parametrize("name", ["Llama-3-8B", "DeepSeek-V3", "gpt-oss-120b"])
def test_monotonic_in_batch_and_context(name):
    batch = np.logspace(0, 4, 40)
    r = roofline.step_time("B200", name, batch=batch, context=32_000, weight_dtype="fp8")
    assert np.all(np.diff(r.total) >= 0) and np.all(np.diff(r.compute) > 0) and np.all(np.diff(r.kv) > 0)
    ctx = np.linspace(0, 500_000, 40)
    rc = roofline.step_time("B200", name, batch=64, context=ctx, weight_dtype="fp8")
    assert np.all(np.diff(rc.kv) >= 0) and np.all(np.diff(rc.total) >= 0)
    cost = roofline.cost_per_token("B200", name, batch=batch, context=32_000, weight_dtype="fp8")
    assert np.all(np.diff(cost) <= 1e-18)       # cost per token never rises with batch


def test_cost_per_token_is_time_over_batch_times_rent():
    rack = hardware.get("GB200-NVL72")
    r = roofline.step_time(rack, "DeepSeek-V3", batch=1000, context=8000, weight_dtype="fp8")
    cost = roofline.cost_per_token(rack, "DeepSeek-V3", batch=1000, context=8000, weight_dtype="fp8",
                                   dollars_per_chip_hour=2.0)
    assert cost == pytest.approx(r.total * 72 * 2.0 / 3600 / 1000)
    assert roofline.tokens_per_second(rack, "DeepSeek-V3", batch=1000, context=8000, weight_dtype="fp8") \
        == pytest.approx(1000 / r.total)


def test_cost_parts_price_each_part_of_the_step():
    rack = hardware.get("GB200-NVL72")
    batch = np.array([1.0, 100.0, 5000.0])
    r = roofline.step_time(rack, "DeepSeek-V3", batch=batch, context=4000, weight_dtype="fp8")
    c = roofline.cost_parts(rack, "DeepSeek-V3", batch=batch, context=4000, weight_dtype="fp8", dollars_per_chip_hour=3.0)
    rent_per_s = 72 * 3.0 / 3600
    np.testing.assert_allclose(c.weights, r.weights * rent_per_s / batch)
    np.testing.assert_allclose(c.compute, np.full(3, c.compute[0]))          # the flat floor
    np.testing.assert_allclose(c.total, roofline.cost_per_token(rack, "DeepSeek-V3", batch, 4000, "fp8", dollars_per_chip_hour=3.0))
    np.testing.assert_allclose(c.total, np.maximum(c.compute, c.weights + c.kv))


def test_balance_batch_lecture_form_equals_course_form():
    chip, m = hardware.get("H100-SXM"), models.get("Llama-3-70B")
    # course form: (F / BW) x (b_w / 2) x (N_tot / N_act); lecture form: (MAC/s / weight-params/s) x N_tot/N_act
    course = chip.flops("bf16") / chip.hbm_bandwidth * 2 / 2 * 1.0
    lecture = roofline.lecture_ratio(chip, "bf16") * 1.0
    assert course == pytest.approx(lecture)
    assert roofline.balance_batch(chip, m, weight_dtype="bf16") == pytest.approx(lecture)
    # the derived expression is exactly that split: hardware ratio x model ratio
    expr = roofline.balance_batch_expr()
    assert sp.simplify(expr - (F / BW) * (b_w / 2) * (N_tot / N_act)) == 0


def test_lecture_300_and_the_a100_erratum():
    assert roofline.lecture_ratio("H100-SXM", "bf16") == pytest.approx(295, rel=0.01)
    assert roofline.lecture_ratio("B200", "fp4") == pytest.approx(281, rel=0.01)
    assert roofline.lecture_ratio("A100-80GB", "bf16") == pytest.approx(153, rel=0.01)


def test_balance_batch_grows_with_context_and_diverges():
    chip, m = hardware.get("B200"), models.get("Llama-3-70B")
    lc = roofline.balance_context(chip, m, weight_dtype="fp8")
    ctx = lc * np.array([0, 0.25, 0.5, 0.75, 0.95])
    b = roofline.balance_batch(chip, m, weight_dtype="fp8", context=ctx)
    assert np.all(np.diff(b) > 0)
    # KV per sequence = compute per sequence at lc: L·b_kv/BW = 2·N_act/F
    assert lc * m.kv_bytes_per_token() / chip.hbm_bandwidth == pytest.approx(2 * m.active_params / chip.flops("fp8"))
    assert np.isinf(roofline.balance_batch(chip, m, weight_dtype="fp8", context=lc * 1.01))
    assert np.isfinite(roofline.balance_batch(chip, m, weight_dtype="fp8", context=lc * 0.99))


def test_unbatched_serving_penalty_all_weights_vs_touched():
    rack, m = hardware.get("GB200-NVL72"), models.get("DeepSeek-V3")
    bstar = roofline.balance_batch(rack, m, weight_dtype="fp8", experts="all")

    def penalty(experts):
        c1 = roofline.cost_per_token(rack, m, 1, weight_dtype="fp8", experts=experts)
        return c1 / roofline.cost_per_token(rack, m, bstar, weight_dtype="fp8", experts=experts)
    # the lecture's reading: B = 1 pays the whole weight fetch, so the penalty is B* (thousands)
    assert penalty("all") == pytest.approx(bstar, rel=0.01) and penalty("all") > 1000
    # what B = 1 really reads is the active weights: the penalty is the hardware ratio, by hand
    # (5 PFLOP/s fp8 ÷ 8 TB/s) × (1 byte / 2 FLOPs per MAC) = 312.5
    assert penalty("touched") == pytest.approx(5e15 / 8e12 / 2, rel=1e-6)


def test_moe_reads_active_weights_at_batch_one_and_all_at_large_batch():
    rack, m = hardware.get("GB200-NVL72"), models.get("DeepSeek-V3")
    one = roofline.step_time(rack, m, 1, weight_dtype="fp8")
    # by hand: 37e9 active params × 1 byte ÷ (72 × 8 TB/s) ≈ 64 µs, not 671e9 × 1 ÷ 576e12 ≈ 1.16 ms
    assert one.weights == pytest.approx(37e9 / (72 * 8e12), rel=0.10)
    assert roofline.step_time(rack, m, 1, weight_dtype="fp8", experts="all").weights == pytest.approx(671e9 / (72 * 8e12))
    big = roofline.step_time(rack, m, 20_000, weight_dtype="fp8")
    assert big.weights == pytest.approx(671e9 / (72 * 8e12), rel=1e-9)
    reads = roofline.step_time(rack, m, np.arange(1, 400), weight_dtype="fp8").weights
    assert np.all(np.diff(reads) > 0)                       # each extra token can only touch more experts
    dense = roofline.step_time(rack, "Llama-3-70B", np.array([1, 10_000]), weight_dtype="fp8")
    assert dense.weights[0] == dense.weights[1] == pytest.approx(70.6e9 / (72 * 8e12))
    with pytest.raises(ValueError, match="experts"):
        roofline.step_time(rack, m, 1, experts="some")


def test_touched_balance_batch_is_where_the_regime_flips():
    for hw, name in [("H100-SXM", "Mixtral-8x7B"), ("GB200-NVL72", "DeepSeek-V3"), ("HGX-H200", "Qwen3-235B-A22B")]:
        for ctx in (0, 0.3 * roofline.balance_context(hw, name, "fp8")):
            b = roofline.balance_batch(hw, name, "fp8", context=ctx)
            assert b <= roofline.balance_batch(hw, name, "fp8", context=ctx, experts="all") * (1 + 1e-12)
            assert roofline.step_time(hw, name, b * 0.999, ctx, "fp8").bound == "memory"
            assert roofline.step_time(hw, name, b * 1.001, ctx, "fp8").bound == "compute"


def test_capacity_is_reported_by_hand():
    rack, m = hardware.get("GB200-NVL72"), models.get("DeepSeek-V3")
    r = roofline.step_time(rack, m, np.array([1000, 4096]), 100_000, "fp8")
    # weights 671 GB + B × 100K tokens × 70,272 B against 72 × 186 GB
    np.testing.assert_allclose(r.hbm_bytes, 671e9 + np.array([1000, 4096]) * 100_000 * 70_272)
    assert r.hbm_capacity == pytest.approx(72 * 186e9)
    assert list(r.fits) == [True, False]
    n = roofline.max_batch(rack, m, context=100_000, weight_dtype="fp8")
    assert roofline.step_time(rack, m, n, 100_000, "fp8").fits and not roofline.step_time(rack, m, n + 1, 100_000, "fp8").fits


def test_attention_flops_by_hand_and_balance_context():
    rack, m = hardware.get("GB200-NVL72"), models.get("DeepSeek-V3")
    # absorbed MLA: per head a dot product over 512 + 64 dims and a sum over 512, 128 heads, 61 layers
    f_att = 2 * 128 * (512 + 64 + 512) * 61
    assert m.attention_flops_per_token() == f_att
    assert models.get("Llama-3-70B").attention_flops_per_token() == 2 * 80 * 2 * 64 * 128   # GQA: every query head
    r = roofline.step_time(rack, m, 100, 10_000, "fp8")
    assert r.attention == pytest.approx(100 * 10_000 * f_att / (72 * 5e15))
    assert r.compute == pytest.approx(100 * 2 * 37e9 / (72 * 5e15))            # off by default, as in the lecture
    on = roofline.step_time(rack, m, 100, 10_000, "fp8", attention_flops=True)
    assert on.compute == pytest.approx(r.compute + r.attention)
    # balance context with attention: 2·N_act/F = L·(b_kv/BW − f_att/F)
    F, BW = 72 * 5e15, 72 * 8e12
    by_hand = (2 * 37e9 / F) / (70_272 / BW - f_att / F)
    assert roofline.balance_context(rack, m, "fp8", attention_flops=True) == pytest.approx(by_hand)
    assert roofline.balance_context(rack, m, "fp8", attention_flops=True) > roofline.balance_context(rack, m, "fp8")
    # a model whose attention FLOPs outgrow its KV reads is never memory-bound by context
    assert np.isinf(roofline.balance_context("H100-SXM", m, "bf16", kv_dtype="fp8", attention_flops=True))


def test_drain_time_and_max_batch():
    assert roofline.drain_time("H100-SXM") == pytest.approx(80e9 / 3.35e12)
    assert roofline.drain_time("GB200-NVL72") == pytest.approx(roofline.drain_time("GB200"))
    rack, m = hardware.get("GB200-NVL72"), models.get("DeepSeek-V3")
    n = roofline.max_batch(rack, m, context=100_000, weight_dtype="fp8")
    assert n == int((72 * 186e9 - 671e9) // (61 * 576 * 2 * 100_000))
    assert roofline.max_batch("H100-SXM", "Llama-3-405B", context=1000) == 0      # weights do not fit


def test_prefill_like_pass_multiplies_compute_only():
    d = roofline.step_time("H100-SXM", "Llama-3-8B", batch=4, context=1000)
    p = roofline.step_time("H100-SXM", "Llama-3-8B", batch=4, context=1000, tokens_per_seq=2048)
    assert p.compute == pytest.approx(2048 * d.compute) and p.memory == d.memory
    assert p.bound == "compute" and d.bound == "memory"


def test_sqrt_sparse_attention_reads_fewer_tokens():
    assert roofline.kv_tokens_read(1_000_000, "sqrt") == pytest.approx(1000)
    assert roofline.kv_tokens_read(1_000_000) == 1_000_000


def test_training_flops():
    assert training.flops(1e11, 2e14) == pytest.approx(1.2e26)
    assert sp.simplify(training.flops_expr - 6 * sp.Symbol("N", positive=True) * sp.Symbol("D", positive=True)) == 0


# --- bad input: clear errors naming the parameter --------------------------------------------
@pytest.mark.parametrize("batch", [0, -1, [1, 0], float("nan"), float("inf")])
def test_bad_batch(batch):
    with pytest.raises(ValueError, match="batch"):
        roofline.step_time("H100-SXM", "Llama-3-8B", batch=batch)


def test_bad_inputs_name_the_parameter():
    with pytest.raises(ValueError, match="context"):
        roofline.step_time("H100-SXM", "Llama-3-8B", batch=1, context=-5)
    with pytest.raises(ValueError, match="tokens_per_seq"):
        roofline.step_time("H100-SXM", "Llama-3-8B", batch=1, tokens_per_seq=0)
    with pytest.raises(ValueError, match="hbm_bandwidth"):
        hardware.Chip("bad", {"bf16": 1e15}, hbm_bandwidth=0, hbm_capacity=1e9)
    with pytest.raises(ValueError, match="weight_dtype"):
        roofline.step_time("H100-SXM", "Llama-3-8B", batch=1, weight_dtype="fp5")
    with pytest.raises(ValueError, match="compute_dtype"):
        roofline.step_time("A100-80GB", "Llama-3-8B", batch=1, weight_dtype="fp8")
    with pytest.raises(ValueError, match="dollars_per_chip_hour"):
        roofline.cost_per_token("H100-SXM", "Llama-3-8B", batch=1, dollars_per_chip_hour=0)
    with pytest.raises(TypeError, match="batch"):
        roofline.step_time("H100-SXM", "Llama-3-8B", batch="many")
    with pytest.raises(ValueError, match="active_params"):
        models.Model("bad", 1e9, 2e9, 1, 1, 1, 1, 1)
    with pytest.raises(ValueError, match="n_chips"):
        hardware.system("H100-SXM", 0)


def test_weight_only_quantization_is_allowed_with_explicit_compute_dtype():
    r = roofline.step_time("A100-80GB", "Llama-3-8B", batch=1, weight_dtype="fp8", compute_dtype="bf16")
    assert r.weights == pytest.approx(8.03e9 / 2.039e12)


@pytest.mark.parametrize("typo,suggestion", [("H100-SMX", "H100-SXM"), ("GB200-NVL27", "GB200-NVL72"), ("deepsek-v3", "DeepSeek-V3")])
def test_unknown_names_suggest_close_matches(typo, suggestion):
    getter = models.get if "eep" in typo else hardware.get
    with pytest.raises(KeyError) as err:
        getter(typo)
    assert suggestion in str(err.value) and typo in str(err.value)


def test_names_are_case_insensitive():
    assert hardware.get("h100-sxm") is hardware.get("H100-SXM")
    assert models.get("deepseek-v3") is models.get("DeepSeek-V3")


def test_implied_kv_bytes_from_a_price_step():
    # the lecture's arithmetic, by hand: 1e11 / (300 x 2e5) = 1,666.7 bytes
    assert roofline.implied_kv_bytes_per_token(1e11, 2e5, ratio=300) == pytest.approx(1e11 / (300 * 2e5))
    # and it is the inverse of balance_context: a chip whose lecture ratio is r puts the wall there
    chip = hardware.Chip("r300", {"fp8": 2 * 300 * 1e12}, hbm_bandwidth=1e12, hbm_capacity=1e12)
    b = roofline.implied_kv_bytes_per_token(37e9, 2e5, ratio=roofline.lecture_ratio(chip, "fp8"))
    m = models.Model("kvfit", 671e9, 37e9, 1, 1, 1, 1, 1)
    # a one-layer model with b KV bytes per token: check the crossover against compute directly
    assert 2e5 * b / chip.hbm_bandwidth == pytest.approx(2 * m.active_params / chip.flops("fp8"))
    with pytest.raises(ValueError, match="context"):
        roofline.implied_kv_bytes_per_token(1e11, 0)


def test_chinchilla_and_tokens_served():
    assert training.chinchilla_tokens(1e11) == pytest.approx(2e12)
    assert training.overtraining(1e11, 2e14) == pytest.approx(100)
    assert training.tokens_served(50e6, 60 * 86400) == pytest.approx(2.592e14)
    with pytest.raises(ValueError, match="params"):
        training.chinchilla_tokens(0)


def test_balance_batch_with_attention_flops_is_where_the_regime_flips():
    rack, m = "GB200-NVL72", "DeepSeek-V3"
    for ctx in (500, 2000):          # 2000 tokens: past the plain balance context, before the attention one
        b = roofline.balance_batch(rack, m, "fp8", context=ctx, attention_flops=True)
        assert np.isfinite(b)
        kw = dict(context=ctx, weight_dtype="fp8", attention_flops=True)
        assert roofline.step_time(rack, m, b * 0.999, **kw).bound == "memory"
        assert roofline.step_time(rack, m, b * 1.001, **kw).bound == "compute"
    assert np.isinf(roofline.balance_batch(rack, m, "fp8", context=2000))
