"""The train that leaves every T_step: latency of a step-by-step server for requests that arrive at random.

The lecture's picture: a step (a "train") departs every T_step whether full or not. A request that
arrives at a uniformly random time waits w ~ U(0, T_step) for the next departure, then rides one step:

    mean latency  = E[w] + T_step = 3/2 · T_step
    worst latency = T_step + T_step = 2 · T_step

`simulate_trains` checks this with Poisson arrivals, and shows what happens when trains fill up.
Units: seconds, requests per second, seats (sequences) per train.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import sympy as sp

from .formula import numeric
from .notation import T_step, w_wait
from .units import check_positive

#: arrivals at uniformly random times: the wait is uniform on [0, T_step)
mean_wait_expr = sp.integrate(w_wait / T_step, (w_wait, 0, T_step))
mean_latency_expr = mean_wait_expr + T_step
worst_latency_expr = T_step + T_step          # just missed a train + a full ride


def train_latency(period_s) -> tuple:
    """(mean, worst) latency of one step for random arrivals, s: (3/2·T, 2·T); arrays broadcast."""
    check_positive("period_s", period_s)
    return numeric(mean_latency_expr)(T_step=period_s), numeric(worst_latency_expr)(T_step=period_s)


@dataclass(frozen=True)
class TrainSim:
    """Result of `simulate_trains`. Times in seconds; arrays have one entry per request."""
    period_s: float
    arrival_rate: float
    capacity: float
    arrival: np.ndarray
    departure: np.ndarray      # when the request's train leaves
    missed: np.ndarray         # True if it could not board the first train after it arrived (full)

    @property
    def latency(self) -> np.ndarray:
        """Wait for a train + one ride of period_s, s."""
        return self.departure + self.period_s - self.arrival

    @property
    def wait(self) -> np.ndarray:
        return self.departure - self.arrival

    @property
    def load(self) -> float:
        """Arrivals per train / seats per train (> 1: the queue grows without bound)."""
        return self.arrival_rate * self.period_s / self.capacity

    @property
    def miss_fraction(self) -> float:
        return float(np.mean(self.missed))

    def percentile(self, q) -> float:
        return float(np.percentile(self.latency, q))


def simulate_trains(period_s, arrival_rate, capacity=np.inf, n_requests: int = 20_000, seed: int = 0) -> TrainSim:
    """Seeded simulation of the lecture's train schedule.

    period_s: a step starts every period_s seconds whether full or not; arrival_rate: requests per
    second (Poisson arrivals); capacity: seats per train (the batch size; inf = never full);
    FIFO boarding. Departure train index d_i = max(ceil(a_i / T), d_{i−C} + 1), computed with a
    running maximum per residue class (vectorised, no Python loop over requests).
    """
    check_positive("period_s", period_s)
    check_positive("arrival_rate", arrival_rate)
    check_positive("capacity", capacity, allow_inf=True)
    if isinstance(n_requests, bool) or not isinstance(n_requests, (int, np.integer)) or n_requests < 1:
        raise ValueError(f"n_requests must be a positive integer, got {n_requests!r}")
    rng = np.random.default_rng(seed)
    arrival = np.cumsum(rng.exponential(1.0 / arrival_rate, size=int(n_requests)))
    first = np.ceil(arrival / period_s)                   # first train at or after arrival
    if np.isinf(capacity) or capacity >= n_requests:
        train = first
    else:
        C = int(capacity)
        if C < 1:
            raise ValueError(f"capacity must be >= 1 seat, got {capacity!r}")
        n = first.size
        rows = -(-n // C)
        pad = np.full(rows * C, -np.inf)
        pad[:n] = first
        grid = pad.reshape(rows, C)                       # column r = requests r, r+C, r+2C, ...
        m = np.arange(rows)[:, None]
        train = (np.maximum.accumulate(grid - m, axis=0) + m).ravel()[:n]
    return TrainSim(float(period_s), float(arrival_rate), float(capacity), arrival,
                    train * period_s, train > first)


__all__ = ["mean_wait_expr", "mean_latency_expr", "worst_latency_expr", "train_latency", "TrainSim",
           "simulate_trains"]
