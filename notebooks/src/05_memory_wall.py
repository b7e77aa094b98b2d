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
# # 05 · "As we now know, pipelining is not wise": the memory wall
#
# *Lecture chapter 4 (1:03:37–1:18:59).* **The question:** memory has become one of the most expensive
# parts of an AI data centre, yet a Blackwell rack seems to carry far more HBM than a model needs. Why
# would anyone buy that much memory, and why doesn't pipelining (spreading the layers over several racks)
# let them buy less?
#
# 1. **Memory per GPU** with expert parallelism E and pipelining P, and why the KV term does not shrink with P.
# 2. **What labs do**: DeepSeek's published layouts.
# 3. **Hop latency**: what P rack hops add to each token, as a range.
# 4. **Bandwidth, not capacity**: what a bigger scale-up domain really buys.
# 5. **The longest context per GPU**, by model and by chip generation.
#
# Every number below comes from `lecture_lib`. Where the lecture says something, its figure stands beside
# ours (`SAID`). Each claim is followed by an `assert`.

# %%
import numpy as np
import sympy as sp

from lecture_lib import deployments, explorers, hardware, lecture, memory, models, pipeline, roofline
from lecture_lib import notation as nt
from lecture_lib.lecture import SAID as L
from lecture_lib.plots import memory as plots
from lecture_lib.plots import pipeline as pplots
from lecture_lib.prose import say, show
from lecture_lib.units import fmt

chapter = lecture.CHAPTERS[3]
say(f"[Watch this section]({lecture.video_url(chapter.start_s)}) ({lecture.timestamp(chapter.start_s)} to "
    f"{lecture.timestamp(lecture.CHAPTERS[4].start_s)}): *{chapter.title}*.")

# %% [markdown]
# ## 0. The puzzle
#
# Dwarkesh relays two things: smartphone volumes may fall because memory got expensive, and Dylan Patel
# says hyperscalers spend about half of this year's capital expenditure on memory. Reiner finds that
# believable. **Neither figure is verified here**: the 50% is a claim passed on second-hand in a
# conversation, not a published number.

# %%
say(f"Relayed claims (unverified): ~{L['capex_memory_share']:.0%} of hyperscaler CapEx on memory; CapEx of "
    f"'high hundreds of billions, maybe a trillion' (up to {fmt(L['hyperscaler_capex'], '$')}); smartphone volume "
    f"down ~{L['smartphone_drop']:.0%}.")

# %% [markdown]
# Now the other side. The last chapter's example: a 1T-parameter model in fp8 needs about 1 TB for its
# weights. One GB300 NVL72 rack holds:

# %%
rack = hardware.get("GB300-NVL72")
one_t = L["model_1t_bytes"]
share = one_t / rack.hbm_capacity
say(f"{rack.name}: {fmt(rack.hbm_capacity, 'B')} of HBM. A {fmt(L['model_1t_params'], 'params')} model in fp8 "
    f"({fmt(one_t, 'B')}) fills **{share:.1%}** of it.")
say(f"So memory is scarce and expensive, yet a rack holds **{1 / share:.0f}×** the weights of a large model.")
assert share < 0.1

# %% [markdown]
# Either the rest is wasted, or something else needs it. The rest of the notebook shows it is the KV cache, and that
# pipelining cannot shrink it.
#
# ## 1. Memory per GPU
#
# **Question.** A model is spread over E GPUs of one rack (expert parallelism) and over P racks (pipeline
# stages, each holding 1/P of the layers). How many bytes does each GPU hold?
#
# The whole deployment holds the weights once and the KV cache of every sequence in flight. Reiner spreads
# both evenly over all E·P GPUs (for the KV cache that is hand-waved: it is a good first guess):

# %%
N_tot, b_w, B, L_ctx, b_kv, E, P, b = nt.N_tot, nt.b_w, nt.B, nt.L_ctx, nt.b_kv, nt.E, nt.P, nt.b_mb
total_demand = N_tot * b_w + B * L_ctx * b_kv          # weights once + every sequence's KV cache
c_mem = total_demand / (E * P)
show(c_mem, lhs=r"c_{\mathrm{mem}}")
assert sp.simplify(c_mem - memory.c_mem_expr) == 0

