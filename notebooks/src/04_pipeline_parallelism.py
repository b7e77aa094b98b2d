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
# # 04 · Pipeline parallelism: spreading layers across racks
#
# *Lecture chapter 3 (47:12–1:03:37).* Chapter 2 put one MoE layer's experts inside one rack, because
# their all-to-all traffic needs the fast scale-up network. A big model has dozens of such layers. This
# notebook asks what happens when the layers themselves are spread over several racks, one group of
# layers (a **stage**) per rack, and the activations hop from rack to rack over the slower scale-out
# network:
#
# 1. **The parallelism menu**: which dimension of the model each kind of parallelism cuts.
# 2. **Is a rack boundary a bottleneck?** The lecture's test, derived, and checked against each
#    generation's real bandwidths.
# 3. **Schedules and bubbles**: inference, GPipe, 1F1B and zero-bubble schedules drawn by the library,
#    and the bubble fraction derived from the picture.
# 4. **What pipelining buys in inference**: capacity per rack, nothing else; and the memory surplus.
# 5. **Why the field is wary.**
#
# Every number is computed by `lecture_lib`; the lecture's own figures stand beside them.

# %%
import numpy as np
import sympy as sp

from lecture_lib import explorers, fmt, hardware, lecture, models, pipeline, roofline
from lecture_lib import notation as nt
from lecture_lib.lecture import SAID as L
from lecture_lib.plots import pipeline as plots
from lecture_lib.prose import say, show

chapter = lecture.CHAPTERS[2]
say(f"[Watch the chapter from {lecture.timestamp(chapter.start_s)}]({lecture.video_url(chapter.start_s)}).")

# %% [markdown]
# **The chapter's question:** an MoE layer fits in one rack; the model does not need to. Can the layers be
# spread over racks without the slow links between racks becoming the bottleneck, and what does that buy?
#
# ## 1. The parallelism menu
#
# A transformer can be cut along any dimension that is large enough:
#
# | parallelism | cuts | traffic | where it fits |
# |---|---|---|---|
# | expert (EP) | the experts of a layer | all-to-all, every layer (dispatch and combine) | inside one rack: it wants every chip connected to every other |
# | tensor (TP) | d_model / d_ff inside one matmul | all-reduce, every layer | inside a rack; much less used now that experts are small |
# | data (DP) | the batch | gradients once per step (training) | across racks |
# | pipeline (PP) | the layers | one activation per token per stage boundary | across racks |
#
# Today's answer is **experts within a rack and layers across racks**; Dwarkesh's remark was that the best
# split ends up mirroring the architecture. The registry's MoE models have enough of both to cut:

# %%
moes = [models.get(n) for n in ("DeepSeek-V3", "Kimi-K2", "Qwen3-235B-A22B", "gpt-oss-120b")]
rows = ["| model | layers | d_model | routed experts | experts per token k |", "|---|---:|---:|---:|---:|"]
rows += [f"| {m.name} | {m.n_layers} | {m.d_model:,} | {m.n_experts} | {m.experts_per_token} |" for m in moes]
say("\n".join(rows))

# %%
gb300 = hardware.get("GB300-NVL72")
say(f"**Takeaway:** every one of these models has at least {min(m.n_experts for m in moes)} experts per layer to "
    f"spread over a rack of {gb300.n_chips} chips, and {min(m.n_layers for m in moes)} or more layers to spread over "
    "racks.")
assert all(m.n_experts >= 64 and m.n_layers >= 2 * L["spread_racks"] for m in moes)

# %% [markdown]
# ## 2. Is a rack boundary a bottleneck?
#
# **Question.** Put $L_\text{stage}$ MoE layers in each rack. Inside the rack, every layer sends each token
# to its $k$ experts and back. At the boundary, the token's activation crosses to the next rack once. Which
# traffic takes longer?
#
# One activation vector is $d_\text{model}$ numbers of $b_\text{act}$ bytes. Per token and per stage:

