"""Problem bank for notebook 02 (the balance batch, the 20 ms train, drain time, fast mode, sparsity;
lecture chapter 1, second half).

Every expected value is computed by lecture_lib when check() runs. The "given" numbers live in GIVEN,
so the worksheet prints exactly what the bank checks against.
"""
from __future__ import annotations

from types import SimpleNamespace

from .. import balance, fastmode, models, moe, queueing, roofline, traffic
from ..lecture import SAID
from .. import notation as nt
from ..units import MS
from .problems import Problem, Slip, Vary, register, steps

#: the worksheet's numbers (names are registry keys; times in seconds; sizes in tokens)
GIVEN = SimpleNamespace(
    # problem 1: the lecture's ratio and a made-up MoE
    ratio=SAID["ratio"], total_params=1e12, active_params=50e9,
    # problems 2-3: DeepSeek-V3 and the lecture's "32 of 256"
    dsv3="DeepSeek-V3", lecture_active_experts=SAID["dsv3_active_experts"],
    lecture_total_params=SAID["dsv3_total_params"],
    # problem 5: the context wall
    wall_hw="GB200-NVL72", wall_model="Llama-3-70B", wall_weight_dtype="fp8", wall_kv_dtype="bf16",
    # problem 6: drain time
    drain_hw="GB300",
    # problem 7: the train schedule
    period_s=0.025,
    # problem 8: the simulation
    sim_period_s=0.020, sim_arrival_rate=3_100, sim_capacity=64, sim_requests=20_000, sim_seed=0,
    # problem 9: one deployment against Google
    batch=SAID["batch"], step_s=SAID["step_s"], volume="google-2025-10",
    # problem 10: the fast-mode toy of the syllabus (problem 8 there)
    fast_multiple=SAID["fast_price"],
    # problem 12: the per-expert balance batch; problem 13: where 2.5x becomes possible
    fast_target=SAID["fast_speed"], fast_hw="GB200-NVL72", fast_model="DeepSeek-V3", fast_weight_dtype="fp8",
)


def _dsv3():
    return models.get(GIVEN.dsv3)


def _dsv3_batch(total_over_active):
    return balance.balance_batch_from_ratio(GIVEN.ratio, total_over_active)


def _sim():
    g = GIVEN
    return queueing.simulate_trains(g.sim_period_s, g.sim_arrival_rate, capacity=g.sim_capacity,
                                   n_requests=g.sim_requests, seed=g.sim_seed)


def _deployment_tok_s():
    return balance.throughput(GIVEN.batch, GIVEN.step_s)


register(Problem(
    id="02.balance_batch_moe", title="balance batch of a 1T / 50B MoE", unit="sequences", points=1,
    rtol=0.01, expected=lambda: balance.balance_batch_from_ratio(GIVEN.ratio, GIVEN.total_params / GIVEN.active_params),
    slips=[Slip(lambda: GIVEN.ratio * GIVEN.active_params / GIVEN.total_params,
                "You multiplied by active / total. The weight read grows with TOTAL parameters and the "
                "compute with ACTIVE ones, so B* = ratio × total / active.")],
    hints=["B* = (hardware ratio) × (N_total / N_active) = ratio / sparsity, with sparsity = N_active / N_total.",
           "The lecture's hardware ratio is the dimensionless 300."],
))

register(Problem(
    id="02.dsv3_balance_batch", title="DeepSeek-V3's balance batch, corrected", unit="sequences",
    points=2, rtol=0.01,
    expected=lambda: _dsv3_batch(_dsv3().total_params / _dsv3().active_params),
    slips=[Slip(lambda: _dsv3_batch(_dsv3().n_experts / GIVEN.lecture_active_experts),
                "That is the lecture's figure, built on '32 of 256 experts'. Check DeepSeek-V3's config: "
                "how many routed experts does a token use?"),
           Slip(lambda: _dsv3_batch(_dsv3().n_experts / _dsv3().experts_per_token),
                "You used the expert ratio 256 / 8. The weight term counts BYTES read: use total / active "
                "PARAMETERS, which include the attention and shared weights every token uses."),
           Slip(lambda: _dsv3_batch(GIVEN.lecture_total_params / _dsv3().active_params),
                "You used the lecture's 'about 700B'; the model card says m.total_params.")],
    hints=["B* = 300 × N_total / N_active (= 300 / sparsity), with the parameter counts from models.get('DeepSeek-V3').",
           "N_total / N_active is about 18 for DeepSeek-V3."],
))

