"""pipeline: the rack-boundary test, bubble fractions, schedules (idle measured on the timeline), capacity."""
import random

import numpy as np
import pytest
import sympy as sp

from lecture_lib import models, pipeline, roofline
from lecture_lib import notation as nt
from lecture_lib.lecture import SAID


# --- the rack-boundary test --------------------------------------------------------------------------
def test_ratio_is_the_lecture_form_and_independent_of_width_and_precision():
    assert sp.simplify(pipeline.boundary_ratio_expr - pipeline.lecture_boundary_expr) == 0
    assert nt.d_model not in pipeline.boundary_ratio_bw_expr.free_symbols
    assert nt.b_act not in pipeline.boundary_ratio_bw_expr.free_symbols
    # from the per-token bytes and per-chip bandwidths, with W_up = ρ·W_out
    by_hand = (2 * nt.k_act * nt.L_st / nt.W_up) / (1 / nt.W_out)
    assert sp.simplify(pipeline.boundary_ratio_bw_expr - by_hand) == 0
    assert sp.simplify(pipeline.min_layers_expr() - nt.rho_bw / (2 * nt.k_act)) == 0


def test_symbolic_equals_numeric_at_random_points():
    rng = random.Random(3)
    for _ in range(20):
        k, L, rho = rng.randint(1, 16), rng.uniform(0.5, 20), rng.uniform(1, 40)
        exact = float(pipeline.lecture_boundary_expr.subs({nt.k_act: k, nt.L_st: L, nt.rho_bw: rho}))
        assert pipeline.boundary_ratio_k(k, L, rho) == pytest.approx(exact, rel=1e-12)
        assert pipeline.boundary_ratio_k(k, pipeline.min_layers_per_stage_k(k, rho), rho) == pytest.approx(1.0)


def test_lecture_examples_by_hand():
    # syllabus §5 ch.3 problem 1: ratio = (1/8)·2·k·L. k = 8, L = 1 -> 2; k = 2 -> L >= 2; k = 1 -> L >= 4
    assert pipeline.boundary_ratio_k(8, 1, 8) == pytest.approx(2.0)
    assert pipeline.min_layers_per_stage_k(2, 8) == pytest.approx(2.0)
    assert pipeline.min_layers_per_stage_k(1, 8) == pytest.approx(4.0)
    # published bandwidths by hand: NVLink 5 = 1,800 GB/s both ways per GPU -> 900 GB/s one way;
    # ConnectX-8 800 Gb/s -> 100 GB/s (GB300); a 400 Gb/s NIC -> 50 GB/s (GB200)
    assert pipeline.bandwidth_ratio("GB300-NVL72") == pytest.approx(900 / 100)
    assert pipeline.bandwidth_ratio("GB200-NVL72") == pytest.approx(900 / 50)
    assert pipeline.min_layers_per_stage("DeepSeek-V3", pipeline.bandwidth_ratio("GB200-NVL72")) == \
        pytest.approx(18 / 16)


def test_monotone_and_broadcasting():
    L = np.arange(1, 9)
    r = pipeline.boundary_ratio("Kimi-K2", L, 9.0)
    assert r.shape == (8,) and np.all(np.diff(r) > 0)
    assert pipeline.boundary_ratio_k(8, 2, np.array([4.0, 8.0, 16.0]))[0] > pipeline.boundary_ratio_k(8, 2, 16.0)


def test_bad_input_names_the_parameter():
    with pytest.raises(ValueError, match="layers_per_stage"):
        pipeline.boundary_ratio_k(8, 0, 8)
    with pytest.raises(ValueError, match="bandwidth_ratio"):
        pipeline.boundary_ratio_k(8, 1, -1)
    with pytest.raises(ValueError, match="experts_per_token"):
        pipeline.min_layers_per_stage_k(0, 8)
    with pytest.raises(ValueError, match="dense"):
        pipeline.boundary_ratio("Llama-3-70B", 1, 8)
    with pytest.raises(ValueError, match="scale-out"):
        pipeline.bandwidth_ratio("TPU-v5p")
    assert "GB300-NVL72" in pipeline.registry_bandwidth_ratios() and \
        "TPU-v5p" not in pipeline.registry_bandwidth_ratios("chips")


