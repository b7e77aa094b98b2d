"""Tests for lecture_lib.training (chapter 5) and the training-run registry.

Expected values are arithmetic done by hand from the papers and the lecture, not read back from the module.
"""
import numpy as np
import pytest
import sympy as sp

from lecture_lib import training, training_runs
from lecture_lib._registry import RegistryError
from lecture_lib.notation import D_PT, N_act, a_h, b_h, p_h, q_h, x_h

rng = np.random.default_rng(5)


# --- 1. 6·N·D -------------------------------------------------------------------------------------------
def test_six_from_the_matmul_shapes():
    assert (training.FORWARD_FLOPS_PER_PARAM, training.BACKWARD_FLOPS_PER_PARAM) == (2, 4)
    n, d = sp.symbols("N D", positive=True)
    assert sp.simplify(training.flops_expr - 6 * n * d) == 0
    # one 4096 x 4096 matrix, one token: 16.8M multiply-adds forward, two such matmuls backward
    vals = {sp.Symbol("d_in", positive=True): 4096, sp.Symbol("d_out", positive=True): 4096}
    assert training.forward_flops_expr.subs(vals) == 2 * 4096 * 4096
    assert (training.backward_input_flops_expr + training.backward_weight_flops_expr).subs(vals) == 4 * 4096 ** 2


def test_published_runs_against_6nd_by_hand():
    # Llama 3 paper: 405B on 15.6T tokens, 3.8e25 FLOPs; 6 x 405e9 x 15.6e12 = 3.7908e25
    run = training_runs.get("Llama-3-405B")
    assert training.flops(run.params, run.tokens) == pytest.approx(3.7908e25)
    assert training.flops(run.params, run.tokens) / run.reported_flops == pytest.approx(0.9976, abs=1e-3)
    # GPT-3: 6 x 175e9 x 300e9 = 3.15e23 against the paper's 3.14e23
    run = training_runs.get("GPT-3-175B")
    assert training.flops(run.params, run.tokens) == pytest.approx(3.15e23)
    # Chinchilla: 1.4T / 70B = 20 tokens per parameter: exactly Chinchilla-optimal
    run = training_runs.get("Chinchilla-70B")
    assert training.overtraining(run.params, run.tokens) == pytest.approx(1.0)


def test_deepseek_mfu_by_hand():
    # 6 x 37e9 x 14.8e12 = 3.2856e24 FLOP over 2.664e6 h x 3600 s x 1979e12 FLOP/s (H800 fp8 dense)
    expected = 3.2856e24 / (2.664e6 * 3600 * 1979e12)
    assert training.run_mfu("DeepSeek-V3") == pytest.approx(expected, rel=1e-9)
    assert 0.17 < expected < 0.18
    assert training.run_mfu("DeepSeek-V3", "bf16") == pytest.approx(2 * expected, rel=2e-3)
    with pytest.raises(ValueError, match="chip-hours"):
        training.run_mfu("GPT-3-175B")


def test_mfu_bad_input_names_the_parameter():
    with pytest.raises(ValueError, match="chip_seconds"):
        training.mfu(1e9, 1e12, 0, 1e15)


# --- 2. the heuristic ------------------------------------------------------------------------------------
def test_terms_equal_exactly_for_a_over_x_plus_bx():
    expr = a_h / x_h + b_h * x_h
    (x_star,) = sp.solve(sp.diff(expr, x_h), x_h)
    assert sp.simplify((a_h / x_h).subs(x_h, x_star) - (b_h * x_h).subs(x_h, x_star)) == 0
    assert training.power_law_optimum(1, 1) == pytest.approx(1)
    assert training.heuristic_cost_penalty(1, 1) == pytest.approx(1)
    assert training.heuristic_x_miss(1, 1) == pytest.approx(1)


def test_power_law_optimum_is_q_over_p_and_matches_a_grid_search():
    assert training.power_law_optimum(1, 2) == pytest.approx(2.0)     # syllabus §5 ch.5 problem 4
    for _ in range(20):
        p, q, a, b = rng.uniform(0.2, 3, 4)
        x = np.geomspace(1e-4, 1e4, 400_001)
        cost = a * x ** -p + b * x ** q
        i = np.argmin(cost)
        ratio = a * x[i] ** -p / (b * x[i] ** q)
        assert training.power_law_optimum(p, q) == pytest.approx(ratio, rel=1e-3)
        # the heuristic's penalty does not depend on a and b, and is >= 1
        x_eq = (a / b) ** (1 / (p + q))
        penalty = (a * x_eq ** -p + b * x_eq ** q) / cost[i]
        assert training.heuristic_cost_penalty(p, q) == pytest.approx(penalty, rel=1e-6)
        assert training.heuristic_cost_penalty(p, q) >= 1 - 1e-12
    assert training.heuristic_cost_penalty(1, 3) > training.heuristic_cost_penalty(1, 2) > 1
    with pytest.raises(ValueError, match="q"):
        training.power_law_optimum(1, -1)


