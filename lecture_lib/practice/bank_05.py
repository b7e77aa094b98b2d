"""Problem bank for notebook 05 (the memory wall: memory per GPU with E and P, the decode loop's
micro-batches, hop latency, bandwidth not capacity, the longest context; lecture chapter 4).

Every expected value is computed by lecture_lib when check() runs. The "given" numbers live in GIVEN,
so the worksheet prints exactly what the bank checks against.
"""
from __future__ import annotations

from types import SimpleNamespace

from .. import hardware, memory, models, pipeline
from .. import notation as nt
from ..lecture import SAID
from ..units import GB, MS, fmt
from .problems import Problem, Slip, register

#: the worksheet's numbers (SI units: parameters, tokens, sequences, seconds, bytes/token)
GIVEN = SimpleNamespace(
    params=2e12, active=100e9, expert_parallel=SAID["expert_parallel"], stages=SAID["pipeline_stages"],
    micro_batch=SAID["dsv3_balance_batch"], context=100_000, step_s=SAID["hop_step_before_s"],
    hop_s=SAID["hop_s"], spread=SAID["hop_uncertainty"], one_t=SAID["model_1t_params"],
    box="HGX-H100", rack="GB200-NVL72", ceiling_chip="GB300", dsv3="DeepSeek-V3", old="H100-SXM", new="B200",
)


def _per_gpu_bw(name):
    """One GPU's HBM bandwidth in a system, as text (for hints)."""
    s = hardware.get(name)
    return fmt(s.hbm_bandwidth / s.n_chips, "B/s")


def _toy():
    return memory.lecture_model(GIVEN.params, GIVEN.active)


def _one_t():
    return models.Model(name="1T-parameter model", total_params=GIVEN.one_t, active_params=GIVEN.active,
                        n_layers=1, d_model=8192, n_heads=64, n_kv_heads=4, head_dim=128)


def _per_gpu(**kw):
    args = dict(model=_toy(), micro_batch=GIVEN.micro_batch, context=GIVEN.context,
                expert_parallel=GIVEN.expert_parallel, pipeline_stages=GIVEN.stages)
    args.update(kw)
    return memory.per_chip_bytes_micro(**args)


register(Problem(
    id="05.weights_per_gpu_gb", title="weights per GPU with E and P", unit="GB", points=1, rtol=0.01,
    expected=lambda: _per_gpu().weights / GB,
    slips=[Slip(lambda: _per_gpu(pipeline_stages=1).weights / GB,
                "That is one rack holding all the layers. With P stages each rack holds only 1/P of them."),
           Slip(lambda: _per_gpu(weight_dtype="bf16").weights / GB,
                "That is bf16 (2 bytes per parameter); the model is stored in fp8, 1 byte per parameter.")],
    hints=["Weights per GPU = N_total · b_w / (E · P).", "fp8 is 1 byte per parameter."],
))

register(Problem(
    id="05.kv_per_gpu_gb", title="KV per GPU in the decode loop", unit="GB", points=2, rtol=0.01,
    expected=lambda: _per_gpu().kv / GB,
    slips=[Slip(lambda: _per_gpu().kv / GB / GIVEN.stages,
                "You divided the micro-batch's KV by P as well. Remember the P micro-batches in flight: B = P·b "
                "sequences, spread over E·P GPUs."),
           Slip(lambda: _per_gpu().kv / GB * GIVEN.stages,
                "You counted the P micro-batches (B = P·b) but did not spread them over the P racks: each rack holds "
                "only its 1/P of the layers.")],
    hints=["KV per GPU = B · L_ctx · b_kv / (E · P) with B = P · b sequences in flight.",
           "The P cancels: b · L_ctx · b_kv / E."],
))

register(Problem(
    id="05.kv_term_expr", title="the KV term after B = P·b", kind="symbolic", points=2,
    expected=lambda: memory.kv_per_chip_micro_expr,
    symbols={"b": nt.b_mb, "b_mb": nt.b_mb, "L_ctx": nt.L_ctx, "b_kv": nt.b_kv, "E": nt.E, "P": nt.P, "B": nt.B},
    slips=[Slip(lambda: memory.kv_per_chip_expr,
                "That is the KV term before the substitution. Replace B by P·b and simplify."),
           Slip(lambda: nt.P * nt.b_mb * nt.L_ctx * nt.b_kv / nt.E,
                "The E·P in the denominator holds a P too: it cancels the P of B = P·b.")],
    hints=["Start from B·L_ctx·b_kv / (E·P).", "Substitute B = P·b: what is left of P?"],
))

