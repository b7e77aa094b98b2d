"""Beyond the lecture: the bounds against published measurements (notebook 09).

The lecture reasons from bounds. This module puts real systems beside them: data/measurements.toml holds
published figures (each with its source, date and quality flag), and `cases()` gives each one the bound
the library computes for the same configuration, the efficiency measured ÷ bound and the binding term.

**A whole request, prefill and decode.** `batch` requests, each with L_in prompt tokens (after any
cached history) and L_out output tokens, take one prefill pass and L_out decode steps whose context grows
from the prompt length. Each step's time is chapter 1's roofline (`roofline.step_time`), so

    T_prefill = T_step(B, ℓ_pass = L_in, L_ctx = history)
    T_decode  = Σ_{i=0}^{L_out−1} T_step(B, ℓ_pass = 1, L_ctx = history + L_in + i)     summed step by step
    R_tok    <= B·L_out / (T_prefill + T_decode)                     output tokens per second, a bound

A step's time is a max of two lines in the context, so the mean context's step time is NOT the mean
step time; the sum is taken honestly (`throughput_bound`). With speculative decoding (DeepSeek's MTP)
a step may gain up to k tokens per sequence: ℓ_pass = k, L_out/k steps.

**Little's law** for a steady serving system: requests in flight n = λ·W. With λ = R_tok/L_out requests
per second and W = L_out/r_user seconds per request (r_user: tokens per second one user sees),
n = R_tok/r_user: the decode batch, recovered from two published rates (`concurrency`).

**What the bound leaves out** (`ladder`): the strict bound is generous on purpose; each addition below
is a term or a factor that moves it toward what systems achieve:
    prefill interleaved with decode   the lecture's decode-only bound → `throughput_bound` with prefill
    attention FLOPs                   roofline's attention term (MLA counted in its absorbed decode form,
                                      an over-count in prefill and training)
    the network (chapter 2)           `moe.step_time`'s all-to-all over the scale-up domains (uniform routing)
    kernel efficiency                 F → η·F, BW → η_BW·BW: the best published kernels on the chip
    scheduling                        the batch the system really ran (Little's law) instead of the largest
Training rows: tokens/s <= F / (6·N_active) (chapter 5's 6·N·D), so the bound on MFU is 1; attention
adds 3·f_att·L_seq/2 FLOPs per token (forward over the mean causal context, ×3 with the backward pass).

Units: seconds, tokens, bytes, FLOP/s, bytes/s; rates per second; MFU and efficiencies are fractions.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import sympy as sp

from . import hardware, models, moe, roofline, training, training_runs
from ._registry import DATA, Field, Source, build, load_file, lookup, refer
from .formula import numeric
from .notation import (BW, B, D, F, L_ctx, L_in, L_out, L_seq, R_tok, T_dec, T_pre, W_req, eta, eta_bw, f_att,
                       i_step, l_pass, lam_req, n_conc, r_user)
from .units import check_at_least, check_nonnegative, check_positive

# --- the equations ------------------------------------------------------------------------------------
#: prefill: one pass over every prompt token (the history already cached is read, not recomputed)
t_prefill_expr = roofline.t_step_expr.subs(l_pass, L_in)
#: decode: one step per output token, the context growing from the prompt length (history folded into L_in)
t_decode_expr = sp.Sum(roofline.t_step_expr.subs({l_pass: 1, L_ctx: L_in + i_step}), (i_step, 0, L_out - 1))
#: the bound on output tokens per second of a batch of requests
throughput_bound_expr = B * L_out / (T_pre + T_dec)
throughput_bound_eq = sp.Eq(R_tok, throughput_bound_expr)

#: Little's law: requests in the system = arrival rate × time each spends there
littles_law = sp.Eq(n_conc, lam_req * W_req)
#: λ = R_tok / L_out requests per second, W = L_out / r_user seconds per request
littles_substitution = {lam_req: R_tok / L_out, W_req: L_out / r_user}
#: so the concurrency (the decode batch) from the token rate and the speed one user sees
concurrency_expr = sp.simplify(littles_law.rhs.subs(littles_substitution))

#: kernel efficiency: a chip's matmuls at η·F, its memory at η_BW·BW (MFU and MBU)
derated_substitution = {F: eta * F, BW: eta_bw * BW}
t_step_derated_expr = roofline.t_step_expr.subs(derated_substitution)

#: training: tokens per second at peak, from chapter 5's 6·N·D (per token: D = 1)
train_flops_per_token_expr = training.flops_expr.subs(D, 1)
train_rate_bound_expr = F / train_flops_per_token_expr
#: attention in training: forward f_att per cached token over the mean causal context L_seq/2, ×3 with backward
TRAIN_OVER_FORWARD = sp.Rational(training.TRAIN_FLOPS_PER_PARAM, training.FORWARD_FLOPS_PER_PARAM)   # 3
train_attention_flops_expr = TRAIN_OVER_FORWARD * f_att * L_seq / 2
train_rate_attention_expr = F / (train_flops_per_token_expr + train_attention_flops_expr)
#: MFU from a rate: achieved model FLOP/s over peak (inference: 2·N_active per token)
inference_mfu_expr = R_tok * roofline.t_compute_expr.subs({B: 1, l_pass: 1})


def concurrency(tokens_per_s, user_tokens_per_s):
    """Requests in flight (the decode batch) by Little's law: output tokens/s ÷ tokens/s one user sees.

    tokens_per_s: the system's output tokens per second; user_tokens_per_s: one request's speed (tokens/s).
    """
    check_positive("tokens_per_s", tokens_per_s)
    check_positive("user_tokens_per_s", user_tokens_per_s)
    return numeric(concurrency_expr)(R_tok=tokens_per_s, r_user=user_tokens_per_s)


# --- one pass, with the optional terms ----------------------------------------------------------------
@dataclass(frozen=True)
class Pass:
    """Lower-bound times of one pass (s): compute, memory, network (0 unless modelled) and their max."""
    compute: object
    memory: object
    network: object
    fits: object

    @property
    def total(self):
        return np.maximum(np.maximum(self.compute, self.memory), self.network)


def _pass(hw, m, batch, context, tokens_per_seq, weight_dtype, kv_dtype, compute_dtype, attention_flops,
          racks) -> Pass:
    """roofline.step_time on hw (racks = 1), or moe.step_time over `racks` scale-up domains of hw."""
    if racks > 1:
        r = moe.step_time(hw, m, batch, context, racks, weight_dtype, kv_dtype, dispatch_dtype="fp8",
                          combine_dtype="bf16", tokens_per_seq=tokens_per_seq, compute_dtype=compute_dtype,
                          attention_flops=attention_flops)
        return Pass(r.compute, r.memory, r.network, r.fits)
    r = roofline.step_time(hw, m, batch, context, weight_dtype, kv_dtype, tokens_per_seq, compute_dtype,
                           attention_flops=attention_flops)
    return Pass(r.compute, r.memory, np.zeros_like(np.asarray(r.compute, float)), r.fits)


@dataclass(frozen=True)
class ThroughputBound:
    """The bound on a batch of whole requests (seconds, tokens per second).

    prefill, decode: lower bounds on the prefill pass and the sum of the decode steps, s;
    compute, memory, network: the same time split by term, summed over every pass (each pass counts
    the term that binds it); tokens_per_s: output tokens per second <= this; fits: whether the last
    step's KV caches fit in HBM beside the weights.
    """
    prefill: float
    decode: float
    compute: float
    memory: float
    network: float
    output_tokens: float
    batch: float
    fits: bool

    @property
    def total(self) -> float:
        """Seconds from the prompts to the last output token of the batch (a lower bound)."""
        return self.prefill + self.decode

    @property
    def tokens_per_s(self) -> float:
        """Output tokens per second (an upper bound): B·L_out / (T_prefill + T_decode)."""
        return numeric(throughput_bound_expr)(B=self.batch, L_out=self.output_tokens, T_pre=self.prefill,
                                              T_dec=self.decode)

    @property
    def bound(self) -> str:
        """The term that binds most of the time: 'compute', 'memory' or 'network'."""
        parts = {"compute": self.compute, "memory": self.memory, "network": self.network}
        return max(parts, key=parts.get)


def _binding_time(p: Pass) -> dict:
    """Each pass's time credited to the term that binds it, summed: {term: seconds}."""
    stack = np.stack(np.broadcast_arrays(np.asarray(p.compute, float), np.asarray(p.memory, float),
                                         np.asarray(p.network, float)))
    which, total = np.argmax(stack, axis=0), np.max(stack, axis=0)
    return {name: float(np.sum(np.where(which == i, total, 0.0))) for i, name in enumerate(("compute", "memory", "network"))}


