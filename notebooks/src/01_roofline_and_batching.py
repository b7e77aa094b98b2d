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
# # 1. The roofline: how batch size sets the speed and the cost of a token
#
# *Lecture 0:00 – about 16:00.* This notebook follows the first blackboard of the lecture: two bounds on
# the time of one decode step, two graphs (latency and cost per token against batch size), and what
# context length does to them. The balance-batch derivation that follows is notebook 02.

# %%
import numpy as np
import sympy as sp

from lecture_lib import explorers, hardware, lecture, models, moe, notation, prices, roofline, routing
from lecture_lib.notation import BW, B, F, L_ctx, N_act, N_tot, b_kv, b_w, k_act, l_pass, n_exp
from lecture_lib.plots import roofline as rplots
from lecture_lib.prose import say, show
from lecture_lib.units import dtype_bytes, fmt

say(f"[Watch this section]({lecture.video_url(0)}) (0:00 to {lecture.timestamp(lecture.BALANCE_BATCH_S)}).")

# %% [markdown]
# ## The question: what does "fast mode" buy?
#
# Coding assistants sell a *fast mode*. The lecture opens with Anthropic's: about six times the price for
# about two and a half times the token speed. What is going on mechanically, could you pay 100× to go
# much faster, and would a cheap "slow mode" make sense?

# %%
standard = prices.get("claude-opus-4.6")
fast = prices.get("claude-opus-4.6", tier="fast")
price_ratio = fast.output / standard.output
LECTURE_SPEEDUP = fast.speedup     # "up to 2.5x higher output tokens per second": Anthropic's fast-mode page

say(f"{fast.model} output tokens: {fmt(standard.output, '$')} per million in the standard tier, "
    f"{fmt(fast.output, '$')} in fast mode: **{price_ratio:g}×** the price for up to **{LECTURE_SPEEDUP}×** "
    f"the speed (prices as of {fast.source.as_of}).")
assert price_ratio == fast.input / standard.input == 6

# %% [markdown]
# Reiner's answer: mostly **batch size**. (He names a second mechanism, speculative decoding / multi-token
# prediction, and never returns to it; neither do we.) To see why, we need the time of one step.
#
# ## The setup: one rack, one model
#
# The lecture's running example is a Blackwell NVL72 rack (72 GPUs acting as one machine) serving
# DeepSeek-V3. We store the weights in fp8 (DeepSeek-V3's own training format) and the KV cache in bf16.

# %%
hw = hardware.get("GB200-NVL72")
m = models.get("DeepSeek-V3")
WEIGHTS, KV = "fp8", "bf16"

say(f"| | |\n|---|---|\n"
    f"| {hw.name} | {hw.n_chips} GPUs; {fmt(hw.flops(WEIGHTS), 'FLOP/s')} dense {WEIGHTS}; "
    f"HBM {fmt(hw.hbm_capacity, 'B')} at {fmt(hw.hbm_bandwidth, 'B/s')} |\n"
    f"| {m.name} | {fmt(m.total_params, 'params')} total, {fmt(m.active_params, 'params')} active per token; "
    f"{m.attention} attention, KV cache {fmt(m.kv_bytes_per_token(KV), 'B/token')} |")

# %% [markdown]
# The lecture rounds DeepSeek-V3 to "about 700B total, 37B active". The model card says 671B (not counting
# the 14B multi-token-prediction module): close enough for the blackboard, but we use the card.

# %%
LECTURE_TOTAL, LECTURE_ACTIVE = lecture.SAID["dsv3_total_params"], lecture.SAID["dsv3_active_params"]
say(f"total: lecture {fmt(LECTURE_TOTAL, 'params')}, model card {fmt(m.total_params, 'params')} "
    f"({(m.total_params / LECTURE_TOTAL - 1):+.0%}); active: both {fmt(m.active_params, 'params')}.")
assert abs(m.total_params / LECTURE_TOTAL - 1) < 0.05 and m.active_params == LECTURE_ACTIVE

