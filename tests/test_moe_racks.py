"""Chapter 2 (lecture_lib.moe): the contract of issue 10 against arithmetic done by hand from published
configs and specs, properties of the network term, bad input, and the explorer headless."""
import numpy as np
import pytest
import sympy as sp

from lecture_lib import explorers, hardware, models, moe, roofline
from lecture_lib.notation import R_rk, W_out, W_up, n_chips, rho_bw

rng = np.random.default_rng(32_09)


# --- the contract: registry bandwidths, per chip, one direction -----------------------------------------
def test_scale_bandwidths_by_hand_from_published_figures():
    # NVLink 4: 900 GB/s bidirectional per H100 = 450 GB/s each way; one ConnectX-7 400 Gb/s per GPU = 50 GB/s
    h100 = hardware.get("H100-SXM")
    assert h100.scaleup_bandwidth == 450e9 and h100.scaleout_bandwidth == 400e9 / 8
    # NVLink 5: 1.8 TB/s per GPU = 900 GB/s each way; GB300 tray: 4 ConnectX-8 (800 Gb/s) per 4 GPUs = 100 GB/s
    gb300 = hardware.get("GB300-NVL72")
    assert gb300.scaleup_bandwidth == 900e9 and gb300.scaleout_bandwidth == 800e9 / 8
    assert gb300.scaleup_bandwidth / gb300.scaleout_bandwidth == 9          # syllabus §5 ch.2 problem 4
    assert hardware.get("GB200").scaleup_bandwidth / hardware.get("GB200").scaleout_bandwidth == 18
    assert hardware.get("TPU-v5e").scaleout_bandwidth is None               # no public per-chip figure


# --- the layer from DeepSeek-V3's config, by hand --------------------------------------------------------
def test_deepseek_v3_parameters_from_config_by_hand():
    d, V = 7168, 129_280
    expert = 3 * d * 2048                                                  # 44,040,192
    mla = (d * 1536 + 1536 * 128 * 192 + d * 576 + 512 * 128 * 256 + 128 * 128 * d)   # 187,105,280 per layer
    total = 2 * V * d + 61 * mla + 3 * 3 * d * 18432 + 58 * 257 * expert + 58 * 256 * d
    active = V * d + 61 * mla + 3 * 3 * d * 18432 + 58 * 9 * expert + 58 * 256 * d
    b = moe.param_budget("DeepSeek-V3")
    assert b.attention == 61 * mla and b.routed_experts == 58 * 256 * expert
    assert b.total == pytest.approx(total, rel=1e-12) and b.active == pytest.approx(active, rel=1e-12)
    assert b.total == pytest.approx(671e9, rel=0.001)           # the model card's 671B
    assert b.active == pytest.approx(36.6e9, rel=0.005)         # DeepSeek's 36.6B (README_WEIGHTS), "37B"
    assert sum(t for _, t, _ in b.rows()) == pytest.approx(b.total)
    assert sum(a for _, _, a in b.rows()) == pytest.approx(b.active)


def test_qwen3_parameters_from_config_by_hand():
    d = 4096
    attn = 94 * (2 * d * 64 * 128 + 2 * d * 4 * 128)
    expert = 3 * d * 1536
    total = 2 * 151_936 * d + attn + 94 * 128 * expert + 94 * 128 * d
    b = moe.param_budget("Qwen3-235B-A22B")
    assert b.total == pytest.approx(total, rel=1e-12)
    assert b.total == pytest.approx(235e9, rel=0.002)
    assert b.active == pytest.approx(22e9, rel=0.03)          # 21.6B without the input table, "A22B"


def test_param_budget_refuses_dense_and_missing_numbers():
    with pytest.raises(ValueError, match="dense"):
        moe.param_budget("Llama-3-70B")
    with pytest.raises(ValueError, match="d_ff_expert"):
        moe.param_budget("gpt-oss-120b")


# --- experts touched ----------------------------------------------------------------------------------
def test_experts_touched_by_hand_and_broadcast():
    # one token: k experts; 32 tokens of DeepSeek-V3: 256·(1 − (31/32)^32) ≈ 163.3
    assert moe.experts_touched("DeepSeek-V3", 1) == pytest.approx(8)
    assert moe.experts_touched("DeepSeek-V3", 32) == pytest.approx(256 * (1 - (31 / 32) ** 32))
    t = moe.experts_touched("Kimi-K2", np.array([[1], [100], [10_000]]))
    assert t.shape == (3, 1) and np.all(np.diff(t.ravel()) > 0) and t[-1, 0] == pytest.approx(384)
    with pytest.raises(ValueError, match="tokens"):
        moe.experts_touched("DeepSeek-V3", -1)


def test_expert_layout_of_the_lecture():
    lay = moe.expert_layout(256, 72)
    assert (lay.used, lay.per_chip, lay.idle) == (64, 4, 8)
    assert moe.expert_layout(384, 72).used == 64 and moe.expert_layout(128, 8).per_chip == 16