def throughput_bound(hw, model, batch, prompt_tokens, output_tokens, weight_dtype: str = "bf16",
                     kv_dtype: str = "bf16", history_tokens=0, tokens_per_step=1, compute_dtype: str | None = None,
                     attention_flops: bool = False, racks: int = 1, include_prefill: bool = True) -> ThroughputBound:
    """An upper bound on output tokens per second for `batch` requests, prefill and decode both counted.

    hw: a Chip/System or registry name (with racks > 1: one scale-up domain, the layout spans `racks`);
    model: a Model or name; batch: requests (sequences, > 0); prompt_tokens: new prompt tokens per request
    (>= 0); output_tokens: generated tokens per request (>= 1); history_tokens: context already cached
    before the prompt (read, not recomputed). Decode step i runs at context history + prompt + i·k.
    tokens_per_step k: tokens a sequence may gain per decode step (speculative / MTP drafts; 1 = plain).
    attention_flops: count the attention matmuls (roofline's term); racks > 1 adds chapter 2's network
    term (moe.step_time; MoE models only). include_prefill=False: the decode steps only (the lecture's view).
    Returns a ThroughputBound: .prefill, .decode, .total (s), .tokens_per_s, .bound, .fits.
    """
    m = models.resolve(model)
    check_positive("batch", batch)
    check_nonnegative("prompt_tokens", prompt_tokens)
    check_at_least("output_tokens", output_tokens, 1)
    check_nonnegative("history_tokens", history_tokens)
    check_at_least("tokens_per_step", tokens_per_step, 1)
    if isinstance(racks, bool) or int(racks) != racks or racks < 1:
        raise ValueError(f"racks must be an integer >= 1, got {racks!r}")
    if not isinstance(include_prefill, (bool, np.bool_)):
        raise TypeError(f"include_prefill must be True or False, got {include_prefill!r}")
    args = (weight_dtype, kv_dtype, compute_dtype, bool(attention_flops), int(racks))
    start = float(history_tokens) + float(prompt_tokens)
    k = int(tokens_per_step)
    steps = int(np.ceil(float(output_tokens) / k))
    contexts = start + k * np.arange(steps, dtype=float)
    dec = _pass(hardware.resolve(hw), m, batch, contexts, k, *args)
    times = {t: v for t, v in _binding_time(dec).items()}
    decode = float(np.sum(dec.total))
    prefill = 0.0
    if include_prefill and prompt_tokens > 0:
        # the pass reads the history's KV; with attention on, every prompt token attends to half the prompt on average
        ctx = float(history_tokens) + (float(prompt_tokens) / 2 if attention_flops else 0.0)
        pre = _pass(hardware.resolve(hw), m, batch, ctx, float(prompt_tokens), *args)
        prefill = float(pre.total)
        times = {t: times[t] + v for t, v in _binding_time(pre).items()}
    return ThroughputBound(prefill=prefill, decode=decode, output_tokens=float(output_tokens), batch=float(batch),
                           fits=bool(np.all(dec.fits)), **times)