# %%
up_bytes = 2 * nt.k_act * nt.d_model * nt.b_act * nt.L_st      # dispatch + combine, k experts, every layer
out_bytes = nt.d_model * nt.b_act                              # the activation, once, to the next rack
t_up, t_out = up_bytes / nt.W_up, out_bytes / nt.W_out        # per-chip bandwidths, one direction each
ratio = sp.simplify(t_up / t_out)
show(ratio, lhs=r"\frac{t_\text{scale-up}}{t_\text{scale-out}}")
assert sp.simplify(ratio - pipeline.boundary_ratio_bw_expr) == 0

# %% [markdown]
# $d_\text{model}$ and the precision cancel: only the *pattern* of the traffic matters. Every chip handles
# its share of the tokens, and that share cancels too. Write the bandwidth ratio as
# $\rho = W_\text{up} / W_\text{out}$ ("scale-out is about 8× slower") and the lecture's blackboard form
# appears:

# %%
lecture_form = ratio.subs(nt.W_up, nt.rho_bw * nt.W_out)
show(pipeline.lecture_boundary_expr, lhs=r"\frac{t_\text{scale-up}}{t_\text{scale-out}}")
assert sp.simplify(lecture_form - pipeline.lecture_boundary_expr) == 0
(L_min,) = sp.solve(sp.Eq(lecture_form, 1), nt.L_st)
show(L_min, lhs=r"L_\text{stage} \geq")
assert sp.simplify(L_min - pipeline.min_layers_expr()) == 0

# %% [markdown]
# The ×2 is dispatch plus combine (Dwarkesh supplied it); $k$ is the fan-out to the experts; only the
# activated experts' chips receive traffic. With the lecture's numbers, $\rho = 8$ and $k = 8$:

# %%
said = pipeline.boundary_ratio_k(L["typical_k"], L["one_rack_per_layer"], L["scaleout_slower"])
say(f"(1/{L['scaleout_slower']}) · {L['typical_k']} · {L['one_rack_per_layer']} · 2 = **{said:g}** ≥ 1: with one "
    f"MoE layer per rack, the in-rack expert traffic takes {said:g}× as long as the boundary crossing.")
assert said >= 1

# %%
gb200 = hardware.get("GB200-NVL72")
say(f"**With the registry's real bandwidths.** The lecture's \"about {L['scaleout_slower']}× slower\" is a round "
    f"number. Per chip and per direction, NVLink 5 gives {fmt(gb200.scaleup_bandwidth, 'B/s')}; an NVL72 rack "
    f"pairs each GPU with one NIC, {8 * gb200.scaleout_bandwidth / 1e9:.0f} Gb/s ({fmt(gb200.scaleout_bandwidth, 'B/s')}) "
    f"on GB200 and {8 * gb300.scaleout_bandwidth / 1e9:.0f} Gb/s ({fmt(gb300.scaleout_bandwidth, 'B/s')}) on GB300:")
ratios = pipeline.registry_bandwidth_ratios()
k2 = models.get("Kimi-K2")
rows = ["| system | scale-up (one way) | scale-out (one way) | ρ | ratio at L_stage = 1, "
        f"k = {k2.experts_per_token} | layers per stage needed |",
        "|---|---:|---:|---:|---:|---:|"]
for name, rho in ratios.items():
    hw = hardware.get(name)
    need = pipeline.min_layers_per_stage(k2, rho)
    rows.append(f"| {name} | {fmt(hw.scaleup_bandwidth, 'B/s')} | {fmt(hw.scaleout_bandwidth, 'B/s')} | {rho:g} | "
                f"{pipeline.boundary_ratio(k2, 1, rho):.2f} | {int(np.ceil(need))} |")
say("\n".join(rows))

# %%
plots.boundary_by_system("Kimi-K2")

# %%
gb200_need = pipeline.min_layers_per_stage(k2, ratios["GB200-NVL72"])
gb300_need = pipeline.min_layers_per_stage(k2, ratios["GB300-NVL72"])
say(f"**Takeaway:** the boundary is no bottleneck once L_stage ≥ ρ / (2k). With k = {k2.experts_per_token} "
    f"(DeepSeek-V3, Kimi-K2, Qwen3), \"even one rack per layer\" holds on GB300-NVL72 (ρ = {ratios['GB300-NVL72']:g}, "
    f"needs {gb300_need:.2f} layers) and HGX-H100 (ρ = {ratios['HGX-H100']:g}). With GB200's 400 Gb/s NIC per GPU "
    f"(ρ = {ratios['GB200-NVL72']:g}) it needs {gb200_need:.3g}, so **two** layers per rack; a model with k = 2 "
    f"(Mixtral) needs {pipeline.min_layers_per_stage('Mixtral-8x7B', ratios['GB200-NVL72']):.1f}. Either way a "
    f"rack holds dozens of layers' worth of stage, so the lecture's conclusion stands.")