# %% [markdown]
# **What the KV cache is.** To produce its next token, attention compares the new token's query with the
# *keys* of every earlier token in the sequence and takes a weighted sum of their *values*. Recomputing
# those keys and values for the whole history at every step would cost a full pass over the context, so
# the server keeps them in HBM: the **KV cache**, a few numbers per layer per token, per sequence. It is
# what makes decode cheap in FLOPs, and what makes a long context expensive in memory and bandwidth: every
# step reads the whole cache of every sequence in the batch. Its size per token is an architecture fact
# (layers × KV heads × head size × 2, or MLA's compressed latent), computed here from the model card:

# %%
say(f"{m.name}: {m.attention} attention, {fmt(m.kv_bytes_per_token(KV), 'B/token')} of KV cache in {KV}; "
    f"a sequence at 100K tokens holds {fmt(m.kv_bytes_per_sequence(100_000, KV), 'B')}, "
    f"{m.kv_bytes_per_sequence(100_000, KV) / m.weight_bytes(WEIGHTS):.0%} of the whole model's weights.")
assert m.kv_bytes_per_token(KV) == m.n_layers * (m.kv_lora_rank + m.qk_rope_dim) * 2    # MLA: latent + RoPE, 2 bytes

# %% [markdown]
# **What a mixture of experts is.** DeepSeek-V3 is a *mixture-of-experts* (MoE) model: most of its
# feed-forward weights are split into many small "experts", and a router sends each token to a few of
# them. The idea is old: sparsely-gated MoE layers (Shazeer et al. 2017,
# [arXiv 1701.06538](https://arxiv.org/abs/1701.06538)), scaled across TPU pods by GShard (Lepikhin et al.
# 2020, [arXiv 2006.16668](https://arxiv.org/abs/2006.16668)) and Switch Transformers (Fedus et al. 2021,
# one expert per token, [arXiv 2101.03961](https://arxiv.org/abs/2101.03961)), then made *fine-grained*
# (many small experts plus always-on shared ones) by DeepSeekMoE (Dai et al. 2024,
# [arXiv 2401.06066](https://arxiv.org/abs/2401.06066)), the design DeepSeek-V3 uses. The point for this
# lecture: each token multiplies only the **active** parameters, but every expert must sit in memory.

# %%
always, routed = routing.routed_split(m)
say(f"{m.name} routes each token to **{m.experts_per_token} of {m.n_experts}** routed experts (plus "
    f"{m.n_shared_experts} shared). Of its {fmt(m.total_params, 'params')}, {fmt(always, 'params')} are read "
    f"for every token (attention, dense layers, shared experts, embeddings) and {fmt(routed, 'params')} sit "
    f"in the routed experts, of which a token uses {m.experts_per_token}/{m.n_experts}: "
    f"{fmt(always, 'params')} + {fmt(routed, 'params')} × {m.experts_per_token}/{m.n_experts} = "
    f"{fmt(always + routed * m.experts_per_token / m.n_experts, 'params')} active.")
# a second route: chapter 2 counts every parameter from the model's config (notebook 03)
budget = moe.param_budget(m)
say(f"Counted from the config instead: {fmt(budget.routed_experts, 'params')} in routed experts.")
assert abs(routed / budget.routed_experts - 1) < 0.02

# %% [markdown]
# ## Two bounds on the time of one step
#
# In one decode step every sequence in the batch gets one new token. Two resources can limit the step:
# the chips' arithmetic and the memory bandwidth. The step takes at least as long as the slower of the
# two, so the lecture's "=" really means "≥":

# %%
show(roofline.step_time_eq)

# %% [markdown]
# Three terms, one idea each:
#
# * **Compute.** Each new token is multiplied by every *active* weight: one multiply-add, 2 FLOPs, per
#   weight per token. B sequences × ℓ new tokens each (ℓ = 1 in decode):

# %%
show(sp.Eq(notation.t_compute, roofline.t_compute_expr))

# %% [markdown]
# * **Weight fetch.** Every weight the step uses is read from HBM once per step, *whoever* uses it: the
#   whole batch shares one read. The lecture reads all of them, so the term does not depend on B:

# %%
show(sp.Eq(notation.t_weights, roofline.t_weights_expr))

# %% [markdown]
#   For a dense model that is exact. For an MoE it is exact only once the batch touches every expert. A
#   batch of B tokens, each picking k of n experts at random, leaves a given expert untouched with
#   probability (1 − k/n)^B, so the step reads the always-on weights plus the touched share of the routed
#   ones (notebook 02 derives this). That is the course's default model: a **bound that stays true at
#   B = 1**, where an MoE reads only about its active weights.