def decode_rate(hw, model, batch, context, weight_dtype: str = "bf16", kv_dtype: str = "bf16", tokens_per_step=1,
                compute_dtype: str | None = None, attention_flops: bool = False, racks: int = 1) -> tuple[float, str, bool]:
    """(output tokens/s, binding term, fits) of decode steps at one context: B·k / T_step (an upper bound).

    fits: whether the weights and the batch's KV fit in HBM; where they do not, the rate bounds nothing."""
    m = models.resolve(model)
    check_positive("batch", batch)
    check_nonnegative("context", context)
    check_at_least("tokens_per_step", tokens_per_step, 1)
    p = _pass(hardware.resolve(hw), m, batch, float(context), int(tokens_per_step), weight_dtype, kv_dtype,
              compute_dtype, bool(attention_flops), int(racks))
    rate = numeric(roofline.throughput_expr)(B=batch, l_pass=int(tokens_per_step), T_step=p.total)
    t = _binding_time(p)
    return rate, max(t, key=t.get), bool(np.all(p.fits))


# --- the measurements file --------------------------------------------------------------------------
KINDS = ("serving", "training")
PHASES = ("decode", "prefill", "end-to-end", "training")
QUANTITIES = ("output_tokens_per_s", "input_tokens_per_s", "time_per_output_token_s", "request_latency_s", "mfu")
#: quantities where smaller is better: the efficiency is bound ÷ measured
LATENCIES = ("time_per_output_token_s", "request_latency_s")