def _idle(m):
    return pipeline.inference_idle_fraction(GIVEN.stages, m)


register(Problem(
    id="05.min_microbatches", title="micro-batches that keep every stage busy", kind="choice", points=1,
    choices={"a": "1: a single micro-batch streams through the stages without gaps.",
             "b": "P − 1: the last stage can start the next token itself.",
             "c": "P: one micro-batch per stage, so that each stage always has one to work on.",
             "d": "2·P: the loop needs double buffering."},
    expected=lambda: "c" if _idle(GIVEN.stages) == 0 and _idle(GIVEN.stages - 1) > 0 else "?",
    hints=["Draw the schedule with 4 stages: how many micro-batches until no row has a gap?"],
))


register(Problem(
    id="05.hop_high_ms", title="the step time at the top of the hop-latency range", unit="ms", points=1,
    rtol=0.01, expected=lambda: memory.hop_range(GIVEN.step_s, GIVEN.stages, GIVEN.hop_s, GIVEN.spread).high / MS,
    slips=[Slip(lambda: memory.hop_range(GIVEN.step_s, GIVEN.stages, GIVEN.hop_s, GIVEN.spread).said / MS,
                "That is the lecture's middle value. The question asks for the hop latency 10× higher."),
           Slip(lambda: memory.hop_step_time(GIVEN.step_s, GIVEN.stages - 1, GIVEN.hop_s * GIVEN.spread) / MS,
                "You counted P − 1 hops. The decode loop also returns from the last stage to the first: P hops "
                "per token.")],
    hints=["T = T_step + P · t_hop.", "The top of the range is t_hop × 10."],
))

register(Problem(
    id="05.weight_read_box_ms", title="reading 1 TB of weights on an 8-GPU Hopper box", unit="ms", points=1,
    rtol=0.01, expected=lambda: memory.weight_read_time(GIVEN.box, _one_t(), "fp8") / MS,
    slips=[Slip(lambda: memory.weight_read_time(GIVEN.box, _one_t(), "fp8", n_chips=1) / MS,
                f"That reads through one GPU's HBM. All {hardware.get(GIVEN.box).n_chips} GPUs of the box read their "
                "shares at the same time."),
           Slip(lambda: memory.weight_read_time(GIVEN.box, _one_t(), "bf16") / MS,
                "That is bf16; the weights are in fp8 (1 byte per parameter).")],
    hints=["t = N_total · b_w / (n · BW per GPU).",
           f"H100: {_per_gpu_bw(GIVEN.box)} of HBM bandwidth per GPU."],
))

register(Problem(
    id="05.pipelined_read_ms", title="the same weights pipelined over two boxes", unit="ms", points=2, rtol=0.01,
    expected=lambda: memory.weight_read_time(GIVEN.box, _one_t(), "fp8", pipeline_stages=2) / MS,
    slips=[Slip(lambda: memory.weight_read_time(GIVEN.box, _one_t(), "fp8") / MS / 2,
                "Each box reads half the weights, but the two boxes do not read at the same time: a token is in "
                "one stage, then the other."),
           Slip(lambda: memory.weight_read_time(GIVEN.box, _one_t(), "fp8") / MS * 2,
                "Each box reads only its half of the weights.")],
    hints=["t = P · (N/P) · b_w / (n · BW).", "What happens to P?"],
))

register(Problem(
    id="05.scaleup_speedup", title="the rack against the box: weight-read speed-up", unit="×", points=1, rtol=0.01,
    expected=lambda: memory.weight_read_time(GIVEN.box, _one_t()) / memory.weight_read_time(GIVEN.rack, _one_t()),
    slips=[Slip(lambda: hardware.get(GIVEN.rack).n_chips / hardware.get(GIVEN.box).n_chips,
                "That counts GPUs only. The Blackwell GPUs also have more HBM bandwidth each."),
           Slip(lambda: memory.weight_read_time(GIVEN.rack, _one_t()) / memory.weight_read_time(GIVEN.box, _one_t()),
                "Upside down: the rack is faster, so the ratio box ÷ rack is above 1.")],
    hints=["Ratio = (n_rack · BW_rack) / (n_box · BW_box).",
           f"{hardware.get(GIVEN.rack).n_chips} × {_per_gpu_bw(GIVEN.rack)} against "
           f"{hardware.get(GIVEN.box).n_chips} × {_per_gpu_bw(GIVEN.box)}."],
))

