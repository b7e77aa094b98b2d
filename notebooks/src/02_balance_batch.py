# ---
# jupyter:
#   jupytext:
#     cell_metadata_filter: tags,-all
#     notebook_metadata_filter: kernelspec,-jupytext.text_representation.jupytext_version
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 02 · The balance batch, the 20 ms train, and what sparsity buys
#
# *Lecture chapter 1, second half (about 16:00–32:09).* Notebook 01 drew the two blackboard graphs:
# step time against batch, and cost per token against batch. This notebook turns the results Reiner
# reads off them, the ones people quote, into things you can derive, move and check:
#
# 1. **The balance batch**: the batch where reading the weights takes as long as the matmuls,
#    ≈ 300 / sparsity = 300 × N_total / N_active, two readings of it for DeepSeek-V3, and what the
#    KV cache does to it.
# 2. **The train that leaves every 20 ms**: why a request waits 30 ms on average and 40 ms at worst.
# 3. **Drain time**: why 20 ms, from HBM capacity ÷ bandwidth.
# 4. **Throughput**: one rack at a realistic context against Google's monthly token count, and the
#    20 ms train emerging from the largest batch that fits.
# 5. **Fast mode, derived**: what a smaller batch can buy at a given context, why 6× the price buys
#    at most a ceiling, and the context from which 2.5× becomes possible. Slow mode buys little.
# 6. **Sparsity vs quality**, and what sparsity costs instead (memory).
# 7. **Sparse attention**: what a square root does to the context slope.
#
# Every number below is computed by `lecture_lib`; where the lecture said something different, the two
# stand side by side with the reason. Each claim is followed by an `assert`, so running the notebook
# checks it.
#
# **One word, one meaning.** In this course **sparsity = $N_\text{active}/N_\text{total}$**, a fraction
# (`Model.sparsity`; DeepSeek-V3 ≈ 0.055), so the balance batch is $300/\text{sparsity} = 300 \times
# N_\text{total}/N_\text{active}$. When the lecture says "sparsity 8" it means $N_\text{total}/N_\text{active}$,
# the reciprocal.
#
# **The course's weight read.** `roofline.step_time` reads, by default, the weights a step's tokens
# actually touch: for an MoE, the always-on weights plus the experts its tokens route to (about
# $N_\text{active}$ at batch 1, all of $N_\text{total}$ once $B\cdot k \gg n$). The lecture reads every
# weight at every batch (`experts="all"`). Near and above the balance batch the two agree; where a
# number below differs from the lecture for that reason, it says so.

# %%
import numpy as np
import sympy as sp

from lecture_lib import balance, explorers, fastmode, fmt, hardware, models, moe, prices, queueing, roofline, routing, traffic
from lecture_lib import notation as nt
from lecture_lib.lecture import SAID as L     # what the lecture said, for side-by-side comparisons
from lecture_lib.plots import balance as plots
from lecture_lib.prose import say, show

# %% [markdown]
# ## 1. The balance batch
#
# **Question.** A decode step reads every weight once and shares that read across the whole batch;
# the matmuls grow with the batch. How many sequences must share a step before the chip stops waiting
# on memory?
#
# Set the compute time of one decode step equal to the weight-fetch time (leave the KV cache out for now)
# and solve for $B$:

# %%
t_compute = roofline.t_compute_expr.subs(nt.l_pass, 1)      # 2·B·N_act / F
t_weights = roofline.t_weights_expr                          # N_tot·b_w / BW
(B_star,) = sp.solve(sp.Eq(t_compute, t_weights), nt.B)
show(sp.Eq(t_compute, t_weights))
show(B_star, lhs="B^*")
assert sp.simplify(B_star - roofline.balance_batch_expr()) == 0

# %% [markdown]
# The lecture's point is that this splits cleanly into a part that belongs to the **chip** and a part
# that belongs to the **model**:

# %%
hw_ratio, model_ratio = balance.hardware_ratio_expr, balance.model_ratio_expr
show(sp.Mul(hw_ratio, model_ratio, evaluate=False), lhs=r"B^*")
assert sp.simplify(hw_ratio * model_ratio - B_star) == 0
assert hw_ratio.free_symbols == {nt.F, nt.BW, nt.b_w}          # hardware and number format only
assert model_ratio.free_symbols == {nt.N_tot, nt.N_act}        # the model only: 1 / sparsity

# %% [markdown]
# **The lecture's form.** On the blackboard, $t_\text{compute} = B\cdot N/\text{FLOPs}$ with "FLOPs"
# counted as *multiply-adds* and $N$ in *bytes*; then "FLOPs ÷ mem_bw" is a pure number, about 300, and
# $B^* \approx 300 \times N_\text{total}/N_\text{active}$. This course counts 2 FLOPs per multiply-add
# and keeps bytes per parameter $b_w$ separate. Substituting the lecture's $F_\text{mac} = F/2$ turns one
# into the other:

# %%
lecture_form = balance.lecture_balance_batch_expr
show(lecture_form, lhs=r"B^*_\text{lecture}")
show(lecture_form.subs(roofline.lecture_substitution), lhs=r"B^*_\text{lecture}\big|_{F_\text{mac} = F/2}")
assert sp.simplify(lecture_form.subs(roofline.lecture_substitution) - B_star) == 0

# %% [markdown]
# And numerically, for an H100 in bf16 serving DeepSeek-V3, the lecture's route (MAC/s ÷ weight
# params/s, times total/active) and the course's route (`roofline.balance_batch`) land on the same batch:

# %%
h100, dsv3 = hardware.get("H100-SXM"), models.get("DeepSeek-V3")
lecture_route = roofline.lecture_ratio(h100, "bf16") * dsv3.total_params / dsv3.active_params
course_route = roofline.balance_batch(h100, dsv3, weight_dtype="bf16")
say(f"Lecture route: {roofline.lecture_ratio(h100, 'bf16'):.0f} × {dsv3.total_params / dsv3.active_params:.1f} "
     f"= **{lecture_route:,.0f}**; course route: **{course_route:,.0f}** sequences. (A ratio only: DeepSeek-V3's "
     f"{fmt(dsv3.weight_bytes('bf16'), 'B')} of bf16 weights do not fit in one H100's {fmt(h100.hbm_capacity, 'B')}; "
     f"the rack below holds them.)")
assert np.isclose(lecture_route, course_route, rtol=1e-9)
assert not roofline.step_time(h100, dsv3, 1, weight_dtype="bf16").fits

# %% [markdown]
# The default model (touched experts) gives the same balance batch as the lecture's all-weights reading,
# because a batch of thousands of tokens touches every expert; the two part only at small batch:

# %%
nvl72 = hardware.get("GB200-NVL72")
b_touched = roofline.balance_batch(nvl72, dsv3, weight_dtype="fp8")
b_all = roofline.balance_batch(nvl72, dsv3, weight_dtype="fp8", experts="all")
one = roofline.step_time(nvl72, dsv3, 1, weight_dtype="fp8")
floor_touched = one.weights
floor_all = roofline.step_time(nvl72, dsv3, 1, weight_dtype="fp8", experts="all").weights
say(f"GB200-NVL72, fp8 weights: balance batch with touched experts **{b_touched:,.0f}**, with all weights (the "
    f"lecture) **{b_all:,.0f}**. At batch 1 the touched read takes **{fmt(floor_touched, 's')}**, the all-weights "
    f"read {fmt(floor_all, 's')}: {floor_all / floor_touched:.0f}× apart, about N_total / N_active.")
assert one.fits and np.isclose(b_touched, b_all, rtol=1e-9)
assert 0.9 < floor_all / floor_touched / (dsv3.total_params / dsv3.active_params) < 1.1