@dataclass(frozen=True)
class Measurement:
    """One published figure, as published (see data/measurements.toml for every field)."""
    key: str
    kind: str
    phase: str
    quantity: str
    chip: str
    chips: int
    model: str
    date: str
    published: str
    source: Source
    value: float | None = None
    per_chips: int | None = None
    weight_dtype: str = "bf16"
    kv_dtype: str = "bf16"
    batch: int | None = None
    prompt_tokens: int | None = None
    history_tokens: int = 0
    output_tokens: int | None = None
    context: int | None = None
    tokens_per_step: int = 1
    cached_fraction: float = 0.0
    user_tokens_per_s: float | None = None
    seq_len: int | None = None
    training_run: str | None = None
    notes: str = ""

    def __post_init__(self):
        hardware.get(self.chip)                      # KeyError with close matches for an unknown chip
        models.get(self.model)
        if (self.value is None) == (self.training_run is None):
            raise ValueError("give exactly one of value (the published number) and training_run")
        if self.training_run is not None:
            training_runs.get(self.training_run)
            if self.quantity != "mfu":
                raise ValueError("a training_run row measures quantity 'mfu'")
        if (self.kind == "training") != (self.phase == "training"):
            raise ValueError(f"kind {self.kind!r} and phase {self.phase!r} disagree: training rows have phase 'training'")
        if self.quantity == "mfu" and self.value is not None and not 0 < self.value <= 1:
            raise ValueError(f"an mfu is a fraction in (0, 1], got {self.value!r}")
        if not 0 <= self.cached_fraction < 1:
            raise ValueError(f"cached_fraction must be in [0, 1), got {self.cached_fraction!r}")
        if self.kind == "training" and self.seq_len is None:
            raise ValueError("a training row needs seq_len")
        if self.phase == "end-to-end" and (self.prompt_tokens is None or self.output_tokens is None):
            raise ValueError("an end-to-end row needs prompt_tokens and output_tokens")
        if self.quantity == "time_per_output_token_s" and self.context is None and self.prompt_tokens is None:
            raise ValueError("a time-per-token row needs context or prompt_tokens")

    @property
    def measured(self) -> float:
        """The measured quantity for one copy of the model (rates scaled from per_chips to chips)."""
        if self.training_run is not None:
            return training.run_mfu(self.training_run)
        if self.quantity.endswith("_per_s") and self.per_chips:
            return self.value * self.chips / self.per_chips
        return self.value


_FIELDS = {
    "key": Field("text", required=True),
    "kind": Field("text", required=True, choices=KINDS),
    "phase": Field("text", required=True, choices=PHASES),
    "quantity": Field("text", required=True, choices=QUANTITIES),
    "value": Field("number"),
    "per_chips": Field("count"),
    "chip": Field("text", required=True),
    "chips": Field("count", required=True),
    "model": Field("text", required=True),
    "weight_dtype": Field("text"),
    "kv_dtype": Field("text"),
    "batch": Field("count"),
    "prompt_tokens": Field("count0"),
    "history_tokens": Field("count0"),
    "output_tokens": Field("count"),
    "context": Field("count"),
    "tokens_per_step": Field("count"),
    "cached_fraction": Field("number"),
    "user_tokens_per_s": Field("number"),
    "seq_len": Field("count"),
    "training_run": Field("text"),
    "date": Field("date", required=True),
    "published": Field("text", required=True),
    "source": Field("source", required=True),
    "notes": Field("text"),
}