# %% [markdown]
# In the lecture $N_\text{total}$ is already in bytes; here it is parameters times $b_w$ bytes each.
# Read naively, the P in the denominator says: pipeline over more racks and everything per GPU shrinks,
# the KV caches included. That is the mistake.
#
# ### 1.1 The decode loop needs P micro-batches
#
# In decode, a micro-batch of b sequences goes through stage 0, then stage 1, ..., then the last stage
# samples one token each, and the micro-batch goes back to stage 0 for the next token. How many
# micro-batches must be in flight so that no stage waits? Here is chapter 3's schedule picture with P = 4
# stages and only M = 2 micro-batches:

# %%
stages = L["pipeline_stages"]
pplots.schedule_chart("inference", stages, 2, tokens=3)

# %% [markdown]
# Half the boxes are missing: each stage works half the time. With M = P the loop is full:

# %%
pplots.schedule_chart("inference", stages, stages, tokens=3)

# %%
idle = {m: pipeline.inference_idle_fraction(stages, m) for m in range(1, stages + 2)}
tl = pipeline.schedule("inference", stages, stages, tokens=3)
measured = pipeline.idle_fraction(tl, tl.steady_window)
say("Idle fraction of each stage with P = 4 and M micro-batches: "
    + ", ".join(f"M = {m}: {v:.0%}" for m, v in idle.items()) + f". Measured on the M = P picture: {measured:.0%}.")
assert idle[stages] == 0 and all(idle[m] > 0 for m in range(1, stages)) and measured == 0

# %% [markdown]
# So the fewest micro-batches that keep every stage busy is **P**, and the sequences in flight are
# B = P·b. Each micro-batch b is "the train that leaves every step", the batch chapter 1 sized at about
# 300 / sparsity. (Reiner first said b ≈ 2,000, then corrected himself to 300 × sparsity: for DeepSeek-V3
# with his "8" that is the 2,400 used below.)
#
# ### 1.2 Substitute B = P·b

# %%
c_mem_micro = sp.expand(c_mem.subs(B, P * b))
show(c_mem_micro, lhs=r"c_{\mathrm{mem}}")
weights_term, kv_term = c_mem_micro.args if P in c_mem_micro.args[0].free_symbols else c_mem_micro.args[::-1]
show(weights_term, lhs=r"\text{weights per GPU}")
show(kv_term, lhs=r"\text{KV per GPU}")
assert P in weights_term.free_symbols and P not in kv_term.free_symbols
assert sp.simplify(kv_term - memory.kv_per_chip_micro_expr) == 0
assert sp.simplify(c_mem_micro - memory.c_mem_micro_expr) == 0

# %% [markdown]
# **P cancels out of the KV term.** Each rack stores the KV cache of only its own 1/P of the layers, but
# for P times as many sequences. The two effects cancel exactly.
#
# With the chapter's numbers (syllabus §5, ch.4 problem 1): a 2T-parameter model in fp8 (2 TB), E = 64
# GPUs per rack, b = 2,400, 100K tokens of context at ~2 KB per token:

# %%
toy = memory.lecture_model()
E_, b_ = L["expert_parallel"], L["dsv3_balance_batch"]
Ps = np.array([1, 2, 4, 8])
r = memory.per_chip_bytes_micro(toy, b_, 100_000, E_, Ps)
rows = ["| P | weights per GPU | KV per GPU | total |", "|---:|---:|---:|---:|"]
rows += [f"| {p} | {fmt(w, 'B')} | {fmt(k, 'B')} | {fmt(t, 'B')} |" for p, w, k, t in zip(Ps, r.weights, r.kv, r.total)]
say("\n".join(rows))
crossover = r.weights[0] / r.kv[0]           # the P at which weights per GPU fall to the KV per GPU
long = memory.per_chip_bytes_micro(toy, b_, 1_000_000, E_, 1)
say(f"KV bytes per token of this hypothetical model: {fmt(toy.kv_bytes_per_token('bf16'), 'B/token')}. "
    f"The weights fall to the KV's size at P ≈ {crossover:.1f}; past it the KV cache is most of each GPU's "
    f"memory ({r.kv[3] / r.total[3]:.0%} at P = 8). At 1M tokens of context the KV per GPU is "
    f"{fmt(long.kv, 'B')}, more than the weights ({fmt(long.weights, 'B')}) already at P = 1.")
assert np.ptp(r.kv) == 0 and np.allclose(r.weights * Ps, r.weights[0])
assert r.kv[3] > r.weights[3] and r.kv[0] < r.weights[0] and long.kv > long.weights

# %% [markdown]
# The same check through the contract function, with the global batch B = P·b passed in explicitly:

