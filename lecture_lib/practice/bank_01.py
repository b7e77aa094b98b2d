"""Problem bank for notebook 01 (roofline and batching; lecture chapter 1, first half).

Every expected value is computed by lecture_lib when check() runs. The "given" numbers the problems
use live in GIVEN, so the notebook prints exactly what the bank checks against.

To write a bank for another notebook, copy this file's pattern into bank_NN.py: a GIVEN namespace,
then `register(Problem(id="NN.name", expected=lambda: ..., unit=..., rtol=..., hints=[...]))`.
"""
from __future__ import annotations

from types import SimpleNamespace

from .. import balance, hardware, lecture, models, prices, roofline
from .. import notation as nt
from ..units import FLOPS_PER_MAC, MS, dtype_bytes
from .problems import Problem, Slip, Vary, register, steps

#: the scenario of the worksheet (names are registry keys; sizes in tokens; price in $/chip-hour)
GIVEN = SimpleNamespace(
    hw="GB200-NVL72", model="DeepSeek-V3", batch=1024, context=100_000,      # 1,024 × 100K fits in HBM
    weight_dtype="fp8", kv_dtype="bf16", dollars_per_chip_hour=2.0,
    # the latency-floor problem: a dense model on an 8-GPU Hopper box
    floor_hw="HGX-H100", floor_model="Llama-3-70B", floor_dtype="bf16",
    # the spot-the-bug problem: a GQA model whose query heads outnumber its KV heads
    bug_model="Llama-3-70B", bug_dtype="bf16",
    # Part D: the cost floor at a realistic context against a list price (syllabus problem 6)
    realistic_context=4_000, list_price="deepseek-v3.2",
    toy_gpus=64, toy_tok_s=lecture.SAID["deployment_tok_s"],
    # Part D: drain times (syllabus problem 3); Rubin with the lecture's 20 TB/s
    drain_chips=("H100-SXM", "B200", "GB300"),
)


def _realistic():
    """(largest batch that fits at the realistic context, its step) on the worksheet's rack."""
    g = GIVEN
    b = roofline.max_batch(_hw(), _m(), g.realistic_context, g.weight_dtype, g.kv_dtype)
    return b, roofline.step_time(_hw(), _m(), b, g.realistic_context, g.weight_dtype, g.kv_dtype)


def _realistic_cost_mtok():
    g = GIVEN
    b, _ = _realistic()
    return roofline.cost_per_token(_hw(), _m(), b, g.realistic_context, g.weight_dtype, g.kv_dtype,
                                   dollars_per_chip_hour=g.dollars_per_chip_hour) * 1e6


def _toy_cost_mtok():
    """Syllabus problem 6: n GPUs at $/GPU-hour producing tok/s: $ per million tokens (T_step = 1 s)."""
    g = GIVEN
    per_token = roofline.cost_from_step_expr.subs({nt.T_step: 1, nt.B: g.toy_tok_s, nt.l_pass: 1,
                                                   nt.n_chips: g.toy_gpus, nt.p_chip: g.dollars_per_chip_hour})
    return float(per_token) * 1e6


def _hw():
    return hardware.get(GIVEN.hw)


def _m():
    return models.get(GIVEN.model)


def _step(batch=None, context=None):
    g = GIVEN
    return roofline.step_time(_hw(), _m(), batch=g.batch if batch is None else batch,
                              context=g.context if context is None else context,
                              weight_dtype=g.weight_dtype, kv_dtype=g.kv_dtype)


def _cost(batch, context, experts="touched"):
    g = GIVEN
    return roofline.cost_per_token(_hw(), _m(), batch=batch, context=context,
                                   weight_dtype=g.weight_dtype, kv_dtype=g.kv_dtype,
                                   dollars_per_chip_hour=g.dollars_per_chip_hour, experts=experts)


def buggy_kv_bytes_per_token(m, bytes_per_value=2):
    """The calculator of the spot-the-bug problem (deliberately wrong: query heads)."""
    return 2 * m.n_layers * m.n_heads * m.head_dim * bytes_per_value


TOTAL_NOT_ACTIVE = ("You used the total parameter count; compute touches only the ACTIVE parameters "
                    "(for an MoE, the routed experts a token actually uses).")
