"""Problem bank for notebook 06 (6·N·D, the "terms equal" heuristic, equal cost across pre-training, RL
and inference, ~100x past Chinchilla; lecture chapter 5).

Every expected value is computed by lecture_lib when check() runs. The "given" numbers live in GIVEN,
so the worksheet prints exactly what the bank checks against.
"""
from __future__ import annotations

from types import SimpleNamespace

from .. import hardware, training, training_runs
from .. import notation as nt
from ..formula import numeric
from ..lecture import SAID
from ..units import DAY, HOUR
from .problems import Problem, Slip, register

#: the worksheet's numbers (SI units: tokens, parameters, seconds, tokens/s)
GIVEN = SimpleNamespace(
    frontier_active=SAID["frontier_active_params"], pretrain_tokens=SAID["pretrain_tokens"],
    dsv3_run="DeepSeek-V3",
    rl_flops=SAID["card_rl_flops"], inefficiency=SAID["card_inefficiency"],
    model_tok_s=SAID["model_tok_s"], world_tok_s=SAID["world_tok_s"], deployment_s=SAID["deployment_days"] * DAY,
    rumoured_tokens=SAID["rumoured_pretrain_tokens"], family=SAID["family_high"], keep=0.5,
    chip="B200", chip_dtype="fp8", utilisation=SAID["rl_efficiency"],
)


def _dsv3_mfu(dtype=None, params=None):
    r = training_runs.get(GIVEN.dsv3_run)
    peak = hardware.get(r.chip).flops(dtype or r.dtype)
    return training.mfu(params or r.params, r.tokens, r.chip_hours * HOUR, peak)


def _d_inf():
    return training.tokens_served(GIVEN.model_tok_s, GIVEN.deployment_s)


def _chips(**kw):
    args = dict(active_params=GIVEN.frontier_active, tokens_per_second=GIVEN.model_tok_s,
                peak_flops=hardware.get(GIVEN.chip).flops(GIVEN.chip_dtype), utilisation=GIVEN.utilisation)
    args.update(kw)
    return training.serving_chips(**args)


register(Problem(
    id="06.pretrain_flops", title="pre-training FLOPs of a frontier guess", unit="FLOP", points=1, rtol=0.01,
    expected=lambda: training.flops(GIVEN.frontier_active, GIVEN.pretrain_tokens),
    slips=[Slip(lambda: training.INFERENCE_FLOPS_PER_PARAM * GIVEN.frontier_active * GIVEN.pretrain_tokens,
                "That counts the forward pass only (2 FLOPs per parameter per token). Training also runs the "
                "backward pass: two more matmuls of the same size.")],
    hints=["C = 6·N·D with N the active parameters.", "6 = 2 (forward) + 4 (backward)."],
))

register(Problem(
    id="06.backward_expr", title="backward FLOPs of one weight matrix", kind="symbolic", points=2,
    expected=lambda: training.backward_input_flops_expr + training.backward_weight_flops_expr,
    symbols={"d_in": nt.d_in, "d_out": nt.d_out},
    slips=[Slip(lambda: training.backward_weight_flops_expr,
                "That is one of the two backward matmuls. The layer also needs the gradient for its INPUT, "
                "dL/dx = dL/dy·Wᵀ, to pass the error to the layer below."),
           Slip(lambda: training.forward_flops_expr / 2,
                "Count FLOPs, not multiply-adds: 2 FLOPs per multiply-add.")],
    hints=["Backward has two matmuls: dL/dx = dL/dy·Wᵀ and dL/dW = xᵀ·dL/dy.",
           "An (m×k)·(k×n) matmul is m·k·n multiply-adds = 2·m·k·n FLOPs."],
))

register(Problem(
    id="06.dsv3_mfu_pct", title="DeepSeek-V3's utilisation from its GPU-hours", unit="%", points=2, rtol=0.02,
    expected=lambda: 100 * _dsv3_mfu(),
    slips=[Slip(lambda: 100 * _dsv3_mfu("bf16"),
                "You divided by the BF16 peak. DeepSeek-V3 ran its matmuls in FP8; measure against the FP8 peak."),
           Slip(lambda: _dsv3_mfu(), "That looks like a fraction; the question asks for a percentage."),
           Slip(lambda: 100 * _dsv3_mfu(params=671e9),
                "You used TOTAL parameters. A token only multiplies the ACTIVE ones: 6·N_active·D.")],
    hints=["MFU = 6·N_active·D / (GPU-hours × 3600 × peak FLOP/s).",
           "The peak is the H800's dense FP8 rate, printed above the answer cell."],
))

register(Problem(
    id="06.heuristic_expr", title="the ratio of the terms at the minimum", kind="symbolic", points=2,
    expected=lambda: training.optimum_term_ratio_expr(),
    symbols={"p": nt.p_h, "q": nt.q_h, "p_h": nt.p_h, "q_h": nt.q_h},
    slips=[Slip(lambda: nt.p_h / nt.q_h, "Upside down: that is the rising term over the falling one."),
           Slip(lambda: 1, "That is the heuristic, exact only when p = q. Differentiate and see.")],
    hints=["Set d/dx (a·x^(-p) + b·x^q) = 0: p·a·x^(-p) = q·b·x^q.",
           "Divide both sides by p·b·x^q."],
))

