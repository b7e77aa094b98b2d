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
# # 09 · Reality check: the bounds against published measurements, and your own machine's roofline
#
# *Beyond the lecture.* **The question:** the lecture reasons from bounds: a step can take no less than
# its compute time or its memory time. How far from those bounds do real systems run, and why? We take
# published measurements (serving and training, dense and MoE, GPUs and TPUs), compute the library's bound
# for each one's configuration, and look at the ratio. Then we measure the roofline of the computer this
# notebook runs on.
#
# 1. **Published measurements as data**: `lecture_lib/data/measurements.toml`, every row with its source.
# 2. **The bound for whole requests**: prefill plus every decode step, derived in SymPy.
# 3. **Each row against its bound**: the efficiency, and the test that nothing beats physics.
# 4. **Little's law**: a batch size recovered from two published rates.
# 5. **What the bound leaves out**: attention, the network, prefill, kernels, scheduling, one at a time.
# 6. **Your own machine**: its roofline measured with NumPy (and PyTorch on a GPU, if there is one).
#
# Every number below comes from `lecture_lib`. Each claim is followed by an `assert`.

# %%
import numpy as np
import sympy as sp
from IPython.display import Markdown, display

from lecture_lib import hardware, lecture, machine, models, reality, roofline
from lecture_lib import notation as nt
from lecture_lib.lecture import SAID as L
from lecture_lib.plots import reality as plots
from lecture_lib.prose import say, show
from lecture_lib.units import fmt

say(f"[The lecture]({lecture.video_url(0)}) derives the bounds this notebook tests; chapter 1 "
    f"({lecture.timestamp(lecture.CHAPTERS[0].start_s)} to {lecture.timestamp(lecture.CHAPTERS[1].start_s)}) "
    "holds the roofline, chapter 2 the network term.")

# %% [markdown]
# ## 1. Published measurements as data
#
# **Question.** What have labs and engine builders actually measured? Each row of the file says what was
# measured (a throughput, a latency, an MFU), on which chips and how many, for which model at which number
# formats, with the batch, prompt and output lengths *as published*. Where a source leaves a field out, the
# bound takes the most generous value: the largest batch that fits in HBM for a throughput, batch 1 for a
# latency. A missing field can then only make the bound easier to meet, never harder.

# %%
rows = reality.MEASUREMENTS
sources = {r.source.url: r.source for r in rows}
by_quality = {q: sum(r.source.quality == q for r in rows) for q in "PSRU"}
say(f"**{len(rows)} measurements from {len(sources)} sources.** Source quality flags: "
    f"{by_quality['P']} rows read from the primary source (P), {by_quality['S']} from a secondary page (S), "
    f"{by_quality['R']} recalled and checked only by arithmetic (R). The R rows are figures from the "
    "Llama 3 and PaLM papers that this course's authors recalled but could not reread here; the file's "
    "notes say which and how they were checked.")
display(Markdown("\n".join(["| key | what | published | date | source |", "|---|---|---|---|---|"]
                           + [f"| {r.key} | {r.kind}, {r.phase}, {r.quantity} | {r.published} | {r.date} | "
                              f"[{r.source.quality}]({r.source.url}) |" for r in rows])))
assert len(rows) >= 12 and len(sources) >= 5
assert {r.kind for r in rows} == {"serving", "training"}
assert {models.get(r.model).is_moe for r in rows} == {True, False}
assert {r.chip.startswith("TPU") for r in rows} == {True, False}

# %% [markdown]
# ## 2. The bound for whole requests: prefill and every decode step
#
# **Question.** A serving benchmark reports output tokens per second for requests with a prompt and an
# output. Chapter 1 gives the time of one step. What is the bound for whole requests?
#
# A batch of $B$ requests first runs one prefill pass over the $L_\text{in}$ prompt tokens of each
# (chapter 1's step with $\ell_\text{pass} = L_\text{in}$):

# %%
show(reality.t_prefill_expr.subs(nt.L_ctx, 0), lhs=nt.latex(nt.T_pre))