# %%
direct = memory.per_chip_bytes(toy, Ps * b_, 100_000, E_, Ps)
assert np.allclose(direct.kv, r.kv) and np.allclose(direct.total, r.total)

# %%
say(f"Reiner says that \"once P is even 2, KV dominates\". With these numbers that takes P ≈ {crossover:.0f} at "
    f"{fmt(100_000, 'tok')}, and P = 1 at {fmt(1_000_000, 'tok')}: how soon depends on the context, but past that "
    "point more stages buy almost nothing.")
assert crossover > 2 and long.kv > long.weights

# %% [markdown]
# **Takeaway.** The KV cache cannot be amortized over the batch (every sequence has its own), and it cannot
# be sharded away by pipelining (more stages need proportionally more sequences in flight). Pipelining
# shrinks only the weights per GPU, and they are the small part after a few stages.
#
# ### 1.3 Explorer: weights and KV per GPU against P
#
# Pick a model and a chip (its HBM per GPU is the dashed line), E, the micro-batch b and the context. The
# bars show weights (blue, falling as 1/P) and KV caches (orange, flat) at each P.

# %%
ds_kv = memory.per_chip_bytes_micro("DeepSeek-V3", b_, 100_000, E_, 1).kv
hbm = {c: hardware.get(c).hbm_capacity for c in ("H100-SXM", "H200", "B200", "GB300")}
over = [c for c, cap in hbm.items() if ds_kv > cap]
say(f"Try DeepSeek-V3 at {fmt(100_000, 'tok')}: its {fmt(models.get('DeepSeek-V3').kv_bytes_per_token('bf16'), 'B')} "
    f"per token puts the KV cache alone at {fmt(ds_kv, 'B')} per GPU at b = {b_:,} and E = {E_}: more than the "
    f"whole HBM of {', '.join(over)}, and {ds_kv / hbm['GB300']:.0%} of a GB300's {fmt(hbm['GB300'], 'B')}, "
    "before any weights.")
assert {"H100-SXM", "H200", "B200"} <= set(over) and ds_kv > 0.8 * hbm["GB300"]
explorers.get("memory_per_gpu")()

# %% [markdown]
# ## 2. What labs do
#
# **Question.** If pipelining buys so little memory, what do serving systems use instead? Reiner's answer:
# expert parallelism as wide as the scale-up domain, little or no pipelining ("maybe 2 stages, just enough
# for weight storage"), and no tensor parallelism now that experts are small. DeepSeek published two
# inference layouts for DeepSeek-V3 (`lecture_lib/data/deployments.toml`):

# %%
rows = ["| layout | phase | GPUs | EP | TP | PP | attention | experts per GPU | source |",
        "|---|---|---:|---:|---:|---:|---|---|---|"]
for d in deployments.LAYOUTS:
    rows.append(f"| {d.key} | {d.phase} | {d.gpus} | {d.expert_parallel} | {d.tensor_parallel} | {d.pipeline_stages} "
                f"| {d.attention} | {d.experts_per_gpu} | [{d.source.quality}]({d.source.url}) |")
say("\n".join(rows))

# %%
online = deployments.get("deepseek-online-decode")
report = deployments.get("deepseek-v3-report-decode")
train = deployments.get("deepseek-v3-training")
say(f"- Decode spreads the experts very wide: EP{online.expert_parallel} in the online service (2 routed experts "
    f"per GPU), EP{report.expert_parallel} in the report. That is {online.scale_up_domains:.0f} and "
    f"{report.scale_up_domains:.0f} H800 NVLink domains of {hardware.get('H800').scale_up_domain} GPUs: DeepSeek "
    "went far *beyond* its scale-up domain, over InfiniBand, and hid the all-to-all behind computation. On an "
    f"NVL72, EP{L['expert_parallel']} (Reiner's figure) fits inside one rack of {hardware.get('GB200').scale_up_domain}: "
    "that is his point. EP beyond the rack works, at the price of the all-to-all crossing the slower network.\n"
    f"- Neither inference layout describes any pipeline stages (the table's PP = 1 records an absence, not a "
    f"statement). Pipelining appears in *training*: PP{train.pipeline_stages} with DualPipe.\n"
    f"- Tensor parallelism: the report's decode attention uses TP{report.tensor_parallel}; the later online "
    f"service runs attention in plain data parallelism (no TP: {online.tensor_parallel}-way), and the experts are never "
    "split. The lecture's \"no TP\" fits the later system.\n"
    f"- The lecture's \"maybe {L['deepseek_pp_stages']} stages\" is not in either DeepSeek source: unverified.")