@dataclass(frozen=True)
class Kernel:
    """The best published kernel on a chip: achieved FLOP/s at a dtype, or achieved bytes/s."""
    name: str
    chip: str
    source: Source
    dtype: str | None = None
    flops: float | None = None
    bandwidth: float | None = None

    def __post_init__(self):
        chip = hardware.get(self.chip)
        if (self.flops is None) == (self.bandwidth is None):
            raise ValueError("give exactly one of flops (with dtype) and bandwidth")
        if self.flops is not None and (self.dtype is None or self.flops > chip.flops(self.dtype)):
            raise ValueError(f"flops needs a dtype and must not exceed {chip.name}'s peak")
        if self.bandwidth is not None and self.bandwidth > chip.hbm_bandwidth:
            raise ValueError(f"bandwidth must not exceed {chip.name}'s HBM bandwidth")

    @property
    def efficiency(self) -> float:
        """Achieved ÷ peak: an MFU (flops) or an MBU (bandwidth), a fraction."""
        chip = hardware.get(self.chip)
        return self.flops / chip.flops(self.dtype) if self.flops is not None else self.bandwidth / chip.hbm_bandwidth


_KERNEL_FIELDS = {"name": Field("text", required=True), "chip": Field("text", required=True),
                  "dtype": Field("text"), "flops": Field("FLOP/s"), "bandwidth": Field("bytes/s"),
                  "source": Field("source", required=True)}


def load(path=DATA / "measurements.toml") -> tuple[list[Measurement], list[Kernel]]:
    """Read and check a measurements file: ([Measurement], [Kernel]) in file order.

    Raises RegistryError (a ValueError) naming the file, the row and the field of the first bad row.
    """
    tables = load_file(path, {"measurements": _FIELDS, "kernels": _KERNEL_FIELDS},
                       key={"measurements": ("key",), "kernels": ("name",)})
    rows = []
    for label, row in tables["measurements"]:
        for name, find in (("weight_dtype", lambda d: roofline._check_dtypes(d, "bf16")),
                           ("kv_dtype", lambda d: roofline._check_dtypes(d, "bf16")), ("chip", hardware.get),
                           ("model", models.get), ("training_run", training_runs.get)):
            if name in row:
                refer(path, label, name, find, row[name])
        rows.append(build(path, label, Measurement, row))
    kernels = [build(path, label, Kernel, row) for label, row in tables["kernels"]]
    return rows, kernels


MEASUREMENTS, KERNELS = load()
REGISTRY: dict[str, Measurement] = {m.key: m for m in MEASUREMENTS}
#: chips of one architecture: a kernel measured on one holds, as a fraction of peak, on the others
ALIKE = {"H800": ("H100-SXM", "H800", "H200")}


def get(key: str) -> Measurement:
    """A measurement by key ('deepseek-online-decode'); KeyError with close matches on a typo."""
    return lookup("measurement", key, REGISTRY)


def kernel_efficiency(chip) -> tuple[float, float]:
    """(η, η_BW): the best published kernels' fraction of peak FLOP/s and of HBM bandwidth on this chip's
    architecture; 1 where nothing is published (the factor then changes nothing)."""
    name = hardware.resolve(chip).name
    eta_f, eta_b = 1.0, 1.0
    for k in KERNELS:
        if name in ALIKE.get(k.chip, (k.chip,)):
            if k.flops is not None:
                eta_f = k.efficiency
            else:
                eta_b = k.efficiency
    return eta_f, eta_b


