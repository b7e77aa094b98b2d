"""Problem bank for notebook 01 (roofline and batching; lecture chapter 1, first half).

Every expected value is computed by lecture_lib when check() runs. The "given" numbers the problems
use live in GIVEN, so the notebook prints exactly what the bank checks against.

To write a bank for another notebook, copy this file's pattern into bank_NN.py: a GIVEN namespace,
then `register(Problem(id="NN.name", expected=lambda: ..., unit=..., rtol=..., hints=[...]))`.
"""
from __future__ import annotations

from types import SimpleNamespace

from .. import hardware, models, roofline
from .. import notation as nt
from ..units import FLOPS_PER_MAC, MS, dtype_bytes
from .problems import Problem, Slip, register

#: the scenario of the worksheet (names are registry keys; sizes in tokens; price in $/chip-hour)
GIVEN = SimpleNamespace(
    hw="GB200-NVL72", model="DeepSeek-V3", batch=2048, context=100_000,
    weight_dtype="fp8", kv_dtype="bf16", dollars_per_chip_hour=2.0,
    # the latency-floor problem: a dense model on an 8-GPU Hopper box
    floor_hw="HGX-H100", floor_model="Llama-3-70B", floor_dtype="bf16",
    # the spot-the-bug problem: a GQA model whose query heads outnumber its KV heads
    bug_model="Llama-3-70B", bug_dtype="bf16",
)


def _hw():
    return hardware.get(GIVEN.hw)


def _m():
    return models.get(GIVEN.model)


def _step(batch=None, context=None):
    g = GIVEN
    return roofline.step_time(_hw(), _m(), batch=g.batch if batch is None else batch,
                              context=g.context if context is None else context,
                              weight_dtype=g.weight_dtype, kv_dtype=g.kv_dtype)


def _cost(batch, context):
    g = GIVEN
    return roofline.cost_per_token(_hw(), _m(), batch=batch, context=context,
                                   weight_dtype=g.weight_dtype, kv_dtype=g.kv_dtype,
                                   dollars_per_chip_hour=g.dollars_per_chip_hour)


def buggy_kv_bytes_per_token(m, bytes_per_value=2):
    """The calculator of the spot-the-bug problem (deliberately wrong: query heads)."""
    return 2 * m.n_layers * m.n_heads * m.head_dim * bytes_per_value


TOTAL_NOT_ACTIVE = ("You used the total parameter count; compute touches only the ACTIVE parameters "
                    "(for an MoE, the routed experts a token actually uses).")
ACTIVE_NOT_TOTAL = ("You used the active parameter count; a decode step reads ALL the weights "
                    "(N_total) once, shared by the whole batch.")

register(Problem(
    id="01.t_compute_ms", title="compute time of one decode step", unit="ms", points=1, rtol=0.01,
    expected=lambda: _step().compute / MS,
    slips=[Slip(lambda: FLOPS_PER_MAC * GIVEN.batch * _m().total_params / _hw().flops(GIVEN.weight_dtype) / MS,
                TOTAL_NOT_ACTIVE)],
    hints=["t_compute = 2·B·N_active / F: each new token does one multiply-add (2 FLOPs) per active "
           "weight.", "F is the rack's dense FLOP/s at the weights' dtype: hw.flops(weight_dtype)."],
))

register(Problem(
    id="01.weight_fetch_ms", title="time to read the weights once", unit="ms", points=1, rtol=0.01,
    expected=lambda: _step().weights / MS,
    slips=[Slip(lambda: _m().active_params * dtype_bytes(GIVEN.weight_dtype) / _hw().hbm_bandwidth / MS,
                ACTIVE_NOT_TOTAL)],
    hints=["t_weights = N_total × bytes per parameter / HBM bandwidth.",
           "fp8 is 1 byte per parameter; the rack's bandwidth is hw.hbm_bandwidth (bytes/s)."],
))

register(Problem(
    id="01.kv_fetch_ms", title="time to read the batch's KV caches", unit="ms", points=1, rtol=0.01,
    expected=lambda: _step().kv / MS,
    slips=[Slip(lambda: _step().kv / GIVEN.batch / MS,
                "That is the KV read of ONE sequence; every sequence in the batch reads its own cache.")],
    hints=["t_kv = B × context × KV bytes per token / HBM bandwidth.",
           "KV bytes per token come from the model: m.kv_bytes_per_token(kv_dtype)."],
))

_BOUND_CHOICES = {"a": "compute (the FLOPs)", "b": "reading the weights",
                  "c": "reading the KV caches", "d": "none: all three take the same time"}


def _bound_letter():
    r = _step()
    if r.bound == "compute":
        return "a"
    return "b" if r.weights >= r.kv else "c"


register(Problem(
    id="01.bound_choice", title="which term sets the step time", kind="choice", points=1,
    choices=_BOUND_CHOICES, expected=_bound_letter,
    hints=["Compare your three times: the step takes max(t_compute, t_weights + t_kv)."],
))

register(Problem(
    id="01.step_time_ms", title="roofline step time", unit="ms", points=1, rtol=0.01,
    expected=lambda: _step().total / MS,
    slips=[Slip(lambda: (_step().compute + _step().memory) / MS,
                "You added compute and memory time. They overlap: the step takes the larger of the "
                "two, max(t_compute, t_mem)."),
           Slip(lambda: _step().weights / MS,
                "That is only the weight read; the memory time also includes the KV reads.")],
    hints=["T = max(t_compute, t_weights + t_kv)."],
))