# %% [markdown]
# Then $L_\text{out}$ decode steps, one token each, the context growing by one every step. Each step's
# time is a max of two straight lines in the context, so the steps must be **summed**, not taken once at
# the mean context:

# %%
show(reality.t_decode_expr, lhs=nt.latex(nt.T_dec))
show(reality.throughput_bound_eq)

# %% [markdown]
# Where the step is memory-bound all along, the sum has a closed form: the weights once per step, and the
# KV reads growing like an arithmetic series. Above the ridge it is $L_\text{out}$ compute times. A sum
# that crosses from one to the other is what `reality.throughput_bound` adds up step by step.

# %%
B, L_in, L_out, i = nt.B, nt.L_in, nt.L_out, nt.i_step
memory_steps = sp.summation(roofline.t_mem_expr.subs(nt.L_ctx, L_in + i), (i, 0, L_out - 1))
show(sp.factor(sp.simplify(memory_steps)), lhs=r"T_{\mathrm{decode}}\big|_{\text{memory-bound}}")
mean_ctx = roofline.t_mem_expr.subs(nt.L_ctx, L_in + (L_out - 1) / 2) * L_out
assert sp.simplify(memory_steps - mean_ctx) == 0      # a straight line: the mean context is exact...
# ...but a max of two lines is convex, and for a convex step time the mean context under-counts
r = reality.get("trtllm-h200-llama2-70b-tp1-long-prompt")
tb = reality.throughput_bound(r.chip, r.model, r.batch, r.prompt_tokens, r.output_tokens, r.weight_dtype, r.kv_dtype)
say(f"For TensorRT-LLM's row *{r.published}*: prefill ≥ {fmt(tb.prefill, 's')}, the {r.output_tokens} decode "
    f"steps ≥ {fmt(tb.decode, 's')}, so at most **{fmt(tb.tokens_per_s, 'tok/s')}**; the prefill binds "
    f"({tb.bound}-bound over most of the time). Measured: {fmt(r.value, 'tok/s')}.")
assert tb.prefill > tb.decode and r.value < tb.tokens_per_s

# %% [markdown]
# The same by hand, from the registry's figures (H200: dense fp8 peak and HBM bandwidth; Llama-2-70B's
# parameters and KV bytes per token at fp8):

# %%
h200, llama = hardware.get("H200"), models.get("Llama-2-70B")
F, BW, N, kv = h200.flops("fp8"), h200.hbm_bandwidth, llama.active_params, llama.kv_bytes_per_token("fp8")
prefill = max(2 * r.batch * r.prompt_tokens * N / F, N / BW)
decode = sum(max(2 * r.batch * N / F, (N + r.batch * (r.prompt_tokens + s) * kv) / BW) for s in range(r.output_tokens))
say(f"prefill {fmt(prefill, 's')}, decode {fmt(decode, 's')}, bound {fmt(r.batch * r.output_tokens / (prefill + decode), 'tok/s')}.")
assert np.isclose(r.batch * r.output_tokens / (prefill + decode), tb.tokens_per_s, rtol=1e-12)

# %% [markdown]
# **Takeaway.** For a whole request the bound is $B\,L_\text{out}$ over the prefill time plus the *sum*
# of the decode steps. With a long prompt and a short answer the prefill, not the decode, sets it.

# %% [markdown]
# ## 3. Each row against its bound
#
# **Question.** How close does each published figure come to what the library says physics allows?
# The *efficiency* is measured ÷ bound (bound ÷ measured for a latency): 100 % would be a system running
# at its roofline.

# %%
cases = reality.cases()
display(Markdown(plots.table(cases)))

# %%
plots.efficiency_by_workload(cases)

# %%
eff = {c.measurement.key: c.efficiency for c in cases}
serving = [c.efficiency for c in cases if c.measurement.kind == "serving"]
train = [c.efficiency for c in cases if c.measurement.kind == "training"]
say(f"Median efficiency: serving **{np.median(serving):.0%}** (from {min(serving):.0%} to {max(serving):.0%}), "
    f"training **{np.median(train):.0%}**. No row beats its bound: the highest is {max(eff.values()):.0%} "
    f"({max(eff, key=eff.get)}).")
