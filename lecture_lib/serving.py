"""Chapter 1, second half: the balance batch and what follows from it when a model is served.

Everything here builds on the roofline equations of `roofline` (our form, 2 FLOPs per multiply-add):

    B*        = (F / BW) · (b_w / 2) · (N_tot / N_act)          hardware ratio × model ratio
    B*_kv     = t_weights / (2·N_act/F − L_ctx·b_kv/BW)         the KV reads use up bandwidth
    touched   = 1 − (1 − k/n)^B                                 experts a batch of B tokens touches
    latency   = wait + ride,  wait ~ U(0, T_step)  →  mean 3/2·T_step, worst 2·T_step
    fast mode : cost multiple m at batch B_m = t_weights / (m·c − k);  speed-up T*/t_mem(B_m)

Expressions that need sympy.solve are cached functions (`fast_batch_expr()`, ...), solved on first
use, so `import lecture_lib` stays fast.

The lecture's own figures live in `LECTURE` so a notebook can show them beside the computed ones.
Units: seconds, bytes, FLOP/s, bytes/s, tokens; arrays broadcast wherever a docstring says so.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np
import sympy as sp

from . import hardware, models, roofline, traffic
from .lecture import SAID
from ._registry import Source
from .notation import B, BW, F, L_ctx, N_act, N_tot, T_step, b_kv, b_w, k_act, n_exp
from .units import FLOPS_PER_MAC, TB, check_at_least, check_nonnegative, check_positive, dtype_bytes

# what the lecture said (shown beside every computed number) lives in lecture.SAID
LECTURE = SAID


# =================================================================================================
# 1. The balance batch, split into a hardware ratio and a model ratio
# =================================================================================================
#: (F / BW) · (b_w / 2): multiply-adds per second over weight parameters read per second
hardware_ratio_expr = F / BW * b_w / FLOPS_PER_MAC
#: N_tot / N_act: 1 / sparsity
model_ratio_expr = N_tot / N_act
#: the lecture's form: B* = ("FLOPs" / mem_bw) · N_tot / N_act with FLOPs = multiply-adds, N in bytes
lecture_balance_batch_expr = roofline.lecture_ratio_expr * N_tot / N_act
#: the lecture's F_mac is our F / 2
lecture_substitution = {roofline.F_mac: F / FLOPS_PER_MAC}


def balance_split():
    """(hardware ratio, model ratio) as SymPy expressions; their product is roofline's B* (no KV)."""
    return hardware_ratio_expr, model_ratio_expr


_balance_from_parts = sp.lambdify((F, BW, b_w, N_tot, N_act), hardware_ratio_expr * model_ratio_expr, "numpy")


def _out(x):
    x = np.asarray(x, dtype=float)
    return float(x) if x.ndim == 0 else x


def balance_batch_from_ratio(ratio, total_over_active):
    """The lecture's B* = ratio × N_total / N_active (sequences); arrays broadcast.

    ratio: the dimensionless hardware ratio (≈300); total_over_active: 1 / sparsity (>= 1).
    """
    check_positive("ratio", ratio)
    check_at_least("total_over_active", total_over_active, 1)
    return _out(np.asarray(ratio, float) * np.asarray(total_over_active, float))


def sparsity_readings(model="DeepSeek-V3", lecture_active_experts: int | None = None) -> dict:
    """Three readings of N_total / N_active for an MoE model (dimensionless).

    'lecture': n_experts / lecture_active_experts (the lecture's '32 of 256' for DeepSeek-V3);
    'parameters': total_params / active_params (what the weight-fetch term really needs);
    'experts': n_experts / experts_per_token (routed experts only; ignores the shared weights).
    """
    m = models.resolve(model)
    if not m.is_moe:
        raise ValueError(f"model={m.name!r} is dense; sparsity readings need an MoE model")
    out = {"parameters": m.total_params / m.active_params,
           "experts": m.n_experts / m.experts_per_token}
    if lecture_active_experts is None and m.name == "DeepSeek-V3":
        lecture_active_experts = LECTURE["dsv3_active_experts"]
    if lecture_active_experts is not None:
        check_positive("lecture_active_experts", lecture_active_experts)
        out = {"lecture": m.n_experts / lecture_active_experts, **out}
    return out