# --- 3. equalisation -------------------------------------------------------------------------------------
def test_flashcard_split_by_hand():
    # 6·D_PT = 3·3·D_RL = 2·3·D_inf  ->  D_RL = 6/9 D_PT, D_inf = 6/6 D_PT
    s = training.equal_cost_split()
    assert (s.rl, s.inference) == (pytest.approx(2 / 3), pytest.approx(1.0))
    assert 1 / s.rl == pytest.approx(1.5)
    # Dwarkesh's 50/50: inference gets twice pre-training's compute, so twice its tokens
    d = training.cost_split(shares="50/50")
    assert (d.rl, d.inference) == (pytest.approx(2 / 3), pytest.approx(2.0))
    # RL trained on every rollout (6 FLOPs) at 30% efficiency (inefficiency 1/0.3)
    s = training.equal_cost_split(rl_flops_per_token=6, rl_inefficiency=1 / 0.3)
    assert s.rl == pytest.approx(0.3)


def test_active_params_cancel_and_more_inefficiency_means_fewer_tokens():
    for expr in (training.rl_token_ratio_expr(), training.inference_token_ratio_expr()):
        assert N_act not in expr.free_symbols and D_PT not in expr.free_symbols
    u = np.linspace(1, 10, 20)
    rl = training.equal_cost_split(rl_inefficiency=u).rl
    assert np.all(np.diff(rl) < 0)
    with pytest.raises(ValueError, match="rl_inefficiency.*not 0.3"):
        training.equal_cost_split(rl_inefficiency=0.3)
    with pytest.raises(ValueError, match="shares"):
        training.cost_split(shares="halves")


def test_split_symbolic_equals_numeric_and_costs_come_out_in_the_shares():
    for _ in range(10):
        k_rl, u_rl, u_inf = rng.uniform(2, 6), rng.uniform(1, 10), rng.uniform(1, 10)
        shares = tuple(rng.uniform(0.1, 1, 3))
        s = training.cost_split(k_rl, u_rl, u_inf, shares=shares)
        c_pt, c_rl, c_inf = 6 * 1.0, k_rl * s.rl * u_rl, 2 * s.inference * u_inf
        assert c_rl / c_pt == pytest.approx(shares[1] / shares[0])
        assert c_inf / c_pt == pytest.approx(shares[2] / shares[0])


# --- 4. tokens served --------------------------------------------------------------------------------------
def test_lecture_inference_tokens_and_overtraining_by_hand():
    two_months = 60 * 86400
    # 500M tok/s x 60 days = 2.592e15; / 10 models = 2.592e14; Chinchilla for 100B = 2e12 -> 129.6x
    assert training.inference_tokens(500e6, two_months) == pytest.approx(2.592e15)
    assert training.inference_tokens(500e6, two_months, 10) == pytest.approx(2.592e14)
    assert training.lifetime_overtraining(100e9, 500e6, two_months, 10) == pytest.approx(129.6)
    assert training.lifetime_overtraining(100e9, 500e6, two_months, 10, keep=0.5) == pytest.approx(64.8)
    with pytest.raises(ValueError, match="keep"):
        training.inference_tokens(500e6, two_months, 10, keep=2)
    with pytest.raises(ValueError, match="family_size"):
        training.inference_tokens(500e6, two_months, 0.5)


def test_serving_chips_syllabus_problem_5():
    # 2 x 1e11 x 5e7 = 1e19 FLOP/s; at 30% of 4.5 PFLOP/s: 7,407 chips
    assert training.serving_chips(1e11, 5e7, 4.5e15, 0.3) == pytest.approx(1e19 / 1.35e15)
    assert training.serving_chips(1e11, 5e7, 4.5e15) == pytest.approx(1e19 / 4.5e15)


# --- the registry -------------------------------------------------------------------------------------------
def test_every_run_has_a_dated_source():
    for run in training_runs.RUNS.values():
        assert run.source.url.startswith("https://") and run.source.as_of and run.source.quality in "PSRU"
    with pytest.raises(KeyError, match="Llama-3-405B"):
        training_runs.get("Llama-3-450B")


def test_a_bad_row_names_its_field(tmp_path):
    bad = tmp_path / "runs.toml"
    bad.write_text('[[runs]]\nname = "x"\nparams = 1e9\nsource = { url = "https://a.b", as_of = "2026-01", '
                   'quality = "R" }\n')
    with pytest.raises(RegistryError, match="tokens"):
        training_runs.load(bad)
    bad.write_text('[[runs]]\nname = "x"\nmodel = "Llama-3-8B"\nchip = "H100-SXM"\n'
                   'source = { url = "https://a.b", as_of = "2026-01", quality = "R" }\n')
    with pytest.raises(RegistryError, match="chip_hours"):
        training_runs.load(bad)