# %%
say(r"**Takeaway:** $B^* = \underbrace{\tfrac{F}{\mathrm{BW}}\cdot\tfrac{b_w}{2}}_{\text{chip: ≈300}}"
    r"\times \underbrace{\tfrac{N_\text{total}}{N_\text{active}}}_{\text{model: 1/sparsity}}$. "
    f"Sparsity = N_active / N_total: {dsv3.sparsity:.3f} for DeepSeek-V3, so 1/sparsity = "
    f"{1 / dsv3.sparsity:.1f}. Model *size* cancels: only sparsity matters.", math=True)
assert 0.05 < dsv3.sparsity < 0.06

# %% [markdown]
#
# ### 1.1 Is the chip's half really ≈300, and stable since A100?
#
# The lecture says the ratio is about 300 on most GPUs and has stayed roughly put from A100 to H100 to
# B100. Here it is for every chip in the registry, at every number format it has a published dense
# rate for (the ratio assumes the weights are stored in that format):

# %%
rows = balance.ratio_table()
table = ["| chip | year | weights | FLOP/byte (F/BW) | lecture ratio (MAC/s ÷ params/s) |", "|---|---|---|---:|---:|"]
table += [f"| {r['chip']}{' (announced)' if r['status'] == 'announced' else ''} | {r['year']} | {r['dtype']} | "
          f"{r['flop_per_byte']:,.0f} | {r['lecture_ratio']:,.0f} |" for r in rows]
say("\n".join(table))

# %%
plots.ratio_by_generation(rows)

# %%
ratio = {(r["chip"], r["dtype"]): r["lecture_ratio"] for r in rows}
say(f"A100 (bf16): **{ratio['A100-80GB', 'bf16']:.0f}**; H100: **{ratio['H100-SXM', 'bf16']:.0f}**; "
     f"B200: **{ratio['B200', 'fp4']:.0f}**; GB200: **{ratio['GB200', 'fp4']:.0f}**; "
     f"GB300 (fp4): **{ratio['GB300', 'fp4']:.0f}**; Rubin (fp4, announced, rate uncertain): "
     f"**{ratio['Rubin', 'fp4']:.0f}**. The lecture: ≈{L['ratio']}.")
assert 140 < ratio["A100-80GB", "bf16"] < 160                      # about half of 300 (erratum 4)
for chip, dtype in [("H100-SXM", "bf16"), ("B200", "fp4"), ("GB200", "fp4")]:
    assert abs(ratio[chip, dtype] / L["ratio"] - 1) < 0.07           # the ≈300 holds from Hopper on
assert np.isclose(ratio["H100-SXM", "bf16"], ratio["H100-SXM", "fp8"], rtol=0.01)   # half the bytes, twice the FLOPs
assert ratio["GB300", "fp4"] > 1.4 * L["ratio"] and ratio["Rubin", "fp4"] > 1.8 * L["ratio"]

# %% [markdown]
# Notice that the lecture ratio does not depend on the number format as long as FLOP/s doubles each
# time the bytes per weight halve (H100 in bf16 and in fp8 give the same number). Blackwell Ultra (GB300)
# breaks that rule: its FP4 rate is *more* than twice its FP8 rate, so the ratio climbs. Rubin's point
# is not evidence of a trend: its only published rate is an FP4 "inference" figure, and whether that is
# dense or counts structured sparsity (which would halve it) is not stated (hardware registry,
# quality flag U).

# %%
hopper_on = [ratio["H100-SXM", "bf16"], ratio["B200", "fp4"], ratio["GB200", "fp4"]]
spread = max(abs(r / L["ratio"] - 1) for r in hopper_on)
say(f"**Takeaway:** \"≈{L['ratio']}\" is right for H100, B200 and GB200 (within {100 * spread:.0f}%). It is not "
     f"\"stable since A100\": the A100 is about {ratio['A100-80GB', 'bf16']:.0f}, the H200 (extra bandwidth) about "
     f"{ratio['H200', 'bf16']:.0f}, and GB300 in FP4 reaches {ratio['GB300', 'fp4']:.0f}, so on that chip the batch "
     f"needed to balance grows (syllabus §6, erratum 4). Rubin's {ratio['Rubin', 'fp4']:.0f} rests on an announced "
     f"FP4 figure that may not be dense; half of it ({ratio['Rubin', 'fp4'] / 2:.0f}) is as likely for now.")
assert spread < 0.07 and ratio["H200", "bf16"] < 0.75 * L["ratio"]
assert hardware.get("Rubin").status == "announced" and hardware.get("Rubin").source_for("flops").quality == "U"

# %% [markdown]
# ### 1.2 DeepSeek-V3 three ways (spot the slip)
#
# The lecture's example: "32 of 256 experts active, so sparsity 8, so $B \approx 300 \times 8 = 2{,}400$."
# (The lecture's "sparsity 8" is $N_\text{total}/N_\text{active}$, our 1/sparsity.) Here is what
# DeepSeek-V3's config says, and three readings of $N_\text{total}/N_\text{active}$:

# %%
say(f"DeepSeek-V3 routes each token to **{dsv3.experts_per_token}** of its {dsv3.n_experts} routed experts "
     f"(plus {dsv3.n_shared_experts} shared); {fmt(dsv3.total_params, 'params')} total, "
     f"{fmt(dsv3.active_params, 'params')} active.")
assert dsv3.experts_per_token != L["dsv3_active_experts"]        # erratum 1
readings = balance.sparsity_readings("DeepSeek-V3")
gb200 = hardware.get("GB200-NVL72")
meaning = {"lecture": f"the lecture's '{L['dsv3_active_experts']} of {L['dsv3_experts']}'",
           "parameters": f"{fmt(dsv3.total_params, 'params')} / {fmt(dsv3.active_params, 'params')}",
           "experts": f"{dsv3.n_experts} / {dsv3.experts_per_token} routed experts"}
table = ["| reading | total ÷ active | B* at the lecture's 300 | B* on GB200-NVL72, fp8 |", "|---|---:|---:|---:|"]
for k, v in readings.items():
    table.append(f"| {meaning[k]} | {v:.1f} | {balance.balance_batch_from_ratio(L['ratio'], v):,.0f} | "
                 f"{balance.balance_batch_from_ratio(roofline.lecture_ratio(gb200, 'fp8'), v):,.0f} |")
say("\n".join(table))
assert balance.balance_batch_from_ratio(L["ratio"], readings["lecture"]) == L["dsv3_balance_batch"]
assert 5400 < balance.balance_batch_from_ratio(L["ratio"], readings["parameters"]) < 5500
assert balance.balance_batch_from_ratio(L["ratio"], readings["experts"]) == 9600

# %% [markdown]
# Which one belongs in the weight term? $t_\text{weights}$ counts **bytes read**, so the right ratio
# is total parameters over active parameters, *provided the batch reads every expert*. The expert
# ratio overstates the sparsity: it forgets the attention, the shared expert and the dense layers that
# every token uses. Splitting the parameters into always-read and routed parts (from total, active,
# $k$ and $n$: total = S + R, active = S + R·k/n):

# %%
shared, routed = routing.routed_split(dsv3)
b_700 = balance.balance_batch_from_ratio(L["ratio"], L["dsv3_total_params"] / dsv3.active_params)
b_671 = balance.balance_batch_from_ratio(L["ratio"], readings["parameters"])
say(f"Always read: **{fmt(shared, 'params')}**; routed experts: **{fmt(routed, 'params')}**. The lecture's "
     f"\"32 of 256\" is a slip (erratum 1); its \"about {fmt(L['dsv3_total_params'], 'params')}\" for "
     f"{fmt(dsv3.total_params, 'params')} (erratum 2) moves B* by only {100 * (b_700 / b_671 - 1):.0f}%.")
assert 15e9 < shared < 18e9 and b_700 / b_671 - 1 < 0.05

# %% [markdown]
# Does a batch really read every expert? If each token picks $k$ of $n$ experts, the expected fraction
# a batch of $B$ tokens touches is $1-(1-k/n)^B$:

