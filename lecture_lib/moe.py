"""Chapter 2: how an MoE model is laid out across GPU racks, and what its all-to-all costs.

**The layer, from its config.** A token's MLP in an MoE layer is n_shared shared experts plus k of n
routed experts, each an ordinary SwiGLU MLP (gate, up, down: 3·d_model·d_ff_expert weights), picked by a
router (n·d_model weights). Every parameter, from the published architecture numbers:

    expert     = 3·d_model·d_ff_expert                 one expert's weights
    routed     = L_moe·n·expert                        all routed experts
    shared     = L_moe·n_shared·expert                 the always-on experts
    router     = L_moe·n·d_model
    dense MLP  = L_dense·3·d_model·d_ff                the leading dense layers
    attention  = n_layers·(per-layer projections)      GQA: q, k, v, o;  MLA: q down/up, kv down/up, o
    embedding  = V·d_model, output head = V·d_model    untied
    total      = all of the above;  active = total − routed − embedding + L_moe·k·expert
The input embedding is a lookup (one row per token), so it is not counted as active; DeepSeek's
own accounting (36.6B "including 0.9B for the output head") does the same. Norms and biases are left
out (< 0.01 %).

**Expert parallelism.** The routed experts of a layer are spread over E chips of one scale-up domain,
one router copy per chip. Each chip's tokens go to their k experts (dispatch) and come back (combine):

    dispatch bytes = T·k·d_model·b_dispatch            per MoE layer for T tokens (combine: b_combine)
    per chip, per step  V = B·ℓ·k·d_model·(b_dispatch + b_combine)·L_MoE / (n_chips·R)

**The network term.** When the layer spans R racks of n_chips each (uniform routing), a chip's traffic
goes to the other chips of its rack, a fraction (n_chips − 1)/(n_chips·R), over the scale-up network
(W_up, one direction), and a fraction (R − 1)/R out of the rack over its NIC (W_out). The two links work
in parallel, so the slower share binds:

    t_net = V · max( (n_chips − 1)/(n_chips·R) / W_up ,  (R − 1)/R / W_out )
    T_step = max(t_compute, t_mem, t_net)              chapter 1's roofline with a third term

The traffic to a chip's own experts (1/(n_chips·R)) stays on the chip, so one chip alone has no
network term; for a rack of 72 that is the 1.4 % the lecture ignores. Dispatch and combine are counted
in full-duplex: every chip sends and receives the same amount, each direction at W.
With ρ = W_up / W_out and many chips per rack, the slowdown of spanning R racks is
max(1/R, ρ·(R − 1)/R) (same tokens per chip): ρ/2 = 4× for two racks at ρ = 8, and ρ as R grows.

**Scale-up domains.** The largest model whose weights take a fraction f_w of a domain's HBM is
f_w·C_HBM/b_w parameters, and reading it once takes f_w·C_HBM/BW: the latency floor of that model.

Units: parameters, tokens, bytes, bytes/s, seconds; arrays broadcast where a docstring says so.
Uniform independent routing throughout (real routers are skewed).

The per-expert reading of the balance batch (how deployments size batches: tokens per expert):

    tokens per expert        = B·k/n
    one expert's matmuls     = 2·(B·k/n)·(N_routed/n) / F     its weights: (N_routed/n)·b_w / BW
    B*_expert                = (F·b_w / (2·BW)) · n/k = r · n/k     each expert's matmul compute-bound

It assumes no overlap between operations: each expert's weight read must hide behind that expert's own
matmuls. The aggregate roofline (B* = r·N_total/N_active) instead lets every operation of the step
overlap with every other, so the dense layers' spare compute covers the experts' reads.
Which weights a batch touches (uniform independent routing) lives one floor down, in `routing`.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import sympy as sp

from . import hardware, models, roofline, routing
from .formula import numeric, out
from .notation import (BW, B, C_hbm, F, L_dense, T_step, L_moe, N_rt, N_tot, R_rk, V_voc, W_out, W_up, b_comb, b_disp,
                       b_w, d_ff, d_ffe, d_head, d_model, d_rope, f_wt, k_act, l_pass, n_chips, n_exp, n_heads,
                       n_kv, n_shx, r_hw, r_kv, r_q, rho_bw)
from .units import FLOPS_PER_MAC, check_at_least, check_nonnegative, check_positive, dtype_bytes

# --- 1. the MoE layer, accounted from the config ------------------------------------------------------
#: SwiGLU MLP: gate and up (d_model → d_ff each) and down (d_ff → d_model)
expert_params_expr = 3 * d_model * d_ffe
routed_params_expr = L_moe * n_exp * expert_params_expr
shared_params_expr = L_moe * n_shx * expert_params_expr
router_params_expr = L_moe * n_exp * d_model
dense_mlp_params_expr = L_dense * 3 * d_model * d_ff
#: grouped-query attention (MHA and MQA are its edge cases): q and o are n_heads·d_head wide, k and v n_kv·d_head
attention_gqa_expr = 2 * d_model * n_heads * d_head + 2 * d_model * n_kv * d_head
#: multi-head latent attention (DeepSeek): q through a rank-r_q bottleneck, keys and values from a
#: r_kv latent (+ d_rope shared RoPE dims), value and no-RoPE key heads d_head wide, output n_heads·d_head → d_model
attention_mla_expr = (d_model * r_q + r_q * n_heads * (d_head + d_rope) + d_model * (r_kv + d_rope)
                      + r_kv * n_heads * 2 * d_head + n_heads * d_head * d_model)
embedding_params_expr = V_voc * d_model          # the input table; the output head is the same size (untied)


@dataclass(frozen=True)
class ParamBudget:
    """Where a model's parameters sit, computed from its architecture numbers (parameter counts)."""
    model: str
    embedding: float        # input embedding table (a lookup: not active)
    output_head: float      # the unembedding matmul (active)
    attention: float        # all layers
    dense_mlp: float        # the leading dense layers' MLPs
    shared_experts: float
    routed_experts: float
    router: float
    active_routed: float    # the k routed experts a token uses, over all MoE layers

    @property
    def total(self) -> float:
        return (self.embedding + self.output_head + self.attention + self.dense_mlp + self.shared_experts
                + self.routed_experts + self.router)

    @property
    def active(self) -> float:
        """Parameters one token multiplies: everything but the input table and the unused experts."""
        return self.total - self.embedding - self.routed_experts + self.active_routed

    def rows(self) -> list[tuple[str, float, float]]:
        """(part, total parameters, active parameters) per part, for a table."""
        return [("embedding (input)", self.embedding, 0.0), ("output head", self.output_head, self.output_head),
                ("attention", self.attention, self.attention), ("dense MLP layers", self.dense_mlp, self.dense_mlp),
                ("shared experts", self.shared_experts, self.shared_experts),
                ("routed experts", self.routed_experts, self.active_routed), ("routers", self.router, self.router)]