assert gb300_need <= 1 < gb200_need <= 2
assert all(pipeline.min_layers_per_stage(m, r) < m.n_layers / 8 for m in moes for r in ratios.values())

# %% [markdown]
# **Explore:** move $k$, the layers per stage and the bandwidth ratio. Where does a model with $k = 1$
# (Switch Transformer style) land on a GB200 rack?

# %%
boundary_explorer = explorers.get("rack_boundary")()
boundary_explorer

# %% [markdown]
# ## 3. Schedules and bubbles
#
# **Inference first.** Four racks, time on x, stage on y (the lecture's picture). Micro-batch 0 steps
# diagonally through the stages; micro-batch 1 enters stage 0 as soon as stage 0 is free; and so on. When a
# micro-batch leaves the last stage it has its next token and re-enters stage 0. Nothing forces a gap:

# %%
plots.schedule_chart("inference", L["pipeline_racks"], L["pipeline_racks"], tokens=3)

# %%
inf = pipeline.schedule("inference", L["pipeline_racks"], L["pipeline_racks"], tokens=3)
inf_idle = pipeline.idle_fraction(inf, inf.steady_window)
few = pipeline.schedule("inference", L["pipeline_racks"], 2, tokens=3)
few_idle = pipeline.idle_fraction(few, few.steady_window)
say(f"Once the pipeline is full, with {inf.microbatches} micro-batches on {inf.stages} stages each stage is idle "
    f"**{inf_idle:.0%}** of the time. The hatched triangle at the start is paid once for a serving run of "
    f"days. With only 2 micro-batches in flight, each stage idles **{few_idle:.0%}** of the time: keeping P stages "
    f"busy takes P micro-batches in flight (flashcard 13, and notebook 05's reason why KV memory does not shrink with P).")
assert inf_idle == 0 and few_idle == pipeline.inference_idle_fraction(4, 2) == 0.5

# %% [markdown]
# **Training.** A training step needs the whole batch's gradient before the optimizer updates the weights,
# and the next batch needs those new weights (flashcard 12). So the step runs every micro-batch forward,
# then every micro-batch backward, then stops: the **hard stop**. The idle triangles are the **bubble**:
# at the start the late stages wait for work; at the end the early stages have finished and wait
# (flashcard 11).
#
# **Derive the bubble from the picture.** One micro-batch takes $t_F$ forward and $t_B + t_W$ backward on
# one stage. Micro-batch $M-1$ enters stage 0 at $(M-1)\,t_F$ and leaves stage $P-1$ at $(M+P-1)\,t_F$. The
# backward mirrors it. Each stage works $M$ passes each way:

# %%
P, M = nt.P, nt.M_mb
last_forward_ends = (M - 1) * nt.t_F + P * nt.t_F
makespan = last_forward_ends + (M + P - 1) * (nt.t_B + nt.t_W)
busy = M * (nt.t_F + nt.t_B + nt.t_W)
bubble = sp.factor(sp.cancel(1 - busy / makespan))
show(bubble, lhs=r"\text{bubble}")
assert sp.simplify(bubble - pipeline.bubble_fraction_expr) == 0
assert sp.limit(bubble, M, sp.oo) == 0 and bubble.subs(P, 1) == 0

# %% [markdown]
# The backward's cost drops out: the bubble is a fraction of the step whatever $t_B$ is. The library draws the
# schedules from their dependencies (not from the formula), so the formula can be checked on the picture:

# %%
plots.schedules_figure(L["pipeline_racks"], 8)

# %%
rows = ["| P | M | GPipe measured | 1F1B measured | (P−1)/(M+P−1) | zero bubble ZB-H1 measured |",
        "|---:|---:|---:|---:|---:|---:|"]