# --- bubbles -------------------------------------------------------------------------------------------
def test_bubble_formula_derived_and_by_hand():
    assert sp.simplify(pipeline.bubble_fraction_expr - (nt.P - 1) / (nt.M_mb + nt.P - 1)) == 0
    # syllabus §5 ch.3 problem 2: 3/7 = 43%, 3/19 = 16%, 7/39 = 18%
    assert pipeline.bubble_fraction(4, 4) == pytest.approx(3 / 7)
    assert pipeline.bubble_fraction(4, 16) == pytest.approx(3 / 19)
    assert pipeline.bubble_fraction(8, 32) == pytest.approx(7 / 39)
    got = pipeline.bubble_fraction(np.array([[1], [4]]), np.array([1, 4, 16]))
    assert got.shape == (2, 3) and np.all(got[0] == 0) and np.all(np.diff(got[1]) < 0)
    assert pipeline.bubble_fraction(4, 10**9) < 1e-8            # limit: many micro-batches


@pytest.mark.parametrize("fn", [pipeline.bubble_fraction, pipeline.inference_idle_fraction,
                                lambda P, M: pipeline.schedule("gpipe", P, M)])
def test_bubble_bad_counts(fn):
    with pytest.raises(ValueError, match="stages"):
        fn(0, 4)
    with pytest.raises(ValueError, match="microbatches"):
        fn(4, 0)
    with pytest.raises(ValueError, match="microbatches"):
        fn(4, 2.5)


def test_schedule_rejects_unknown_kind():
    with pytest.raises(ValueError, match="kind"):
        pipeline.schedule("pipedream", 4, 4)


CASES = [(1, 1), (1, 5), (2, 1), (2, 2), (3, 7), (4, 4), (4, 8), (4, 16), (5, 3), (6, 11), (8, 32)]


def _check_valid(tl):
    """No stage runs two passes at once; every dependency is respected."""
    P, M = tl.stages, tl.microbatches
    by_stage = {}
    when = {}
    for p in tl:
        assert p.end > p.start >= 0
        by_stage.setdefault(p.stage, []).append(p)
        when[(p.what, p.stage)] = p
    for passes in by_stage.values():
        passes.sort(key=lambda p: p.start)
        assert all(a.end <= b.start + 1e-12 for a, b in zip(passes, passes[1:]))
    for p in tl:
        kind, m, tok = pipeline.parse(p.what)
        if kind == "F" and p.stage > 0:
            assert when[(p.what, p.stage - 1)].end <= p.start
        if kind == "B":
            prev = when[(p.what, p.stage + 1)] if p.stage < P - 1 else when[(f"F{m}", p.stage)]
            assert prev.end <= p.start
        if kind == "W":
            assert when[(f"B{m}", p.stage)].end <= p.start
    return by_stage


@pytest.mark.parametrize("P,M", CASES)
def test_measured_idle_on_each_schedule_equals_the_formula(P, M):
    for kind in ("gpipe", "1f1b"):
        tl = pipeline.schedule(kind, P, M)
        by_stage = _check_valid(tl)
        assert len(tl) == 2 * P * M and set(by_stage) == set(range(P))
        assert pipeline.idle_fraction(tl) == pytest.approx(pipeline.bubble_fraction(P, M), abs=1e-12)
    zb = pipeline.schedule("zero-bubble", P, M)
    _check_valid(zb)
    assert len(zb) == 3 * P * M
    measured = pipeline.idle_fraction(zb)
    if M >= P:         # the paper's formula (T_F = T_B = T_W), a third of 1F1B's idle time
        assert measured == pytest.approx(pipeline.zero_bubble_fraction(P, M), abs=1e-12)
    assert measured <= pipeline.bubble_fraction(P, M) + 1e-12
    inf = pipeline.schedule("inference", P, M)
    _check_valid(inf)
    assert pipeline.idle_fraction(inf, inf.steady_window) == pytest.approx(
        pipeline.inference_idle_fraction(P, M), abs=1e-12)