# %%
show(routing.experts_touched_expr, lhs=r"\text{touched}")
b99 = routing.batch_to_touch(0.99, dsv3.experts_per_token, dsv3.n_experts)
b_star = balance.balance_batch_from_ratio(L["ratio"], readings["parameters"])
untouched = routing.experts_untouched_fraction(b_star, dsv3.experts_per_token, dsv3.n_experts)
say(f"DeepSeek-V3 ({dsv3.experts_per_token} of {dsv3.n_experts}): a batch of **{b99:.0f}** tokens already "
     f"touches 99% of the experts; at B* ≈ {b_star:,.0f} the expected untouched fraction is "
     f"(1 − k/n)^B ≈ **{untouched:.0e}** (computed as a power: 1 − touched would round to 0).")
assert b99 < 0.05 * b_star and 0 < untouched < 1e-60
assert np.isclose(routing.experts_touched_fraction(b99, dsv3.experts_per_token, dsv3.n_experts), 0.99)

# %%
plots.experts_touched()

# %%
read_1 = routing.weight_params_read(dsv3, 1)
read_b = routing.weight_params_read(dsv3, b_star)
say(f"Parameters read per step: **{fmt(read_1, 'params')}** at B = 1 (only the routed experts plus the "
     f"shared part), **{fmt(read_b, 'params')}** at B*.")
assert np.isclose(read_1, dsv3.active_params) and np.isclose(read_b, dsv3.total_params, rtol=1e-6)

# %% [markdown]
# This also settles erratum 3: Dwarkesh's flashcard says the latency floor comes from reading the
# *active* parameters, the lecture says *total*. At batch 1 an MoE only needs the experts it routes to
# (the flashcard's view); from a batch of a few hundred tokens on it reads essentially all of them (the
# lecture's view, which is the one that matters near the balance batch).

# %%
say(f"**Takeaway:** for the aggregate roofline use total ÷ active *parameters* (1/sparsity ≈ "
     f"{readings['parameters']:.0f} for DeepSeek-V3), not the expert count: B* ≈ {b_671:,.0f} at a ratio of "
     f"{L['ratio']}, {b_671 / L['dsv3_balance_batch']:.1f}× the lecture's {L['dsv3_balance_batch']:,}. The "
     f"expert ratio has a use of its own, though: the next section.")
assert b_671 / L["dsv3_balance_batch"] > 2

# %% [markdown]
# ### 1.3 Two readings of DeepSeek's balance batch
#
# **Question.** The roofline above compares the *whole step's* compute with the *whole step's* weight
# read. But a GPU runs one matmul at a time: each routed expert multiplies only the tokens routed to it
# against its own weights. When is *that* matmul compute-bound?
#
# A step of $B$ tokens sends each expert $B k/n$ tokens on average. One expert holds $N_\text{routed}/n$
# parameters; set its matmul time equal to its weight-read time and solve for $B$:

# %%
tok_e = nt.B * nt.k_act / nt.n_exp                                      # tokens one expert sees
one_expert = nt.N_rt / nt.n_exp                                          # its parameters
expert_compute = 2 * tok_e * one_expert / nt.F
expert_read = one_expert * nt.b_w / nt.BW
(B_expert,) = sp.solve(sp.Eq(expert_compute, expert_read), nt.B)
show(sp.Eq(expert_compute, expert_read))
show(B_expert, lhs=r"B^*_\text{expert}")
r_of_F = sp.solve(sp.Eq(nt.r_hw, nt.F * nt.b_w / (2 * nt.BW)), nt.F)[0]   # the lecture's ratio r
show(sp.simplify(B_expert.subs(nt.F, r_of_F)), lhs=r"B^*_\text{expert}")
assert sp.simplify(B_expert - moe.expert_balance_batch_expr()) == 0
assert sp.simplify(B_expert.subs(nt.F, r_of_F) - nt.r_hw * nt.n_exp / nt.k_act) == 0

# %% [markdown]
# The expert's size cancels: each expert must see about $r \approx 300$ tokens per step, so
# $B^*_\text{expert} = r\cdot n/k$. That is the "expert ratio" reading of the table above, and it is how
# deployments size their batches (in tokens per expert). Side by side, with the lecture's ratio and on a
# GB200-NVL72 in fp8:

# %%
k_, n_ = dsv3.experts_per_token, dsv3.n_experts
agg_300, exp_300 = b_671, moe.expert_balance_batch_from_ratio(L["ratio"], k_, n_)
agg_rack = roofline.balance_batch(gb200, dsv3, "fp8")
exp_rack = balance.expert_balance_batch(gb200, dsv3, "fp8")
say("| reading | condition | what it assumes about overlap | B* at r = 300 | B* on GB200-NVL72, fp8 |\n"
    "|---|---|---|---:|---:|\n"
    f"| aggregate roofline | whole step: 2·B·N_active/F ≥ N_total·b_w/BW | every operation of the step overlaps "
    f"with every other: the dense layers' spare compute hides the experts' reads | {agg_300:,.0f} | {agg_rack:,.0f} |\n"
    f"| per expert | each expert sees ≥ r tokens: B·{k_}/{n_} ≥ r | none across operations: each expert's "
    f"weight read hides only behind its own matmul | {exp_300:,.0f} | {exp_rack:,.0f} |")
tokens_at_agg = moe.tokens_per_expert(agg_300, k_, n_)
say(f"At the aggregate B* ≈ {agg_300:,.0f} each expert sees only **{tokens_at_agg:.0f}** tokens per step, "
    f"{tokens_at_agg / L['ratio']:.0%} of the {L['ratio']} it needs: its matmul is memory-bound, and the "
    f"aggregate roofline only balances if the attention and shared-expert matmuls (compute-bound with "
    f"thousands of tokens) run while the expert weights stream in.")
assert exp_300 == 9600 and 1.6 < exp_300 / agg_300 < 1.9
assert tokens_at_agg < L["ratio"] and np.isclose(moe.tokens_per_expert(exp_300, k_, n_), L["ratio"])

# %%
say(f"**Takeaway:** two readings, two assumptions. Perfect overlap across the step: B* ≈ "
    f"{agg_300:,.0f} (r × total/active). No overlap across operations, each routed matmul compute-bound on "
    f"its own: B* ≈ {exp_300:,.0f} (r × n/k, about {L['ratio']} tokens per expert). Real systems sit between "
    f"and size batches by tokens per expert, so the second is the safer target.")

# %% [markdown]
# ### 1.4 Add the KV cache: the balance batch grows, then disappears
#
# Every sequence also reads its own KV cache each step. Putting that back into the memory side:

# %%
B_kv = roofline.balance_batch_expr(with_kv=True)
show(B_kv, lhs=r"B^*_\text{kv}")
denominator = sp.denom(sp.together(B_kv))
(L_wall,) = sp.solve(sp.Eq(denominator, 0), nt.L_ctx)
show(L_wall, lhs=r"L_\text{ctx}^\text{wall}")
assert sp.simplify(L_wall - roofline.balance_context_expr()) == 0
assert sp.simplify(B_kv.subs(nt.L_ctx, 0) - B_star) == 0

# %% [markdown]
# The denominator is compute time per sequence minus KV time per sequence. As the context grows the
# KV term eats the margin and $B^*$ grows; at $L^\text{wall}$ the margin is zero and **no batch balances**:
# each extra sequence adds more memory time than compute time, so decode is memory-bound at every
# batch size. For DeepSeek-V3 (MLA: one compressed latent per layer) on a GB200 NVL72 rack with fp8
# weights:

# %%
say(f"DeepSeek-V3 stores **{fmt(dsv3.kv_bytes_per_token('bf16'), 'B/token')}** of KV per token in bf16.")
wall = roofline.balance_context(gb200, dsv3, "fp8", "bf16")
wall_fp8kv = roofline.balance_context(gb200, dsv3, "fp8", "fp8")
ctx = np.array([0, 250, 500, 1000, 1500])
b_ctx = roofline.balance_batch(gb200, dsv3, "fp8", context=ctx)
say(f"Balance batch at context {', '.join(f'{c:,}' for c in ctx)}: "
     f"{', '.join(f'{b:,.0f}' for b in b_ctx)}. No batch balances past **{wall:,.0f}** tokens "
     f"(bf16 KV) or **{wall_fp8kv:,.0f}** (fp8 KV).")