register(Problem(
    id="06.heuristic_choice", title="a/x + b·x² at its minimum", kind="choice", points=1,
    choices={"a": "The falling term a/x is twice the rising term b·x².",
             "b": "The two terms are exactly equal, as for a/x + b·x.",
             "c": "The rising term b·x² is twice the falling term a/x.",
             "d": "The falling term is four times the rising term."},
    expected=lambda: "a" if numeric(training.optimum_term_ratio_expr)(p_h=1, q_h=2) == 2 else "?",
    hints=["At the minimum, (falling term) / (rising term) = q/p, with p = 1 and q = 2 here."],
))

register(Problem(
    id="06.rl_over_pretrain", title="RL tokens relative to pre-training at equal cost", unit="", points=2,
    rtol=0.01, expected=lambda: training.equal_cost_split(GIVEN.rl_flops, GIVEN.inefficiency, GIVEN.inefficiency).rl,
    slips=[Slip(lambda: numeric(training.rl_token_ratio_expr)(k_PT=6, k_RL=GIVEN.rl_flops, u_RL=1 / GIVEN.inefficiency,
                                                              s_PT=1, s_RL=1),
                "The direction is flipped: an inefficiency MULTIPLIES the cost per token, so it means FEWER "
                "tokens at a fixed budget, not more."),
           Slip(lambda: 1 / training.equal_cost_split(GIVEN.rl_flops, GIVEN.inefficiency, GIVEN.inefficiency).rl,
                "That is D_PT / D_RL; the question asks for D_RL / D_PT.")],
    hints=["Equal cost: 6·N·D_PT = k_RL·N·D_RL·u_RL. N cancels.", "D_RL / D_PT = 6 / (k_RL · u_RL)."],
))

register(Problem(
    id="06.blackboard_flip", title="the direction flip on the blackboard", kind="choice", points=1,
    choices={"a": "RL runs at low efficiency, so at equal cost it gets MORE tokens than pre-training.",
             "b": "An inefficiency multiplies the cost per token, so at equal cost RL gets FEWER tokens than "
                  "pre-training: D_PT = 1.5·D_RL with the flashcard's numbers.",
             "c": "Efficiency does not matter: equal cost always means equal tokens.",
             "d": "N_active does not cancel, so the ratio depends on the model's size."},
    expected=lambda: "b" if training.equal_cost_split().rl < 1 else "?",
    hints=["Write C_RL = k_RL·N·D_RL·u_RL with u >= 1 and hold C_RL fixed: what happens to D_RL as u grows?"],
))

register(Problem(
    id="06.inference_tokens", title="tokens one model serves in two months", unit="tokens", points=1, rtol=0.01,
    expected=_d_inf,
    slips=[Slip(lambda: training.tokens_served(GIVEN.world_tok_s, GIVEN.deployment_s),
                "That is the whole world's traffic. The question is about one model, at 50M tok/s.")],
    hints=["D_inf = tokens per second × seconds deployed.", "60 days = 60 × 86,400 s."],
))

register(Problem(
    id="06.rumour_overtraining", title="over-training of the rumoured 150T tokens", unit="×", points=1, rtol=0.01,
    expected=lambda: training.overtraining(GIVEN.frontier_active, GIVEN.rumoured_tokens),
    slips=[Slip(lambda: GIVEN.rumoured_tokens / GIVEN.frontier_active,
                "That is tokens per parameter. Divide by Chinchilla's 20 tokens per parameter too.")],
    hints=["Chinchilla-optimal D = 20 × N_active.", "Over-training = D / D_Chinchilla."],
))

register(Problem(
    id="06.derated_overtraining", title="derating: the model may be shelved", unit="×", points=2, rtol=0.01,
    expected=lambda: training.lifetime_overtraining(GIVEN.frontier_active, GIVEN.world_tok_s, GIVEN.deployment_s,
                                                    GIVEN.family, GIVEN.keep),
    slips=[Slip(lambda: training.lifetime_overtraining(GIVEN.frontier_active, GIVEN.world_tok_s, GIVEN.deployment_s,
                                                       GIVEN.family),
                "That is without the derating: half the expected deployment means half the inference tokens."),
           Slip(lambda: training.lifetime_overtraining(GIVEN.frontier_active, GIVEN.world_tok_s, GIVEN.deployment_s,
                                                       1, GIVEN.keep),
                "You gave one model the whole world's traffic; divide by the models in the family.")],
    hints=["D_inf = world tok/s × seconds × keep / family size; equal cost makes D_PT = D_inf.",
           "Then divide by 20 × N_active."],
))

register(Problem(
    id="06.b200_count", title="B200s to serve one frontier model", unit="chips", points=2, rtol=0.01,
    expected=_chips,
    slips=[Slip(lambda: _chips(utilisation=1), "That is the compute bound (100% utilisation); use the given 30%."),
           Slip(lambda: _chips(peak_flops=hardware.get(GIVEN.chip).flops("bf16")),
                "You used the BF16 peak; the question serves in FP8."),
           Slip(lambda: _chips(flops_per_token=training.TRAIN_FLOPS_PER_PARAM),
                "Serving is forward only: 2 FLOPs per active parameter per token, not 6.")],
    hints=["FLOP/s needed = 2 × N_active × tokens/s.",
           "One chip delivers peak × utilisation; the B200's dense FP8 peak is printed above the answer cell."],
))