def ratio_table(names=None, dtypes=("bf16", "fp8", "fp4")) -> list[dict]:
    """One row per (chip, dtype) with a published rate: the hardware ratio two ways.

    Keys: chip, vendor, year, status, dtype, flop_per_byte (F / BW, FLOP/byte),
    lecture_ratio ((F/2) / (BW / b_w): multiply-adds per weight parameter read, dimensionless).
    """
    rows = []
    for name in names or hardware.names("chips"):
        chip = hardware.resolve(name)
        for dtype in dtypes:
            if dtype not in chip.peak_flops:
                continue
            rows.append(dict(chip=chip.name, vendor=chip.vendor, year=chip.year, status=chip.status,
                             dtype=dtype, flop_per_byte=roofline.hardware_ratio(chip, dtype),
                             lecture_ratio=roofline.lecture_ratio(chip, dtype)))
    return rows


# =================================================================================================
# 2. Which weights a batch touches: the MoE weight term
# =================================================================================================
#: expected fraction of one layer's routed experts that a batch of B tokens touches
#: (each token picks k of n experts uniformly, tokens independent)
experts_touched_expr = 1 - (1 - k_act / n_exp) ** B
_touched = sp.lambdify((B, k_act, n_exp), experts_touched_expr, "numpy")


def experts_touched_fraction(batch, experts_per_token, n_experts):
    """Expected fraction of routed experts touched by `batch` tokens: 1 − (1 − k/n)^B.

    batch: tokens in the step (>= 0; arrays broadcast); experts_per_token k: 1 <= k <= n_experts.
    """
    check_nonnegative("batch", batch)
    check_at_least("experts_per_token", experts_per_token, 1)
    check_at_least("n_experts", n_experts, 1)
    if np.any(np.asarray(experts_per_token, float) > np.asarray(n_experts, float)):
        raise ValueError(f"experts_per_token ({experts_per_token}) must be <= n_experts ({n_experts})")
    return _out(_touched(np.asarray(batch, float), np.asarray(experts_per_token, float),
                         np.asarray(n_experts, float)))


f_touch = sp.Symbol("f_touch", positive=True)   # a target fraction of experts touched


@lru_cache(maxsize=None)
def batch_to_touch_expr():
    """The batch at which the expected touched fraction reaches f_touch (solved once, on first use)."""
    (solution,) = sp.solve(sp.Eq(experts_touched_expr, f_touch), B)
    return solution


@lru_cache(maxsize=None)
def _batch_to_touch():
    return sp.lambdify((f_touch, k_act, n_exp), batch_to_touch_expr(), "numpy")


def batch_to_touch(fraction, experts_per_token, n_experts):
    """Tokens per step at which the expected fraction of experts touched reaches `fraction`.

    fraction: 0 < fraction < 1; = log(1 − fraction) / log(1 − k/n) (arrays broadcast).
    """
    check_positive("fraction", fraction)
    if np.any(np.asarray(fraction, float) >= 1):
        raise ValueError(f"fraction must be < 1 (every expert is only reached as B → ∞), got {fraction!r}")
    check_at_least("experts_per_token", experts_per_token, 1)
    if np.any(np.asarray(experts_per_token, float) >= np.asarray(n_experts, float)):
        raise ValueError(f"experts_per_token ({experts_per_token}) must be < n_experts ({n_experts})")
    return _out(_batch_to_touch()(np.asarray(fraction, float), np.asarray(experts_per_token, float),
                                np.asarray(n_experts, float)))


def routed_split(model) -> tuple[float, float]:
    """(always-read parameters, routed-expert parameters) of an MoE, from total, active, k and n.

    total = S + R and active = S + R·k/n, so R = (total − active) / (1 − k/n) and S = total − R.
    """
    m = models.resolve(model)
    if not m.is_moe:
        return m.total_params, 0.0
    routed = (m.total_params - m.active_params) / (1 - m.experts_per_token / m.n_experts)
    return m.total_params - routed, routed