def param_budget(model) -> ParamBudget:
    """Every parameter of an MoE model from its config (counts): see the module docstring.

    Needs the architecture numbers d_ff_expert and vocab_size (and d_ff if it has dense layers, q_lora_rank
    if MLA); raises ValueError naming the missing one.
    """
    m = models.resolve(model)
    if not m.is_moe:
        raise ValueError(f"model={m.name!r} is dense; param_budget accounts an MoE model's experts")
    for name in ("d_ff_expert", "vocab_size") + (("d_ff",) if m.n_dense_layers else ()) + (
            ("q_lora_rank",) if m.kv_lora_rank is not None else ()):
        if getattr(m, name) is None:
            raise ValueError(f"{m.name} has no {name} in the registry: param_budget needs it")
    v = dict(d_model=m.d_model, d_ff_expert=m.d_ff_expert, L_moe=m.n_moe_layers, n_exp=m.n_experts,
             n_shared=m.n_shared_experts, L_dense=m.n_dense_layers, d_ff=m.d_ff or 1, V_vocab=m.vocab_size,
             n_heads=m.n_heads, n_kv=m.n_kv_heads, d_head=m.head_dim, r_q=m.q_lora_rank or 1,
             r_kv=m.kv_lora_rank or 1, d_rope=m.qk_rope_dim or 1, k_act=m.experts_per_token)

    def ev(expr):
        f = numeric(expr)
        return f(**{k: v[k] for k in f.names})

    attn = attention_mla_expr if m.kv_lora_rank is not None else attention_gqa_expr
    embed = ev(embedding_params_expr)
    return ParamBudget(model=m.name, embedding=embed, output_head=embed, attention=m.n_layers * ev(attn),
                       dense_mlp=ev(dense_mlp_params_expr), shared_experts=ev(shared_params_expr),
                       routed_experts=ev(routed_params_expr), router=ev(router_params_expr),
                       active_routed=ev(routed_params_expr.subs(n_exp, k_act)))


