"""Problem bank for notebook 04 (pipeline parallelism across racks; lecture chapter 3).

Every expected value is computed by lecture_lib when check() runs. The "given" numbers live in GIVEN,
so the worksheet prints exactly what the bank checks against.
"""
from __future__ import annotations

import math
from types import SimpleNamespace

import sympy as sp

from .. import hardware, pipeline
from .. import notation as nt
from ..lecture import SAID
from ..units import GB, dtype_bytes
from .problems import Problem, Slip, Vary, register

#: the worksheet's numbers
GIVEN = SimpleNamespace(
    # problems 1-2: syllabus §5 ch.3 problem 1, the lecture's bandwidth ratio
    k=8, layers=1, rho=SAID["scaleout_slower"], k_small=1,
    # problem 4: a real rack and a real model
    rack="GB200-NVL72", model="DeepSeek-V3",
    # problems 5-7: bubbles (syllabus §5 ch.3 problem 2)
    stages=4, microbatches=16, big_stages=8, target_pct=5,
    # problem 9: inference micro-batches in flight
    inf_stages=4, inf_microbatches=3,
    # problems 10-11: capacity (syllabus §5 ch.3 problem 4)
    params=SAID["model_1t_params"], dtype="fp8", capacity_rack="GB300-NVL72", racks=SAID["spread_racks"],
)

VARIES = (
    Vary("microbatches", (6, 8, 10, 12, 16, 20, 24, 32), "micro-batches (problem 5)"),
    Vary("big_stages", (4, 6, 8, 12, 16), "pipeline stages (problem 7)"),
    Vary("inf_stages", (4, 5, 8), "pipeline stages in inference (problem 9)"),
)

#: the symbols a symbolic answer may use
RHO, K, P_SYM, M_SYM = nt.rho_bw, nt.k_act, nt.P, nt.M_mb


def _rack_rho():
    return pipeline.bandwidth_ratio(GIVEN.rack)


def _weight_bytes():
    return GIVEN.params * dtype_bytes(GIVEN.dtype)


register(Problem(
    id="04.boundary_ratio", title="the rack-boundary ratio, k = 8, one layer per stage", unit="", points=1,
    rtol=0.01, expected=lambda: pipeline.boundary_ratio_k(GIVEN.k, GIVEN.layers, GIVEN.rho),
    slips=[Slip(lambda: pipeline.boundary_ratio_k(GIVEN.k, GIVEN.layers, GIVEN.rho) / 2,
                "You left out the ×2: every layer dispatches to the experts AND combines back."),
           Slip(lambda: 1 / pipeline.boundary_ratio_k(GIVEN.k, GIVEN.layers, GIVEN.rho),
                "That is scale-out over scale-up time; the question asks scale-up over scale-out."),
           Slip(lambda: 2 * GIVEN.k * GIVEN.layers,
                "You compared bytes, not times: the scale-out link is ρ times slower, so divide by ρ.")],
    hints=["Per token per stage: 2·k·d_model·b bytes over scale-up, d_model·b over scale-out.",
           "Divide each by its bandwidth; with W_up = ρ·W_out the ratio is (1/ρ)·k·L_stage·2."],
))

register(Problem(
    id="04.min_layers_k1", title="layers per stage needed with k = 1", unit="layers", points=1, rtol=0.01,
    expected=lambda: pipeline.min_layers_per_stage_k(GIVEN.k_small, GIVEN.rho),
    slips=[Slip(lambda: GIVEN.rho / GIVEN.k_small, "You left out the ×2 for dispatch and combine."),
           Slip(lambda: 2 * GIVEN.k_small / GIVEN.rho, "Upside down: solve (1/ρ)·k·L·2 = 1 for L.")],
    hints=["Set (1/ρ)·k·L_stage·2 = 1 and solve for L_stage."],
))