# %%
show(sp.Eq(notation.t_weights, roofline.t_weights_touched_expr.subs(notation.l_pass, 1)))
batches = np.array([1, 8, 64, 512, 4096])
touched = roofline.step_time(hw, m, batches, 0, WEIGHTS, KV)
every = roofline.step_time(hw, m, batches, 0, WEIGHTS, KV, experts="all")
say("| batch B | weights read (touched) | the lecture (all) | read ÷ active |\n|---:|---:|---:|---:|\n" + "\n".join(
    f"| {b:,} | {fmt(t, 's')} | {fmt(a, 's')} | {t * hw.hbm_bandwidth / dtype_bytes(WEIGHTS) / m.active_params:.2f} |"
    for b, t, a in zip(batches, touched.weights, every.weights)))
assert abs(touched.weights[0] * hw.hbm_bandwidth / dtype_bytes(WEIGHTS) / m.active_params - 1) < 0.10
assert np.isclose(touched.weights[-1], every.weights[-1], rtol=1e-6)     # B·k ≫ n: every expert is read

# %% [markdown]
# * **KV fetch.** Attention makes each sequence read its own cached keys and values for every token of
#   context. Nothing is shared, so this grows with B *and* with the context:

# %%
show(sp.Eq(notation.t_kv, roofline.t_kv_expr))

# %% [markdown]
# **The lecture's form.** On the blackboard t_compute = B·N/FLOPs, with "FLOPs" counting multiply-adds
# (F_mac = F/2). In decode (ℓ = 1) the two forms are the same expression:

# %%
lecture_form = roofline.lecture_t_compute_expr.subs(roofline.F_mac, F / 2)
show(sp.Eq(roofline.lecture_t_compute_expr, lecture_form))
assert sp.simplify(roofline.t_compute_expr.subs(l_pass, 1) - lecture_form) == 0

# %% [markdown]
# **Check: the numbers are the equations.** The library's numeric `step_time` is the SymPy expression
# evaluated, so substituting the rack's and the model's numbers by hand gives the same seconds:

# %%
batch, context = 2048, 10_000
r = roofline.step_time(hw, m, batch, context, WEIGHTS, KV)
values = {B: batch, l_pass: 1, L_ctx: context, N_act: m.active_params, N_tot: m.total_params,
          b_w: dtype_bytes(WEIGHTS), b_kv: m.kv_bytes_per_token(KV),
          F: hw.flops(WEIGHTS), BW: hw.hbm_bandwidth,
          notation.N_sh: always, notation.N_rt: routed, k_act: m.experts_per_token, n_exp: m.n_experts}
by_hand = {name: float(expr.subs(values)) for name, expr in
           [("compute", roofline.t_compute_expr), ("weights", roofline.t_weights_touched_expr),
            ("kv", roofline.t_kv_expr)]}
say(f"B = {batch:,}, context {fmt(context)} tokens: compute {fmt(r.compute, 's')}, weights {fmt(r.weights, 's')}, "
    f"KV {fmt(r.kv, 's')}; the step takes at least {fmt(r.total, 's')} and is **{r.bound}-bound**.")
assert np.isclose(by_hand["compute"], r.compute) and np.isclose(by_hand["weights"], r.weights)
assert np.isclose(by_hand["kv"], r.kv) and r.total == max(r.compute, r.weights + r.kv)

# %% [markdown]
# ## Graph 1: latency against batch size
#
# Draw each term against B. Compute is a line through the origin; the weight fetch is flat; the KV fetch is
# another line through the origin; memory is the weight fetch plus the KV line. The step time is the larger
# of memory and compute. First on linear axes, as on the blackboard (a short context of 500 tokens):

# %%
SHORT = 500     # tokens of context: a short chat turn
rplots.LatencyVsBatch(hw=hw, model=m, weight_dtype=WEIGHTS, kv_dtype=KV, context=SHORT,
                      batch_range=(1, 16_000), log=False)

# %% [markdown]
# The same on log-log axes, where a line through the origin has slope 1 and the small batches are visible:

# %%
latency = rplots.LatencyVsBatch(hw=hw, model=m, weight_dtype=WEIGHTS, kv_dtype=KV, context=SHORT)
latency