assert all(0 < e <= 1 for e in eff.values()), "a measurement beats its bound: a bug in the model or the row"
assert all(c.fits for c in cases)        # every published batch fits in HBM at the row's formats

# %%
node = hardware.get("H800").scale_up_domain                       # GPUs per H800 node (one NVLink domain)
ds_dec, ds_pre = reality.get("deepseek-online-decode"), reality.get("deepseek-online-prefill")
say("The test suite asserts the same (`tests/test_reality.py::test_no_measurement_beats_its_bound`). A row "
    "that beat its bound would be a bug, in the row or in the model: a wrong number format, a figure per node "
    f"read as per copy of the model (DeepSeek's per-node rates are scaled here to the {ds_dec.chips // node}-node "
    f"decode and {ds_pre.chips // node}-node prefill units that each hold one copy), or a speedup the bound does "
    "not allow for (DeepSeek-V3's multi-token prediction may add a token per decode step, so its decode rows allow two).")
#
# **Takeaway.** Real systems run well below the roofline. Dense, large-batch, compute-bound work (PaLM's
# prefill, training) comes closest; a large MoE spread over many nodes sits lowest, in decode and in
# prefill, which the next sections explain.

# %% [markdown]
# ## 4. Little's law: the batch a service really runs
#
# **Question.** DeepSeek published its decode throughput per node and the speed one user sees, not its
# batch. Can the batch be recovered? In any steady system, the number of requests inside equals the rate
# they arrive times the time each stays (Little's law):

# %%
show(reality.littles_law)
show(reality.littles_substitution[nt.lam_req], lhs=nt.latex(nt.lam_req))
show(reality.littles_substitution[nt.W_req], lhs=nt.latex(nt.W_req))
show(reality.concurrency_expr, lhs=nt.latex(nt.n_conc))
assert sp.simplify(reality.littles_law.rhs.subs(reality.littles_substitution) - nt.R_tok / nt.r_user) == 0

# %%
d = reality.get("deepseek-online-decode")
per_node = reality.concurrency(d.value, d.user_tokens_per_s)
unit = reality.concurrency(d.measured, d.user_tokens_per_s)
fits = roofline.max_batch(hardware.system(d.chip, d.chips), d.model, d.context, d.weight_dtype, d.kv_dtype)
say(f"{fmt(d.value, 'tok/s')} per node ÷ {d.user_tokens_per_s:g} tokens/s per user = **{per_node:.0f} requests "
    f"in flight per node** (≈ {per_node / node:.0f} per GPU), {fmt(unit)} per {d.chips}-GPU decode unit. At the "
    f"mean context of {d.context:,} tokens the unit could hold {fmt(fits)}: DeepSeek runs about "
    f"{unit / fits:.0%} of the batch that fits, leaving room for longer contexts and for latency.")
assert unit < fits

# %% [markdown]
# **Takeaway.** Throughput ÷ per-user speed = requests in flight. A published pair of rates gives the
# batch that no one published.

# %% [markdown]
# ## 5. What the bound leaves out
#
# **Question.** The strict bound is generous on purpose. Which omissions account for the gap? We add them
# one at a time, each as a term or a factor the library already has:
#
# * **prefill interleaved with decode**: the lecture's view is decode steps only; a server also spends
#   time on every prompt (the step from the first column to the second);
# * **attention FLOPs**: chapter 1's attention term, left out on the blackboard as small. It is not
#   small for MLA at long context (counted here in the absorbed decode form, which over-counts MLA's
#   prefill and training a little);
# * **the network**: chapter 2's all-to-all of expert parallelism when an MoE spans several 8-GPU nodes
#   (uniform routing);
# * **kernel efficiency**: the best published kernels on Hopper, DeepGEMM's FP8 matmuls and FlashMLA's
#   memory bandwidth, as factors on the peak figures: $F \to \eta F$, $\mathrm{BW} \to \eta_\mathrm{BW}\,\mathrm{BW}$;
# * **scheduling**: the batch the system really ran (Little's law) instead of the largest that fits.

