"""Tests for lecture_lib.memory (chapter 4: the memory wall) and lecture_lib.deployments.

Expected values come from outside the code under test: arithmetic by hand from published figures
(DeepSeek-V3's config and report, NVIDIA's datasheets as the registry quotes them), the syllabus's
worked answers, or a second route through the algebra.
"""
import numpy as np
import pytest
import sympy as sp

from lecture_lib import deployments, hardware, memory, models
from lecture_lib.formula import numeric
from lecture_lib.lecture import SAID
from lecture_lib.notation import B, C_hbm, E, L_ctx, N_tot, P, b_kv, b_mb, b_w

rng = np.random.default_rng(20260429)
DSV3_KV_BF16 = 61 * (512 + 64) * 2          # MLA latent + RoPE dims, 61 layers, bf16: 70,272 B/token


# --- the equation and the cancellation -------------------------------------------------------------
def test_p_cancels_from_the_kv_term_symbolically():
    kv = memory.kv_per_chip_micro_expr
    assert P not in kv.free_symbols
    assert sp.simplify(kv - b_mb * L_ctx * b_kv / E) == 0
    # the weights keep their 1/P, and the two parts add up to the blackboard's c_mem with B = P·b
    assert sp.simplify(memory.c_mem_micro_expr - (N_tot * b_w / (E * P) + b_mb * L_ctx * b_kv / E)) == 0
    assert sp.simplify(memory.c_mem_expr.subs(B, P * b_mb) - memory.c_mem_micro_expr) == 0


def test_max_context_and_its_ceiling_by_hand():
    assert sp.simplify(memory.max_context_expr() - (C_hbm * E * P - N_tot * b_w) / (B * b_kv)) == 0
    assert sp.simplify(memory.context_ceiling_expr() - C_hbm * E / (b_mb * b_kv)) == 0


def test_symbolic_equals_numeric_at_random_points():
    f = numeric(memory.c_mem_expr)
    for _ in range(20):
        v = dict(N_tot=rng.uniform(1e10, 5e12), b_w=rng.choice([0.5, 1, 2]), B=rng.uniform(1, 1e4),
                 L_ctx=rng.uniform(0, 1e6), b_kv=rng.uniform(1e3, 4e5), E=rng.integers(1, 300), P=rng.integers(1, 16))
        by_hand = (v["N_tot"] * v["b_w"] + v["B"] * v["L_ctx"] * v["b_kv"]) / (v["E"] * v["P"])
        assert f(**v) == pytest.approx(by_hand, rel=1e-12)
        sym = memory.c_mem_expr.subs({sp.Symbol(k, positive=True): val for k, val in v.items()})
        assert float(sym) == pytest.approx(by_hand, rel=1e-9)


# --- per_chip_bytes: the contract ------------------------------------------------------------------
def test_kv_constant_and_weights_fall_as_one_over_p_at_fixed_micro_batch():
    b, stages = 2400, np.array([1, 2, 3, 4, 8, 16])
    r = memory.per_chip_bytes("DeepSeek-V3", batch=stages * b, context=100_000, expert_parallel=64,
                              pipeline_stages=stages, weight_dtype="fp8", kv_dtype="bf16")
    kv_by_hand = b * 100_000 * DSV3_KV_BF16 / 64          # 263.5 GB per GPU
    assert np.allclose(r.kv, kv_by_hand, rtol=1e-12)
    assert np.allclose(r.weights * stages, 671e9 / 64, rtol=1e-12)
    assert np.allclose(r.total, r.weights + r.kv)
    micro = memory.per_chip_bytes_micro("DeepSeek-V3", b, 100_000, 64, stages)
    assert np.allclose(micro.total, r.total, rtol=1e-12)


def test_syllabus_problem_1_of_chapter_4():
    # N_tot = 2 TB (2T params fp8), E = 64, b = 2,400, 100K context, 2,048 B/token
    m = memory.lecture_model()
    assert m.kv_bytes_per_token("bf16") == 2048
    r = memory.per_chip_bytes_micro(m, 2400, 100_000, 64, np.array([1, 2, 4, 8]))
    assert np.allclose(r.weights / 1e9, [31.25, 15.625, 7.8125, 3.90625])
    assert np.allclose(r.kv, 2400 * 100_000 * 2048 / 64)          # 7.68 GB (the syllabus's 7.5 uses 2,000 B)