# %%
floor = roofline.step_time(hw, m, 1, 0, WEIGHTS, KV)
full_read = roofline.step_time(hw, m, 1, 0, WEIGHTS, KV, experts="all").weights
b_all_touched = routing.batch_to_touch(0.99, m.experts_per_token, m.n_experts)
say(f"**Takeaway:** the step can never take less than its weight fetch. For one sequence that is the "
    f"active weights, {fmt(floor.weights, 's')} here; once a batch touches every expert (99% of them by "
    f"B ≈ {b_all_touched:.0f}) it is the whole model, {fmt(m.weight_bytes(WEIGHTS), 'B')} ÷ "
    f"{fmt(hw.hbm_bandwidth, 'B/s')} = {fmt(full_read, 's')}, the lecture's **latency floor**: at most "
    f"{fmt(1 / full_read)} steps per second for a busy server, whatever a user pays, on this hardware.")
small = latency.state
assert np.all(small["total_s"] >= small["weights_s"])                    # the floor holds at every batch
assert np.isclose(small["total_s"][0], small["weights_s"][0], rtol=1e-3)  # and B = 1 sits on it
assert full_read / floor.weights > 10                                     # the lecture's floor is not B = 1's
# %% [markdown]
# Where the compute line crosses the memory line the regime changes: to the left the step is
# **memory-bound** (adding sequences is nearly free), to the right **compute-bound** (each sequence adds
# its own arithmetic). That crossing is the balance batch B*, the subject of notebook 02.
#
# Move the sliders: pick another rack or model, change the number formats, and slide the context up
# until the regime flips.

# %%
explorers.get("latency_vs_batch")()

# %% [markdown]
# ## Graph 2: cost per token against batch size
#
# You rent the chips by the hour; the lecture uses about **<span>&#36;</span>2 per GPU-hour**. A step of length T on
# n chips costs T·n·p, and it produces B tokens, so the cost per token is T·n·p / B:

# %%
GPU_HOUR = lecture.SAID["gpu_dollars_per_hour"]    # the lecture's "$2/hour per GPU"
show(sp.Eq(sp.Symbol("c_token"), sp.nsimplify(roofline.cost_per_token_expr)))   # $ per token; 3600 s per hour

# %% [markdown]
# Divide each term of graph 1 by B: compute per token is **flat**, KV per token is **flat**, the weight
# fetch per token is a **hyperbola** ∝ 1/B, and the cost is the larger of compute and memory:

# %%
cost = rplots.CostVsBatch(hw=hw, model=m, weight_dtype=WEIGHTS, kv_dtype=KV, context=SHORT,
                          dollars_per_chip_hour=GPU_HOUR)
cost

# %%
b_star = roofline.balance_batch(hw, m, WEIGHTS, context=0)
c_one = roofline.cost_per_token(hw, m, 1, 0, WEIGHTS, KV, dollars_per_chip_hour=GPU_HOUR)
c_star = roofline.cost_per_token(hw, m, b_star, 0, WEIGHTS, KV, dollars_per_chip_hour=GPU_HOUR)
c_big = roofline.cost_per_token(hw, m, 100 * b_star, 0, WEIGHTS, KV, dollars_per_chip_hour=GPU_HOUR)
say(f"At {fmt(GPU_HOUR, '$')}/GPU-hour, ignoring the KV term (context 0): one sequence at a time costs "
    f"**{fmt(c_one * 1e6, '$')} per million tokens**; at the balance batch B* ≈ {fmt(b_star)} it costs "
    f"**{fmt(c_star * 1e6, '$')}**, and no larger batch goes below that floor ({fmt(c_big * 1e6, '$')} at 100 × B*).")
assert np.isclose(c_star, c_big)            # the compute floor: batching stops helping at B*
assert c_one > c_star

# %% [markdown]
# That floor assumes every FLOP of the rack is busy, all the time, on decode alone. Real prices sit far
# above it: real utilisation is lower, prompts (prefill) and long contexts cost extra, and there is a margin.

# %%
api = prices.get("deepseek-v3.2")
say(f"DeepSeek's own API price for output tokens ({api.model}, {api.source.as_of}): {fmt(api.output, '$')} "
    f"per million, **{api.output / (c_star * 1e6):.0f}×** the roofline floor above.")