def weight_params_read(model, batch):
    """Expected parameters read from HBM in one step of `batch` tokens (arrays broadcast).

    Dense model: all of them. MoE: the always-read part plus the touched fraction of the experts,
    which approaches N_total once B·k ≫ n (the lecture's weight term) and N_active at B = 1.
    """
    m = models.resolve(model)
    check_at_least("batch", batch, 1)
    shared, routed = routed_split(m)
    if not m.is_moe:
        return _out(shared + 0 * np.asarray(batch, float))
    return _out(shared + routed * experts_touched_fraction(batch, m.experts_per_token, m.n_experts))


# =================================================================================================
# 3. The train that leaves every T_step: wait + ride
# =================================================================================================
wait = sp.Symbol("w", nonnegative=True)        # time from arrival to the next departure, s
#: arrivals at uniformly random times: the wait is uniform on [0, T_step)
mean_wait_expr = sp.integrate(wait / T_step, (wait, 0, T_step))
mean_latency_expr = mean_wait_expr + T_step
worst_latency_expr = T_step + T_step          # just missed a train + a full ride


def train_latency(period_s) -> tuple:
    """(mean, worst) latency of one step for random arrivals, s: (3/2·T, 2·T); arrays broadcast."""
    check_positive("period_s", period_s)
    T = np.asarray(period_s, float)
    return (_out(float(mean_latency_expr / T_step) * T), _out(float(worst_latency_expr / T_step) * T))


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


# =================================================================================================
# 4. Drain time and throughput
# =================================================================================================
def drain_table(names=None) -> list[dict]:
    """One row per chip: capacity (bytes), bandwidth (bytes/s), drain time (s), status."""
    rows = []
    for name in names or hardware.names("chips"):
        chip = hardware.resolve(name)
        rows.append(dict(chip=chip.name, vendor=chip.vendor, year=chip.year, status=chip.status,
                         capacity=chip.hbm_capacity, bandwidth=chip.hbm_bandwidth,
                         drain_s=roofline.drain_time(chip)))
    return rows


def rubin_as_in_lecture() -> hardware.Chip:
    """Rubin with the lecture's 20 TB/s (the registry's public figure is ~22 TB/s)."""
    public = hardware.get("Rubin")
    return hardware.Chip("Rubin (lecture: 20 TB/s)", dict(public.peak_flops), LECTURE["rubin_bandwidth"],
                         LECTURE["rubin_capacity"], status="announced",
                         source=Source("https://www.dwarkesh.com/p/reiner-pope", "2026-04-29", "U",
                                       "the lecture's round figure"))


#: tokens per second of a system that emits B tokens every T_step
throughput_expr = B / T_step
_throughput = sp.lambdify((B, T_step), throughput_expr, "numpy")


def throughput(batch, step_s):
    """Tokens per second = batch / step time (arrays broadcast)."""
    check_positive("batch", batch)
    check_positive("step_s", step_s)
    return _out(_throughput(np.asarray(batch, float), np.asarray(step_s, float)))


def steps_per_second(step_s):
    """1 / step time (Hz)."""
    check_positive("step_s", step_s)
    return _out(1.0 / np.asarray(step_s, float))


def throughput_at_balance(hw, model, weight_dtype="bf16", context=0, kv_dtype="bf16",
                          compute_dtype=None) -> dict:
    """A system at its balance batch: dict(batch, step_s, tok_s).

    At the balance point the step is compute-bound, so tok/s = F / (2·N_act) whatever the context;
    a longer context only lengthens the step (and the batch). ValueError past the balance context.
    """
    batch = roofline.balance_batch(hw, model, weight_dtype, context, kv_dtype, compute_dtype)
    if not np.isfinite(batch):
        raise ValueError(f"context={context} is at or beyond the balance context: no batch balances")
    r = roofline.step_time(hw, model, batch, context, weight_dtype, kv_dtype, compute_dtype=compute_dtype)
    return dict(batch=float(batch), step_s=float(r.total), tok_s=float(r.tokens / r.total))