# %%
show(reality.t_step_derated_expr, lhs=r"T_{\mathrm{step}}")
for chip in ("H800", "H200", "TPU-v4"):
    e, eb = reality.kernel_efficiency(chip)
    say(f"{chip}: MFU factor {e:.0%}, MBU factor {eb:.0%}" + (" (no published kernel figure: no factor)" if e == eb == 1 else ""))

# %%
steps = reality.ladder()
display(Markdown(plots.ladder_table(steps)))

# %%
plots.ladder(steps)

# %%
medians = [np.median([c.efficiency for c in cs]) for _, cs in steps]
say("Median efficiency after each addition: " + ", ".join(f"{n} **{m:.0%}**" for (n, _), m in zip(steps, medians)) + ".")
for (name, before), (_, after) in zip(steps, steps[1:]):
    assert all(a.efficiency >= b.efficiency - 1e-9 and a.efficiency <= 1 for a, b in zip(after, before)), name
assert medians[-1] > 1.5 * medians[0]

# %%
lp, sg_dec = reality.get("trtllm-h200-llama2-70b-tp1-long-prompt"), reality.get("sglang-h100-decode")
say(f"Reading the table row by row, first the prefill: it lifts the long-prompt TensorRT-LLM rows most: with "
    f"{lp.prompt_tokens:,} prompt tokens and {lp.output_tokens:,} outputs, the prompts take most of the time. "
    f"The network is the big one for DeepSeek-V3 spread over {ds_dec.chips // node} (DeepSeek) or "
    f"{sg_dec.chips // hardware.get(sg_dec.chip).scale_up_domain} (SGLang) nodes.")
assert lp.prompt_tokens > 10 * lp.output_tokens

# %% [markdown]
# The other rows of the table:
#
# * **Attention** matters for DeepSeek's decode (MLA at its mean context, next cell) and for Llama 3's
#   131k-token training.
# * **The network**: every token's hidden state goes to its experts and back over the nodes' NICs. For
#   SGLang's prefill the network bound is almost met. That is suspicious as much as it is impressive: DeepEP's prefill kernels send a token once per
#   *node* it needs, not once per expert, so chapter 2's uniform per-expert count over-counts the bytes
#   that cross between nodes for that row. A term that is not a true bound is labelled as such; the strict
#   bound of section 3 does not include it.
# * **Kernel efficiency** lifts every compute-bound Hopper row by the factors printed above.
# * **Scheduling** barely changes DeepSeek's decode bound: the network term grows with the batch, so
#   tokens per second hardly depend on it.

# %%
ds = models.get(d.model)
attn = ds.attention_flops_per_sequence(d.context)
say(f"DeepSeek-V3 at {d.context:,} tokens of context: attention {fmt(attn, 'FLOP')} per new token against "
    f"{fmt(2 * ds.active_params, 'FLOP')} for the matmuls of its active weights ({fmt(ds.active_params, 'params')}).")
sg = {c.measurement.key: c for c in steps[3][1]}["sglang-h100-prefill"]
say(f"SGLang's prefill against the bound with the network: {sg.efficiency:.0%} ({sg.binding}-bound).")
assert attn > 2 * ds.active_params and sg.binding == "network"

# %%
decode_gpu = [c.efficiency for c in steps[-1][1] if c.measurement.phase == "decode" and c.measurement.chip != "TPU-v4"]
say(f"The lecture's guess for decode and RL utilisation was about {L['rl_efficiency']:.0%} of peak. The "
    f"published MoE decode rows reach {min(decode_gpu):.0%} to {max(decode_gpu):.0%} of what their own "
    "bounds allow once the network and kernels are counted, and a smaller fraction of the chips' peak.")
assert all(e < 1 for e in decode_gpu)

# %% [markdown]
# **Takeaway.** Much of the gap is explained by terms the course already has: the prefill, attention,
# the all-to-all and realistic kernels. What is left (next cell) is scheduling, load imbalance between
# experts, synchronisation and everything a system does between steps.