cases = [(4, 4), (4, 8), (4, 16), (8, 32)]
for p_, m_ in cases:
    g, f, z = (pipeline.idle_fraction(pipeline.schedule(k, p_, m_)) for k in ("gpipe", "1f1b", "zero-bubble"))
    rows.append(f"| {p_} | {m_} | {g:.1%} | {f:.1%} | {pipeline.bubble_fraction(p_, m_):.1%} | {z:.1%} |")
    assert np.isclose(g, pipeline.bubble_fraction(p_, m_)) and np.isclose(f, g) and z < g
say("\n".join(rows))

# %% [markdown]
# The formula is the standard one (GPipe, Huang et al. 2019, [arXiv 1811.06965](https://arxiv.org/abs/1811.06965));
# the lecture draws the picture but does not write it down.
#
# **1F1B** (one forward, one backward) interleaves the two directions. It has the *same* bubble; what it
# saves is memory: a stage holds the activations of at most $P$ micro-batches instead of all $M$.
#
# **Zero bubble** (from outside the lecture: Qi et al. 2024, [arXiv 2401.10241](https://arxiv.org/abs/2401.10241)).
# The backward pass splits into B (gradient for the input, which the previous stage waits for) and W
# (gradient for the weights, which nobody waits for). Their handcrafted ZB-H1 schedule runs each stage's W
# passes late, into the tail that would have been idle, with 1F1B's memory. The paper's bubble per stage is
# $(P-1)(t_F + t_B - t_W)$, a third of 1F1B's when $t_F = t_B = t_W$; ZB-H2 and their automatic scheduler get to
# about zero with more memory and by relaxing the optimizer step's synchronisation. The lecture's version of
# this: the bubble can hold the weight-gradient step ("or you could mine Bitcoin").

# %%
zb = pipeline.schedule("zero-bubble", 4, 8)
one = pipeline.schedule("1f1b", 4, 8)
zb_idle, one_idle = pipeline.idle_fraction(zb), pipeline.idle_fraction(one)
show(pipeline.zero_bubble_fraction_expr, lhs=r"\text{bubble}_\text{ZB-H1}")
say(f"P = 4, M = 8 with t_F = t_B = t_W: 1F1B idles **{one_idle:.1%}** of its step; ZB-H1 **{zb_idle:.1%}** "
    f"(the paper's formula gives {pipeline.zero_bubble_fraction(4, 8):.1%}). Idle stage-time: "
    f"{one_idle * one.makespan * 4:g} vs {zb_idle * zb.makespan * 4:g} stage-passes.")
assert np.isclose(zb_idle, pipeline.zero_bubble_fraction(4, 8))
assert np.isclose(zb_idle * zb.makespan, one_idle * one.makespan / 3)

# %% [markdown]
# **What shrinks the bubble is more micro-batches, that is, a bigger batch per step.** How many does a
# stage count need for a bubble of at most 5%?

# %%
target = sp.Rational(5, 100)
(M_needed,) = sp.solve(sp.Eq(pipeline.bubble_fraction_expr, target), M)
show(M_needed, lhs=r"M_{5\%}")
need = {p_: int(np.ceil(float(M_needed.subs(P, p_)))) for p_ in (4, 8, 16)}
say("At most 5% bubble needs " + ", ".join(f"M ≥ {v} micro-batches for P = {p_}" for p_, v in need.items())
    + ". From the ML side a smaller batch is better (fresher gradients per token); from the systems side a "
    "bigger one amortises the bubble (and the weight reads of chapter 1). The batch is a trade-off.")
assert all(pipeline.bubble_fraction(p_, v) <= 0.05 < pipeline.bubble_fraction(p_, v - 1) for p_, v in need.items())

# %%
say(f"**Takeaway:** in inference there is no hard stop, so a full pipeline has no bubble. In training the "
    f"bubble is (P−1)/(M+P−1) for GPipe and 1F1B alike ({pipeline.bubble_fraction(4, 4):.0%} at P = M = 4); it "
    f"falls only with more micro-batches, or with the zero-bubble trick of filling it with weight-gradient work.")
assert pipeline.bubble_fraction(4, 4) > 0.4 and inf_idle == 0