assert np.all(np.diff(b_ctx) > 0) and b_ctx[0] == roofline.balance_batch(gb200, dsv3, "fp8")
assert np.isinf(roofline.balance_batch(gb200, dsv3, "fp8", context=1.01 * wall))
assert np.isclose(wall_fp8kv, 2 * wall)

# %%
plots.BalancePlot("GB200-NVL72", "DeepSeek-V3", "fp8", "bf16")

# %% [markdown]
# **Explore:** pick another system, model or number format. Where does the wall move when the KV cache
# is stored in fp8? For a model with grouped-query attention (Llama-3-70B)? On an A100 box?

# %%
balance_explorer = explorers.get("balance_vs_context")()
balance_explorer

# %%
walls = {name: roofline.balance_context(gb200, name, "fp8", "bf16") for name in ("DeepSeek-V3", "Kimi-K2", "Llama-3-70B", "Qwen3-235B-A22B")}
say(f"**Takeaway:** the KV reads push the balance batch up, and beyond a context length that depends only on "
     f"N_active, F, BW and KV bytes per token (not on total parameters), no batch balances. With dense "
     f"attention on a GB200-NVL72 (fp8 weights, bf16 KV) that wall sits at "
     f"{', '.join(f'{n} {w:,.0f}' for n, w in walls.items())} tokens: long contexts are memory-bound and "
     f"priced that way (chapter 6), and sparse attention (section 7) matters.")
assert all(100 < w < 10_000 for w in walls.values())

# %% [markdown]
# ## 2. The train that leaves every 20 ms
#
# **Question.** If the GPU starts a step every $T$ whether or not the batch is full, and a request
# boards the next step with a free seat, how long does a request wait for its token?
#
# A request arriving at a random moment waits $w$ for the next departure, uniform on $[0, T)$, then
# rides one step of $T$:

# %%
T, w = nt.T_step, nt.w_wait
show(rf"E[w] = \int_0^T \frac{{w}}{{T}}\,dw = {sp.latex(queueing.mean_wait_expr)}")
show(queueing.mean_latency_expr, lhs=r"E[\text{latency}]")
show(queueing.worst_latency_expr, lhs=r"\max \text{latency}")
mean_s, worst_s = queueing.train_latency(L["step_s"])
say(f"At T = {fmt(L['step_s'], 's')}: mean **{fmt(mean_s, 's')}**, worst **{fmt(worst_s, 's')}** "
     f"(the lecture: worst {fmt(L['worst_latency_s'], 's')}).")
assert sp.simplify(queueing.mean_latency_expr - sp.Rational(3, 2) * T) == 0
assert np.isclose(worst_s, L["worst_latency_s"]) and np.isclose(mean_s, 0.030)

# %% [markdown]
# Now check it the empirical way: a seeded simulation of random (Poisson) arrivals boarding trains
# that leave every 20 ms, with plenty of seats.

# %%
sim = queueing.simulate_trains(L["step_s"], arrival_rate=2_000, n_requests=50_000, seed=0)
say(f"{sim.latency.size:,} simulated requests: mean **{fmt(sim.latency.mean(), 's')}**, "
     f"max **{fmt(sim.latency.max(), 's')}**, min {fmt(sim.latency.min(), 's')}.")
assert abs(sim.latency.mean() - mean_s) < 0.5e-3
assert sim.latency.max() <= worst_s + 1e-12 and sim.latency.min() >= L["step_s"] - 1e-12

# %% [markdown]
# What if requests arrive faster than the trains can carry them? Give each train 64 seats and raise
# the arrival rate: at a load (arrivals per train ÷ seats) near 1, some requests find their train full
# and **miss it**; above 1 the queue grows without bound and latency climbs for as long as the overload lasts.

# %%
for rate in (2_000, 3_100, 3_500):
    s = queueing.simulate_trains(L["step_s"], rate, capacity=64, n_requests=20_000, seed=0)
    say(f"rate {rate:,}/s, load {s.load:.2f}: missed a train **{100 * s.miss_fraction:.1f} %**, "
         f"mean {fmt(s.latency.mean(), 's')}, p99 {fmt(s.percentile(99), 's')}")
light = queueing.simulate_trains(L["step_s"], 2_000, capacity=64, n_requests=20_000, seed=0)
near = queueing.simulate_trains(L["step_s"], 3_100, capacity=64, n_requests=20_000, seed=0)
over = queueing.simulate_trains(L["step_s"], 3_500, capacity=64, n_requests=20_000, seed=0)
assert light.miss_fraction < 0.001 and near.miss_fraction > 0.05 and near.percentile(99) > worst_s
assert over.load > 1 and over.latency.mean() > 5 * mean_s

# %% [markdown]
# The picture below is the `near` simulation itself (same rate, seats, seed and 20,000 requests), so the
# numbers in its box and in the text agree:

# %%
train_plot = plots.TrainPlot(period_ms=20, arrival_rate=3_100, capacity=64, n_requests=20_000)
shown = train_plot.state
assert shown["n_requests"] == near.latency.size and shown["miss_fraction"] == near.miss_fraction
assert np.isclose(shown["mean_ms"], near.latency.mean() / 1e-3)
train_plot

# %% [markdown]
# **Explore:** move the step period and the arrival rate. Which control moves the mean, and which one
# makes the tail blow up?

# %%
train_explorer = explorers.get("train_schedule")()
assert abs(train_explorer.state["mean_ms"] - 1.5 * 20) < 1      # the default: 20 ms trains, seats to spare
train_explorer

# %%
say(f"**Takeaway:** with seats to spare, latency is uniform between T and 2T: mean 1.5·T = {fmt(mean_s, 's')} and "
     f"worst 2·T = {fmt(worst_s, 's')} at T = {fmt(L['step_s'], 's')}. The batch size sets the seats; when "
     f"arrivals outrun them, requests miss trains (in the simulation shown, load {shown['load']:.2f}: "
     f"{100 * shown['miss_fraction']:.1f}% missed one, mean {shown['mean_ms']:.1f} ms, p99 "
     f"{np.percentile(shown['latency_ms'], 99):.1f} ms) and the {fmt(worst_s, 's')} bound no longer holds.")
assert np.percentile(shown["latency_ms"], 99) > worst_s / 1e-3

# %% [markdown]
# ## 3. Drain time: why 20 ms
#
# **Question.** Why should a step take about 20 ms rather than 2 or 200?
#
# Serving wants HBM *full* (weights plus as many KV caches as fit, to batch as much as possible) and
# wants to read all of it once per step. Reading HBM once takes capacity ÷ bandwidth, the **drain time**:

# %%
show(roofline.drain_time_expr, lhs=r"t_\text{drain}")
drains = balance.drain_table()
table = ["| chip | HBM | bandwidth | drain time |", "|---|---:|---:|---:|"]
table += [f"| {r['chip']}{' (announced)' if r['status'] == 'announced' else ''} | {fmt(r['capacity'], 'B')} | "
          f"{fmt(r['bandwidth'], 'B/s')} | {fmt(r['drain_s'], 's')} |" for r in drains]
say("\n".join(table))

# %%
plots.drain_times(drains)

# %%
d = np.array([r["drain_s"] for r in drains])
rubin_lecture = roofline.drain_time(balance.rubin_as_in_lecture())
rubin_public = roofline.drain_time("Rubin")
say(f"Across {len(d)} chips the drain time runs from **{fmt(d.min(), 's')}** to **{fmt(d.max(), 's')}** "
     f"(median {fmt(np.median(d), 's')}). Rubin: the lecture's {fmt(L['rubin_capacity'], 'B')} / "
     f"{fmt(L['rubin_bandwidth'], 'B/s')} = **{fmt(rubin_lecture, 's')}** (he said ≈{fmt(L['rubin_drain_s'], 's')}); "
     f"with the public {fmt(hardware.get('Rubin').hbm_bandwidth, 'B/s')}: **{fmt(rubin_public, 's')}**.")