# --- 2. experts touched ---------------------------------------------------------------------------------
#: expected distinct routed experts (of one layer's n) that T tokens touch
experts_touched_count_expr = n_exp * routing.experts_touched_expr


def experts_touched(model, tokens):
    """Expected distinct routed experts of one MoE layer touched by `tokens` tokens (experts; arrays broadcast).

    n·(1 − (1 − k/n)^T) under uniform independent top-k routing; tokens >= 0.
    """
    m = models.resolve(model)
    if not m.is_moe:
        raise ValueError(f"model={m.name!r} is dense: it has no routed experts")
    check_nonnegative("tokens", tokens)
    return numeric(experts_touched_count_expr)(B=tokens, k_act=m.experts_per_token, n_exp=m.n_experts)


# --- 3. expert parallelism: where the experts live ------------------------------------------------------
@dataclass(frozen=True)
class Layout:
    """Routed experts of one layer spread evenly over the chips of a scale-up domain."""
    experts: int             # routed experts per layer
    chips: int               # chips in the domain
    used: int                # chips holding experts: the largest divisor of `experts` not above `chips`
    per_chip: int            # experts per used chip
    idle: int                # chips left without experts


def expert_layout(n_experts: int, chips: int) -> Layout:
    """Even expert parallelism: the most chips (<= `chips`) that divide `n_experts` evenly.

    256 experts on 72 chips: 64 used, 4 per chip, 8 idle (the lecture's layout).
    """
    check_at_least("n_experts", n_experts, 1)
    check_at_least("chips", chips, 1)
    used = max(d for d in range(1, int(chips) + 1) if int(n_experts) % d == 0)
    return Layout(int(n_experts), int(chips), used, int(n_experts) // used, int(chips) - used)


# --- 3b. the all-to-all: bytes ---------------------------------------------------------------------------
#: bytes one MoE layer's dispatch sends for B tokens: k copies of a d_model vector each
dispatch_bytes_expr = B * k_act * d_model * b_disp
#: ... and its combine sends back
combine_bytes_expr = B * k_act * d_model * b_comb
#: bytes one chip sends (and receives) in a step: B·ℓ tokens over n_chips·R chips, every MoE layer, both ways
step_bytes_per_chip_expr = (B * l_pass * k_act * d_model * (b_disp + b_comb) * L_moe / (n_chips * R_rk))
#: fractions of a chip's traffic that go to the other chips of its rack, and out of the rack
frac_in_rack_expr = (n_chips - 1) / (n_chips * R_rk)
frac_out_of_rack_expr = (R_rk - 1) / R_rk
#: the network term: both links at once, the slower share binds, s
t_net_expr = step_bytes_per_chip_expr * sp.Max(frac_in_rack_expr / W_up, frac_out_of_rack_expr / W_out)
#: the same with the scale-out bandwidth written through ρ = W_up / W_out
t_net_rho_expr = t_net_expr.subs(W_out, W_up / rho_bw)


@lru_cache(maxsize=None)
def slowdown_expr():
    """All-to-all time over R racks ÷ over one rack, same tokens per chip, many chips per rack (n → ∞).

    t_net ∝ max(f_in/W_up, f_out/W_out); divide by its R = 1 value f_in(1)/W_up and write W_up = ρ·W_out:
    max(f_in, ρ·f_out) / f_in(1), with f_in → 1/R as the rack grows. Derived once, on first use.
    """
    f_in = sp.limit(frac_in_rack_expr, n_chips, sp.oo)
    return sp.simplify(sp.Max(f_in, rho_bw * frac_out_of_rack_expr) / f_in.subs(R_rk, 1))


def _model_moe(model) -> models.Model:
    m = models.resolve(model)
    if not m.is_moe:
        raise ValueError(f"model={m.name!r} is dense: it has no expert all-to-all")
    return m


def dispatch_bytes(model, tokens, dtype: str = "bf16"):
    """Bytes one MoE layer's dispatch sends for `tokens` tokens: tokens·k·d_model·bytes(dtype) (arrays ok)."""
    m = _model_moe(model)
    check_nonnegative("tokens", tokens)
    return numeric(dispatch_bytes_expr)(B=tokens, k_act=m.experts_per_token, d_model=m.d_model,
                                        b_disp=dtype_bytes(dtype, "dtype"))


def combine_bytes(model, tokens, dtype: str = "bf16"):
    """Bytes one MoE layer's combine sends back for `tokens` tokens: tokens·k·d_model·bytes(dtype)."""
    m = _model_moe(model)
    check_nonnegative("tokens", tokens)
    return numeric(combine_bytes_expr)(B=tokens, k_act=m.experts_per_token, d_model=m.d_model,
                                       b_comb=dtype_bytes(dtype, "dtype"))


def slowdown(racks, bandwidth_ratio):
    """All-to-all time over R racks ÷ over one, same tokens per chip: max(1/R, ρ·(R − 1)/R) (arrays ok).

    racks R >= 1; bandwidth_ratio ρ = scale-up ÷ scale-out bandwidth per chip (> 0).
    """
    check_at_least("racks", racks, 1)
    check_positive("bandwidth_ratio", bandwidth_ratio)
    return numeric(slowdown_expr)(R_racks=racks, rho_bw=bandwidth_ratio)


def scale_bandwidths(hw, scaleout_ratio=None) -> tuple[float, float | None]:
    """(W_up, W_out) per chip, one direction, bytes/s; W_out = W_up / scaleout_ratio when that is given."""
    chip = hardware.resolve(hw)
    if chip.scaleup_bandwidth is None:
        raise ValueError(f"{chip.name} has no scale-up bandwidth in the registry")
    if scaleout_ratio is not None:
        check_positive("scaleout_ratio", scaleout_ratio)
        return chip.scaleup_bandwidth, chip.scaleup_bandwidth / scaleout_ratio
    return chip.scaleup_bandwidth, chip.scaleout_bandwidth


# --- 4. the step: chapter 1's roofline plus the network -------------------------------------------------
BOUNDS = ("compute", "memory", "network")


@dataclass(frozen=True)
class MoEStepTime:
    """One step of an MoE layout over `racks` scale-up domains: the roofline and the network (seconds).

    roofline: chapter 1's StepTime on all racks' chips together; network: t_net per chip;
    bytes_per_chip: what each chip sends (and receives) in the step.
    """
    roofline: roofline.StepTime
    network: object
    bytes_per_chip: object
    racks: int
    chips: int

    compute = property(lambda self: self.roofline.compute, doc="matmul time, s")
    weights = property(lambda self: self.roofline.weights, doc="weight-read time, s")
    kv = property(lambda self: self.roofline.kv, doc="KV-read time, s")
    memory = property(lambda self: self.roofline.memory, doc="weights + KV, s")
    fits = property(lambda self: self.roofline.fits, doc="whether weights + KV fit in the racks' HBM")

    @property
    def total(self):
        """max(compute, memory, network): the lower bound on the step time, s."""
        return out(np.maximum(np.maximum(self.compute, self.memory), self.network))

    @property
    def bound(self):
        """'compute', 'memory' or 'network' (an array of them for array inputs); ties go left."""
        stack = np.stack(np.broadcast_arrays(np.asarray(self.compute, float), np.asarray(self.memory, float),
                                             np.asarray(self.network, float)))
        b = np.asarray(BOUNDS)[np.argmax(stack, axis=0)]
        return str(b) if b.ndim == 0 else b


def step_time(hw, model, batch, context=0, racks=1, weight_dtype: str = "bf16", kv_dtype: str = "bf16",
              dispatch_dtype: str = "bf16", combine_dtype: str | None = None, tokens_per_seq=1,
              compute_dtype: str | None = None, experts: str = "touched", attention_flops: bool = False,
              scaleout_ratio=None) -> MoEStepTime:
    """Chapter 1's roofline plus the all-to-all of expert parallelism over `racks` scale-up domains.

    hw: one scale-up domain (a System such as 'GB200-NVL72', or a chip = a domain of one); the layout
    uses racks × hw.n_chips chips, all of which hold experts and route their share of the batch.
    batch: sequences (> 0, spread evenly over the chips); racks R: integer >= 1.
    dispatch_dtype / combine_dtype: precision of the activations sent to and back from the experts
    (DeepSeek-V3 dispatches fp8 and combines bf16); combine defaults to the dispatch dtype.
    scaleout_ratio: if given, W_out = W_up / scaleout_ratio instead of the registry's NIC figure.
    The other arguments are roofline.step_time's. Returns MoEStepTime (seconds): .network, .total, .bound.
    """
    domain, m = hardware.resolve(hw), _model_moe(model)
    if isinstance(racks, bool) or int(np.asarray(racks)) != racks or racks < 1:
        raise ValueError(f"racks must be an integer >= 1, got {racks!r}")
    racks = int(racks)
    chip = domain.chip if isinstance(domain, hardware.System) else domain
    w_up, w_out = scale_bandwidths(domain, scaleout_ratio)
    if racks > 1 and w_out is None:
        raise ValueError(f"{domain.name} has no scale-out (NIC) bandwidth in the registry; pass scaleout_ratio=")
    everything = hardware.system(chip, domain.n_chips * racks)
    r = roofline.step_time(everything, m, batch, context, weight_dtype, kv_dtype, tokens_per_seq,
                           compute_dtype, experts, attention_flops)
    v = dict(B=np.asarray(batch, float), l_pass=tokens_per_seq, k_act=m.experts_per_token, d_model=m.d_model,
             b_disp=dtype_bytes(dispatch_dtype, "dispatch_dtype"),
             b_comb=dtype_bytes(combine_dtype or dispatch_dtype, "combine_dtype"), L_moe=m.n_moe_layers,
             n_chips=domain.n_chips, R_racks=racks, W_up=w_up, W_out=w_out if w_out is not None else np.inf)
    f_bytes, f_net = numeric(step_bytes_per_chip_expr), numeric(t_net_expr)
    return MoEStepTime(roofline=r, network=f_net(**{k: v[k] for k in f_net.names}),
                       bytes_per_chip=f_bytes(**{k: v[k] for k in f_bytes.names}), racks=racks,
                       chips=domain.n_chips * racks)


def with_experts_per_token(model, experts_per_token: int) -> models.Model:
    """`model` routing each token to `experts_per_token` experts instead: same experts and total, active
    parameters from chapter 1's split N_active = N_always + N_routed·k/n (a what-if for the explorer)."""
    from dataclasses import replace
    m = _model_moe(model)
    if isinstance(experts_per_token, bool) or int(experts_per_token) != experts_per_token \
            or not 1 <= experts_per_token <= m.n_experts:
        raise ValueError(f"experts_per_token must be an integer from 1 to {m.n_experts}, got {experts_per_token!r}")
    always, routed = routing.routed_split(m)
    active = numeric(routing.active_params_eq.rhs)(N_sh=always, N_rt=routed, k_act=experts_per_token,
                                                   n_exp=m.n_experts)
    return replace(m, name=f"{m.name} (k = {int(experts_per_token)})", experts_per_token=int(experts_per_token),
                   active_params=active, source=m.source)


# --- 6. scale-up domains: the largest model, and its latency floor ----------------------------------------
#: parameters whose weights fill a fraction f_w of the domain's HBM
max_params_expr = f_wt * C_hbm / b_w
#: reading them once: chapter 1's weight term at that size, s
weight_floor_expr = roofline.t_weights_expr.subs(N_tot, max_params_expr)


@dataclass(frozen=True)
class Domain:
    """One scale-up domain's capacity story (bytes, bytes/s, parameters, seconds)."""
    name: str
    chips: int
    status: str
    hbm_capacity: float
    hbm_bandwidth: float
    max_params: float
    weight_floor_s: float


def domain_capacity(hw, weight_dtype: str = "fp8", weight_fraction: float = 0.5) -> Domain:
    """The largest model a scale-up domain holds with `weight_fraction` of its HBM for weights (the rest
    for KV), and the time to read those weights once (the decode latency floor of that model).

    weight_dtype: the weights' storage precision; 0 < weight_fraction <= 1.
    """
    d = hardware.resolve(hw)
    check_positive("weight_fraction", weight_fraction)
    if weight_fraction > 1:
        raise ValueError(f"weight_fraction must be <= 1, got {weight_fraction!r}")
    b = dtype_bytes(weight_dtype, "weight_dtype")
    params = numeric(max_params_expr)(f_wt=weight_fraction, C_hbm=d.hbm_capacity, b_w=b)
    floor = numeric(weight_floor_expr)(f_wt=weight_fraction, C_hbm=d.hbm_capacity, BW=d.hbm_bandwidth)
    return Domain(d.name, d.n_chips, d.status, d.hbm_capacity, d.hbm_bandwidth, params, floor)


#: the scale-up history the lecture walks through: Hopper box, Blackwell racks, Rubin (announced)
HISTORY = ("HGX-H100", "GB200-NVL72", "GB300-NVL72", "VR-NVL144", "Rubin-Ultra-NVL576")


#: chapter 1's cost per token with the step at its compute floor: 2·N_active·n_chips·p_chip / (3600·F)
compute_cost_expr = roofline.cost_from_step_expr.subs(T_step, roofline.t_compute_expr)


def compute_cost_per_token(hw, active_params, dtype: str = "fp8", dollars_per_chip_hour=2.0):
    """Dollars per token at the compute floor (every chip busy with matmuls), for `active_params`
    (arrays ok): what active parameters cost, whatever the scale-up domain. dtype: the compute format."""
    chip = hardware.resolve(hw)
    check_positive("active_params", active_params)
    check_positive("dollars_per_chip_hour", dollars_per_chip_hour)
    return numeric(compute_cost_expr)(N_act=active_params, n_chips=chip.n_chips, p_chip=dollars_per_chip_hour,
                                      F=chip.flops(dtype))


def scaleup_history(names=HISTORY, weight_dtype: str = "fp8", weight_fraction: float = 0.5) -> list[Domain]:
    """`domain_capacity` for each named scale-up domain, in order."""
    return [domain_capacity(n, weight_dtype, weight_fraction) for n in names]


# --- the per-expert reading of the balance batch ----------------------------------------------------
#: tokens one routed expert sees in a step of B tokens (each token picks k of n, uniformly on average)
tokens_per_expert_expr = B * k_act / n_exp
#: one expert's matmul time (2 FLOPs per multiply-add per token per parameter), s
expert_compute_expr = FLOPS_PER_MAC * tokens_per_expert_expr * (N_rt / n_exp) / F
#: one expert's weight-read time, s
expert_weights_expr = (N_rt / n_exp) * b_w / BW


@lru_cache(maxsize=None)
def expert_balance_batch_expr():
    """B at which one routed expert's matmuls take as long as reading its weights (solved once)."""
    (solution,) = sp.solve(sp.Eq(expert_compute_expr, expert_weights_expr), B)
    return solution


@lru_cache(maxsize=None)
def expert_balance_batch_ratio_expr():
    """The same in the lecture's ratio r = F·b_w/(2·BW): B*_expert = r · n / k."""
    (f_of_r,) = sp.solve(sp.Eq(r_hw, F * b_w / (FLOPS_PER_MAC * BW)), F)
    return sp.simplify(expert_balance_batch_expr().subs(F, f_of_r))


def tokens_per_expert(batch, experts_per_token, n_experts):
    """Tokens one routed expert sees on average in a step of `batch` tokens: B·k/n (arrays broadcast)."""
    check_nonnegative("batch", batch)
    check_at_least("experts_per_token", experts_per_token, 1)
    check_at_least("n_experts", n_experts, 1)
    return numeric(tokens_per_expert_expr)(B=batch, k_act=experts_per_token, n_exp=n_experts)


def expert_balance_batch_from_ratio(ratio, experts_per_token, n_experts):
    """Per-expert balance batch r · n / k (tokens per step): each routed expert sees r tokens.

    ratio: the lecture's dimensionless hardware ratio (≈300); 1 <= experts_per_token <= n_experts.
    Assumes no overlap between operations (see the module docstring).
    """
    check_positive("ratio", ratio)
    check_at_least("experts_per_token", experts_per_token, 1)
    check_at_least("n_experts", n_experts, 1)
    return numeric(expert_balance_batch_ratio_expr)(r=ratio, k_act=experts_per_token, n_exp=n_experts)


__all__ = ["ParamBudget", "param_budget", "expert_params_expr", "routed_params_expr", "shared_params_expr",
           "router_params_expr", "dense_mlp_params_expr", "attention_gqa_expr", "attention_mla_expr",
           "embedding_params_expr", "experts_touched_count_expr", "experts_touched", "Layout", "expert_layout",
           "dispatch_bytes_expr", "combine_bytes_expr", "step_bytes_per_chip_expr", "frac_in_rack_expr",
           "frac_out_of_rack_expr", "t_net_expr", "t_net_rho_expr", "slowdown_expr", "dispatch_bytes",
           "combine_bytes", "slowdown", "scale_bandwidths", "BOUNDS", "MoEStepTime", "step_time",
           "max_params_expr", "weight_floor_expr", "with_experts_per_token", "compute_cost_expr",
           "compute_cost_per_token", "Domain", "domain_capacity", "HISTORY", "scaleup_history",
           "tokens_per_expert_expr", "tokens_per_expert", "expert_compute_expr", "expert_weights_expr",
           "expert_balance_batch_expr", "expert_balance_batch_ratio_expr", "expert_balance_batch_from_ratio"]
