"""Tests for lecture_lib.fastmode: syllabus problem 8 by hand, the solved batch against bisection."""
import math

import numpy as np
import pytest
import sympy as sp

from lecture_lib import fastmode
from lecture_lib.notation import BW, F, L_ctx, N_act, N_tot, b_kv, b_w, m_cost

rng = np.random.default_rng(20260429)


# --- 5. fast mode ---------------------------------------------------------------------------------
def test_fast_mode_problem8_matches_syllabus():
    toy = fastmode.FastModeToy.problem8()
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
    checked = 0
    for _ in range(40):
        n_total, n_active = 10 ** rng.uniform(11, 13), 10 ** rng.uniform(9.5, 11)
        if n_active > n_total:
            continue
        try:
            toy = fastmode.FastModeToy(n_total, n_active, rng.choice([0.5, 1, 2]), 10 ** rng.uniform(16, 18),
                                       10 ** rng.uniform(13.5, 15), rng.uniform(0, 2e4), rng.uniform(0, 500))
        except ValueError:          # drawn past the balance context: no balance point to compare with
            continue
        checked += 1
        m = rng.uniform(1.01, 50)
        lo, hi = 1e-6, toy.balance_batch        # cost_multiple falls from huge to 1 on (0, B*]
        for _ in range(200):
            mid = math.sqrt(lo * hi)
            lo, hi = (mid, hi) if toy.cost_multiple(mid) > m else (lo, mid)
        assert toy.batch_for_cost(m) == pytest.approx(lo, rel=1e-6)
        s = toy.speedup_for_cost(m)
        assert 1 < s < toy.max_speedup
        assert toy.speedup_for_cost(1) == pytest.approx(1)
    assert checked >= 10
    ms = np.geomspace(1, 1e6, 50)
    s = fastmode.FastModeToy.problem8().speedup_for_cost(ms)
    assert np.all(np.diff(s) > 0) and s[-1] < fastmode.FastModeToy.problem8().max_speedup


def test_fast_mode_expressions_are_consistent():
    m = m_cost
    assert sp.simplify(fastmode.fast_speedup_expr().subs(m, 1) - 1) == 0
    assert sp.simplify(sp.limit(fastmode.fast_speedup_expr(), m, sp.oo) - fastmode.speedup_ceiling_expr()) == 0
    toy = fastmode.FastModeToy.problem8()
    vals = {N_tot: toy.n_total, b_w: toy.bytes_per_param, BW: toy.bandwidth, N_act: toy.n_active, F: toy.flops,
            L_ctx: toy.context, b_kv: toy.kv_bytes_per_token, m: 6}
    assert float(fastmode.fast_batch_expr().subs(vals)) == pytest.approx(toy.batch_for_cost(6), rel=1e-12)
    assert float(fastmode.balance_step_expr().subs(vals)) == pytest.approx(toy.balance_step_s, rel=1e-12)


def test_context_for_speedup_by_hand():
    # problem 8: c = 2·100e9 / (2·300·512e12), k(L) = L·2e3 / 512e12; L_wall = c·BW/b_kv = 166,667 tokens
    toy = fastmode.FastModeToy.problem8()
    c = 2 * 100e9 / (2 * 300 * 512e12)
    wall = c * 512e12 / 2e3
    assert toy.balance_context == pytest.approx(wall, rel=1e-12)
    # ceiling 1/(1 - x) = 2.5 at x = 3/5; 6x the price buys 2.5x at x = 9/14 (m(S-1)/(mS-1))
    assert toy.context_for_speedup(2.5) == pytest.approx(0.6 * wall, rel=1e-12)
    assert toy.context_for_speedup(2.5, 6) == pytest.approx(9 / 14 * wall, rel=1e-12)
    assert toy.context_for_speedup(1) == pytest.approx(0, abs=1e-9)      # no speed-up needs no context
    # the ceiling at context 0 is 1: below B* the step is the weight floor
    assert toy.ceiling_at(0) == pytest.approx(1.0)
    xs = np.array([0.1, 0.5, 0.9]) * wall
    np.testing.assert_allclose(toy.ceiling_at(xs), 1 / (1 - xs / wall), rtol=1e-12)
    np.testing.assert_allclose(toy.speedup_for_cost_at(6, toy.context), toy.speedup_for_cost(6), rtol=1e-12)
    with pytest.raises(ValueError, match="context"):
        toy.ceiling_at(wall)
    with pytest.raises(ValueError, match="target"):
        toy.context_for_speedup(0.5)