assert np.all((d > 0.010) & (d < 0.040))
assert np.isclose(rubin_lecture, 0.0144) and rubin_public < rubin_lecture < L["rubin_drain_s"]

# %% [markdown]
# A longer step than the drain time would read some bytes twice (pointless: weights are read-only and
# KV reads are almost all reads); a shorter one cannot read everything. So a serving step lands near
# the drain time.

# %%
say(f"**Takeaway:** every chip here drains its HBM in {fmt(d.min(), 's', 2)}–{fmt(d.max(), 's', 2)}, so "
     f"\"about {fmt(L['drain_s'], 's')}\" is the right order of magnitude across generations; Rubin's much faster "
     f"HBM4 brings it down to {fmt(rubin_public, 's')} (the lecture's {fmt(L['rubin_bandwidth'], 'B/s')} gives "
     f"{fmt(rubin_lecture, 's')}, which it rounded to {fmt(L['rubin_drain_s'], 's')}; syllabus erratum 5).")

# %% [markdown]
# ## 4. Throughput: one deployment against the world
#
# **Question.** How many tokens per second does one serving deployment produce, and what share of a big
# provider's traffic is that?
#
# Tokens per second = tokens per step ÷ step time. The lecture took "64 steps per second" and $B$ ≈ 2,000:

# %%
show(balance.throughput_expr, lhs=r"\text{tok/s}")
lecture_tok_s = balance.throughput(L["batch"], 1 / L["steps_per_second"])
at_20ms = balance.throughput(L["batch"], L["step_s"])
say(f"{L['steps_per_second']} steps/s is a step of **{fmt(1 / L['steps_per_second'], 's')}**, not 20 ms; "
     f"a 20 ms step is {balance.steps_per_second(L['step_s']):.0f} steps/s. "
     f"So {L['batch']:,} sequences give **{fmt(lecture_tok_s, 'tok/s')}** (lecture) or "
     f"**{fmt(at_20ms, 'tok/s')}** at 20 ms.")
assert lecture_tok_s == L["deployment_tok_s"] and balance.steps_per_second(L["step_s"]) == 50

# %% [markdown]
# Google's published monthly token counts (a small sourced registry, `lecture_lib.traffic`), as average
# rates:

# %%
table = ["| provider | month | tokens / month | average tok/s | 128K tok/s is | source |", "|---|---|---:|---:|---:|---|"]
for v in traffic.TOKEN_VOLUMES:
    table.append(f"| {v.provider} | {v.as_of} | {fmt(v.tokens_per_month, 'tokens')} | {fmt(v.tokens_per_second, 'tok/s')} | "
                 f"1/{1 / balance.fraction_of_volume(lecture_tok_s, v):,.0f} | [{v.source.quality}]({v.source.url}) |")
say("\n".join(table))
fractions = [balance.fraction_of_volume(lecture_tok_s, v) for v in traffic.TOKEN_VOLUMES]
assert 1 / 1500 < max(fractions) and min(fractions) < 1 / 3500   # 1/1,400 to 1/3,900: erratum 7

# %%
say(f"The lecture's \"about 1/{1 / L['fraction_of_gemini']:,.0f} of Gemini\" is the right order of magnitude for "
     f"May 2025 (1/{1 / max(fractions):,.0f}); by October 2025 it is nearer 1/{1 / min(fractions):,.0f} (erratum 7). "
     f"**Not like for like:** Google's monthly volume counts every token it processes, input (prompts, read in "
     f"prefill) as well as output, while a deployment's {fmt(lecture_tok_s, 'tok/s')} are decoded output tokens. "
     f"Prompts are usually longer than answers, so Google's *output* rate is a fraction of these totals and one "
     f"deployment's share of it is larger than the ratio says. The same caveat holds for \"1/1000 of Gemini\".")

# %% [markdown]
# What does the roofline itself say a rack can do? At the balance batch the step is compute-bound, so
# tokens per second = $F / (2 N_\text{active})$, independent of the batch and of total parameters. But the
# balance batch with no context is a batch of sequences that hold no KV cache: DeepSeek-V3 on this rack is
# memory-bound at every batch past its balance context (section 1.4). At a realistic mean context
# of 2–5K tokens, the most a rack can do is to fill its HBM: the **largest batch that fits**
# (`roofline.max_batch`), weights plus every sequence's KV cache.

# %%
rack = balance.throughput_at_balance(gb200, dsv3, "fp8")          # context 0: a ceiling nobody runs at
contexts = (2_000, 3_000, 5_000)
full = {c: balance.throughput_at_max_batch(gb200, dsv3, c, "fp8") for c in contexts}
table = ["| mean context | largest batch that fits | HBM used | step (memory-bound) | drain time | step ÷ drain | tok/s | share of Google, Oct 2025 |",
         "|---:|---:|---:|---:|---:|---:|---:|---:|"]
for c, f in full.items():
    table.append(f"| {c:,} | {f['batch']:,.0f} | {fmt(f['hbm_bytes'], 'B')} of {fmt(gb200.hbm_capacity, 'B')} | "
                 f"{fmt(f['step_s'], 's')} | {fmt(f['drain_s'], 's')} | {f['step_s'] / f['drain_s']:.4f} | "
                 f"{fmt(f['tok_s'], 'tok/s')} | 1/{1 / balance.fraction_of_volume(f['tok_s'], 'google-2025-10'):,.0f} |")
say("\n".join(table))
for c, f in full.items():
    assert f["fits"] and f["bound"] == "memory" and abs(f["step_s"] / f["drain_s"] - 1) < 0.01
    assert not roofline.step_time(gb200, dsv3, f["batch"] + 1, c, "fp8").fits        # one more does not fit
assert np.isclose(rack["tok_s"], gb200.flops("fp8") / (2 * dsv3.active_params))
assert all(f["tok_s"] < 0.9 * rack["tok_s"] for f in full.values())

# %%
mid = full[3_000]
say(f"There is the lecture's 20 ms train, derived rather than assumed: fill HBM with weights and KV caches, "
    f"and a memory-bound step reads all of it once, so the step *is* the drain time, here "
    f"{fmt(mid['drain_s'], 's')} (the lecture: ≈{fmt(L['drain_s'], 's')}). A step can only be longer than the "
    f"drain time when it is compute-bound, at a context below the balance context.")

plots.throughput_vs_volumes({f"lecture: {L['batch']:,} × {L['steps_per_second']}/s": lecture_tok_s,
                             f"{L['batch']:,} at a 20 ms step": at_20ms,
                             "NVL72 · DeepSeek-V3, 3K context, HBM full": mid["tok_s"],
                             "NVL72 · DeepSeek-V3, context 0, at B* (ceiling)": rack["tok_s"]})

# %%
mid_share = balance.fraction_of_volume(mid["tok_s"], "google-2025-10")
say(f"At 3K tokens of context a GB200-NVL72 serving DeepSeek-V3 (fp8 weights, bf16 KV) holds "
    f"{mid['batch']:,.0f} sequences and makes **{fmt(mid['tok_s'], 'tok/s')}** at a {fmt(mid['step_s'], 's')} "
    f"step, {mid['tok_s'] / lecture_tok_s:.0f}× the lecture's {fmt(lecture_tok_s, 'tok/s')} and "
    f"{mid['tok_s'] / rack['tok_s']:.0%} of the context-0 ceiling ({fmt(rack['tok_s'], 'tok/s')} at "
    f"B* = {rack['batch']:,.0f}, the figure an earlier version of this notebook quoted). These are roofline "
    f"bounds at 100% of peak; real deployments run 2–3× above the roofline batch at lower efficiency.\n\n"
    f"**Takeaway:** one deployment is a small share of a frontier provider's traffic: 1/{1 / max(fractions):,.0f} "
    f"to 1/{1 / min(fractions):,.0f} by the lecture's numbers, about 1/{1 / mid_share:,.0f} for a full rack at 3K "
    f"context (all of these count output tokens against Google's input + output). To batch well you need "
    f"roughly that share of the traffic, which is why serving at scale favours big providers.")
