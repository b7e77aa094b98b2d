"""Tests for lecture_lib.moe: the per-expert balance batch; chapter 2 (experts on racks, the all-to-all)."""
import pytest
import sympy as sp

from lecture_lib import moe


def test_per_expert_balance_batch():
    # the syllabus's expert reading: 300 × 256 / 8 = 9,600; each expert then sees 300 tokens
    assert moe.expert_balance_batch_from_ratio(300, 8, 256) == pytest.approx(9600)
    assert moe.tokens_per_expert(9600, 8, 256) == pytest.approx(300)
    # symbolic: solving the expert's compute = read gives r·n/k once F is written through r
    r = sp.Symbol("r", positive=True)
    from lecture_lib.notation import BW, F, b_w, k_act, n_exp  # noqa: F401
    expr = moe.expert_balance_batch_expr().subs(F, 2 * r * BW / b_w)
    assert sp.simplify(expr - r * n_exp / k_act) == 0
    with pytest.raises(ValueError, match="ratio"):
        moe.expert_balance_batch_from_ratio(0, 8, 256)