def test_monotone_in_batch_and_context():
    ctx = np.geomspace(1e3, 1e6, 30)
    r = memory.per_chip_bytes("Llama-3-70B", 64, ctx, 8, 1)
    assert np.all(np.diff(r.total) > 0)
    r = memory.per_chip_bytes("Llama-3-70B", np.arange(1, 50), 8192, 8, 2)
    assert np.all(np.diff(r.kv) > 0) and np.ptp(r.weights) == 0


def test_fits_against_one_gpu():
    # 80 GB H100: Llama-3-70B bf16 weights (141 GB) over 8 GPUs = 17.6 GB; 32 seqs x 8K x 327,680 B / 8 = 10.7 GB
    r = memory.per_chip_bytes("Llama-3-70B", 32, 8192, 8, 1, weight_dtype="bf16")
    assert r.fits("H100-SXM") and r.fits("HGX-H100")
    assert not memory.per_chip_bytes("Llama-3-70B", 32, 8192, 1, 1, weight_dtype="bf16").fits("H100-SXM")


@pytest.mark.parametrize("kwargs,name", [
    (dict(batch=-1), "batch"), (dict(context=-5), "context"), (dict(expert_parallel=0), "expert_parallel"),
    (dict(pipeline_stages=0.5), "pipeline_stages"), (dict(pipeline_stages=2.5), "pipeline_stages"),
    (dict(weight_dtype="fp7"), "weight_dtype"), (dict(kv_dtype="int3"), "kv_dtype"),
])
def test_bad_input_names_the_parameter(kwargs, name):
    args = dict(model="DeepSeek-V3", batch=10, context=1000, expert_parallel=8, pipeline_stages=1)
    args.update(kwargs)
    with pytest.raises((ValueError, TypeError), match=name):
        memory.per_chip_bytes(**args)


# --- max_context -------------------------------------------------------------------------------------
def test_max_context_by_hand():
    # DeepSeek-V3 fp8 on a GB200 NVL72 (72 x 186 GB), E = 72, P = 1, B = 2,400:
    # L = (186e9 x 72 - 671e9) / (2,400 x 70,272)
    by_hand = (186e9 * 72 - 671e9) / (2400 * DSV3_KV_BF16)
    assert memory.max_context("GB200-NVL72", "DeepSeek-V3", 2400) == np.floor(by_hand)
    # and the batch then fits exactly: c_mem at that context is at most 186 GB
    r = memory.per_chip_bytes("DeepSeek-V3", 2400, np.floor(by_hand), 72, 1)
    assert r.total <= 186e9 < memory.per_chip_bytes("DeepSeek-V3", 2400, np.floor(by_hand) + 2, 72, 1).total


def test_max_context_zero_when_weights_do_not_fit():
    # 671 GB of fp8 weights against 8 x 80 GB = 640 GB
    assert memory.max_context("HGX-H100", "DeepSeek-V3", 16) == 0
    assert memory.max_context("HGX-H100", "DeepSeek-V3", 16, pipeline_stages=2) > 0


def test_max_context_grows_with_p_but_stays_under_the_ceiling():
    stages = np.array([1, 2, 4, 8, 64, 1024])
    b = 256
    L = memory.max_context("GB200-NVL72", "Kimi-K2", stages * b, pipeline_stages=stages)
    ceiling = memory.context_ceiling("GB200-NVL72", "Kimi-K2", b)
    assert np.all(np.diff(L) > 0) and np.all(L < ceiling)
    assert L[-1] == pytest.approx(ceiling, rel=1e-2)
    # ceiling by hand: 186 GB x 72 / (256 x 61 x 576 x 2 B)
    assert ceiling == pytest.approx(186e9 * 72 / (256 * 61 * 576 * 2), rel=1e-12)


def test_max_context_with_sliding_window_layers_is_a_fixed_point():
    m = models.get("gpt-oss-120b")
    L = memory.max_context("GB200-NVL72", m, 4096, weight_dtype="fp4")
    fits = memory.per_chip_bytes(m, 4096, L, 72, 1, weight_dtype="fp4").total
    over = memory.per_chip_bytes(m, 4096, L + 5, 72, 1, weight_dtype="fp4").total
    assert fits <= 186e9 < over


def test_syllabus_problem_4_capacity_vs_context():
    # 250 GB of KV per GPU, E = 64, b = 2,400, 2,048 B/token -> 250e9 x 64 / (2,400 x 2,048) = 3.26M tokens
    chip = hardware.Chip(name="250 GB for KV", flops={"bf16": 1e15}, hbm_bandwidth=8e12, hbm_capacity=250e9)
    assert memory.context_ceiling(chip, memory.lecture_model(), 2400, 64) == pytest.approx(250e9 * 64 / (2400 * 2048))
    # DeepSeek-style ~70 KB/token: about 95K tokens
    assert memory.context_ceiling(chip, "DeepSeek-V3", 2400, 64) == pytest.approx(94_870, rel=1e-3)