assert 1 / 400 < mid_share < 1 / 100 and mid["tok_s"] > 10 * lecture_tok_s

# %% [markdown]
# ## 5. Fast mode, derived
#
# **Question.** Claude's fast mode charges about 6× for up to 2.5× the output speed. At a given context,
# what can a smaller batch buy? Could you pay 100× and go 10× faster? Could a slow mode be much cheaper?
#
# Write the decode step with three numbers: $t_w$ the weight read (per step), $c = 2N_\text{active}/F$
# the compute per sequence and $k = L_\text{ctx} b_\text{kv}/\mathrm{BW}$ the KV read per sequence
# (this is the lecture's all-weights model; an MoE's touched-experts read is the last step below).
# **Step 1**, the balance batch: compute $cB$ meets memory $t_w + kB$.

# %%
c, k, t_w, B_ = sp.symbols("c k t_w B", positive=True)          # shorthand for this derivation
step = sp.Max(c * B_, t_w + k * B_)
(B_bal,) = sp.solve(sp.Eq(c * B_, t_w + k * B_), B_)
show(B_bal, lhs="B^*")
shorthand = {c: fastmode.compute_per_seq_expr, k: fastmode.kv_per_seq_expr, t_w: fastmode.weights_expr}
assert sp.simplify(B_bal.subs(shorthand) - roofline.balance_batch_expr(with_kv=True)) == 0

# %% [markdown]
# **Step 2**, the speed-up of batch $B < B^*$: the step at $B^*$ is compute-bound ($cB^*$), the step at
# $B$ is memory-bound ($t_w + kB$):

# %%
speedup_B = sp.simplify(c * B_bal / (t_w + k * B_))
show(speedup_B, lhs=r"S_\text{fast}(B)")
ceiling = sp.limit(speedup_B, B_, 0)
show(ceiling, lhs=r"\lim_{B \to 0} S_\text{fast}")
assert sp.simplify(ceiling - c / (c - k)) == 0
assert sp.simplify(ceiling.subs(shorthand) - fastmode.speedup_ceiling_expr()) == 0
assert sp.simplify(speedup_B.subs(k, 0)) == 1          # no KV: every batch below B* takes the same step

# %% [markdown]
# The ceiling $c/(c-k)$ is compute per sequence over compute minus KV per sequence. At context 0 ($k = 0$)
# it is **1**: below $B^*$ the step sits on the weight floor, so $B^*/6$ is *no faster* than $B^*$; a
# smaller batch only buys speed by reading less KV. Checked on the rack at context 0 with the course's
# default (touched-experts) step:

# %%
b0 = roofline.balance_batch(gb200, dsv3, "fp8")
t_b0, t_b6 = (roofline.step_time(gb200, dsv3, b, 0, "fp8").total for b in (b0, b0 / L["fast_price"]))
say(f"DeepSeek-V3 on GB200-NVL72, context 0: step at B* = {b0:,.0f} is {fmt(t_b0, 's')}, at B*/"
    f"{L['fast_price']:.0f} = {b0 / L['fast_price']:,.0f} it is {fmt(t_b6, 's')}: {t_b0 / t_b6:.3f}× faster "
    f"for {L['fast_price']:.0f}× the price.")
assert np.isclose(t_b0, t_b6, rtol=1e-6)

# %% [markdown]
# **Step 3**, what a price buys. Cost per token is step ÷ batch; at $B^*$ it is $c$. The batch whose token
# costs $m$ times as much solves $(t_w + kB)/B = m\,c$; substitute it into the speed-up:

# %%
m = nt.m_cost
(B_m,) = sp.solve(sp.Eq((t_w + k * B_) / B_, m * c), B_)
speedup_m = sp.factor(sp.simplify(speedup_B.subs(B_, B_m)))
show(B_m, lhs="B_m")
show(speedup_m, lhs=r"S_\text{fast}(m)")
gap = sp.simplify(ceiling - speedup_m)
show(gap, lhs=r"\frac{c}{c-k} - S_\text{fast}(m)")
assert sp.simplify(B_m.subs(shorthand) - fastmode.fast_batch_expr()) == 0
assert sp.simplify(speedup_m.subs(shorthand) - fastmode.fast_speedup_expr()) == 0
assert sp.simplify(gap - k / (m * (c - k))) == 0           # > 0 whenever k < c: below the ceiling
assert sp.limit(speedup_m, m, sp.oo) == sp.simplify(ceiling) and sp.simplify(speedup_m.subs(m, 1)) == 1

# %% [markdown]
# So $m$ times the price buys $S(m) = \frac{mc-k}{m(c-k)}$, always short of the ceiling by
# $\frac{k}{m(c-k)}$: **6× the price buys at most the ceiling**, and less. **Step 4**, where 2.5× becomes
# possible. Write $k = x\,c$ with $x = L_\text{ctx}/L^\text{wall}$ (KV per sequence grows linearly in the
# context and equals $c$ at the balance context $L^\text{wall}$, section 1.4), and solve for the context:

# %%
x, S = sp.symbols("x", positive=True), nt.S_fast
ceiling_x, speedup_x = sp.simplify(ceiling.subs(k, x * c)), sp.simplify(speedup_m.subs(k, x * c))
show(ceiling_x, lhs=r"\frac{c}{c-k}")
show(speedup_x, lhs=r"S_\text{fast}(m)")
(x_any,) = sp.solve(sp.Eq(ceiling_x, S), x)
(x_m,) = sp.solve(sp.Eq(speedup_x, S), x)
show(x_any, lhs=r"\frac{L_\text{ctx}}{L^\text{wall}}\Big|_{\text{any price}}")
show(sp.factor(x_m), lhs=r"\frac{L_\text{ctx}}{L^\text{wall}}\Big|_{m}")
x_25, x_25_6 = x_any.subs(S, sp.Rational(5, 2)), x_m.subs({S: sp.Rational(5, 2), m: 6})
say(f"A speed-up of {L['fast_speed']}× is possible at any price only past **{float(x_25):.0%}** of the balance "
    f"context ({x_25}), and {L['fast_price']:.0f}× the price buys it only past **{float(x_25_6):.1%}** ({x_25_6}).")
assert x_25 == sp.Rational(3, 5) and x_25_6 == sp.Rational(9, 14)
L_wall_expr = roofline.balance_context_expr()
assert sp.simplify(x_any * L_wall_expr - fastmode.ceiling_context_expr()) == 0
assert sp.simplify(x_m * L_wall_expr - fastmode.speedup_context_expr()) == 0

# %%
toy = fastmode.FastModeToy.problem8()
b6 = toy.batch_for_cost(L["fast_price"])
say(f"Weight read {fmt(toy.weights_s, 's')}; compute {fmt(toy.compute_per_seq_s, 's')} and KV "
     f"{fmt(toy.kv_per_seq_s, 's')} per sequence. Balance batch **{toy.balance_batch:,.0f}**, step "
     f"**{fmt(toy.balance_step_s, 's')}**. Paying {L['fast_price']:.0f}×: batch **{b6:,.0f}**, step "
     f"**{fmt(toy.step_s(b6), 's')}**, **{toy.speedup(b6):.2f}×** faster (the lecture: ≈{L['fast_speed']}×). "
     f"Ceiling: **{toy.max_speedup:.2f}×**, at infinite price.")