register(Problem(
    id="04.min_layers_expr", title="the layers per stage at which the boundary stops mattering", kind="symbolic",
    points=2, expected=pipeline.min_layers_expr,
    symbols={"rho_bw": RHO, "rho": RHO, "k_act": K, "k": K},
    slips=[Slip(lambda: 2 * K / RHO, "Upside down: more bandwidth ratio should need MORE layers per stage."),
           Slip(lambda: RHO / K, "You left out the ×2 for dispatch and combine.")],
    hints=["sp.solve(sp.Eq(2*k*L/rho, 1), L)", "Write it with rho_bw (or rho) and k_act (or k)."],
))

register(Problem(
    id="04.gb200_layers", title="whole MoE layers per rack on a GB200-NVL72 (DeepSeek-V3)", unit="layers",
    points=2, rtol=1e-6,
    expected=lambda: math.ceil(pipeline.min_layers_per_stage(GIVEN.model, _rack_rho()) - 1e-9),
    slips=[Slip(lambda: math.ceil(pipeline.min_layers_per_stage(GIVEN.model, GIVEN.rho) - 1e-9),
                "That is the lecture's round 8×. Take this rack's own scale-up and scale-out bandwidths."),
           Slip(lambda: math.ceil(pipeline.min_layers_per_stage(GIVEN.model, 2 * _rack_rho()) - 1e-9),
                "You used NVLink's bidirectional figure; the NIC's is one direction. Compare one direction each."),
           Slip(lambda: pipeline.min_layers_per_stage(GIVEN.model, _rack_rho()),
                "A stage holds whole layers: round up.")],
    hints=["The rack's bandwidth ratio: scale-up over scale-out bandwidth per GPU, both one direction.",
           "k is the model's routed experts per token (the shared expert sends nothing).",
           "L_stage >= ρ / (2k), rounded up to a whole layer."],
))

register(Problem(
    id="04.bubble_pct", title="GPipe bubble, P = 4", unit="%", points=1, rtol=0.01,
    expected=lambda: 100 * pipeline.bubble_fraction(GIVEN.stages, GIVEN.microbatches),
    slips=[Slip(lambda: 100 * (GIVEN.stages - 1) / GIVEN.microbatches,
                "That is idle time over BUSY time; the bubble fraction is idle over the whole step (M + P − 1)."),
           Slip(lambda: 100 * GIVEN.stages / (GIVEN.microbatches + GIVEN.stages),
                "Count the slots again: the first stage idles P − 1 slots, not P."),
           Slip(lambda: pipeline.bubble_fraction(GIVEN.stages, GIVEN.microbatches),
                "That looks like a fraction; the question asks for a percentage.")],
    hints=["The last micro-batch leaves the last stage M + P − 1 slots after the first entered stage 0.",
           "Each stage is busy M of those slots (in each direction)."],
))

register(Problem(
    id="04.bubble_expr", title="the bubble fraction from the picture", kind="symbolic", points=2,
    expected=lambda: pipeline.bubble_fraction_expr,
    symbols={"P": P_SYM, "M": M_SYM, "M_mb": M_SYM},
    slips=[Slip(lambda: (P_SYM - 1) / M_SYM,
                "That is idle over busy time (the 'bubble rate'); divide by the whole step instead."),
           Slip(lambda: (P_SYM - 1) / (M_SYM + P_SYM),
                "Off by one: the step is M + P − 1 slots long in each direction.")],
    hints=["makespan = (M + P − 1)·(t_F + t_B); busy = M·(t_F + t_B); bubble = 1 − busy/makespan.",
           "Write it with P and M."],
))

register(Problem(
    id="04.microbatches_5pct", title="micro-batches for a bubble of at most 5%", unit="micro-batches", points=2,
    rtol=1e-6,
    expected=lambda: math.ceil(float(sp.solve(sp.Eq(pipeline.bubble_fraction_expr, sp.Rational(GIVEN.target_pct, 100)),
                                              M_SYM)[0].subs(P_SYM, GIVEN.big_stages)) - 1e-9),
    slips=[Slip(lambda: math.ceil((GIVEN.big_stages - 1) * 100 / GIVEN.target_pct - 1e-9),
                "That uses (P − 1)/M; the bubble is (P − 1)/(M + P − 1).")],
    hints=["Solve (P − 1)/(M + P − 1) = 0.05 for M, then round up.",
           "M = (P − 1)·(1/0.05 − 1)."],
))