def test_max_context_bad_input():
    with pytest.raises(ValueError, match="batch"):
        memory.max_context("GB200-NVL72", "DeepSeek-V3", 0)
    with pytest.raises(ValueError, match="micro_batch"):
        memory.context_ceiling("GB200", "DeepSeek-V3", -1)
    with pytest.raises(KeyError):
        memory.max_context("GB2000", "DeepSeek-V3", 10)


# --- hop latency -------------------------------------------------------------------------------------
def test_hop_range_is_the_lectures_20_to_30_ms_and_its_spread():
    r = memory.hop_range()
    assert r.said == pytest.approx(0.020 + 4 * 0.0025)         # 20 ms + 4 hops x 2.5 ms = 30 ms
    assert r.said == pytest.approx(SAID["hop_step_after_s"])
    assert r.low == pytest.approx(0.020 + 4 * 0.00025) and r.high == pytest.approx(0.020 + 4 * 0.025)
    assert memory.hop_step_time(0.02, 1, 0) == 0.02
    with pytest.raises(ValueError, match="stages"):
        memory.hop_step_time(0.02, 0, 0.001)
    with pytest.raises(ValueError, match="spread"):
        memory.hop_range(spread=0.5)


# --- bandwidth, not capacity -------------------------------------------------------------------------
def test_weight_read_time_by_hand_and_independent_of_p():
    # syllabus ch.4 problem 3: 1 TB on 8 x H100 (3.35 TB/s) vs 72 x B200-class (8 TB/s)
    one_tb = models.Model(name="1T fp8", total_params=1e12, active_params=5e10, n_layers=1, d_model=1,
                          n_heads=1, n_kv_heads=1, head_dim=1)
    assert memory.weight_read_time("HGX-H100", one_tb) == pytest.approx(1e12 / (8 * 3.35e12))      # 37.3 ms
    assert memory.weight_read_time("GB200-NVL72", one_tb) == pytest.approx(1e12 / (72 * 8e12))     # 1.74 ms
    t = memory.weight_read_time("HGX-H100", one_tb, pipeline_stages=np.array([1, 2, 4, 8]))
    assert np.allclose(t, 1e12 / (8 * 3.35e12))
    assert sp.simplify(memory.t_weights_pipelined_expr.doit() - memory.t_weights_domain_expr) == 0


def test_bandwidth_by_generation_from_the_registry():
    rows = {r["chip"]: r for r in memory.bandwidth_by_generation()}
    assert rows["H100-SXM"]["launch_step"] == pytest.approx(3.35 / 2.039)       # 1.64x
    assert rows["B200"]["launch_step"] == pytest.approx(8 / 3.35)               # 2.39x
    assert rows["H200"]["step"] == pytest.approx(4.8 / 3.35) and rows["H200"]["launch_step"] is None
    assert rows["A100-80GB"]["step"] is None


# --- published layouts -------------------------------------------------------------------------------
def test_deepseek_layouts_as_published():
    online = deployments.get("deepseek-online-decode")
    assert (online.gpus, online.expert_parallel, online.pipeline_stages, online.tensor_parallel) == (144, 144, 1, 1)
    assert online.scale_up_domains == 18                                  # 144 / 8 GPUs per H800 node
    report = deployments.get("deepseek-v3-report-decode")
    assert report.expert_parallel == 320 and report.tensor_parallel == 4
    train = deployments.get("deepseek-v3-training")
    assert train.pipeline_stages == 16 and train.expert_parallel == 64
    assert all(d.pipeline_stages == 1 for d in deployments.LAYOUTS if d.phase != "training")
    assert "github.com/deepseek-ai" in online.source.url and "2412.19437" in report.source.url


def test_deployments_file_errors_name_the_row_and_field(tmp_path):
    bad = tmp_path / "d.toml"
    bad.write_text('[sources.S]\nurl = "https://x"\nas_of = "2026-11"\nquality = "P"\n\n[[layouts]]\nkey = "k"\n'
                   'lab = "L"\nmodel = "M"\nphase = "serving"\nchip = "H800"\ngpus = 8\nexpert_parallel = 8\n'
                   'tensor_parallel = 1\npipeline_stages = 1\nattention = "DP"\nexperts_per_gpu = "1"\nsource = "S"\n')
    with pytest.raises(ValueError, match="phase"):
        deployments.load(bad)