register(Problem(
    id="01.cost_per_mtok", title="cost per million generated tokens", unit="$/Mtok", points=2,
    rtol=0.01, expected=lambda: _cost(GIVEN.batch, GIVEN.context) * 1e6,
    slips=[Slip(lambda: _cost(GIVEN.batch, GIVEN.context) * 1e6 / _hw().n_chips,
                "You priced one GPU; the step occupies the whole rack (hw.n_chips GPUs) for its "
                "duration.")],
    hints=["One step costs step time × chips × $/chip-hour / 3600 and produces B tokens.",
           "Per million tokens: multiply the cost per token by 10^6."],
))

register(Problem(
    id="01.no_batching_ratio", title="how much worse without batching", unit="×", points=2,
    rtol=0.02,
    expected=lambda: _cost(1, 0) / _cost(roofline.balance_batch(_hw(), _m(), GIVEN.weight_dtype), 0),
    hints=["At batch 1 a token pays for the whole weight read alone; at the balance batch the read is "
           "shared by B* sequences and equals the compute time.",
           "Use roofline.cost_per_token at batch=1 and at batch=roofline.balance_batch(...), context 0."],
))

register(Problem(
    id="01.balance_batch_expr", title="derive the balance batch", kind="symbolic", points=3,
    expected=lambda: roofline.balance_batch_expr(),
    symbols={s.name: s for s in (nt.B, nt.F, nt.BW, nt.N_act, nt.N_tot, nt.b_w)},
    slips=[Slip(lambda: roofline.balance_batch_expr().subs(nt.N_tot, nt.N_act),
                ACTIVE_NOT_TOTAL)],
    hints=["Set t_compute (with l_pass = 1) equal to t_weights and solve for B: "
           "sympy.solve(sympy.Eq(lhs, rhs), B)[0].",
           "t_compute = 2·B·N_act/F; t_weights = N_tot·b_w/BW."],
))

register(Problem(
    id="01.balance_batch", title="balance batch of the worksheet's deployment", unit="sequences",
    points=1, rtol=0.01,
    expected=lambda: roofline.balance_batch(_hw(), _m(), weight_dtype=GIVEN.weight_dtype),
    slips=[Slip(lambda: roofline.lecture_ratio(_hw(), GIVEN.weight_dtype) * 256 / 32,
                "That is the lecture's slip: DeepSeek-V3 routes each token to 8 of 256 experts (plus "
                "a shared one), not 32; use the parameter counts, total / active."),
           Slip(lambda: roofline.lecture_ratio(_hw(), GIVEN.weight_dtype) * 256 / 8,
                "You used the expert ratio 256/8; the weight read is set by parameters (bytes), so "
                "use total / active parameters.")],
    hints=["B* = (F / BW) × (b_w / 2) × (N_total / N_active), or call roofline.balance_batch."],
))

register(Problem(
    id="01.latency_floor_ms", title="latency floor of a dense model", unit="ms", points=1,
    rtol=0.01,
    expected=lambda: roofline.step_time(GIVEN.floor_hw, GIVEN.floor_model, batch=1, context=0,
                                        weight_dtype=GIVEN.floor_dtype).weights / MS,
    slips=[Slip(lambda: models.get(GIVEN.floor_model).weight_bytes(GIVEN.floor_dtype)
                / hardware.get(GIVEN.floor_hw).chip.hbm_bandwidth / MS,
                "You used one GPU's bandwidth; the 8 GPUs each read their share of the weights in "
                "parallel, so use the system's aggregate bandwidth.")],
    hints=["As the batch shrinks, the step time falls to the time of reading every weight once.",
           "floor = weights in bytes / aggregate HBM bandwidth."],
))

register(Problem(
    id="01.kv_bug_factor", title="spot the bug: how far off is the calculator", unit="×", points=1,
    rtol=0.01,
    expected=lambda: (buggy_kv_bytes_per_token(models.get(GIVEN.bug_model))
                      / models.get(GIVEN.bug_model).kv_bytes_per_token("bf16")),
    hints=["The cache stores K and V for the KEY/VALUE heads only; query heads belong to the new "
           "token.", "Compare m.n_heads with m.n_kv_heads."],
))

register(Problem(
    id="01.kv_fixed_kB", title="spot the bug: the corrected KV bytes per token", unit="kB",
    points=2, rtol=0.01,
    expected=lambda: models.get(GIVEN.bug_model).kv_bytes_per_token(GIVEN.bug_dtype) / 1e3,
    slips=[Slip(lambda: buggy_kv_bytes_per_token(models.get(GIVEN.bug_model)) / 1e3,
                "That is the buggy calculator's number: it still uses the query heads.")],
    hints=["2 (K and V) × layers × KV heads × head_dim × bytes per value.",
           "kB here means 1000 bytes."],
))

register(Problem(
    id="01.fast_mode_choice", title="why money cannot buy unlimited speed", kind="choice", points=1,
    choices={"a": "The GPUs' FLOP/s are too low for a single sequence.",
             "b": "Every step must read all the weights from HBM, which takes a fixed time however "
                  "small the batch.",
             "c": "The KV cache of a single sequence does not fit in HBM.",
             "d": "Providers cap the speed to keep prices high."},
    expected=lambda: "b",
    hints=["Look at the latency-vs-batch picture: what is left when B goes to 1?"],
))