def fraction_of_volume(tok_s, volume="google-2025-10"):
    """tok_s as a fraction of a published global volume (a traffic key, TokenVolume or tokens/month)."""
    check_positive("tok_s", tok_s)
    return _out(np.asarray(tok_s, float) / traffic.tokens_per_second(volume))


# =================================================================================================
# 5. Fast mode: give up amortisation to shorten the step
# =================================================================================================
m_cost = sp.Symbol("m_cost", positive=True)    # cost per token as a multiple of the balance point's

_c = FLOPS_PER_MAC * N_act / F                 # compute time per sequence per step, s
_k = L_ctx * b_kv / BW                         # KV time per sequence per step, s
_tw = N_tot * b_w / BW                         # weight time per step, s
_ARGS = (N_tot, b_w, BW, N_act, F, L_ctx, b_kv)


@lru_cache(maxsize=None)
def balance_step_expr():
    """Step time at the balance batch with KV (compute-bound there): c · B*_kv, s."""
    return _c * roofline.balance_batch_expr(with_kv=True)


@lru_cache(maxsize=None)
def fast_batch_expr():
    """The batch whose cost per token is m_cost times the balance point's (memory-bound side)."""
    (solution,) = sp.solve(sp.Eq((_tw + B * _k) / B, m_cost * _c), B)
    return solution


@lru_cache(maxsize=None)
def fast_speedup_expr():
    """Step-time speed-up of the fast batch over the balance step."""
    return sp.simplify(balance_step_expr() / (_tw + fast_batch_expr() * _k))


@lru_cache(maxsize=None)
def speedup_ceiling_expr():
    """The most any cut in batch can buy: balance step / weight-read floor."""
    return sp.simplify(balance_step_expr() / _tw)


@lru_cache(maxsize=None)
def _fast_numeric():
    """(batch, speed-up, ceiling) as NumPy functions, lambdified once on first use."""
    return (sp.lambdify(_ARGS + (m_cost,), fast_batch_expr(), "numpy"),
            sp.lambdify(_ARGS + (m_cost,), fast_speedup_expr(), "numpy"),
            sp.lambdify(_ARGS, speedup_ceiling_expr(), "numpy"))


