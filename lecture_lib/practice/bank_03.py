"""Problem bank for notebook 03 (MoE layout on racks: the layer's parameters, expert parallelism, the
all-to-all, scale-up against scale-out, scale-up history; lecture chapter 2).

Every expected value is computed by lecture_lib when check() runs. The "given" numbers live in GIVEN,
so the worksheet prints exactly what the bank checks against.
"""
from __future__ import annotations

from types import SimpleNamespace

from .. import hardware, models, moe, pipeline, roofline
from .. import notation as nt
from ..lecture import SAID
from ..units import MS, fmt
from .problems import Problem, Slip, Vary, register

#: the worksheet's numbers (names are registry keys)
GIVEN = SimpleNamespace(
    model="DeepSeek-V3", rack="GB200-NVL72",
    dispatch_dtype="fp8", combine_dtype="bf16",          # DeepSeek-V3's own choice
    racks=4,                                              # problem 6: how much leaves the rack
    rho=SAID["scaleout_slower"], two=2,                   # problem 7: the lecture's two racks at 8x
    ratio_system="GB300-NVL72",                           # problem 8: NVLink 5 against an 800 Gb/s NIC
    capacity_system="GB300-NVL72", weight_dtype="fp8", weight_fraction=0.5,   # problem 9
    floor_system="HGX-H100", floor_params=0.6e12,         # problem 10: syllabus ch.2 problem 5
    bind_batch_per_rack=4096,                             # problem 11
)

VARIES = (Vary("racks", (3, 4, 5, 6, 8), "racks R the expert layer spans (problem 6)"),
          Vary("floor_params", (0.4e12, 0.5e12, 0.6e12, 0.7e12), "model size in parameters (problem 10)"))


def _m():
    return models.get(GIVEN.model)


def _sys(name):
    return hardware.get(name)


def _nic_gbit(name):
    """A GPU's share of the scale-out NIC, one direction, in Gb/s (how the question states it)."""
    return hardware.get(name).scaleout_bandwidth * 8 / 1e9


def _rack():
    return hardware.get(GIVEN.rack)


register(Problem(
    id="03.experts_per_gpu", title="experts per GPU on a Blackwell rack", unit="experts", points=1, rtol=0.001,
    expected=lambda: moe.expert_layout(_m().n_experts, _rack().n_chips).per_chip,
    slips=[Slip(lambda: _m().n_experts / _rack().n_chips,
                "That spreads the experts over all 72 GPUs, which does not give a whole number per GPU. "
                "Use the largest number of GPUs that divides the experts evenly.")],
    hints=["256 experts; a GB200 NVL72 rack has 72 GPUs. Which divisor of 256 is the largest at most 72?"],
))

register(Problem(
    id="03.expert_params", title="parameters of one DeepSeek-V3 expert", unit="parameters", points=1, rtol=0.001,
    expected=lambda: moe.param_budget(_m()).routed_experts / (_m().n_moe_layers * _m().n_experts),
    slips=[Slip(lambda: 2 * _m().d_model * _m().d_ff_expert,
                "Two matrices is a plain MLP. DeepSeek's experts are SwiGLU: gate, up AND down projections.")],
    hints=["An expert is an MLP d_model → d_ff_expert → d_model with a gated nonlinearity (SwiGLU).",
           "m.d_model and m.d_ff_expert; count three matrices."],
))

register(Problem(
    # rtol below the smallest slip (the output head, ~0.14 % of the total), so that slip is never graded right
    id="03.total_params", title="DeepSeek-V3's total from its config", unit="parameters", points=2, rtol=0.001,
    expected=lambda: moe.param_budget(_m()).total,
    slips=[Slip(lambda: moe.param_budget(_m()).total - moe.param_budget(_m()).output_head,
                "You left out one of the two vocabulary matrices: the embedding and the output head are untied."),
           Slip(lambda: moe.param_budget(_m()).total - moe.param_budget(_m()).shared_experts,
                "Add the shared expert of every MoE layer."),
           Slip(lambda: moe.param_budget(_m()).total - moe.param_budget(_m()).dense_mlp,
                f"Add the dense MLPs of the first {_m().n_dense_layers} layers (width d_ff = {_m().d_ff:,}).")],
    hints=[f"Embedding + output head (V·d_model each), attention ({_m().n_layers} MLA layers), "
           f"{_m().n_dense_layers} dense MLPs, and per MoE layer: {_m().n_experts} routed + "
           f"{_m().n_shared_experts} shared expert and a router.",
           "moe.attention_mla_expr gives one MLA layer's projections; an expert is 3·d_model·d_ff_expert."],
))

register(Problem(
    id="03.bytes_per_token", title="all-to-all bytes of one token in one MoE layer", unit="bytes", points=1,
    rtol=0.001,
    expected=lambda: (moe.dispatch_bytes(_m(), 1, GIVEN.dispatch_dtype)
                      + moe.combine_bytes(_m(), 1, GIVEN.combine_dtype)),
    slips=[Slip(lambda: moe.dispatch_bytes(_m(), 1, GIVEN.dispatch_dtype),
                "That is the dispatch only; the results come back (combine) too."),
           Slip(lambda: _m().d_model * 3, "Each token goes to k experts: k copies of its vector, each way.")],
    hints=["Dispatch: k copies of the d_model vector at 1 byte (fp8); combine: the same at 2 bytes (bf16)."],
))