assert online.scale_up_domains > 1 and all(d.pipeline_stages == 1 for d in (online, report))
assert train.pipeline_stages > 1

# %% [markdown]
# **What pipelining does buy.** It removes rack memory as a limit on *model size*. Take Kimi-K2 (about 1T
# parameters) on GB200 NVL72 racks with a fixed micro-batch b = 256 sequences, and find the longest
# context that fits beside the weights as P grows:

# %%
b_k = 256
Ps = np.array([1, 2, 4, 8, 16, 64])
Lmax = memory.max_context("GB200-NVL72", "Kimi-K2", Ps * b_k, pipeline_stages=Ps)
ceiling = memory.context_ceiling("GB200-NVL72", "Kimi-K2", b_k)
say(" · ".join(f"P = {p}: {fmt(x, 'tok')}" for p, x in zip(Ps, Lmax))
    + f". A second rack adds **{Lmax[1] / Lmax[0] - 1:.0%}** of context. The limit as P → ∞ is {fmt(ceiling, 'tok')}:")
show(memory.context_ceiling_expr(), lhs=r"L_{\mathrm{ctx}}^{\max}(P\to\infty)")
assert np.all(np.diff(Lmax) > 0) and Lmax[-1] < ceiling and Lmax[1] / Lmax[0] < 1.2

# %% [markdown]
# No number of racks passes the ceiling C·E/(b·b_kv), which has no P in it.
#
# **Takeaway.** Pipelining removes the memory limit on model size, not on context length. Since racks
# already hold many times a frontier model's weights, labs keep a model within one scale-up domain and spend
# the memory on KV caches.
#
# ## 3. Hop latency
#
# **Question.** A pipelined decode step crosses a rack boundary P times per token: P − 1 times between
# stages and once from the last stage back to the first. Each crossing goes GPU → NIC → top-of-rack switch
# (perhaps a data-centre switch) → NIC → GPU. What does that add?
#
# Reiner: "a few milliseconds" per hop, and he says it could be off by an order of magnitude either way
# (syllabus §6, item 12). With 4 stages he gets about 10 ms per token, so a 20 ms step becomes about
# 30 ms. That needs 2.5 ms per hop: our reading of "a few ms". Here it is as a range, not one number:

# %%
show(memory.hop_step_expr, lhs=r"T_{\mathrm{step}}^{\mathrm{hops}}")
h = memory.hop_range()
say(f"P = {L['pipeline_stages']}, T_step = {fmt(L['hop_step_before_s'], 's')}: t_hop = {fmt(h.hop_low, 's')} → "
    f"**{fmt(h.low, 's')}**; t_hop = {fmt(h.hop_said, 's')} → **{fmt(h.said, 's')}** (the lecture: "
    f"{fmt(L['hop_step_after_s'], 's')}); t_hop = {fmt(h.hop_high, 's')} → **{fmt(h.high, 's')}**.")
say(f"The high end is {h.high / L['hop_step_before_s']:.0f}× the step without hops; the range spans a factor "
    f"of {h.high / h.low:.1f} in step time.")
assert h.said == L["hop_step_after_s"] and h.low < 1.1 * L["hop_step_before_s"] and h.high > 5 * L["hop_step_before_s"]

# %%
plots.hop_range_chart()

# %% [markdown]
# At the low end the hops are almost free; at the high end they dominate the step. The lecture's
# "20 → 30 ms" is the middle of that range, not a measurement. Which end is real depends on
# the network stack and software, which the lecture did not measure and neither do we.
#
# **Takeaway.** Hop latency adds P·t_hop to every token, and t_hop is the least certain number in the
# chapter. Another reason to keep P small.
#
# ## 4. Bandwidth, not capacity
#
# **Question.** If pipelining solves capacity, why did the industry push so hard for bigger scale-up
# domains (8 GPUs in Hopper, 72 in Blackwell)? Reading the weights is the latency floor of every decode
# step that touches all of them: a dense model at any batch, an MoE once the batch touches every expert
# (a few hundred tokens, notebook 03; at batch 1 an MoE reads only its routed experts, checked below).
# All n GPUs of one scale-up domain read their share at the same time:

# %%
n, BW = nt.n_chips, nt.BW
t_domain = N_tot * b_w / (n * BW)
show(t_domain, lhs=r"t_{\mathrm{weights}}")
assert sp.simplify(t_domain - memory.t_weights_domain_expr) == 0

# %% [markdown]
# Pipelined over P domains, each stage reads only its N/P, but the stages run one after the other (a token
# is in one stage at a time):

# %%
t_pipe = sp.Mul(P, t_domain.subs(N_tot, N_tot / P), evaluate=False)
show(t_pipe, lhs=r"t_{\mathrm{weights}}^{P\ \mathrm{stages}}")
show(t_pipe.doit(), lhs=r"\quad")
assert P not in t_pipe.doit().free_symbols and sp.simplify(t_pipe.doit() - t_domain) == 0

# %% [markdown]
# P cancels again: more racks do not read the weights any faster. Only more GPUs *in one domain* (n) or more
# bandwidth per GPU (BW) do. The same model on an 8-GPU Hopper box and on NVL72 racks:

# %%
plots.weight_read_bars("Kimi-K2")

# %%
k2 = models.get("Kimi-K2")
t_h, t_b = memory.weight_read_time("HGX-H100", k2), memory.weight_read_time("GB200-NVL72", k2)
t_h2 = memory.weight_read_time("HGX-H100", k2, pipeline_stages=2)
say(f"{k2.name} in fp8 ({fmt(k2.weight_bytes('fp8'), 'B')}): HGX-H100 {fmt(t_h, 's')} per step (and it does not "
    f"fit in {fmt(hardware.get('HGX-H100').hbm_capacity, 'B')}: pipelined over two boxes, still {fmt(t_h2, 's')}); "
    f"GB200 NVL72 {fmt(t_b, 's')}: **{t_h / t_b:.0f}× faster**.")
assert t_h2 == t_h and t_h / t_b > 15
one = roofline.step_time("GB200-NVL72", k2, 1, weight_dtype="fp8")            # batch 1: touched experts only
full = roofline.step_time("GB200-NVL72", k2, 1, weight_dtype="fp8", experts="all")
say(f"At batch 1 the step reads only the experts one token routes to: {fmt(one.memory, 's')} on the GB200 NVL72 "
    f"instead of {fmt(t_b, 's')}. The full read is the floor for batches that touch every expert.")
assert one.memory < 0.2 * full.memory and np.isclose(full.memory, t_b, rtol=0.05)

# %% [markdown]
# ### 4.1 Bandwidth per GPU by generation
#
# The lecture: HBM bandwidth per GPU grows about 1.5–2× per generation, and the scale-up domain grew 8×
# from Hopper to Blackwell. From the hardware registry:

# %%
gens = memory.bandwidth_by_generation()
rows = ["| generation | chip | year | HBM BW per GPU | × previous row | × previous architecture | scale-up domain |",
        "|---|---|---:|---:|---:|---:|---:|"]
for g in gens:
    rows.append(f"| {g['generation']} | {g['chip']} | {g['year']} | {fmt(g['bandwidth'], 'B/s')} | "
                f"{g['step']:.2f} |" if g["step"] else f"| {g['generation']} | {g['chip']} | {g['year']} | "
                f"{fmt(g['bandwidth'], 'B/s')} | – |")
    rows[-1] += (f" {g['launch_step']:.2f} |" if g["launch_step"] else " – |") + f" {g['scale_up_domain']} |"
say("\n".join(rows))
steps = [g["step"] for g in gens if g["step"]]
launch = [g["launch_step"] for g in gens if g["launch_step"]]
in_band = sum(L["bw_growth_low"] * 0.95 <= s <= L["bw_growth_high"] * 1.05 for s in steps)
say(f"{in_band} of {len(steps)} product steps fall in the lecture's {L['bw_growth_low']:g}–{L['bw_growth_high']:g}×; "
    f"the architecture steps are {', '.join(f'{s:.2f}×' for s in launch)} (Rubin announced, not shipped).")
assert min(launch) >= L["bw_growth_low"] and in_band >= 2

# %%
plots.bandwidth_generations(gens)

# %%
hop, bw_ = hardware.get("H100-SXM").scale_up_domain, hardware.get("GB200").scale_up_domain
say(f"Scale-up domain: {hop} → {bw_} GPUs is **{bw_ / hop:.0f}×**; the lecture's \"8×\" is the "
    f"{L['expert_parallel']} GPUs he uses for experts over {hop}. Per-GPU bandwidth grew "
    f"{launch[1]:.1f}× over the same step, so a domain's total weight-read bandwidth grew about "
    f"{bw_ / hop * launch[1]:.0f}×.")