# %% [markdown]
# **Explore:** pick a schedule, the stages and the micro-batches; the box in the corner compares the idle
# fraction measured on the chart with the formula. What happens to 1F1B and zero bubble when M < P? The time
# axis is a fraction of the step, so the grey share of the picture *is* the bubble.

# %%
schedule_explorer = explorers.get("pipeline_schedule")()
schedule_explorer

# %% [markdown]
# ## 4. What pipelining buys in inference
#
# **Question.** Spread the layers over P racks. Does a token come out sooner? Can the batch be bigger?
#
# Each stage holds 1/P of the layers, so it reads 1/P of the weights and of the KV cache and does 1/P of
# the matmuls, on a rack just as fast as before. Both roofline terms shrink by P per stage, and a token
# passes all P stages:

# %%
shrink = {nt.N_tot: nt.N_tot / P, nt.N_act: nt.N_act / P, nt.b_kv: nt.b_kv / P}
per_stage = {name: e.subs(shrink) for name, e in
             (("compute", roofline.t_compute_expr), ("memory", roofline.t_mem_expr))}
for name, e in per_stage.items():
    show(sp.Eq(sp.Symbol(rf"P \cdot t_\text{{{name}, stage}}"), sp.simplify(P * e)))
assert all(sp.simplify(P * per_stage[n] - e) == 0
           for n, e in (("compute", roofline.t_compute_expr), ("memory", roofline.t_mem_expr)))

# %% [markdown]
# So latency (hop latency aside, notebook 05) and the balance batch are unchanged: putting all stages in one
# rack just slides the boxes of the inference picture together. **Pipelining buys capacity per rack only.**
# Is capacity short? The lecture: "a 1T-parameter model needs only about 1 TB", a Blackwell rack has
# "many tens of TB". The registry's 1T model is Kimi-K2:

# %%
plots.capacity_bars("Kimi-K2")

# %%
racks = ["HGX-H100", "HGX-B200", "GB200-NVL72", "GB300-NVL72"]
caps = {r: pipeline.capacity(r, k2, 1, "fp8") for r in racks}
spread = {r: pipeline.capacity(r, k2, L["spread_racks"], "fp8") for r in racks}
rows = ["| system | HBM | Kimi-K2 fp8 weights | HBM per GPU built | weights per GPU, 1 rack | weights per GPU, "
        f"{L['spread_racks']} racks |", "|---|---:|---:|---:|---:|---:|"]
for r in racks:
    c, s = caps[r], spread[r]
    rows.append(f"| {r} | {fmt(c.rack_hbm, 'B')} | {c.weight_fraction:.0%} | {fmt(c.hbm_per_chip, 'B')} | "
                f"{fmt(c.weights_per_chip, 'B') if c.weight_fraction <= 1 else 'does not fit'} | {fmt(s.weights_per_chip, 'B')} |")
say("\n".join(rows))
say(f"The lecture: \"{L['rack_memory']}\" per Blackwell rack; the registry: {fmt(caps['GB200-NVL72'].rack_hbm, 'B')} "
    f"(GB200-NVL72) and {fmt(caps['GB300-NVL72'].rack_hbm, 'B')} (GB300-NVL72), so \"tens\" is generous. The "
    f"1T model: {fmt(L['model_1t_bytes'], 'B')} said, {fmt(k2.weight_bytes('fp8'), 'B')} for Kimi-K2's "
    f"{k2.total_params / 1e12:.2f}T parameters in fp8.")
assert 0.04 < caps["GB300-NVL72"].weight_fraction < 0.06 and caps["HGX-H100"].weight_fraction > 1

# %% [markdown]
# **The design implication.** Spread over the lecture's ~8 racks, each GPU would need only a few GB for
# weights, against the hundreds it has: "you could have built less HBM per GPU". But the weights are not all
# that sits in HBM. The sequences in flight keep their KV caches, and that part does **not** shrink with P
# (each rack holds its 1/P of the layers for all P micro-batches in flight; notebook 05 does the full
# count). How long may the context get before weights plus a balance batch of KV fill a rack?

# %%
rows = ["| system | balance batch (fp8 weights) | context that fills the rack, 1 stage | … spread over "
        f"{L['spread_racks']} racks |", "|---|---:|---:|---:|"]
