"""Tests for lecture_lib.queueing: the train schedule against the symbolic result and a brute-force FIFO."""
import math

import numpy as np
import pytest

from lecture_lib import queueing

rng = np.random.default_rng(20260429)


# --- 3. the train schedule -----------------------------------------------------------------------
def test_train_mean_30ms_worst_40ms_by_symbolic_and_simulation():
    assert queueing.train_latency(0.020) == pytest.approx((0.030, 0.040))
    sim = queueing.simulate_trains(0.020, arrival_rate=2000, n_requests=50_000, seed=1)
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
    sim = queueing.simulate_trains(0.02, rate, capacity=capacity, n_requests=3000, seed=7)
    np.testing.assert_allclose(sim.departure, _brute_force_fifo(sim.arrival, 0.02, capacity), atol=1e-12)


def test_overload_misses_trains_and_latency_grows():
    ok = queueing.simulate_trains(0.02, 500, capacity=20, n_requests=20_000, seed=3)     # load 0.5
    over = queueing.simulate_trains(0.02, 1500, capacity=20, n_requests=20_000, seed=3)  # load 1.5
    assert ok.load == pytest.approx(0.5) and over.load == pytest.approx(1.5)
    assert ok.miss_fraction < 0.01           # P(Poisson(10) > 20) ≈ 0.2 % of trains overflow
    assert over.miss_fraction > 0.9
    # by hand: the queue grows at λ − C/T requests/s and drains at C/T, so a request arriving at t
    # waits ≈ t·(λT/C − 1) = 0.5·t
    t = over.arrival[-1]
    assert over.latency[-1] == pytest.approx(0.5 * t, rel=0.05)