@dataclass(frozen=True)
class FastModeToy:
    """A model on a system, reduced to the numbers fast mode trades.

    n_total, n_active: parameters; bytes_per_param: b_w; flops: F (FLOP/s, 2 per multiply-add);
    bandwidth: BW (bytes/s); context: tokens of KV per sequence; kv_bytes_per_token: b_kv.
    """
    n_total: float
    n_active: float
    bytes_per_param: float
    flops: float
    bandwidth: float
    context: float
    kv_bytes_per_token: float

    def __post_init__(self):
        for name in ("n_total", "n_active", "bytes_per_param", "flops", "bandwidth"):
            check_positive(name, getattr(self, name))
        check_nonnegative("context", self.context)
        check_nonnegative("kv_bytes_per_token", self.kv_bytes_per_token)
        if self.kv_per_seq_s >= self.compute_per_seq_s:
            raise ValueError(f"context={self.context:g} is at or past the balance context: no batch "
                             "balances, so there is no balance point to compare fast mode with")

    @classmethod
    def problem8(cls, ratio: float = LECTURE["ratio"]) -> "FastModeToy":
        """Syllabus §5 ch.1 problem 8: 64 GPUs × 8 TB/s, 2T params fp8, 100B active, 100K × 2 kB KV.

        The lecture's "FLOPs" = ratio × bandwidth multiply-adds per second at 1 byte per weight,
        i.e. F = 2 · ratio · BW FLOP/s in this course's units.
        """
        bw = 64 * 8 * TB
        return cls(2e12, 100e9, 1.0, FLOPS_PER_MAC * ratio * bw, bw, 100e3, 2e3)

    @classmethod
    def from_system(cls, hw, model, context, weight_dtype="fp8", kv_dtype="bf16", compute_dtype=None):
        """The toy for a registry chip/system and model (full-attention KV bytes per token)."""
        chip, m = hardware.resolve(hw), models.resolve(model)
        flops = roofline._compute_rate(chip, weight_dtype, compute_dtype)
        return cls(m.total_params, m.active_params, dtype_bytes(weight_dtype, "weight_dtype"), flops,
                   chip.hbm_bandwidth, float(context), m.kv_bytes_per_token(kv_dtype))

    @property
    def _args(self):
        return (self.n_total, self.bytes_per_param, self.bandwidth, self.n_active, self.flops,
                self.context, self.kv_bytes_per_token)

    @property
    def weights_s(self) -> float:
        """Time to read every weight once: the latency floor, s."""
        return self.n_total * self.bytes_per_param / self.bandwidth

    @property
    def compute_per_seq_s(self) -> float:
        return FLOPS_PER_MAC * self.n_active / self.flops

    @property
    def kv_per_seq_s(self) -> float:
        return self.context * self.kv_bytes_per_token / self.bandwidth

    @property
    def balance_batch(self) -> float:
        """Sequences at which compute = weights + KV."""
        return self.weights_s / (self.compute_per_seq_s - self.kv_per_seq_s)

    @property
    def balance_step_s(self) -> float:
        return self.balance_batch * self.compute_per_seq_s

    def step_s(self, batch):
        """max(compute, weights + KV) for `batch` sequences, s (arrays broadcast)."""
        check_positive("batch", batch)
        b = np.asarray(batch, float)
        return _out(np.maximum(b * self.compute_per_seq_s, self.weights_s + b * self.kv_per_seq_s))

    def cost_multiple(self, batch):
        """Cost per token at `batch` over the cost per token at the balance batch (>= 1)."""
        return _out(np.asarray(self.step_s(batch)) / np.asarray(batch, float) / self.compute_per_seq_s)

    def speedup(self, batch):
        """Balance step / step at `batch` (> 1 below the balance batch, < 1 above)."""
        return _out(self.balance_step_s / np.asarray(self.step_s(batch)))

    def batch_for_cost(self, multiple):
        """Batch whose cost per token is `multiple` × the balance point's (multiple >= 1)."""
        check_at_least("multiple", multiple, 1)
        return _out(_fast_numeric()[0](*self._args, np.asarray(multiple, float)))

    def speedup_for_cost(self, multiple):
        """Speed-up bought by paying `multiple` × the balance cost per token (multiple >= 1)."""
        check_at_least("multiple", multiple, 1)
        return _out(_fast_numeric()[1](*self._args, np.asarray(multiple, float)))

    @property
    def max_speedup(self) -> float:
        """Balance step / weight-read floor: the speed-up as batch → 0 at infinite cost."""
        return float(_fast_numeric()[2](*self._args))


# =================================================================================================
# 6. Sparsity vs quality, and what sparsity costs instead
# =================================================================================================
@dataclass(frozen=True)
class RoutedScalingPoint:
    """A routed (MoE) model matched in quality by a dense model (Clark et al. 2022)."""
    n_experts: int
    active_params: float
    dense_equivalent_params: float
    source: Source

    @property
    def quality_multiple(self) -> float:
        """Dense-equivalent parameters / active parameters: what the experts buy."""
        return self.dense_equivalent_params / self.active_params


CLARK_2022 = RoutedScalingPoint(
    64, 370e6, 1.3e9,
    Source("https://arxiv.org/abs/2202.01169", "2026-11", "S",
           "Unified Scaling Laws for Routed Language Models (Clark et al., DeepMind 2022), as shown in "
           "the lecture: a 64-expert model with 370M active parameters matches a dense 1.3B model"))