register(Problem(
    id="04.zero_bubble_choice", title="what the zero-bubble schedule exploits", kind="choice", points=1,
    choices={"a": "It overlaps the next batch's forwards with this batch's backwards, before the optimizer step.",
             "b": "It splits the backward into the input gradient, which the previous stage waits for, and the "
                  "weight gradient, which nobody waits for, and runs the latter in the gaps.",
             "c": "It runs the backward pass in lower precision so that it takes as long as the forward.",
             "d": "It gives each stage a copy of the whole model so no stage ever waits."},
    expected=lambda: "b",
    hints=["Which part of a stage's backward does the previous stage need to continue?",
           "Option (a) would use weights that are not updated yet: that is the hard stop."],
))

register(Problem(
    id="04.inference_idle_pct", title="pipelined inference with few micro-batches in flight", unit="%", points=1,
    rtol=0.01,
    expected=lambda: 100 * pipeline.inference_idle_fraction(GIVEN.inf_stages, GIVEN.inf_microbatches),
    slips=[Slip(lambda: 100 * pipeline.bubble_fraction(GIVEN.inf_stages, GIVEN.inf_microbatches),
                "That is the training bubble. Inference has no hard stop: each micro-batch re-enters stage 0 "
                "for its next token."),
           Slip(lambda: 100 * GIVEN.inf_microbatches / GIVEN.inf_stages,
                "That is the busy share; the question asks for the idle share.")],
    hints=["In steady state a micro-batch comes back to stage 0 every P slots.",
           "Each stage is busy M of every P slots when M < P."],
))

register(Problem(
    id="04.weight_fraction_pct", title="a 1T-parameter model's share of a GB300-NVL72", unit="%", points=1,
    rtol=0.01,
    expected=lambda: 100 * _weight_bytes() / hardware.get(GIVEN.capacity_rack).hbm_capacity,
    slips=[Slip(lambda: 200 * _weight_bytes() / hardware.get(GIVEN.capacity_rack).hbm_capacity,
                "That counts 2 bytes per parameter; fp8 is 1."),
           Slip(lambda: 100 * _weight_bytes() / hardware.get("GB200-NVL72").hbm_capacity,
                "That is the GB200 rack (186 GB per GPU); the question asks for GB300.")],
    hints=["Weights: parameters × bytes per parameter.", "The rack: 72 GPUs × HBM per GPU (hardware.get(...).hbm_capacity)."],
))

register(Problem(
    id="04.weights_per_gpu_gb", title="weights per GPU spread over 8 racks", unit="GB", points=1, rtol=0.01,
    expected=lambda: _weight_bytes() / (GIVEN.racks * hardware.get(GIVEN.capacity_rack).n_chips) / GB,
    slips=[Slip(lambda: _weight_bytes() / GIVEN.racks / GB, "That is per rack; divide among its GPUs too."),
           Slip(lambda: _weight_bytes() / hardware.get(GIVEN.capacity_rack).n_chips / GB,
                "That is one rack holding everything; spread over the racks.")],
    hints=["Each of P racks holds 1/P of the layers; each of its n GPUs holds 1/n of that.", "1 GB = 1e9 bytes."],
))

register(Problem(
    id="04.latency_choice", title="what pipelining buys in inference", kind="choice", points=1,
    choices={"a": "Lower latency per token: four racks work on it at once.",
             "b": "A larger batch at the same latency.",
             "c": "Nothing for latency or batch size (hop latency aside); each rack holds 1/P of the weights.",
             "d": "Less KV memory per GPU, in proportion to P."},
    expected=lambda: "c",
    hints=["A stage of 1/P of the layers takes 1/P of the time; a token passes all P stages.",
           "Flashcard 13: how many micro-batches must be in flight to keep P stages busy?"],
))

__all__ = ["GIVEN", "VARIES", "RHO", "K", "P_SYM", "M_SYM"]