assert bw_ / hop == 9 and L["expert_parallel"] / hop == L["scaleup_growth"]

# %% [markdown]
# **Takeaway.** Pipelining solves capacity; scale-up size solves bandwidth, i.e. latency. A very sparse model
# on a small Hopper box would read its huge weights through only 8 GPUs' HBM every step. (Dwarkesh's addition:
# the same bandwidth also reads long KV caches faster, which agents need.)
#
# ## 5. The longest context per GPU
#
# **Question.** With the weights sharded away (any P), each GPU holds b/E sequences' KV caches. How long can
# they be? The ceiling from section 2, $C\cdot E/(b\cdot b_\text{kv})$, for three attention designs: the
# lecture's ~2 KB per token (what Gemini's prices imply, chapter 6), DeepSeek-V3's MLA and
# Llama-3-70B's grouped-query attention (bytes per token in the column heads), with the lecture's E and b:

# %%
chips = ("A100-80GB", "H100-SXM", "H200", "B200", "GB300", "Rubin")
trio = (toy, models.get("DeepSeek-V3"), models.get("Llama-3-70B"))
rows = ["| chip | HBM | " + " | ".join(f"{m.name} ({fmt(m.kv_bytes_per_token('bf16'), 'B/token')})" for m in trio) + " |",
        "|---|---:|" + "---:|" * len(trio)]
ceil = {}
for c in chips:
    ceil[c] = [memory.context_ceiling(c, m, b_, E_) for m in trio]
    star = " (announced)" if hardware.get(c).announced else ""
    rows.append(f"| {c}{star} | {fmt(hardware.get(c).hbm_capacity, 'B')} | " + " | ".join(fmt(x, "tok") for x in ceil[c]) + " |")
say("\n".join(rows))
cap_growth = hardware.get("GB300").hbm_capacity / hardware.get("A100-80GB").hbm_capacity
kv_spread = trio[2].kv_bytes_per_token("bf16") / trio[0].kv_bytes_per_token("bf16")
say(f"HBM per GPU grew **{cap_growth:.1f}×** from A100 to GB300; KV bytes per token differ **{kv_spread:.0f}×** "
    "between these three designs.")
assert all(ceil[c][0] > 10 * ceil[c][1] > ceil[c][2] for c in chips) and kv_spread > 10 * cap_growth

# %%
plots.context_ceiling_bars(trio, chips, b_, E_)

# %% [markdown]
# The ~2 KB model reaches millions of tokens on every generation; DeepSeek-V3 reaches tens of thousands to
# about a hundred thousand; a classic GQA model only a few thousand at this batch. The attention design
# matters more than the chip generation. (Real deployments cut b, quantize the KV cache, or use sliding
# windows; with weights on the GPU too, the limit is lower still: `memory.max_context`.)

# %%
g = memory.max_context("GB200-NVL72", "DeepSeek-V3", b_)
say(f"DeepSeek-V3 in fp8 on one GB200 NVL72 (E = 72, P = 1, weights included), B = {b_:,}: longest context "
    f"**{fmt(g, 'tok')}**.")
assert 0 < g < memory.context_ceiling("GB200-NVL72", "DeepSeek-V3", b_)

# %% [markdown]
# **Takeaway.** The context a GPU can serve is set by HBM per GPU over KV bytes per token and sequences per GPU;
# pipelining cannot raise it, and the attention design moves it by orders of magnitude.
#
# ## 6. Why Ilya said it
#
# The flashcard for this chapter asks why "pipelining is not wise". The arithmetic above is one half: it
# buys little memory and adds hop latency. The other half is engineering: stages constrain the architecture
# (Kimi-style connections to earlier layers' outputs, or alternating sliding-window and global layers that
# unbalance the stages), and that slows research iteration. Those examples come from the flashcard's author
# (Horace He via Dwarkesh), not from Reiner.
#
# **Summary.**
# - c_mem = (N·b_w + B·L·b_kv)/(E·P), and with B = P·b the KV term is b·L·b_kv/E: no P.
# - Labs spread experts wide and avoid pipelining in inference (DeepSeek's published layouts have none).
# - Hop latency adds P·t_hop per token, with t_hop uncertain 10× either way.
# - Scale-up size buys bandwidth (latency); pipelining buys capacity, and only for weights.