register(Problem(
    id="02.dsv3_slip", title="spot the slip in the lecture's DeepSeek figure", kind="choice", points=1,
    choices={"a": "DeepSeek-V3 routes each token to 8 of 256 experts (plus a shared one), and the weight term "
                  "needs total ÷ active parameters (≈18), so B* is over twice the lecture's 2,400.",
             "b": "The hardware ratio of 300 is wrong for Blackwell, so 2,400 should be about 4,800.",
             "c": "Sparsity should multiply the ratio the other way: B* = 300 × 32 / 256 ≈ 38.",
             "d": "Nothing: with 32 of 256 experts active, 300 × 8 = 2,400 is right."},
    expected=lambda: "a",
    hints=["Look up m.experts_per_token and m.total_params / m.active_params for DeepSeek-V3."],
))

register(Problem(
    id="02.balance_kv_expr", title="derive the balance batch with the KV reads", kind="symbolic",
    points=3, expected=lambda: roofline.balance_batch_expr(with_kv=True),
    symbols={s.name: s for s in (nt.B, nt.F, nt.BW, nt.N_act, nt.N_tot, nt.b_w, nt.L_ctx, nt.b_kv)},
    slips=[Slip(lambda: roofline.balance_batch_expr(with_kv=False),
                "That is the balance batch WITHOUT the KV reads; add t_kv = B·L_ctx·b_kv/BW to the memory side.")],
    hints=["Solve 2·B·N_act/F = N_tot·b_w/BW + B·L_ctx·b_kv/BW for B.",
           "sympy.solve(sympy.Eq(lhs, rhs), B)[0]"],
))

register(Problem(
    id="02.wall_tokens", title="the context past which no batch balances", unit="tokens", points=2,
    rtol=0.01,
    expected=lambda: roofline.balance_context(GIVEN.wall_hw, GIVEN.wall_model, GIVEN.wall_weight_dtype,
                                              GIVEN.wall_kv_dtype),
    hints=["No batch balances once one sequence's KV read takes as long as its compute: "
           "L·b_kv/BW = 2·N_act/F.",
           "F is the rack's dense rate at the weights' dtype; b_kv = m.kv_bytes_per_token(kv dtype)."],
))

register(Problem(
    id="02.drain_ms", title="drain time of a GB300", unit="ms", points=1, rtol=0.01,
    expected=lambda: roofline.drain_time(GIVEN.drain_hw) / MS,
    hints=["Drain time = HBM capacity / HBM bandwidth."],
))

register(Problem(
    id="02.train_mean_ms", title="mean latency of the train schedule", unit="ms", points=1, rtol=0.01,
    expected=lambda: queueing.train_latency(GIVEN.period_s)[0] / MS,
    slips=[Slip(lambda: queueing.train_latency(GIVEN.period_s)[1] / MS,
                "That is the WORST case (just missed a train). The question asks for the mean."),
           Slip(lambda: GIVEN.period_s / 2 / MS,
                "That is only the mean WAIT; the request then rides one full step.")],
    hints=["The wait is uniform between 0 and T; then the step itself takes T."],
))

register(Problem(
    id="02.train_sim_miss_pct", title="simulation: requests that miss a full train", unit="%", points=2,
    rtol=0.01, expected=lambda: 100 * _sim().miss_fraction,
    slips=[Slip(lambda: _sim().miss_fraction,
                "That looks like a fraction; the question asks for a percentage.")],
    hints=["Run the simulation the question describes; its result says which share of the requests "
           "found their train full.",
           "Pass exactly the given period, rate, capacity, number of requests and seed."],
))