ACTIVE_NOT_TOTAL = ("You used the active parameter count; at this batch every expert is touched, so a "
                    "decode step reads ALL the weights (N_total) once, shared by the whole batch.")

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
    slips=[Slip(lambda: _cost(1, 0, experts="all") / _cost(roofline.balance_batch(
                    _hw(), _m(), GIVEN.weight_dtype, experts="all"), 0, experts="all"),
                "That is the lecture's all-weights reading (the ratio is B*). At batch 1 an MoE reads "
                "only the experts its one token is routed to: its ACTIVE weights, not all of them.")],
    hints=["At batch 1 the token pays alone for the weights it reads; at the balance batch the weight "
           "read is shared by B* sequences and equals the compute time.",
           "An MoE token at batch 1 reads its active weights only: N_active·b_w / BW.",
           "Divide the cost per token at batch 1 by the cost per token at the balance batch B* "
           "(both at context 0); B* = (F / BW) × (b_w / 2) × (N_total / N_active)."],
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
    hints=["B* = (F / BW) × (b_w / 2) × (N_total / N_active): the rack's dense FLOP/s and HBM "
           "bandwidth, b_w bytes per weight at the weights' dtype."],
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
             "b": "Every step must read the weights its batch uses from HBM (on a busy server, all "
                  "of them), which takes a fixed time however small the batch.",
             "c": "The KV cache of a single sequence does not fit in HBM.",
             "d": "Providers cap the speed to keep prices high."},
    expected=lambda: "b",
    hints=["Look at the latency-vs-batch picture: what is left when B goes to 1?"],
))


#: givens that differ per student under `assign --roster` (see lecture_lib.practice.variants)
VARIES = (
    # every (batch, context) pair fits in the rack's HBM beside the weights (tests/test_grade_variants.py)
    Vary("batch", steps(512, 1536, 128), "batch B (Part A), sequences"),
    Vary("context", steps(50_000, 100_000, 10_000), "context per sequence (Part A), tokens"),
    Vary("dollars_per_chip_hour", steps(1.5, 3.5, 0.25), "rent (problem 6), $ per GPU-hour"),
    Vary("floor_model", ("Llama-3-8B", "Llama-3-70B", "Qwen2.5-72B", "Llama-2-7B"),
         "dense model (problem 10)"),
    Vary("bug_model", ("Llama-3-8B", "Llama-3-70B", "Llama-3-405B", "Qwen2.5-72B", "Mixtral-8x7B",
                       "gpt-oss-120b"), "model of the spot-the-bug problems (12, 13)"),
)


# --- Part D: the chapter's numbers against the world ------------------------------------------------
register(Problem(
    id="01.realistic_cost_mtok", title="the cost floor at a realistic context", unit="$/Mtok", points=2,
    rtol=0.01, expected=_realistic_cost_mtok,
    slips=[Slip(lambda: _cost(roofline.balance_batch(_hw(), _m(), GIVEN.weight_dtype), 0) * 1e6,
                "That is the floor at context 0. At the realistic context the KV reads are past the "
                "balance context: the step is memory-bound, so run the largest batch that fits.")],
    hints=["Past the balance context every batch is memory-bound: the largest batch that fits in HBM "
           "is the cheapest. Sequences that fit: (HBM − weights) / (context × KV bytes per token).",
           "Then cost per token = step time × chips × $/GPU-hour / 3600 / batch."],
))

register(Problem(
    id="01.toy_cost_mtok", title="the syllabus's deployment: $ per million tokens", unit="$/Mtok",
    points=1, rtol=0.01, expected=_toy_cost_mtok,
    slips=[Slip(lambda: _toy_cost_mtok() * 3600, "Rent is per hour and throughput per second: divide "
                "the hourly rent by 3600 before dividing by tokens per second.")],
    hints=["$ per second for the GPUs ÷ tokens per second = $ per token."],
))

register(Problem(
    id="01.list_price_gap", title="list price over the realistic floor", unit="×", points=1, rtol=0.02,
    expected=lambda: prices.get(GIVEN.list_price).output / _realistic_cost_mtok(),
    hints=["Divide the list price per million output tokens by your answer to problem 14."],
))

for _chip in GIVEN.drain_chips:
    register(Problem(
        id=f"01.drain_{_chip.split('-')[0].lower()}_ms", title=f"drain time of a {_chip}", unit="ms",
        points=1, rtol=0.01, expected=lambda c=_chip: roofline.drain_time(c) / MS,
        slips=[Slip(lambda c=_chip: roofline.drain_time(c) / MS * 1.024 ** 3,
                    "You mixed GB and GiB: the capacity is in decimal GB here.")],
        hints=["Drain time = HBM capacity / HBM bandwidth: the time to read all of memory once."],
    ))

register(Problem(
    id="01.drain_rubin_ms", title="drain time of Rubin, with the lecture's 20 TB/s", unit="ms", points=1,
    rtol=0.01, expected=lambda: roofline.drain_time(balance.rubin_as_in_lecture()) / MS,
    hints=["Drain time = HBM capacity / HBM bandwidth."],
))