def sparsity_sweep(hw, model, total_over_active, context, weight_dtype="fp8", kv_dtype="bf16",
                   compute_dtype=None) -> dict:
    """Keep `model`'s active parameters and KV, vary N_total / N_active; arrays of:

    total_params, weight_bytes, balance_batch (with the KV at `context`), max_batch (sequences that
    fit in HBM beside the weights), headroom = max_batch / balance_batch (< 1: the balance batch no
    longer fits: the sparser model needs more memory, i.e. more chips).
    """
    chip, m = hardware.resolve(hw), models.resolve(model)
    check_positive("context", context)
    ratios = np.atleast_1d(np.asarray(check_at_least("total_over_active", total_over_active, 1), float))
    out = {k: np.empty(ratios.size) for k in ("total_params", "weight_bytes", "balance_batch", "max_batch")}
    for i, r in enumerate(ratios):
        mi = replace(m, name=f"{m.name} x{r:g}", total_params=r * m.active_params, source=None)
        out["total_params"][i] = mi.total_params
        out["weight_bytes"][i] = mi.weight_bytes(weight_dtype)
        out["balance_batch"][i] = roofline.balance_batch(chip, mi, weight_dtype, context, kv_dtype, compute_dtype)
        out["max_batch"][i] = roofline.max_batch(chip, mi, context, weight_dtype, kv_dtype)
    out["headroom"] = out["max_batch"] / out["balance_batch"]
    out["total_over_active"] = ratios
    return out


# =================================================================================================
# 7. Dense vs square-root-sparse attention: the context slope
# =================================================================================================
@lru_cache(maxsize=None)
def balance_context_sqrt_expr():
    """L_ctx where sqrt(L)·b_kv/BW (toy sparse attention) equals 2·N_act/F."""
    (solution,) = sp.solve(sp.Eq(sp.sqrt(L_ctx) * b_kv / BW, _c), L_ctx)
    return solution


def kv_time_per_sequence(hw, model, context, attention="dense", kv_dtype="bf16"):
    """KV read time of one sequence in one decode step, s: tokens read × b_kv / BW (arrays ok).

    attention: 'dense' reads every cached token; 'sqrt' reads ~sqrt(context) of them (toy model of
    DeepSeek's sparse attention).
    """
    chip, m = hardware.resolve(hw), models.resolve(model)
    tokens = roofline.kv_tokens_read(context, attention)
    return _out(np.asarray(tokens, float) * m.kv_bytes_per_token(kv_dtype) / chip.hbm_bandwidth)


def compute_time_per_sequence(hw, model, weight_dtype="fp8", compute_dtype=None) -> float:
    """2·N_act / F: one sequence's share of a decode step's matmuls, s."""
    chip, m = hardware.resolve(hw), models.resolve(model)
    return FLOPS_PER_MAC * m.active_params / roofline._compute_rate(chip, weight_dtype, compute_dtype)


def balance_context(hw, model, attention="dense", weight_dtype="fp8", kv_dtype="bf16", compute_dtype=None) -> float:
    """Context (tokens) past which no batch balances: dense = roofline.balance_context; 'sqrt' squares it."""
    dense = roofline.balance_context(hw, model, weight_dtype, kv_dtype, compute_dtype)
    if attention == "dense":
        return dense
    if attention == "sqrt":
        return dense ** 2
    raise ValueError(f"attention must be 'dense' or 'sqrt', got {attention!r}")


__all__ = [
    "LECTURE", "hardware_ratio_expr", "model_ratio_expr", "lecture_balance_batch_expr",
    "lecture_substitution", "balance_split", "balance_batch_from_ratio", "sparsity_readings",
    "ratio_table", "experts_touched_expr", "experts_touched_fraction", "batch_to_touch_expr", "batch_to_touch", "routed_split",
    "weight_params_read", "mean_wait_expr", "mean_latency_expr", "worst_latency_expr",
    "train_latency", "TrainSim", "simulate_trains", "drain_table", "rubin_as_in_lecture",
    "throughput_expr", "throughput", "steps_per_second", "throughput_at_balance",
    "fraction_of_volume", "m_cost", "balance_step_expr", "fast_batch_expr", "fast_speedup_expr",
    "speedup_ceiling_expr", "FastModeToy", "RoutedScalingPoint", "CLARK_2022", "sparsity_sweep",
    "balance_context_sqrt_expr", "kv_time_per_sequence", "compute_time_per_sequence", "balance_context",
]