# --- dispatch / combine bytes --------------------------------------------------------------------------
def test_dispatch_and_combine_bytes_by_hand():
    # DeepSeek-V3: 8 copies of a 7,168-wide vector, fp8 dispatch 1 byte, bf16 combine 2 bytes
    assert moe.dispatch_bytes("DeepSeek-V3", 1, "fp8") == 8 * 7168
    assert moe.combine_bytes("DeepSeek-V3", 1, "bf16") == 8 * 7168 * 2
    np.testing.assert_allclose(moe.dispatch_bytes("Qwen3-235B-A22B", np.array([1, 10]), "bf16"),
                               [8 * 4096 * 2, 80 * 4096 * 2])
    with pytest.raises(ValueError, match="dtype"):
        moe.dispatch_bytes("DeepSeek-V3", 1, "fp7")
    with pytest.raises(ValueError, match="dense"):
        moe.dispatch_bytes("Llama-3-8B", 1)


# --- the network term --------------------------------------------------------------------------------
def test_network_term_by_hand_on_one_and_two_racks():
    # DeepSeek-V3 on GB200 NVL72, B = 7,200 sequences (100 per GPU), fp8 dispatch + bf16 combine, 58 MoE layers
    per_chip = 100 * 8 * 7168 * (1 + 2) * 58
    one = moe.step_time("GB200-NVL72", "DeepSeek-V3", 7200, dispatch_dtype="fp8", combine_dtype="bf16")
    assert one.bytes_per_chip == pytest.approx(per_chip)
    assert one.network == pytest.approx(per_chip * (71 / 72) / 900e9)
    # two racks, 144 GPUs and 14,400 sequences: still 100 per GPU; half leaves at 50 GB/s
    two = moe.step_time("GB200-NVL72", "DeepSeek-V3", 14_400, racks=2, dispatch_dtype="fp8", combine_dtype="bf16")
    assert two.network == pytest.approx(per_chip * 0.5 / 50e9)
    assert two.network / one.network == pytest.approx(18 / 2 * 72 / 71)      # ≈ ρ/2 with ρ = 18
    assert two.bound == "network" and two.total == two.network


def test_step_time_is_chapter_one_plus_the_network():
    r = moe.step_time("GB300-NVL72", "Kimi-K2", np.array([1, 64, 4096, 65536]), context=2000, weight_dtype="fp8")
    base = roofline.step_time("GB300-NVL72", "Kimi-K2", np.array([1, 64, 4096, 65536]), 2000, "fp8")
    np.testing.assert_allclose(r.compute, base.compute)
    np.testing.assert_allclose(r.memory, base.memory)
    np.testing.assert_allclose(r.total, np.maximum(base.total, r.network))
    assert set(r.bound) <= set(moe.BOUNDS) and r.bound[0] == "memory"
    # the network grows linearly in batch and never falls when racks are added at fixed tokens per GPU
    assert np.allclose(np.diff(np.log(r.network)) / np.diff(np.log([1, 64, 4096, 65536])), 1)


def test_symbolic_network_term_equals_numeric_at_random_points():
    for _ in range(8):
        vals = dict(B=rng.uniform(1, 1e4), l_pass=1, k_act=int(rng.integers(1, 9)), d_model=int(rng.integers(512, 9000)),
                    b_disp=1.0, b_comb=2.0, L_moe=int(rng.integers(1, 90)), n_chips=int(rng.integers(2, 100)),
                    R_racks=int(rng.integers(1, 9)), W_up=rng.uniform(1e11, 1e12), W_out=rng.uniform(1e10, 1e11))
        sym = float(moe.t_net_expr.subs({s: vals[s.name] for s in moe.t_net_expr.free_symbols}))
        from lecture_lib.formula import numeric
        assert numeric(moe.t_net_expr)(**vals) == pytest.approx(sym, rel=1e-12)


def test_slowdown_derived_limits():
    expr = moe.slowdown_expr()
    assert sp.simplify(expr.subs(R_rk, 1)) == 1                      # one rack: no slowdown
    assert float(expr.subs({rho_bw: 8, R_rk: 10**9})) == pytest.approx(8)   # many racks: ρ
    assert moe.slowdown(2, 8) == pytest.approx(4)                    # syllabus §5 ch.2 problem 2: 0.5 × 8
    s = moe.slowdown(np.arange(2, 40), 8)
    assert np.all(np.diff(s) > 0) and np.all(s >= 4) and np.all(s < 8)
    assert moe.slowdown(2, 0.5) == pytest.approx(0.5)                # a fast scale-out: the in-rack half binds
    # the step's network term at fixed tokens per GPU reproduces the derived slowdown as the rack grows
    f_in = moe.frac_in_rack_expr.subs(n_chips, 10**6)
    t = sp.Max(f_in / W_up, moe.frac_out_of_rack_expr / W_out).subs(W_up, rho_bw * W_out)
    ratio = (t / t.subs(R_rk, 1)).subs({rho_bw: 8, R_rk: 3})
    assert float(ratio) == pytest.approx(float(expr.subs({rho_bw: 8, R_rk: 3})), rel=1e-5)