def derated(chip, mfu: float, mbu: float) -> hardware.Chip:
    """`chip` with every FLOP/s rate × mfu and its HBM bandwidth × mbu (F → η·F, BW → η_BW·BW)."""
    c = hardware.resolve(chip)
    for name, value in (("mfu", mfu), ("mbu", mbu)):
        check_positive(name, value)
        if value > 1:
            raise ValueError(f"{name} must be <= 1 (a fraction of peak), got {value!r}")
    f = numeric(F * eta)
    b = numeric(BW * eta_bw)
    return hardware.Chip(f"{c.name} at {mfu:.0%} MFU, {mbu:.0%} MBU",
                         {d: f(F=v, eta=mfu) for d, v in c.peak_flops.items()},
                         b(BW=c.hbm_bandwidth, eta_bw=mbu), c.hbm_capacity,
                         scale_up_bandwidth=c.scale_up_bandwidth, scale_up_domain=c.scale_up_domain,
                         scale_out_bandwidth=c.scale_out_bandwidth)


# --- each row against its bound -------------------------------------------------------------------
OPTIONS = ("prefill", "attention", "network", "kernels", "scheduling")
STEPS = ("lecture: decode only", "+ prefill (the strict bound)", "+ attention FLOPs", "+ network (chapter 2)",
         "+ kernel efficiency", "+ scheduling (Little's law batch)")


@dataclass(frozen=True)
class Case:
    """A measurement against its bound. measured and bound are in the row's quantity (for one model copy);
    efficiency = measured ÷ bound (bound ÷ measured for latencies), <= 1 unless the row or the model is wrong."""
    measurement: Measurement
    measured: float
    bound: float
    binding: str
    batch: float | None
    batch_note: str
    fits: bool = True

    @property
    def efficiency(self) -> float:
        if self.measurement.quantity in LATENCIES:
            return self.bound / self.measured
        return self.measured / self.bound

    @property
    def workload(self) -> str:
        """'serving, dense, GPU' and the like: the groups of the efficiency plot."""
        m = models.get(self.measurement.model)
        gpu = "TPU" if self.measurement.chip.startswith("TPU") else "GPU"
        what = "training" if self.measurement.kind == "training" else f"serving ({self.measurement.phase})"
        return f"{what}, {'MoE' if m.is_moe else 'dense'}, {gpu}"


def _batch(r: Measurement, hw, m, context, use_littles: bool) -> tuple[float, str]:
    """The batch to evaluate a row at, and why (published / Little's law / largest that fits / 1)."""
    if r.batch is not None:
        return float(r.batch), "published"
    if r.quantity in LATENCIES:
        return 1.0, "1 (the fastest step)"
    if use_littles and r.user_tokens_per_s is not None:
        return concurrency(r.measured, r.user_tokens_per_s), "Little's law"
    fits = roofline.max_batch(hw, m, max(context, 1), r.weight_dtype, r.kv_dtype)
    if fits < 1:
        raise ValueError(f"{r.key}: the weights alone do not fit in {r.chips} x {r.chip}")
    return float(fits), "largest that fits"