assert api.output > c_star * 1e6             # a bound must be below what anyone charges

# %% [markdown]
# **Takeaway:** the weight fetch sets a floor on *latency* (it does not shrink with B); compute sets a floor
# on *cost* (it does not shrink per token with B). Between them, batching trades one for the other.
#
# ### "About 1000× worse without batching"
#
# The lecture's reasoning: at B = 1 the whole weight fetch is paid by one token; at the balance batch it
# is shared by B* tokens, so the cost ratio is B* itself (thousands). That is the all-weights reading. An
# MoE at B = 1 reads only its active weights, and those cost 2·N_active/F of compute per token at the
# balance point, so the true penalty is N_active·b_w/BW ÷ 2·N_active/F = F·b_w/(2·BW): the *hardware
# ratio* (~300), the same for every model. It climbs toward B* only in the all-weights reading, which a
# real batch approaches once it touches every expert. Here is the penalty at every batch below B*:

# %%
LECTURE_WORSE = lecture.SAID["without_batching"]      # "about 1000x worse"
penalty = rplots.batching_penalty(hw, m, WEIGHTS, KV, lecture_penalty=LECTURE_WORSE)
penalty

# %%
pen = penalty.state
ratio = roofline.lecture_ratio(hw, WEIGHTS)
LECTURE_B_STAR = lecture.SAID["dsv3_balance_batch"]   # from "32 of 256 experts active" (sparsity 8) x ~300
say(f"Cost at B = 1 ÷ cost at B*: **{pen['touched'][0]:,.0f}×** when the step reads the experts it touches "
    f"(the hardware ratio of {hw.name} at {WEIGHTS} is {ratio:.0f}), **{pen['all'][0]:,.0f}×** when it reads every "
    f"weight (= B* ≈ {fmt(b_star)}). The lecture says about {LECTURE_WORSE:,}× and, a few minutes later, "
    f"B* ≈ {LECTURE_B_STAR:,} (from 32 of 256 experts active; DeepSeek-V3 routes each token to "
    f"{m.experts_per_token} of {m.n_experts}, so total/active is {m.total_params / m.active_params:.1f}: "
    f"notebook 02 takes this apart). For a dense model the two readings agree and the penalty is B*.")
assert np.isclose(pen["touched"][0], ratio, rtol=1e-6)            # B = 1 reads the active weights only
assert np.isclose(pen["all"][0], b_star, rtol=1e-6)               # the lecture's reading: B*
assert np.all(pen["touched"] <= pen["all"] * (1 + 1e-9))          # touching fewer experts is never dearer
dense_star = roofline.balance_batch(hw, "Llama-3-70B", WEIGHTS)
dense_pen = (roofline.cost_per_token(hw, "Llama-3-70B", 1, 0, WEIGHTS, KV)
             / roofline.cost_per_token(hw, "Llama-3-70B", dense_star, 0, WEIGHTS, KV))
assert np.isclose(dense_pen, dense_star, rtol=1e-6)               # dense: one reading, penalty = B*

# %% [markdown]
# **Check: the dtype cancels.** On this rack fp4 doubles the FLOP/s and halves the weight bytes, so the
# balance batch is the same in fp4 and fp8; only the dimensionless ratio the lecture calls "~300" matters
# (notebook 02).

# %%
b_fp4 = roofline.balance_batch(hw, m, "fp4", context=0)
say(f"B* in fp8: {fmt(b_star)}; in fp4: {fmt(b_fp4)}; the lecture's ratio on {hw.name}: "
    f"{roofline.lecture_ratio(hw, 'fp4'):.0f} (fp4), {roofline.lecture_ratio(hw, 'fp8'):.0f} (fp8).")
assert np.isclose(b_star, b_fp4)

# %% [markdown]
# ### Running above the balance batch
#
# The lecture adds that real deployments run **2–3× above** the balance batch: real kernels reach well
# under peak FLOP/s, so a batch sized exactly at B* would be memory-bound in practice. What that costs
# and buys, in this model (a short chat context, 500 tokens):