register(Problem(
    id="02.google_one_in", title="one deployment as a share of Google's traffic", unit="", points=2,
    rtol=0.02,
    expected=lambda: traffic.tokens_per_second(GIVEN.volume) / _deployment_tok_s(),
    slips=[Slip(lambda: traffic.tokens_per_second(GIVEN.volume) / balance.throughput(GIVEN.batch, 1 / SAID["steps_per_second"]),
                f"You used the lecture's {SAID['steps_per_second']} steps per second; the question's step is "
                f"{GIVEN.step_s * 1e3:g} ms.")],
    hints=["Deployment tok/s = batch / step time.",
           "Google's volume is tokens per MONTH; divide by the seconds in a month (about 30.4 days)."],
))

register(Problem(
    id="02.fast_speedup", title="fast mode: the speed-up for 6x the price", unit="×", points=2,
    rtol=0.01, expected=lambda: fastmode.FastModeToy.problem8().speedup_for_cost(GIVEN.fast_multiple),
    slips=[Slip(lambda: fastmode.FastModeToy.problem8().max_speedup,
                "That is the ceiling (balance step ÷ weight read), reached only at infinite price."),
           Slip(lambda: GIVEN.fast_multiple,
                "Speed does not scale with price: the weight read is a floor under the step time.")],
    hints=["Find the batch whose cost per token is 6× the balance point's: (t_w/B + k) = 6·c.",
           "Speed-up = balance step (B*·c) ÷ step at that batch (t_w + B·k)."],
))

register(Problem(
    id="02.clark_multiple", title="what 64 experts buy (Clark et al. 2022)", unit="×", points=1,
    rtol=0.01, expected=lambda: balance.CLARK_2022.quality_multiple,
    slips=[Slip(lambda: float(SAID["quality_multiple"]),
                "That is the lecture's rounded '4×'; compute it from 1.3B and 370M.")],
    hints=["Dense-equivalent parameters ÷ active parameters."],
))


#: givens that differ per student under `assign --roster` (see lecture_lib.practice.variants)
VARIES = (
    Vary("period_s", steps(0.015, 0.040, 0.001), "train period (problem 7), s"),
    Vary("sim_arrival_rate", steps(2_600, 3_400, 50), "arrival rate (problem 8), requests/s"),
    Vary("batch", steps(1_000, 4_000, 100), "batch of the deployment (problem 9), sequences"),
)


def _fast_toy():
    g = GIVEN
    return fastmode.FastModeToy.from_system(g.fast_hw, g.fast_model, 0, g.fast_weight_dtype)


register(Problem(
    id="02.expert_balance_batch", title="DeepSeek-V3's balance batch, per expert", unit="tokens", points=2,
    rtol=0.01,
    expected=lambda: moe.expert_balance_batch_from_ratio(GIVEN.ratio, _dsv3().experts_per_token, _dsv3().n_experts),
    slips=[Slip(lambda: _dsv3_batch(_dsv3().total_params / _dsv3().active_params),
                "That is the aggregate roofline (ratio × total / active), which lets every operation of the "
                "step overlap. Here each expert's own matmul must be compute-bound: how many tokens does "
                "one expert see?"),
           Slip(lambda: GIVEN.ratio * _dsv3().experts_per_token / _dsv3().n_experts,
                "You multiplied by k / n. Each expert sees B·k/n tokens; solve B·k/n = ratio for B.")],
    hints=["A step of B tokens sends each routed expert B·k/n tokens on average.",
           "One expert's matmul is compute-bound when it sees at least the hardware ratio (≈300) tokens."],
))

register(Problem(
    id="02.fast_context", title="the context from which 2.5x becomes possible", unit="tokens", points=2,
    rtol=0.01, expected=lambda: _fast_toy().context_for_speedup(GIVEN.fast_target),
    slips=[Slip(lambda: _fast_toy().balance_context,
                "That is the balance context itself, where the ceiling is infinite. The ceiling c/(c − k) "
                "reaches 2.5 earlier."),
           Slip(lambda: _fast_toy().context_for_speedup(GIVEN.fast_target, GIVEN.fast_multiple),
                "That is where 6× the price buys 2.5×; the question asks where ANY price can buy it (the ceiling).")],
    hints=["The ceiling is c/(c − k) with c = 2·N_active/F and k = L·b_kv/BW per sequence.",
           "Set c/(c − k) = 2.5 and solve for L: k = 0.6·c, i.e. 60% of the balance context."],
))