fills = {}
for r in ("GB200-NVL72", "GB300-NVL72"):
    b_star = roofline.balance_batch(r, k2, weight_dtype="fp8")
    fills[r] = (pipeline.fill_context(r, k2, b_star), pipeline.fill_context(r, k2, b_star, L["spread_racks"]))
    rows.append(f"| {r} | {b_star:,.0f} | {fills[r][0]:,.0f} tokens | {fills[r][1]:,.0f} tokens |")
    # cross-check with roofline.max_batch, an independent route: at that context the balance batch just fits
    assert roofline.max_batch(r, k2, fills[r][0] * 0.99, "fp8") >= b_star > roofline.max_batch(r, k2, fills[r][0] * 1.01, "fp8")
say("\n".join(rows))

# %%
per_gpu_8 = pipeline.hbm_per_chip_needed("GB300-NVL72", k2, L["spread_racks"], roofline.balance_batch(
    "GB300-NVL72", k2, weight_dtype="fp8"), 8_000)
say(f"**Takeaway:** pipelining buys capacity per rack and nothing else, and for weights the rack is in "
    f"surplus: Kimi-K2 in fp8 fills {caps['GB300-NVL72'].weight_fraction:.0%} of a GB300-NVL72. Spread over "
    f"{L['spread_racks']} racks it would need {fmt(spread['GB300-NVL72'].weights_per_chip, 'B')} of weights per GPU, "
    f"and with a balance batch of 8K-token sequences (bf16 KV, {fmt(k2.kv_bytes_per_token('bf16'), 'B')} per token) "
    f"{fmt(per_gpu_8, 'B')} per GPU in all, against {fmt(gb300.hbm_capacity / gb300.n_chips, 'B')} built. The "
    f"surplus lasts while the context stays short: at the balance batch the KV alone fills the rack near "
    f"{fills['GB300-NVL72'][0] / 1e3:,.0f}K tokens of context.")
assert per_gpu_8 < gb300.hbm_capacity / gb300.n_chips / 2
assert fills["GB300-NVL72"][1] > fills["GB300-NVL72"][0] > 1e4

# %% [markdown]
# ## 5. Why the field is wary
#
# *Short, and sourced where we could check it.*
#
# * **"As we now know, pipelining is not wise."** Ilya Sutskever said this in his test-of-time talk at
#   NeurIPS 2024 (December 2024), looking back at the 2014 sequence-to-sequence paper (Sutskever, Vinyals
#   and Le, [arXiv 1409.3215](https://arxiv.org/abs/1409.3215)). Section 3.5 of that paper describes the setup:
#   an 8-GPU machine, the 4 LSTM layers one per GPU, each passing its activations to the next as soon as
#   they were computed, the other 4 GPUs sharing the softmax; about 6,300 words per second at a
#   minibatch of 128, about ten days of training. The quotation is as relayed in the lecture; we have not
#   checked the slide's exact wording against the talk's video.
# * **Horace He's argument**, relayed by Dwarkesh in the lecture (we have no written source): beyond the
#   bubbles, pipelining constrains the architecture. Connections to earlier layers (the lecture's example is
#   Kimi's attention over earlier layers' residuals) are awkward when those layers sit on another stage, and
#   layers of different cost (sliding-window vs global attention) unbalance the stages, and the slowest stage
#   sets the pace. That friction slows research iteration.
# * **Reiner's view:** the complexity is real, pipelining is "a massive hassle", but its benefits can be
#   weighed against it; section 2 shows the bandwidth side is not the obstacle.
# * **The batch-size trade-off in training:** section 3's bubble falls only with more micro-batches per
#   step. Past a model's *critical batch size* (McCandlish et al. 2018, [arXiv 1812.06162](https://arxiv.org/abs/1812.06162))
#   a bigger batch buys little progress per token, so the micro-batches that would hide the bubble are not free.

# %%
say(f"**Takeaway:** the objection to pipelining is not bandwidth (section 2) and in inference not bubbles "
    f"(section 3); it is the training bubble's pull toward bigger batches ({need[8]} micro-batches for a 5% bubble "
    f"at P = 8) and the constraints on the architecture.")
assert need[8] > 100