# %%
say(f"After every addition the median row still runs at {medians[-1]:.0%} of its bound: a factor of "
    f"{1 / medians[-1]:.2g} the course's terms do not explain, against {1 / medians[0]:.2g} for the lecture's bound.")
assert 1 / medians[-1] < 1 / medians[0]

# %% [markdown]
# ## 6. Your own machine's roofline
#
# **Question.** The roofline is a picture of a machine. What does this computer's look like? We measure
# both ceilings with NumPy. A large array copy gives the memory bandwidth. A family of matmuls
# $A\,(n\times n)\cdot X\,(n\times k)$ with growing $k$ gives achieved FLOP/s at growing arithmetic
# intensity, from about ½ FLOP per byte (a matrix-vector product) to hundreds.
#
# `QUICK = True` takes a few seconds; set it to `False` for larger arrays and more repeats (about half a
# minute). On a shared machine other work disturbs the timings: the best of several runs is kept.

# %%
QUICK = True
mine = machine.measure(quick=QUICK)
say(f"{mine.device}, {mine.dtype}, A is {mine.n} × {mine.n}: copy bandwidth **{fmt(mine.bandwidth, 'B/s')}**, "
    f"best matmul **{fmt(mine.peak_flops, 'FLOP/s')}**, ridge point **{mine.ridge:.3g} FLOP/byte**"
    + (f", {mine.threads} BLAS threads." if mine.threads else " (BLAS thread count not reported)."))

# %%
plots.machine_roofline(mine)

# %%
h100 = roofline.hardware_ratio("H100-SXM", "bf16")
say(f"This machine turns from memory-bound to compute-bound at about {mine.ridge:.2g} FLOP per byte; an "
    f"H100 at bf16 needs {h100:.0f} FLOP per byte (the lecture's ratio, ~{L['ratio']} counted its way). A CPU "
    "has little compute per byte of memory bandwidth, so much less batching is needed to fill it.")
low = mine.flops[0]
assert np.all(np.isfinite(mine.flops)) and np.all(mine.flops > 0) and mine.bandwidth > 0
assert low < mine.peak_flops / 4                    # the matrix-vector product is memory-bound...
assert low < 4 * mine.intensity[0] * mine.bandwidth  # ...near the copy's line (caches allow some slack)
assert h100 > 10 * mine.ridge

# %% [markdown]
# **Takeaway.** The same two lines bound a laptop and a rack: below the ridge point achieved FLOP/s grows
# with intensity along the memory line, above it they flatten at the compute ceiling. Only where the
# lines cross differs.

# %% [markdown]
# ### The same on a GPU, when there is one
#
# With PyTorch and a CUDA GPU present, `machine.measure_torch()` runs bf16 matmuls and a device copy.
# Without them (this course never installs PyTorch) it returns `None` and the cell says so.

# %%
gpu = machine.measure_torch(quick=QUICK)
if gpu is None:
    say("No PyTorch with a CUDA GPU here: skipped.")
else:
    say(f"{gpu.device}: copy {fmt(gpu.bandwidth, 'B/s')}, best bf16 matmul {fmt(gpu.peak_flops, 'FLOP/s')}, "
        f"ridge {gpu.ridge:.3g} FLOP/byte.")
    display(plots.machine_roofline(gpu))
    assert gpu.ridge > mine.ridge

# %% [markdown]
# ## Summary
#
# * The bound for whole requests is $B\,L_\text{out}/(T_\text{prefill} + \sum_i T_\text{step,i})$: the
#   decode steps summed, the prefill counted (`reality.throughput_bound`).
# * No published measurement in the file beats its bound; most sit far below it.
# * Little's law recovers a batch from two rates: requests in flight = throughput ÷ per-user speed.
# * Attention, the network, the prefill and kernel efficiency explain most of the gap; what remains is
#   scheduling and imbalance.
# * Your own machine has a roofline too, with a ridge point of a few FLOP per byte instead of hundreds.