register(Problem(
    id="03.step_bytes_expr", title="bytes one GPU sends in a step (SymPy)", kind="symbolic", points=2,
    expected=lambda: moe.step_bytes_per_chip_expr.subs(nt.l_pass, 1),
    symbols={s.name: s for s in (nt.B, nt.k_act, nt.d_model, nt.b_disp, nt.b_comb, nt.L_moe, nt.n_chips, nt.R_rk)},
    slips=[Slip(lambda: nt.B * nt.k_act * nt.d_model * (nt.b_disp + nt.b_comb) * nt.L_moe,
                "That is the whole deployment's traffic; each of the n_chips·R GPUs sends its share.")],
    hints=["Per token per MoE layer: k·d_model·(b_disp + b_comb). B tokens, L_moe layers, n_chips·R GPUs."],
))

register(Problem(
    id="03.leave_fraction", title="traffic that leaves the rack", unit="", points=1, rtol=0.001,
    expected=lambda: float(moe.frac_out_of_rack_expr.subs(nt.R_rk, GIVEN.racks)),
    slips=[Slip(lambda: 1 / GIVEN.racks, "That is the share that STAYS in the rack.")],
    hints=["Uniform routing: a token's expert is in any of the R racks with equal probability."],
))

register(Problem(
    id="03.two_rack_slowdown", title="the lecture's two racks", unit="×", points=1, rtol=0.01,
    expected=lambda: moe.slowdown(GIVEN.two, GIVEN.rho),
    slips=[Slip(lambda: GIVEN.rho, "Only half of the traffic leaves the rack: the slow link carries half.")],
    hints=["All-to-all time ∝ max(share in rack / W_up, share out / W_out); compare with one rack (share 1 in)."],
))

register(Problem(
    id="03.bandwidth_ratio", title="NVLink 5 against an 800 Gb/s NIC", unit="×", points=1, rtol=0.01,
    expected=lambda: pipeline.bandwidth_ratio(GIVEN.ratio_system),
    slips=[Slip(lambda: 2 * pipeline.bandwidth_ratio(GIVEN.ratio_system),
                f"NVLink's {fmt(2 * _sys(GIVEN.ratio_system).scaleup_bandwidth, 'B/s')} is both directions "
                "together; the NIC figure is one direction."),
           Slip(lambda: pipeline.bandwidth_ratio(GIVEN.ratio_system) / 8,
                f"The NIC is {_nic_gbit(GIVEN.ratio_system):g} gigaBITS per second: divide by 8 for bytes.")],
    hints=[f"Per GPU, one direction: NVLink 5 is {fmt(_sys(GIVEN.ratio_system).scaleup_bandwidth, 'B/s')}; "
           f"a ConnectX-8 is {_nic_gbit(GIVEN.ratio_system):g} Gb/s."],
))

register(Problem(
    id="03.max_params", title="the largest model a GB300 rack holds", unit="parameters", points=1, rtol=0.01,
    expected=lambda: moe.domain_capacity(GIVEN.capacity_system, GIVEN.weight_dtype, GIVEN.weight_fraction).max_params,
    slips=[Slip(lambda: moe.domain_capacity(GIVEN.capacity_system, GIVEN.weight_dtype, 1.0).max_params,
                "Half the HBM is kept for the KV caches.")],
    hints=[f"{_sys(GIVEN.capacity_system).n_chips} GPUs × "
           f"{fmt(_sys(GIVEN.capacity_system).hbm_capacity / _sys(GIVEN.capacity_system).n_chips, 'B')}; "
           "half for weights; fp8 is one byte per parameter."],
))

register(Problem(
    id="03.weight_floor", title="the latency floor of a model on a Hopper box", unit="ms", points=1, rtol=0.01,
    expected=lambda: roofline.step_time(GIVEN.floor_system, models.Model("given", GIVEN.floor_params, GIVEN.floor_params,
                                        1, 1, 1, 1, 1), 1, weight_dtype=GIVEN.weight_dtype,
                                        compute_dtype="bf16").weights / MS,
    hints=["Every weight is read once per decode step: bytes / aggregate HBM bandwidth.",
           f"{_sys(GIVEN.floor_system).n_chips} × "
           f"{fmt(_sys(GIVEN.floor_system).hbm_bandwidth / _sys(GIVEN.floor_system).n_chips, 'B/s')}; "
           "fp8 = 1 byte per parameter."],
))

register(Problem(
    id="03.which_binds", title="what binds over two racks", kind="choice", points=1,
    choices={"a": "compute: the matmuls grow with the batch",
             "b": "memory: the weights must be read every step",
             "c": "the network: about half the all-to-all traffic crosses the NICs",
             "d": "nothing changes: two racks just double everything"},
    expected=lambda: {"compute": "a", "memory": "b", "network": "c"}[
        moe.step_time(GIVEN.rack, GIVEN.model, GIVEN.bind_batch_per_rack * 2, racks=2, weight_dtype=GIVEN.weight_dtype,
                      dispatch_dtype=GIVEN.dispatch_dtype, combine_dtype=GIVEN.combine_dtype).bound],
    hints=["Work out the three times of the step (compute, memory, network) and compare them, or compare "
           "the slowdown ρ/2 with the one-rack network/compute ratio."],
))

register(Problem(
    id="03.law", title="the chapter's law", kind="choice", points=1,
    choices={"a": "Total parameters are limited by compute cost; active parameters by scale-up size.",
             "b": "Active parameters are limited by compute cost; total parameters by scale-up size.",
             "c": "Both are limited by HBM bandwidth only.",
             "d": "Both are limited by the scale-out network."},
    expected=lambda: "b" if {nt.N_act} <= moe.compute_cost_expr.free_symbols
    and nt.C_hbm in moe.max_params_expr.free_symbols else "a",
    hints=["Which parameters does a token's compute pay for? Which must all sit in one scale-up domain?"],
))