assert np.isclose(toy.balance_batch, 15_000) and np.isclose(toy.cost_multiple(b6), L["fast_price"])
assert 2.2 < toy.speedup_for_cost(L["fast_price"]) < toy.max_speedup <= L["fast_speed"] + 1e-9
assert toy.speedup_for_cost(100) < toy.max_speedup < 10     # 100x the price does not buy 10x

# %%
x_toy = toy.context / toy.balance_context
say(f"The toy's {fmt(toy.context)} tokens are **{x_toy:.0%}** of its balance context ({fmt(toy.balance_context)} "
    f"tokens): exactly where {L['fast_speed']}× becomes possible at infinite price "
    f"({fmt(toy.context_for_speedup(L['fast_speed']))} tokens). Paying {L['fast_price']:.0f}× buys "
    f"{L['fast_speed']}× only from {fmt(toy.context_for_speedup(L['fast_speed'], L['fast_price']))} tokens on.")
assert np.isclose(x_toy, float(x_25)) and np.isclose(toy.max_speedup, L["fast_speed"])
assert np.isclose(toy.context_for_speedup(L["fast_speed"], L["fast_price"]) / toy.balance_context, float(x_25_6))

# %%
plots.FastModePlot(multiple=L["fast_price"], toy=toy, target=L["fast_speed"])

# %% [markdown]
# **Explore:** how much does 100× the price buy? Pick the DeepSeek-V3 scenario and move the context until
# the ceiling (right panel, dashed) crosses the 2.5× target: at what context does 2.5× become possible,
# and at what context does 6× the price buy it? (A context past a scenario's balance context is clamped
# below it; the orange line says so.)

# %%
fast_explorer = explorers.get("fast_mode")()
fast_explorer

# %%
dsv3_toy = fastmode.FastModeToy.from_system(gb200, dsv3, context=1000, weight_dtype="fp8")
need_any, need_6 = dsv3_toy.context_for_speedup(L["fast_speed"]), dsv3_toy.context_for_speedup(L["fast_speed"], L["fast_price"])
say(f"DeepSeek-V3 on GB200-NVL72 (fp8 weights, bf16 KV): balance context {fmt(dsv3_toy.balance_context)} tokens; "
    f"{L['fast_speed']}× becomes possible from **{fmt(need_any)}** tokens of context, and {L['fast_price']:.0f}× the "
    f"price buys it from **{fmt(need_6)}** tokens. Below that, no price buys {L['fast_speed']}×.")
assert np.isclose(need_any / dsv3_toy.balance_context, float(x_25)) and need_any < need_6 < dsv3_toy.balance_context
assert dsv3_toy.ceiling_at(0.99 * need_any) < L["fast_speed"] < dsv3_toy.ceiling_at(1.01 * need_any)

# %% [markdown]
# **Step 5**, an MoE at small batch. The toy reads every weight every step. The course's default step
# reads only the experts a batch touches, so for an MoE the floor drops further at very small batch. Does
# that change what 6× buys? Compare the toy with `roofline.step_time` (touched experts) at the 6× batch,
# and look at what a much smaller batch would cost:

# %%
b6_real = dsv3_toy.batch_for_cost(L["fast_price"])
touched_6 = roofline.step_time(gb200, dsv3, b6_real, 1000, "fp8").total
cost = lambda b: roofline.cost_per_token(gb200, dsv3, b, 1000, "fp8")
bal = dsv3_toy.balance_batch
sp_1 = dsv3_toy.balance_step_s / roofline.step_time(gb200, dsv3, 1, 1000, "fp8").total
say(f"At the {L['fast_price']:.0f}× batch ({b6_real:,.0f} sequences) the touched-experts step is "
    f"{fmt(touched_6, 's')} against the toy's {fmt(dsv3_toy.step_s(b6_real), 's')}: a batch that size touches every "
    f"expert. Only far smaller batches read less: batch 1 would be **{sp_1:.0f}×** faster than the balance step, "
    f"at **{cost(1) / cost(bal):,.0f}×** the price per token, a tier nobody sells.")
assert np.isclose(touched_6, dsv3_toy.step_s(b6_real), rtol=1e-6)
assert sp_1 > 10 and cost(1) / cost(bal) > 100

# %% [markdown]
# **Slow mode** sits on the other side of the balance batch. Past $B^*$ the step is compute-bound and
# the cost per token is flat: a bigger batch only makes everyone wait longer.

# %%
bigger = toy.balance_batch * np.array([1, 2, 10])
say(f"Cost per token at 1×, 2× and 10× the balance batch: {', '.join(f'{c:.2f}×' for c in toy.cost_multiple(bigger))} "
     f"of the balance cost, while the step grows to {', '.join(fmt(s, 's') for s in toy.step_s(bigger))}. "
     f"(The toy has no memory limit: {bigger[-1]:,.0f} sequences of {fmt(toy.context)} tokens at 2 kB would hold "
     f"{fmt(bigger[-1] * toy.context * toy.kv_bytes_per_token, 'B')} of KV, far more than 64 GPUs have.)")
assert np.allclose(toy.cost_multiple(bigger), 1.0)

# %% [markdown]
# The same trade with a real rack and model (GB200-NVL72, DeepSeek-V3 fp8, 1,000 tokens of context),
# and the published price tiers beside it (`lecture_lib.prices`, dated snapshots):

# %%
real = fastmode.FastModeToy.from_system(gb200, dsv3, context=1000, weight_dtype="fp8")
table = ["| tier | price ÷ standard (output) | speed-up the toy predicts | published speed claim |", "|---|---:|---:|---|"]
for model, tier in [("claude-opus-4.6", "fast"), ("claude-opus-5", "fast"), ("gpt-5", "priority"), ("gpt-5.5", "priority")]:
    p, base = prices.get(model, tier), prices.get(model)
    mult = p.output / base.output
    claim = f"up to {p.speedup:g}× output tok/s ([source]({p.source.url}))" if p.speedup else "–"
    table.append(f"| {model} {tier} | {mult:.1f}× | {real.speedup_for_cost(mult):.2f}× | {claim} |")
say("\n".join(table))
opus_fast = prices.get("claude-opus-4.6", "fast")
assert opus_fast.output / prices.get("claude-opus-4.6").output == L["fast_price"] and opus_fast.speedup == L["fast_speed"]
assert real.speedup_for_cost(L["fast_price"]) < real.max_speedup < 2.5

# %%
say(f"**Takeaway:** fast mode gives up amortisation: cut the batch {toy.balance_batch / b6:.0f}× and each token "
     f"costs {toy.cost_multiple(b6):.0f}× more, but the step only shrinks toward the weight-read floor, so the "
     f"speed-up saturates at c/(c − k) ({toy.max_speedup:.2f}× for the toy, {real.max_speedup:.2f}× for the real rack "
     f"at 1K tokens) however much you pay; at context 0 a smaller batch buys nothing. {L['fast_speed']}× is possible "
     f"only past {float(x_25):.0%} of the balance context, and {L['fast_price']:.0f}× the price buys it only past "
     f"{float(x_25_6):.0%}. Slow mode cannot undercut the compute floor: past the balance batch, cost per token is flat. The "
     f"published tiers fit this picture; speculative decoding, the lecture's second mechanism, is not modelled "
     f"(erratum 14).")

# %% [markdown]
# ## 6. Sparsity vs quality, and what sparsity costs instead
#
# **Question.** More experts at the same active parameters raises $B^*$ but costs no extra compute per
# token. Does quality keep up?
#
# Reiner showed *Unified Scaling Laws for Routed Language Models* (Clark et al. 2022): a 64-expert model
# with 370M active parameters matches a dense 1.3B model. Dwarkesh summarised it as "100× the parameters
# for 10×"; Reiner corrected it to "64× for 4×":

# %%
clark = balance.CLARK_2022
say(f"{clark.n_experts} experts at {fmt(clark.active_params, 'params')} active ≈ dense "
     f"{fmt(clark.dense_equivalent_params, 'params')}: **{clark.quality_multiple:.1f}×** the active size "
     f"(the lecture: {L['expert_multiple']}× for {L['quality_multiple']}×). Source: {clark.source.url}")