register(Problem(
    id="05.context_ceiling_tok", title="the longest context any P allows", unit="tokens", points=2, rtol=0.01,
    expected=lambda: memory.context_ceiling(GIVEN.ceiling_chip, GIVEN.dsv3, GIVEN.micro_batch, GIVEN.expert_parallel),
    slips=[Slip(lambda: memory.context_ceiling(GIVEN.ceiling_chip, GIVEN.dsv3, GIVEN.micro_batch, GIVEN.expert_parallel,
                                               kv_dtype="fp8"),
                f"That is an fp8 KV cache; the question keeps it in bf16 "
                f"({models.get(GIVEN.dsv3).kv_bytes_per_token('bf16'):,.0f} bytes per token)."),
           Slip(lambda: memory.context_ceiling(GIVEN.ceiling_chip, GIVEN.dsv3, GIVEN.micro_batch, 1),
                "You put all b sequences on one GPU. They are spread over the E GPUs of a stage.")],
    hints=["With the weights sharded away, C = b · L · b_kv / E: solve for L.",
           f"DeepSeek-V3's KV: {models.get(GIVEN.dsv3).n_layers} layers × ({models.get(GIVEN.dsv3).kv_lora_rank} + "
           f"{models.get(GIVEN.dsv3).qk_rope_dim}) numbers × 2 bytes."],
))

register(Problem(
    id="05.max_context_rack_tok", title="the longest context beside the weights on one rack", unit="tokens",
    points=2, rtol=0.01,
    expected=lambda: memory.max_context(GIVEN.rack, GIVEN.dsv3, GIVEN.micro_batch, "fp8", "bf16"),
    slips=[Slip(lambda: memory.context_ceiling(GIVEN.rack, GIVEN.dsv3, GIVEN.micro_batch),
                f"That leaves the weights out. Each GPU also holds 1/{hardware.get(GIVEN.rack).n_chips} of the "
                f"{fmt(models.get(GIVEN.dsv3).weight_bytes('fp8'), 'B')} of fp8 weights."),
           Slip(lambda: memory.max_context(GIVEN.rack, GIVEN.dsv3, GIVEN.micro_batch, "fp8", "bf16",
                                           expert_parallel=SAID["ep_used_gpus"]),
                f"The question spreads the model over all {hardware.get(GIVEN.rack).n_chips} GPUs of the rack "
                f"(E = {hardware.get(GIVEN.rack).n_chips}).")],
    hints=["Solve (N·b_w + B·L·b_kv) / E = C for L, with P = 1.",
           f"C = {fmt(hardware.get(GIVEN.rack).hbm_capacity / hardware.get(GIVEN.rack).n_chips, 'B')} per GB200 GPU; "
           f"N·b_w = {fmt(models.get(GIVEN.dsv3).weight_bytes('fp8'), 'B')}; "
           f"b_kv = {models.get(GIVEN.dsv3).kv_bytes_per_token('bf16'):,.0f} B/token."],
))

register(Problem(
    id="05.bw_growth", title="HBM bandwidth per GPU, Hopper to Blackwell", unit="×", points=1, rtol=0.01,
    expected=lambda: hardware.get(GIVEN.new).hbm_bandwidth / hardware.get(GIVEN.old).hbm_bandwidth,
    slips=[Slip(lambda: hardware.get(GIVEN.new).hbm_capacity / hardware.get(GIVEN.old).hbm_capacity,
                "That is the capacity ratio; the question asks about bandwidth.")],
    hints=["Divide the B200's HBM bandwidth by the H100's (both per GPU, printed above)."],
))

register(Problem(
    id="05.what_pipelining_removes", title="what pipelining removes", kind="choice", points=1,
    choices={"a": "The memory limit on context length: more racks, more room for KV caches.",
             "b": "The memory limit on model size, but not on context length.",
             "c": "The latency of reading the weights: each rack reads only 1/P of them.",
             "d": "Both the model-size and the context-length limits, at the cost of hop latency."},
    expected=lambda: "b" if (memory.P not in memory.context_ceiling_expr().free_symbols
                             and memory.P not in memory.t_weights_pipelined_expr.doit().free_symbols) else "?",
    hints=["Which of the two terms of c_mem still has a P after B = P·b?",
           "And does the weight-read time depend on P?"],
))