def evaluate(r: Measurement, options=("prefill",)) -> Case:
    """The bound for one row with the chosen additions (a subset of OPTIONS; ("prefill",) is the strict
    bound that no measurement may beat, () the lecture's decode-only view)."""
    unknown = set(options) - set(OPTIONS)
    if unknown:
        raise ValueError(f"unknown options {sorted(unknown)}; choose from {OPTIONS}")
    m = models.get(r.model)
    chip = hardware.get(r.chip)
    if "kernels" in options:
        chip = derated(chip, *kernel_efficiency(chip))
    attention = "attention" in options
    domain = chip.scale_up_domain or r.chips
    racks = r.chips // domain if ("network" in options and m.is_moe and r.chips > domain
                                  and r.chips % domain == 0) else 1
    hw_all = hardware.system(chip, r.chips)
    hw = hardware.system(chip, domain) if racks > 1 else hw_all
    measured = r.measured

    if r.kind == "training":
        expr = train_rate_attention_expr if attention else train_rate_bound_expr
        f = numeric(expr)
        values = dict(F=chip.flops(r.weight_dtype), N=m.active_params,
                      f_att=roofline.attention_flops_per_token_at(m, r.seq_len / 2), L_seq=r.seq_len)
        rate = f(**{k: v for k, v in values.items() if k in f.names})
        peak_rate = numeric(train_rate_bound_expr)(F=hardware.get(r.chip).flops(r.weight_dtype), N=m.active_params)
        return Case(r, measured, rate / peak_rate, "compute", None, "–")

    common = dict(weight_dtype=r.weight_dtype, kv_dtype=r.kv_dtype, attention_flops=attention, racks=racks)
    if r.phase == "prefill":
        if r.prompt_tokens is None:      # any prompt length: the compute-bound limit, F / (2·N_active) per token
            t_tok = roofline.compute_time_per_sequence(hw_all, m, r.weight_dtype)
            rate, binding, batch, note = 1 / t_tok, "compute", None, "any (compute limit)"
        else:
            batch, note = _batch(r, hw_all, m, r.prompt_tokens, "scheduling" in options)
            ctx = r.prompt_tokens / 2 if attention else 0
            p = _pass(hw, m, batch, ctx, r.prompt_tokens, r.weight_dtype, r.kv_dtype, None, attention, racks)
            rate = numeric(roofline.throughput_expr)(B=batch, l_pass=r.prompt_tokens, T_step=p.total)
            t = _binding_time(p)
            binding = max(t, key=t.get)
        rate = rate / (1 - r.cached_fraction)          # cache hits need no prefill compute
        if r.quantity == "mfu":
            peak = hardware.system(hardware.get(r.chip), r.chips)
            mfu = numeric(inference_mfu_expr)(R_tok=rate, N_act=m.active_params, F=peak.flops(r.weight_dtype))
            return Case(r, measured, mfu, binding, batch, note)
        return Case(r, measured, rate, binding, batch, note)

    if r.phase == "decode" and r.output_tokens is None:
        context = r.context if r.context is not None else r.prompt_tokens
        batch, note = _batch(r, hw_all, m, context, "scheduling" in options)
        rate, binding, fits = decode_rate(hw, m, batch, context, r.weight_dtype, r.kv_dtype, r.tokens_per_step,
                                          attention_flops=attention, racks=racks)
        if r.quantity == "time_per_output_token_s":
            return Case(r, measured, batch / rate, binding, batch, note, fits)
        return Case(r, measured, rate, binding, batch, note, fits)

    # whole requests: prefill (unless the lecture's decode-only view) and every decode step
    final = r.history_tokens + (r.prompt_tokens or 0) + r.output_tokens
    batch, note = _batch(r, hw_all, m, final, "scheduling" in options)
    tb = throughput_bound(hw, m, batch, r.prompt_tokens or 0, r.output_tokens, history_tokens=r.history_tokens,
                          tokens_per_step=r.tokens_per_step,
                          include_prefill="prefill" in options and r.phase != "decode", **common)
    if r.quantity == "request_latency_s":
        return Case(r, measured, tb.total, tb.bound, batch, note, tb.fits)
    return Case(r, measured, tb.tokens_per_s, tb.bound, batch, note, tb.fits)


@lru_cache(maxsize=None)
def _cases(options: tuple) -> tuple:
    return tuple(evaluate(r, options) for r in MEASUREMENTS)


def cases(options=("prefill",)) -> list[Case]:
    """Every measurement row against its bound (default: the strict bound, prefill counted)."""
    return list(_cases(tuple(o for o in OPTIONS if o in options)))


def ladder() -> list[tuple[str, list[Case]]]:
    """The bound with each omission added in turn: [(step name, cases)], from the lecture's decode-only
    bound to the one with prefill, attention, network, kernel efficiency and scheduling."""
    out = []
    for i, name in enumerate(STEPS):
        out.append((name, cases(OPTIONS[:i])))
    return out


__all__ = ["throughput_bound", "ThroughputBound", "decode_rate", "concurrency", "cases", "evaluate", "ladder",
           "Case", "Measurement", "Kernel", "MEASUREMENTS", "KERNELS", "get", "load", "kernel_efficiency",
           "derated", "OPTIONS", "STEPS", "t_prefill_expr", "t_decode_expr", "throughput_bound_expr",
           "throughput_bound_eq", "littles_law", "littles_substitution", "concurrency_expr",
           "t_step_derated_expr", "derated_substitution", "train_rate_bound_expr", "train_rate_attention_expr",
           "train_attention_flops_expr", "inference_mfu_expr"]
