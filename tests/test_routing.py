"""Tests for lecture_lib.routing: experts touched (Monte Carlo, limits, by hand) and the routed split (config accounting)."""
import math

import numpy as np
import pytest

from lecture_lib import models, routing
from lecture_lib.notation import B, k_act, n_exp

rng = np.random.default_rng(20260429)


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
        assert routing.experts_touched_fraction(batch, k, n) == pytest.approx(np.mean(hits), abs=0.02)


def test_experts_touched_limits_and_symbolic_equals_numeric():
    assert routing.experts_touched_fraction(0, 8, 256) == 0
    assert routing.experts_touched_fraction(1, 8, 256) == pytest.approx(8 / 256)
    assert routing.experts_touched_fraction(10_000, 8, 256) == pytest.approx(1.0)
    f = routing.experts_touched_fraction(np.arange(1, 200), 8, 256)
    assert np.all(np.diff(f) > 0)
    for _ in range(10):
        bb, kk, nn = rng.uniform(0, 500), rng.integers(1, 9), rng.integers(9, 400)
        sym = float(routing.experts_touched_expr.subs({B: bb, k_act: kk, n_exp: nn}))
        assert routing.experts_touched_fraction(bb, kk, nn) == pytest.approx(sym, rel=1e-12)


def test_routed_split_matches_config_accounting():
    # specs.md: routed experts 58 layers x 256 x 3·7168·2048 ≈ 654B; non-routed ≈ 16B
    shared, routed = routing.routed_split("DeepSeek-V3")
    assert routed == pytest.approx(58 * 256 * 3 * 7168 * 2048, rel=0.01)
    assert shared == pytest.approx(16.1e9, rel=0.05)
    assert routing.weight_params_read("DeepSeek-V3", 1) == pytest.approx(37e9, rel=1e-9)
    assert routing.weight_params_read("DeepSeek-V3", 5000) == pytest.approx(671e9, rel=1e-6)
    assert routing.weight_params_read("Llama-3-70B", 3) == models.get("Llama-3-70B").total_params


def test_batch_to_touch_inverts_touched_fraction():
    for f, k, n in [(0.5, 8, 256), (0.99, 8, 256), (0.9, 2, 8), (0.999, 4, 128)]:
        b = routing.batch_to_touch(f, k, n)
        assert routing.experts_touched_fraction(b, k, n) == pytest.approx(f, rel=1e-9)
    # by hand: half of 256 experts at 8 per token: B = ln 0.5 / ln(31/32)
    assert routing.batch_to_touch(0.5, 8, 256) == pytest.approx(math.log(0.5) / math.log(31 / 32))
    for bad in (0, 1, 1.5):
        with pytest.raises(ValueError, match="fraction"):
            routing.batch_to_touch(bad, 8, 256)


def test_untouched_fraction_is_a_power_not_a_cancellation():
    # DeepSeek-V3 at B = 5,441: (31/32)^5441 = exp(5441·ln(31/32)) ≈ 9.8e-76, by hand
    by_hand = math.exp(5441 * math.log(31 / 32))
    assert routing.experts_untouched_fraction(5441, 8, 256) == pytest.approx(by_hand, rel=1e-9)
    assert 1 - routing.experts_touched_fraction(5441, 8, 256) == 0.0        # the artifact it replaces
    b = np.array([0, 1, 10, 100])
    np.testing.assert_allclose(routing.experts_untouched_fraction(b, 2, 8) + routing.experts_touched_fraction(b, 2, 8), 1.0)
    with pytest.raises(ValueError, match="experts_per_token"):
        routing.experts_untouched_fraction(10, 9, 8)