def test_bubble_does_not_depend_on_the_backward_cost():
    for backward in (1.0, 2.0, 3.5):
        tl = pipeline.schedule("1f1b", 4, 6, backward=backward)
        assert pipeline.idle_fraction(tl) == pytest.approx(3 / 9)
        assert tl.makespan == pytest.approx((6 + 4 - 1) * (1 + backward))


def test_gpipe_picture_by_hand():
    # P = 2, M = 2, t_F = 1, t_B = 2: stage 0 F0 [0,1] F1 [1,2]; stage 1 F0 [1,2] F1 [2,3];
    # stage 1 B1 [3,5] B0 [5,7]; stage 0 B1 [5,7] B0 [7,9]
    tl = pipeline.schedule("gpipe", 2, 2)
    got = {(p.stage, p.what): (p.start, p.end) for p in tl}
    assert got == {(0, "F0"): (0, 1), (0, "F1"): (1, 2), (1, "F0"): (1, 2), (1, "F1"): (2, 3),
                   (1, "B1"): (3, 5), (1, "B0"): (5, 7), (0, "B1"): (5, 7), (0, "B0"): (7, 9)}
    assert tl.makespan == 9 and pipeline.idle_fraction(tl) == pytest.approx(1 / 3)


def test_zero_bubble_memory_matches_1f1b_peak():
    """ZB-H1 keeps at most P micro-batches' activations on any stage (F done, W not yet)."""
    P, M = 4, 12
    tl = pipeline.schedule("zero-bubble", P, M)
    for s in range(P):
        events = sorted((p.start if p.what[0] == "F" else p.end, +1 if p.what[0] == "F" else -1)
                        for p in tl if p.stage == s and p.what[0] in "FW")
        held = np.cumsum([e for _, e in events])
        assert held.max() <= P


def test_inference_needs_P_microbatches_in_flight():
    tl = pipeline.schedule("inference", 4, 4, tokens=3)
    assert pipeline.idle_fraction(tl, tl.steady_window) == 0
    # each micro-batch's next token starts right after its previous one left the last stage
    starts = {p.what: p.start for p in tl if p.stage == 0}
    assert starts["F0.1"] == 4 and starts["F3.2"] == 11
    assert pipeline.inference_idle_fraction(4, 2) == pytest.approx(0.5)
    assert pipeline.inference_idle_fraction(4, 9) == 0


# --- capacity --------------------------------------------------------------------------------------------
def test_capacity_by_hand():
    c = pipeline.capacity("GB300-NVL72", "Kimi-K2", 1, "fp8")
    k2 = models.get("Kimi-K2")
    assert c.rack_hbm == pytest.approx(72 * 288e9)
    assert c.weight_fraction == pytest.approx(k2.total_params / (72 * 288e9))
    c8 = pipeline.capacity("GB300-NVL72", "Kimi-K2", SAID["spread_racks"], "fp8")
    assert c8.weights_per_chip == pytest.approx(k2.total_params / (8 * 72))
    with pytest.raises(ValueError, match="stages"):
        pipeline.capacity("GB300-NVL72", "Kimi-K2", 0)


def test_kv_does_not_shrink_with_stages_and_fill_context_agrees_with_max_batch():
    need1 = pipeline.hbm_per_chip_needed("GB300-NVL72", "Kimi-K2", 1, 2000, 10_000)
    need8 = pipeline.hbm_per_chip_needed("GB300-NVL72", "Kimi-K2", 8, 2000, 10_000)
    k2 = models.get("Kimi-K2")
    kv = 2000 * 10_000 * k2.kv_bytes_per_token("bf16") / 72
    assert need1 - need8 == pytest.approx(k2.total_params * (1 - 1 / 8) / 72)
    assert need8 == pytest.approx(k2.total_params / (8 * 72) + kv)
    L = pipeline.fill_context("GB300-NVL72", "Kimi-K2", 2000)
    # roofline.max_batch, an independent route: at that context exactly ~2000 sequences fit
    assert roofline.max_batch("GB300-NVL72", "Kimi-K2", L * 0.999, "fp8") >= 2000
    assert roofline.max_batch("GB300-NVL72", "Kimi-K2", L * 1.001, "fp8") < 2000
    assert pipeline.fill_context("HGX-H100", "Kimi-K2", 10) == 0        # the weights alone do not fit