def test_bad_input_names_the_parameter():
    for call, name in [(lambda: moe.step_time("GB200-NVL72", "DeepSeek-V3", 10, racks=0), "racks"),
                       (lambda: moe.step_time("GB200-NVL72", "DeepSeek-V3", 10, racks=1.5), "racks"),
                       (lambda: moe.step_time("GB200-NVL72", "DeepSeek-V3", -1), "batch"),
                       (lambda: moe.step_time("GB200-NVL72", "DeepSeek-V3", 10, dispatch_dtype="x"), "dispatch_dtype"),
                       (lambda: moe.step_time("VR-NVL144", "DeepSeek-V3", 10, racks=2), "scaleout_ratio"),
                       (lambda: moe.step_time("GB200-NVL72", "DeepSeek-V3", 10, scaleout_ratio=0), "scaleout_ratio"),
                       (lambda: moe.step_time("GB200-NVL72", "Llama-3-70B", 10), "dense"),
                       (lambda: moe.slowdown(0, 8), "racks"),
                       (lambda: moe.with_experts_per_token("DeepSeek-V3", 0), "experts_per_token"),
                       (lambda: moe.domain_capacity("GB200-NVL72", weight_fraction=2), "weight_fraction")]:
        with pytest.raises(ValueError, match=name):
            call()
    # Rubin has no NIC figure, but one rack needs none
    assert moe.step_time("VR-NVL144", "DeepSeek-V3", 10, weight_dtype="fp4").network > 0


# --- scale-up history: syllabus §5 ch.2 problems 3 and 5, by hand ------------------------------------------
def test_scaleup_capacity_by_hand():
    h = {d.name: d for d in moe.scaleup_history()}
    assert h["HGX-H100"].max_params == pytest.approx(0.5 * 8 * 80e9)            # 0.32T
    assert h["GB200-NVL72"].max_params == pytest.approx(0.5 * 72 * 186e9)       # 6.7T
    assert h["GB300-NVL72"].max_params == pytest.approx(0.5 * 72 * 288e9)       # 10.4T
    assert h["HGX-H100"].weight_floor_s == pytest.approx(320e9 / (8 * 3.35e12))
    assert h["Rubin-Ultra-NVL576"].status == "announced" and h["Rubin-Ultra-NVL576"].chips == 144
    # a 0.6T fp8 model: 22.4 ms on 8×H100, 1.17 ms on 64×B200 (problem 5) through chapter 1's weight term
    t = [roofline.step_time(hardware.system(c, n), models.Model("x", 0.6e12, 0.6e12, 1, 1, 1, 1, 1), 1,
                            weight_dtype="fp8", compute_dtype="bf16").weights for c, n in (("H100-SXM", 8), ("B200", 64))]
    assert t[0] == pytest.approx(0.6e12 / 26.8e12) and t[1] == pytest.approx(0.6e12 / 512e12)


def test_compute_cost_per_token_is_linear_in_active_params():
    c = moe.compute_cost_per_token("GB200", np.array([1e10, 2e10]), "fp8")
    # 2·N·$2/3600/5e15 by hand
    assert c[0] == pytest.approx(2 * 1e10 * 2 / 3600 / 5e15) and c[1] == pytest.approx(2 * c[0])
    assert moe.with_experts_per_token("DeepSeek-V3", 8).active_params == pytest.approx(37e9)


# --- the explorer, headless ----------------------------------------------------------------------------
def test_rack_explorer_binds_where_the_arithmetic_says():
    assert "moe_on_racks" in explorers.names()
    ex = explorers.get("moe_on_racks")()
    ex.controls["batch"].value = 8192
    ex.controls["racks"].value = 1
    st = ex.plot.state
    assert st["bound"] in ("compute", "memory", "network") and st["racks"] == 1
    ex.controls["racks"].value = 2
    assert ex.plot.state["bound"] == "network"
    ex.controls["batch"].value = 1
    assert ex.plot.state["bound"] == "memory"
    ex.controls["scaleout_ratio"].value = 1
    ex.controls["batch"].value = 65536
    ex.controls["racks"].value = 1
    low = ex.plot.state["network"]
    ex.controls["dispatch_dtype"].value = "bf16"
    assert ex.plot.state["network"] > low                       # fp8 → bf16 dispatch: more bytes
    ex.controls["experts_per_token"].value = 16
    st = ex.plot.state
    assert st["model"].endswith("(k = 16)") and len(st["curve_total"]) == len(st["curve_network"])
    ex.controls["model"].value = "Qwen3-235B-A22B"
    assert ex.plot.state["model"].startswith("Qwen3")
    assert ex.render_png()[:4] == b"\x89PNG"
