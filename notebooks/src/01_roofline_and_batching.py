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

from lecture_lib import explorers, hardware, lecture, models, notation, prices, roofline
from lecture_lib.notation import BW, B, F, L_ctx, N_act, N_tot, b_kv, b_w, l_pass
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
# * **Weight fetch.** Every weight is read from HBM once per step, *whoever* uses it: the whole batch
#   shares one read. So this term does not depend on B. (For an MoE it is all experts the batch touches,
#   which is all of them once B × experts-per-token is well above the expert count.)

# %%
show(sp.Eq(notation.t_weights, roofline.t_weights_expr))

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
          F: hw.flops(WEIGHTS), BW: hw.hbm_bandwidth}
by_hand = {name: float(expr.subs(values)) for name, expr in
           [("compute", roofline.t_compute_expr), ("weights", roofline.t_weights_expr), ("kv", roofline.t_kv_expr)]}
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
say(f"**Takeaway:** the step can never take less than the weight fetch, {fmt(floor.weights, 's')} here "
    f"({fmt(m.weight_bytes(WEIGHTS), 'B')} of weights ÷ {fmt(hw.hbm_bandwidth, 'B/s')}). "
    f"That is the **latency floor**: at most {fmt(1 / floor.weights)} tokens per second for any one "
    f"sequence, whatever you pay, on this hardware.")
small = latency.state
assert np.all(small["total_s"] >= small["weights_s"])                    # the floor holds at every batch
assert np.isclose(small["total_s"][0], small["weights_s"][0], rtol=1e-3)  # and B = 1 sits on it

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
# You rent the chips by the hour; the lecture uses about **$2 per GPU-hour**. A step of length T on
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
# At B = 1 the whole weight fetch is paid by one token; at the balance batch it is shared by B* tokens.
# So the ratio of the two costs is B* itself:

# %%
without_batching = c_one / c_star
LECTURE_WORSE = lecture.SAID["without_batching"]      # "about 1000x worse"
LECTURE_B_STAR = lecture.SAID["dsv3_balance_batch"]   # from "32 of 256 experts active" (sparsity 8) x ~300
say(f"Cost at B = 1 ÷ cost at B*: **{without_batching:,.0f}×**, equal to B* ≈ {fmt(b_star)}. "
    f"The lecture says about {LECTURE_WORSE:,}× and, a few minutes later, B* ≈ {LECTURE_B_STAR:,}. "
    f"Its B* uses 32 of 256 experts active; DeepSeek-V3 routes each token to {m.experts_per_token} of "
    f"{m.n_experts} (plus a shared expert), so total/active is {m.total_params / m.active_params:.1f}, "
    f"not 8, and B* is larger (notebook 02 takes this apart). Either way: three orders of magnitude.")
assert np.isclose(without_batching, b_star, rtol=1e-6)
assert without_batching > LECTURE_WORSE

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
# ### A first answer to the fast-mode question
#
# If the provider normally runs k times above the balance batch (the lecture: "2–3× above", because real
# efficiency is below the roofline), each step takes k × the floor. Dropping the batch to B* or below
# brings the step down to the floor: k× faster, and **never more** — that is why 100× the price cannot buy
# 100× the speed. Pricing the fast tier at 6× matches a fast batch of B*/6: the weight fetch is then
# shared by 6× fewer tokens.

# %%
B_normal, B_fast = LECTURE_SPEEDUP * b_star, b_star / price_ratio
normal = roofline.step_time(hw, m, B_normal, 0, WEIGHTS, KV)
quick = roofline.step_time(hw, m, B_fast, 0, WEIGHTS, KV)
speedup = normal.total / quick.total
cost_ratio = (roofline.cost_per_token(hw, m, B_fast, 0, WEIGHTS, KV)
              / roofline.cost_per_token(hw, m, B_normal, 0, WEIGHTS, KV))
say(f"Normal batch {fmt(B_normal)} (step {fmt(normal.total, 's')}), fast batch {fmt(B_fast)} "
    f"(step {fmt(quick.total, 's')}): **{speedup:.2g}× the speed for {cost_ratio:.2g}× the cost per token**. "
    f"One consistent reading of the prices, not a disclosure: speculative decoding and more chips per "
    f"replica are other levers.")
assert np.isclose(speedup, LECTURE_SPEEDUP) and np.isclose(cost_ratio, price_ratio)
assert np.isclose(quick.total, quick.weights)    # the fast batch sits on the latency floor

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
below = roofline.step_time(hw, m, 1e6, 0.5 * l_star, WEIGHTS, KV)
above = roofline.step_time(hw, m, np.geomspace(1, 1e7, 50), 2 * l_star, WEIGHTS, KV)
say(f"**Takeaway:** with {fmt(m.kv_bytes_per_token(KV), 'B/token')} of KV cache, DeepSeek-V3 decode "
    f"is memory-bound at every batch beyond about {fmt(l_star)} tokens of context; a chat turn is "
    f"below that, a long coding session far above.")
assert below.bound == "compute" and np.all(above.bound == "memory")
assert np.isinf(roofline.balance_batch(hw, m, WEIGHTS, context=2 * l_star, kv_dtype=KV))


# %% [markdown]
# Dwarkesh asks: if the sweet spot were 100K tokens and you ran 200K, would the utilisation halve? Under
# this model, with KV reads linear in context (dense attention), yes: at large batch the step is almost all
# KV reads, and doubling the context doubles them.

# %%
def utilisation(context, batch=4096):
    r = roofline.step_time(hw, m, batch, context, WEIGHTS, KV)
    return r.compute / r.total        # fraction of the step the FLOPs are busy (the roofline's MFU)

u100, u200 = utilisation(100_000), utilisation(200_000)
say(f"Compute utilisation at 100K context: {u100:.2%}; at 200K: {u200:.2%} (ratio {u200 / u100:.2f}).")
assert 0.48 < u200 / u100 < 0.52

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
# | What limits speed? | The weight fetch: one read of all weights per step, a floor no batch size removes. |
# | What limits cost? | Compute per token: flat in B, so batching stops helping at the balance batch. |
# | Why batch at all? | B = 1 pays the whole weight fetch per token: about B* times the cost (thousands). |
# | What does context do? | Adds a per-sequence KV read; past the balance context decode is memory-bound at every B. |
# | Why sparse attention? | It shrinks the KV term (√L in the toy), moving that boundary out by orders of magnitude. |
#
# Next: **notebook 02**, where setting t_weights = t_compute gives the balance batch, the "~300" ratio of
# the hardware, and the lecture's DeepSeek slip.