assert 3.4 < clark.quality_multiple < L["quality_multiple"]       # ≈3.5x, erratum 13

# %% [markdown]
# From the bandwidth/compute view sparsity is a pure win: at the balance batch a system makes
# $F/(2N_\text{active})$ tokens per second whatever $N_\text{total}$ is. The price is paid in
# **memory capacity**: more total weights, and a bigger balance batch whose KV caches must also fit.
# Keep DeepSeek-V3's active parameters and KV, vary total ÷ active, on one 8-GPU H200 server:

# %%
ratios = np.geomspace(1, 40, 40)
sweep = balance.sparsity_sweep("HGX-H200", dsv3, ratios, context=1000, weight_dtype="fp8")
for r_ in (1, 4, 18):
    one = balance.sparsity_sweep("HGX-H200", dsv3, r_, context=1000, weight_dtype="fp8")
    say(f"total ÷ active = {r_}: balance batch {one['balance_batch'][0]:,.0f}, fits {one['max_batch'][0]:,.0f} "
         f"sequences: headroom **{one['headroom'][0]:.2f}×**")
assert np.all(np.diff(sweep["headroom"]) <= 0)
assert sweep["headroom"][0] > 10 and sweep["headroom"][-1] < 1      # dense: plenty; 40x sparse: does not fit
plots.sparsity_headroom(sweep, "HGX-H200", "DeepSeek-V3", 1000)

# %%
at_dsv3 = balance.sparsity_sweep("HGX-H200", dsv3, readings["parameters"], context=1000, weight_dtype="fp8")
say(f"**Takeaway:** the Clark et al. figure gives ≈{clark.quality_multiple:.1f}× the quality-equivalent size for "
     f"{clark.n_experts} experts, and the throughput at balance does not depend on total parameters. What runs out "
     f"is memory: at DeepSeek-V3's sparsity an 8-GPU H200 server holds only {at_dsv3['headroom'][0]:.2f}× its balance "
     f"batch at 1K context, and sparser models need more chips: a whole rack. That is chapter 2.")
assert 1 < at_dsv3["headroom"][0] < 1.5

# %% [markdown]
# ## 7. Sparse attention and the context slope
#
# **Question.** Section 1.4 found a context wall of a couple of thousand tokens for DeepSeek-V3 on a GB200 rack.
# What if each new token reads only about $\sqrt{L}$ of the cached tokens, roughly what DeepSeek's
# sparse attention does?

# %%
L_sqrt = roofline.balance_context_sqrt_expr()
show(L_sqrt, lhs=r"L^\text{wall}_{\sqrt{\ }}")
assert sp.simplify(L_sqrt - roofline.balance_context_expr() ** 2) == 0
wall_sqrt = roofline.balance_context(gb200, dsv3, "fp8", "bf16", attention="sqrt")
say(f"Dense attention: memory-bound at every batch past **{wall:,.0f}** tokens; √-sparse: past "
     f"**{wall_sqrt:,.0f}** tokens.")
assert np.isclose(wall_sqrt, wall ** 2) and wall_sqrt > 1e6

# %%
plots.attention_slope(gb200, dsv3, "fp8", "bf16")

# %%
say(f"**Takeaway:** with dense attention the KV term grows linearly in context and overtakes compute at "
     f"{wall:,.0f} tokens; a square root flattens the slope, and the wall moves to {wall_sqrt / 1e6:.1f} million "
     f"tokens: the dense wall squared.")

# %% [markdown]
# ## The lecture's numbers, computed
#
# Each figure of this part of the lecture beside the computed one, with the reason they differ
# (syllabus §6):

# %%
rows_ = [
    (f"DeepSeek-V3: {L['dsv3_active_experts']} of {L['dsv3_experts']} experts, B* ≈ {L['dsv3_balance_batch']:,}",
     f"{dsv3.experts_per_token} of {dsv3.n_experts} (+{dsv3.n_shared_experts} shared); total/active = {readings['parameters']:.1f}; "
     f"B* ≈ {balance.balance_batch_from_ratio(L['ratio'], readings['parameters']):,.0f}", "erratum 1: a slip in the expert count"),
    (f"DeepSeek-V3: ~{fmt(L['dsv3_total_params'], 'params')} total", f"{fmt(dsv3.total_params, 'params')}", "erratum 2: rounding; moves B* by "
     f"{100 * (L['dsv3_total_params'] / dsv3.total_params - 1):.0f}%"),
    ("latency floor = read total params", f"{fmt(read_1, 'params')} at B = 1, {fmt(read_b, 'params')} at B*",
     "erratum 3: both views hold, at different batch sizes"),
    (f"ratio ≈ {L['ratio']}, stable since A100", f"A100 {ratio['A100-80GB', 'bf16']:.0f}, H100 {ratio['H100-SXM', 'bf16']:.0f}, "
     f"GB300 fp4 {ratio['GB300', 'fp4']:.0f}", "erratum 4: only from Hopper on"),
    (f"Rubin {fmt(L['rubin_capacity'], 'B')} / {fmt(L['rubin_bandwidth'], 'B/s')} ≈ {fmt(L['rubin_drain_s'], 's')}",
     f"{fmt(rubin_lecture, 's')} ({fmt(L['rubin_bandwidth'], 'B/s')}); {fmt(rubin_public, 's')} (public "
     f"{fmt(hardware.get('Rubin').hbm_bandwidth, 'B/s')})",
     "erratum 5: arithmetic and a moving spec"),
    (f"tokens/s ≈ {L['steps_per_second']} × B", f"{fmt(L['step_s'], 's')} step: {balance.steps_per_second(L['step_s']):.0f} × B",
     f"erratum 6: {L['steps_per_second']}/s is a {fmt(1 / L['steps_per_second'], 's')} step"),
    (f"one deployment ≈ 1/{1 / L['fraction_of_gemini']:,.0f} of Gemini", f"1/{1 / max(fractions):,.0f} to 1/{1 / min(fractions):,.0f}",
     f"erratum 7: Google's volume grew {max(fractions) / min(fractions):.1f}× during 2025"),
    (f"{L['expert_multiple']}× for {L['quality_multiple']}×", f"{clark.quality_multiple:.1f}×",
     f"erratum 13: {fmt(clark.dense_equivalent_params, 'params')} / {fmt(clark.active_params, 'params')}"),
    ("B ≈ 300 × sparsity", f"B* ≈ 300 / sparsity = 300 × N_total / N_active; DeepSeek-V3 sparsity {dsv3.sparsity:.3f}",
     "one meaning of 'sparsity' (active ÷ total) throughout the course"),
    ("(one balance batch)", f"aggregate {agg_300:,.0f}, per expert {exp_300:,.0f} (at r = {L['ratio']})",
     "two readings: perfect overlap across the step, or each routed matmul compute-bound on its own"),
    ("(throughput at B*, no context)", f"{fmt(mid['tok_s'], 'tok/s')} at 3K context, HBM full; step = drain time",
     "a realistic context and a batch that fits; Google counts input tokens too"),
    (f"{L['fast_price']:.0f}× the price for {L['fast_speed']}× the speed",
     f"{L['fast_speed']}× possible past {float(x_25):.0%} of the balance context, bought by {L['fast_price']:.0f}× past "
     f"{float(x_25_6):.0%}", "the ceiling c/(c − k) is 1 at context 0"),
]
say("| the lecture said | computed here | why |\n|---|---|---|\n" + "\n".join(f"| {a} | {b} | {c} |" for a, b, c in rows_))
assert len(rows_) == 12 and all(b for _, b, _ in rows_)

# %% [markdown]
# Next: the graded problems for this part are in `exercises/02_balance_batch.ipynb`, the numeric
# flashcards in the deck (`python -m lecture_lib flashcards --chapter 1`), and chapter 2 (notebook 03)
# puts an MoE layer on a rack.