# %%
rows = []
for k in (1, 2, 3):
    r_k = roofline.step_time(hw, m, k * b_star, SHORT, WEIGHTS, KV)
    c_k = roofline.cost_per_token(hw, m, k * b_star, SHORT, WEIGHTS, KV, dollars_per_chip_hour=GPU_HOUR)
    rows.append((k, r_k, c_k))
say("| batch | step | bound | weight read ÷ step | $/Mtok | fits in HBM |\n|---|---:|---|---:|---:|---|\n" + "\n".join(
    f"| {k} × B* = {fmt(k * b_star)} | {fmt(r_k.total, 's')} | {r_k.bound} | {r_k.weights / r_k.total:.0%} | "
    f"{fmt(c_k * 1e6, '$')} | {'yes' if r_k.fits else 'no'} |" for k, r_k, c_k in rows))
assert all(r_k.fits for _, r_k, _ in rows)
assert rows[1][1].bound == rows[2][1].bound == "compute"
assert rows[2][1].weights / rows[2][1].total < 0.5                # bandwidth to spare for KV reads
say("**Takeaway:** 2–3× above B* the cost per token barely moves (the step is compute-bound; what is "
    "left is the KV reads), the step is 2–3× the weight floor, and the weight read uses only a third to a "
    "half of the step's bandwidth: slack that real, sub-peak kernels use up.")

# %% [markdown]
# ### A first answer to the fast-mode question
#
# Where can a 6× price buy 2.5× speed? Below the balance batch the step sits on the weight floor, so at a
# short context a smaller batch buys almost nothing: the speed-up of fast mode comes from the KV reads
# (each sequence dropped from the batch takes its KV reads with it) and from running above B* normally.
# The speed-up that paying m times the balance cost can buy, at a given context, is derived in notebook 02
# ("Fast mode, derived"); here is what it gives on this rack:

# %%
from lecture_lib import fastmode                                    # noqa: E402  (used only here)

contexts = [0, 400, 800, 1200, 1600]
toys = [fastmode.FastModeToy.from_system(hw, m, c, weight_dtype=WEIGHTS, kv_dtype=KV) for c in contexts]
speedups = [t.speedup_for_cost(price_ratio) for t in toys]
fits = [roofline.step_time(hw, m, t.balance_batch, c, WEIGHTS, KV).fits for c, t in zip(contexts, toys)]
last = roofline.step_time(hw, m, toys[-1].balance_batch, contexts[-1], WEIGHTS, KV)
say("| context (tokens) | balance batch B* | B* fits in HBM | speed-up bought by 6× the cost per token | ceiling (any price) |\n"
    "|---:|---:|---|---:|---:|\n"
    + "\n".join(f"| {c:,} | {fmt(t.balance_batch)} | {'yes' if f_ else '**no**'} | {s_:.2f}× | {t.max_speedup:.2f}× |"
                 for c, s_, t, f_ in zip(contexts, speedups, toys, fits)))
assert np.isclose(speedups[0], 1.0)                   # context 0: B*/6 is no faster than B*
assert np.all(np.diff(speedups) > 0) and all(s_ <= t.max_speedup for s_, t in zip(speedups, toys))
say(f"At context 0 fast mode buys nothing here; the speed-up grows with the context and reaches "
    f"{LECTURE_SPEEDUP}× only as the context nears the balance context "
    f"({fmt(roofline.balance_context(hw, m, WEIGHTS, KV))} tokens on this rack), where the balance batch "
    f"itself grows without bound: at {contexts[-1]:,} tokens it is {fmt(toys[-1].balance_batch)} sequences "
    f"filling {last.hbm_bytes / last.hbm_capacity:.0%} of the rack's HBM, and a little further on it no longer "
    f"fits, so the balance point fast mode is measured against cannot be run. Notebook 02 finds the context "
    f"where 2.5× becomes possible.")
assert fits[0] and last.hbm_bytes > 0.5 * last.hbm_capacity

# %% [markdown]
# A "slow mode" would sit on the cost floor and could not go below it: compute and KV reads are per
# sequence and are not shared by batching. Slower would not be much cheaper.
#
# ## Context length tilts the picture
#
# The KV slope is proportional to the context, the compute slope is not. At a long enough context the KV
# line is steeper than the compute line, and the step is memory-bound **at every batch size**. The switch
# happens where the two slopes (per sequence) are equal. There the step is compute-bound and memory-bound at
# once, with nothing idle: the lecture calls it the place you want to be.

# %%
show(sp.Eq(sp.Symbol(r"L^{*}_{\mathrm{ctx}}"), roofline.balance_context_expr()))
l_star = roofline.balance_context(hw, m, WEIGHTS, KV)
say(f"For {m.name} on {hw.name}: balance context **≈ {fmt(l_star)} tokens**. Above it no batch is compute-bound.")

# %%
rplots.ContextSlopes(hw=hw, model=m, weight_dtype=WEIGHTS, kv_dtype=KV)

# %%
# the largest batches that fit in HBM at half and at twice the balance context
below = roofline.step_time(hw, m, roofline.max_batch(hw, m, 0.5 * l_star, WEIGHTS, KV), 0.5 * l_star, WEIGHTS, KV)
above = roofline.step_time(hw, m, np.geomspace(1, roofline.max_batch(hw, m, 2 * l_star, WEIGHTS, KV), 50),
                           2 * l_star, WEIGHTS, KV)
say(f"**Takeaway:** with {fmt(m.kv_bytes_per_token(KV), 'B/token')} of KV cache, DeepSeek-V3 decode "
    f"is memory-bound at every batch beyond about {fmt(l_star)} tokens of context; a chat turn is "
    f"below that, a long coding session far above.")
assert below.bound == "compute" and np.all(above.bound == "memory")
assert below.fits and np.all(above.fits)
assert np.isinf(roofline.balance_batch(hw, m, WEIGHTS, context=2 * l_star, kv_dtype=KV))


# %% [markdown]
# ### Attention FLOPs: the term the lecture drops
#
# The lecture counts only the weight matmuls as compute. Attention also multiplies: each new token takes a
# dot product with every cached key and a weighted sum of every cached value, f_att FLOPs per cached
# token. For grouped-query attention that is small next to the bytes it reads; for DeepSeek's MLA (many
# query heads working on one compressed latent) it is not. Adding it to compute:

# %%
show(sp.Eq(sp.Symbol(r"t_{\mathrm{attn}}"), roofline.t_attention_expr))
rows = []
for name in ("DeepSeek-V3", "Kimi-K2", "Llama-3-70B", "gpt-oss-120b"):
    mm = models.get(name)
    rows.append((mm, roofline.balance_context(hw, mm, WEIGHTS, KV),
                 roofline.balance_context(hw, mm, WEIGHTS, KV, attention_flops=True)))
say("| model | attention | f_att ÷ b_kv (FLOP/byte) | balance context | with attention FLOPs |\n|---|---|---:|---:|---:|\n"
    + "\n".join(f"| {mm.name} | {mm.attention} | {mm.attention_flops_per_token() / mm.kv_bytes_per_token(KV):.0f} | "
                 f"{fmt(l0)} | {fmt(l1)} |" for mm, l0, l1 in rows))
l_star_att = rows[0][2]
say(f"The rack does {roofline.hardware_ratio(hw, WEIGHTS):.0f} FLOP per byte of HBM traffic at {WEIGHTS}. "
    f"MLA's attention does {rows[0][0].attention_flops_per_token() / rows[0][0].kv_bytes_per_token(KV):.0f} "
    f"per byte of KV it reads, so with it counted, {m.name} stays compute-bound at large batch up to "
    f"**{fmt(l_star_att)} tokens** instead of {fmt(l_star)}; for Llama-3-70B's grouped-query attention "
    f"(8 FLOP per byte) nothing visible changes.")
assert l_star_att / l_star > 1.5                                   # MLA: not small
assert rows[2][2] / rows[2][1] < 1.05                              # GQA: the lecture's simplification holds
att_step = roofline.step_time(hw, m, 256, 1000, WEIGHTS, KV, attention_flops=True)
assert att_step.attention / att_step.kv > 0.3                      # comparable to the KV read itself

# %% [markdown]
# **Takeaway:** "memory-bound at every batch beyond ~1,700 tokens" holds for the lecture's model; with
# MLA's attention FLOPs counted the boundary moves out by more than half, and past it a decode step's
# compute is no longer negligible either. (The library reports `r.attention` on every step; pass
# `attention_flops=True` to add it to compute.)
#
# Dwarkesh asks: if the sweet spot were 100K tokens and you ran 200K, would the utilisation halve? Take a
# batch whose KV caches fit in HBM at both lengths (the largest that fits at 200K). With KV reads linear in
# context (dense attention), nearly: at that batch the step is mostly KV reads, and doubling the context
# doubles them; the weight read is a fixed slice of the step, so the ratio stays a little above one half.

# %%
fit_batch = roofline.max_batch(hw, m, 200_000, WEIGHTS, KV)


def utilisation(context, batch=fit_batch):
    r = roofline.step_time(hw, m, batch, context, WEIGHTS, KV)
    assert r.fits, f"batch {batch} does not fit at {context} tokens"
    return r.compute / r.total        # fraction of the step the FLOPs are busy (the roofline's MFU)


u100, u200 = utilisation(100_000), utilisation(200_000)
say(f"At a batch of {fit_batch:,} sequences (the most that fit at 200K tokens on {hw.name}): compute "
    f"utilisation {u100:.2%} at 100K context, {u200:.2%} at 200K (ratio {u200 / u100:.2f}).")
assert 0.5 < u200 / u100 < 0.55

# %% [markdown]
# ## Dense against sparse attention
#
# Dense attention reads the whole context every step. DeepSeek's sparse attention reads a selection of
# it; the lecture describes the effect as "roughly a square root" on the context term. As a toy, let each
# step read √L tokens of KV:

# %%
long = 100_000
dense_read = roofline.kv_tokens_read(long, "dense")
sparse_read = roofline.kv_tokens_read(long, "sqrt")
say(f"At {fmt(long)} tokens of context: dense attention reads {fmt(dense_read)} tokens of KV per step, "
    f"the square-root toy {fmt(sparse_read)} — {dense_read / sparse_read:.0f}× less traffic per sequence.")
assert np.isclose(sparse_read ** 2, dense_read)

# %% [markdown]
# Where does the square-root KV line meet compute? Solve √L·b_kv/BW = 2·N_active/F:

# %%
(l_sparse_expr,) = sp.solve(sp.Eq(sp.sqrt(L_ctx) * b_kv / BW, sp.diff(roofline.t_compute_expr.subs(l_pass, 1), B)), L_ctx)
show(sp.Eq(sp.Symbol(r"L^{\sqrt{}}_{\mathrm{ctx}}"), l_sparse_expr))
l_sparse = float(l_sparse_expr.subs({N_act: m.active_params, F: hw.flops(WEIGHTS), BW: hw.hbm_bandwidth,
                                     b_kv: m.kv_bytes_per_token(KV)}))
say(f"It is the square of the dense balance context: {fmt(l_sparse)} tokens instead of {fmt(l_star)}.")
assert np.isclose(l_sparse, l_star ** 2)

# %% [markdown]
# **Takeaway:** with dense attention, long contexts push decode into the memory-bound corner at any batch;
# sparse attention pushes that corner out by orders of magnitude, which is why the lecture is excited about
# it. (It is a toy: real sparse attention selects a fixed budget of tokens and has its own costs.)
#
# Explore it: switch the model (grouped-query Llama, MLA DeepSeek, sliding-window gpt-oss) and watch the
# balance context move.

# %%
explorers.get("context_slopes")()

# %% [markdown]
# And the cost graph, live, with the rental price as a slider:

# %%
explorers.get("cost_vs_batch")()

# %% [markdown]
# ## Summary
#
# | question | answer in this model |
# |---|---|
# | What limits speed? | The weight fetch: one read of the weights the step touches (all of them once a batch touches every expert), a floor no batch size removes. |
# | What limits cost? | Compute per token: flat in B, so batching stops helping at the balance batch. |
# | Why batch at all? | B = 1 pays the whole weight fetch per token: for an MoE about the hardware ratio (~300×) more, for a dense model about B* times (thousands). |
# | What does context do? | Adds a per-sequence KV read; past the balance context decode is memory-bound at every B (later with MLA's attention FLOPs counted). |
# | Why sparse attention? | It shrinks the KV term (√L in the toy), moving that boundary out by orders of magnitude. |
#
# Next: **notebook 02**, where setting t_weights = t_compute gives the balance batch, the "~300" ratio of
# the hardware, and the lecture's DeepSeek slip.
