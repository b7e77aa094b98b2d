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
# # 03 · How MoE models are laid out across GPU racks
#
# *Lecture chapter 2 (32:09–47:12).* Chapter 1 said sparsity is a pure win for bandwidth and compute,
# and that its cost is **memory capacity**: all the experts must sit somewhere. This notebook follows
# them onto a rack:
#
# 1. **The MoE layer**, and every parameter of DeepSeek-V3 accounted from its config.
# 2. **Experts touched**: how many distinct experts a step of $T$ tokens reads.
# 3. **Expert parallelism on a rack**: 256 experts on 64 of 72 GPUs, and the bytes of the all-to-all.
# 4. **Scale-up against scale-out**: the network joins the roofline; why one rack bounds an expert layer.
# 5. **Why not one giant switch** (physics, in words).
# 6. **Scale-up history** and the chapter's law: *active parameters are limited by compute cost, total
#    parameters by scale-up size.*
#
# Every number is computed by `lecture_lib`; the lecture's own figures (`lecture.SAID`) stand beside them.

# %%
import numpy as np
import sympy as sp

from lecture_lib import explorers, fmt, hardware, lecture, models, moe, pipeline, roofline, routing
from lecture_lib import notation as nt
from lecture_lib.lecture import SAID as L
from lecture_lib.plots import moe as plots
from lecture_lib.prose import say, show

say(f"**Watch:** [chapter 2 at {lecture.timestamp(lecture.CHAPTERS[1].start_s)}]"
    f"({lecture.video_url(lecture.CHAPTERS[1].start_s)}). **The chapter's question:** an MoE model has "
    "hundreds of experts per layer; where do they live, what does moving tokens between them cost, and "
    "what does that say about how big models can get?")

# %% [markdown]
# ## 1. The MoE layer
#
# **Question.** What is in an MoE layer, and where do DeepSeek-V3's 671B parameters sit?
#
# A token arrives from the residual stream. A small **router** (one $n \times d_\text{model}$ matrix)
# scores the $n$ routed experts and sends the token to its top $k$. Each expert is an ordinary MLP:
# up-projection, nonlinearity, down-projection (SwiGLU: gate, up and down, $3\,d_\text{model}\,d_\text{ff}$
# weights). The $k$ outputs are weighted, summed, and added back to the residual. DeepSeek also has one
# **shared** expert that every token uses. The lecture's example routes "1 in 32"; DeepSeek-V3 routes 8
# of 256, which is the same fraction.

# %%
dsv3 = models.get("DeepSeek-V3")
assert dsv3.experts_per_token / dsv3.n_experts == L["route_fraction"]
show(moe.expert_params_expr, lhs=r"N_\text{expert}")
show(moe.routed_params_expr, lhs=r"N_\text{routed}")
show(moe.attention_mla_expr, lhs=r"N_\text{attention (MLA), per layer}")
show(moe.dense_mlp_params_expr, lhs=r"N_\text{dense MLP}")

# %%
say(f"Putting DeepSeek-V3's config numbers in ({dsv3.n_layers} layers, the first {dsv3.n_dense_layers} dense; "
    f"d_model {dsv3.d_model:,}; expert width {dsv3.d_ff_expert:,}; dense width {dsv3.d_ff:,}; vocabulary "
    f"{dsv3.vocab_size:,}; MLA ranks {dsv3.q_lora_rank:,} and {dsv3.kv_lora_rank:,}):")


def budget_table(b):
    rows = ["| part | total | active per token |", "|---|---:|---:|"]
    rows += [f"| {part} | {fmt(t)} | {fmt(a)} |" for part, t, a in b.rows()]
    rows += [f"| **sum** | **{fmt(b.total)}** | **{fmt(b.active)}** |"]
    return "\n".join(rows)


b_ds = moe.param_budget(dsv3)
say(budget_table(b_ds))
say(f"Computed: **{fmt(b_ds.total)} total, {fmt(b_ds.active)} active**. The model card says "
    f"{fmt(dsv3.total_params)} and {fmt(dsv3.active_params)}; the lecture said about {fmt(L['dsv3_total_params'])} "
    f"(erratum 2: 671B) and {fmt(L['dsv3_active_params'])}. The input embedding is a lookup of one row per token, "
    "so it is not active; DeepSeek's own weight notes give 36.6B active the same way. Routed experts are "
    f"{b_ds.routed_experts / b_ds.total:.0%} of the weights, and only {b_ds.active_routed / b_ds.routed_experts:.1%} "
    "of them work on any one token.")
assert abs(b_ds.total / dsv3.total_params - 1) < 0.002
assert abs(b_ds.active / dsv3.active_params - 1) < 0.02

# %%
qwen = models.get("Qwen3-235B-A22B")
say(f"The same for another MoE in the registry, {qwen.name} ({qwen.n_layers} layers, "
    f"{'all MoE' if qwen.n_moe_layers == qwen.n_layers else f'{qwen.n_moe_layers} MoE'}, {qwen.n_experts} experts, "
    f"top {qwen.experts_per_token}, {qwen.n_shared_experts or 'no'} shared expert, grouped-query attention):")
b_qw = moe.param_budget(qwen)
say(budget_table(b_qw))
say(f"Computed {fmt(b_qw.total)} / {fmt(b_qw.active)} against the published {fmt(qwen.total_params)} / "
    f"{fmt(qwen.active_params)} (Qwen counts the input table as active: then {fmt(b_qw.active + b_qw.embedding)}).")
assert abs(b_qw.total / qwen.total_params - 1) < 0.002
assert abs((b_qw.active + b_qw.embedding) / qwen.active_params - 1) < 0.01

# %%
say(f"**Takeaway:** an MoE is mostly routed experts: {b_ds.routed_experts / b_ds.total:.0%} of DeepSeek-V3's "
    f"weights, of which a token uses 1/{dsv3.n_experts // dsv3.experts_per_token}. Memory holds all of them; "
    "compute pays for the few a token uses.")
assert b_ds.routed_experts / b_ds.total > 0.9

# %% [markdown]
# ## 2. Experts touched
#
# **Question.** A step of $T$ tokens, each routed to $k$ of $n$ experts (uniformly and independently):
# how many distinct experts does it read?
#
# One expert is missed by one token with probability $1 - k/n$, by all $T$ tokens with $(1-k/n)^T$. So
# the expected number touched is:

# %%
T = nt.B
p_miss_one = 1 - nt.k_act / nt.n_exp
touched = nt.n_exp * (1 - p_miss_one**T)
show(touched, lhs=r"\mathbb{E}[\text{experts touched}]")
assert sp.simplify(touched - moe.experts_touched_count_expr) == 0

# %%
t99 = routing.batch_to_touch(0.99, dsv3.experts_per_token, dsv3.n_experts)
b_star = roofline.balance_batch("GB200-NVL72", dsv3, weight_dtype="fp8")
say(f"DeepSeek-V3: one token touches {moe.experts_touched(dsv3, 1):.0f} experts, 32 tokens "
    f"{moe.experts_touched(dsv3, 32):.0f} of 256, and 99% of them are touched from **{t99:.0f} tokens**. The "
    f"balance batch on a GB200 rack (fp8) is {b_star:,.0f}: there the step reads essentially all of "
    f"$N_\\text{{total}}$, which is why chapter 1's bound uses $N_\\text{{total}}$ (erratum 3 of the flashcard).",
    math=True)
plots.experts_touched_chart()

# %%
assert moe.experts_touched(dsv3, 1) == dsv3.experts_per_token
assert t99 < b_star and moe.experts_touched(dsv3, b_star) > 0.999 * dsv3.n_experts

# %% [markdown]
# **Takeaway:** a few hundred tokens already touch every expert; at the batches that make serving
# cheap, the weight read is $N_\text{total}$.

# %% [markdown]
# ## 3. Expert parallelism on a rack
#
# **Question.** 256 experts, 72 GPUs in a Blackwell rack. How are they spread, and what travels?
#
# The standard layout puts different experts on different GPUs. 256 does not divide by 72; the largest
# number of GPUs that divides it evenly is:

# %%
lay = moe.expert_layout(dsv3.n_experts, hardware.get("GB200-NVL72").n_chips)
say(f"**{lay.used} GPUs with {lay.per_chip} experts each, {lay.idle} idle** (the lecture: use "
    f"{L['ep_used_gpus']}, ignore {L['rack_gpus'] - L['ep_used_gpus']}, {L['experts_per_gpu']} per GPU; the "
    f"drawing shows {L['drawn_experts_per_gpu']}). {dsv3.n_experts} / {lay.used + lay.idle} = "
    f"{dsv3.n_experts / (lay.used + lay.idle):.2f} experts per GPU would not be whole.")
assert (lay.used, lay.per_chip) == (L["ep_used_gpus"], L["experts_per_gpu"])

# %% [markdown]
# Every GPU holds a copy of the router and its share of the tokens. Routing sends each token's vector to
# the GPUs of its $k$ experts (**dispatch**) and the results back (**combine**). Any GPU may send to any
# other: both are **all-to-all**. Per MoE layer, a token sends $k$ copies of its $d_\text{model}$ vector:

# %%
show(moe.dispatch_bytes_expr, lhs=r"\text{dispatch bytes}")
show(moe.combine_bytes_expr, lhs=r"\text{combine bytes}")
per_tok = moe.dispatch_bytes(dsv3, 1, "fp8") + moe.combine_bytes(dsv3, 1, "bf16")
say(f"DeepSeek-V3 (dispatch in fp8, combine in bf16, as in its paper): {fmt(moe.dispatch_bytes(dsv3, 1, 'fp8'), 'B')} "
    f"+ {fmt(moe.combine_bytes(dsv3, 1, 'bf16'), 'B')} = {fmt(per_tok, 'B')} per token per MoE layer, "
    f"{fmt(per_tok * dsv3.n_moe_layers, 'B')} per token over its {dsv3.n_moe_layers} MoE layers.")
assert per_tok == dsv3.experts_per_token * dsv3.d_model * 3

# %% [markdown]
# For a step of $B$ sequences spread over the $n_\text{chips}$ GPUs of $R$ racks, each GPU sends (and
# receives) its share, every MoE layer, both ways:

# %%
show(moe.step_bytes_per_chip_expr, lhs=r"V_\text{per chip}")
r1 = moe.step_time(hardware.system("GB200", lay.used), dsv3, 4096, weight_dtype="fp8", dispatch_dtype="fp8",
                   combine_dtype="bf16")
say(f"At B = {4096:,} on the {lay.used} expert GPUs: {fmt(r1.bytes_per_chip, 'B')} per GPU per step.")
assert np.isclose(r1.bytes_per_chip, 4096 / lay.used * per_tok * dsv3.n_moe_layers)
assert r1.fits

# %% [markdown]
# **Takeaway:** the all-to-all moves $2\cdot k\cdot d_\text{model}$ numbers per token per layer: small per
# token, but every token does it on every MoE layer.

# %% [markdown]
# ## 4. Scale-up against scale-out, and the network term
#
# **Question.** Inside a rack, every GPU reaches every other in two hops (GPU → NVSwitch → GPU) over
# NVLink, the **scale-up** network. Leaving the rack goes GPU → NIC → data-centre switch, the
# **scale-out** network, "typically about 8× slower". Is it?

# %%
rows = ["| system | scale-up per GPU (one way) | scale-out per GPU (one way) | ratio ρ |", "|---|---:|---:|---:|"]
ratios = pipeline.registry_bandwidth_ratios()
for name, rho in ratios.items():
    s = hardware.get(name)
    rows.append(f"| {name} | {fmt(s.scaleup_bandwidth, 'B/s')} | {fmt(s.scaleout_bandwidth, 'B/s')} | {rho:.0f}× |")
say("\n".join(rows))
export = {n: r for n, r in ratios.items() if hardware.get(n).chip.name == "H800"}   # NVLink cut for export
full = {n: r for n, r in ratios.items() if n not in export}
say(f"The lecture's ~{L['scaleout_slower']}× is the right order: the registry gives "
    f"{min(full.values()):.0f}× to {max(full.values()):.0f}× (a {8 * hardware.get('GB200-NVL72').scaleout_bandwidth / 1e9:.0f} Gb/s "
    f"NIC beside NVLink 5 is {ratios['GB200-NVL72']:.0f}×; a {8 * hardware.get('GB300-NVL72').scaleout_bandwidth / 1e9:.0f} Gb/s "
    f"one, {ratios['GB300-NVL72']:.0f}×). The exception is the export H800, whose NVLink is cut to 400 GB/s: "
    + ", ".join(f"{n} {r:.0f}×" for n, r in export.items())
    + ". DeepSeek trained and serves on H800 boxes, where leaving the box costs little more than staying "
    "in it: one reason its experts span many nodes (chapter 4's notebook has its deployments).")
assert min(full.values()) >= L["scaleout_slower"] and max(full.values()) <= 3 * L["scaleout_slower"]
assert all(r < L["scaleout_slower"] for r in export.values())

# %% [markdown]
# **The communication term.** Spread the layer over $R$ racks. Of a GPU's traffic, the part for its own
# rack goes over NVLink, $(R-1)/R$ leaves over the NIC; the two links run in parallel and the slower
# share binds. Chapter 1's step becomes a maximum of three terms:

# %%
show(moe.frac_in_rack_expr, lhs=r"f_\text{in rack}")
show(moe.frac_out_of_rack_expr, lhs=r"f_\text{out of rack}")
show(moe.t_net_expr, lhs=r"t_\text{net}")
show(sp.Max(roofline.t_compute_expr, roofline.t_mem_expr, nt.t_net), lhs=r"T_\text{step}")

# %% [markdown]
# **The slowdown.** Divide the time over $R$ racks by the time over one, at the same tokens per GPU, with
# $W_\text{up} = \rho\,W_\text{out}$ and a large rack ($f_\text{in} \to 1/R$):

# %%
f_in = sp.limit(moe.frac_in_rack_expr, nt.n_chips, sp.oo)
S = sp.Max(f_in, nt.rho_bw * moe.frac_out_of_rack_expr) / f_in.subs(nt.R_rk, 1)
show(S, lhs="S(R)")
assert sp.simplify(S - moe.slowdown_expr()) == 0
s2 = moe.slowdown(2, L["scaleout_slower"])
say(f"Two racks at ρ = {L['scaleout_slower']}: half the traffic ({L['two_rack_leave']:.0%}, the lecture's "
    f"\"about half\") crosses a link {L['scaleout_slower']}× slower: **{s2:g}× slower** all-to-all. More racks "
    f"approach ρ itself: {moe.slowdown(8, L['scaleout_slower']):g}× at 8 racks.")
assert s2 == L["two_rack_leave"] * L["scaleout_slower"]
plots.slowdown_chart()

# %% [markdown]
# **Why one rack bounds an expert layer.** Both the network and the compute grow linearly with the
# batch, so their ratio does not depend on it. For DeepSeek-V3 on GB200 racks:

# %%
rack = hardware.get("GB200-NVL72")
by_racks = {R: moe.step_time(rack, dsv3, 4096 * R, racks=R, weight_dtype="fp8", dispatch_dtype="fp8",
                             combine_dtype="bf16") for R in (1, 2, 4)}
rows = ["| racks | compute | memory | network | step | binds |", "|---:|---:|---:|---:|---:|---|"]
rows += [f"| {R} | {fmt(r.compute, 's')} | {fmt(r.memory, 's')} | {fmt(r.network, 's')} | {fmt(r.total, 's')} | "
         f"{r.bound} |" for R, r in by_racks.items()]
say(f"Same {4096:,} sequences per rack ({4096 / lay.used:.0f} per expert GPU), context 0 (weights and "
    "all-to-all only; the KV read would add to the memory term alone):\n\n" + "\n".join(rows))
say(f"In one rack the all-to-all takes {by_racks[1].network / by_racks[1].compute:.0%} of the compute time and "
    f"hides behind it; over two racks it is {by_racks[2].network / by_racks[2].compute:.1f}× the compute and "
    "sets the step. Adding racks adds no throughput per GPU once the network binds.")
assert by_racks[1].bound != "network" and by_racks[2].bound == "network" and by_racks[4].bound == "network"
assert all(r.fits for r in by_racks.values())          # the batch fits in the racks' HBM

# %% [markdown]
# **Explore.** Racks $R$, experts per token $k$, model, dispatch precision and the scale-out ratio ρ:
# which of compute, memory and network binds, and the step time. (Try ρ = 1: a scale-out network as
# fast as NVLink would make racks free to span.)

# %%
rack_explorer = explorers.get("moe_on_racks")()
rack_explorer

# %%
rack_explorer.controls["racks"].value = 2
assert rack_explorer.plot.state["bound"] == "network"
rack_explorer.controls["racks"].value = 1

# %%
say(f"**Takeaway:** the expert all-to-all fits inside a scale-up domain and hides behind the matmuls there; "
    f"the moment a layer spans two racks, about half its traffic crosses a link {min(full.values()):.0f}–"
    f"{max(full.values()):.0f}× slower and the network binds. One rack bounds an expert layer; the industry "
    "answer is bigger scale-up domains.")

# %% [markdown]
# ## 5. Why not one giant switch?
#
# Reiner's answer is **cabling**, and he adds that rack design is not his specialty. In an NVL72 rack the
# GPUs sit in trays above and below a set of NVSwitch trays, and every GPU has its own links to the
# switches through a copper backplane ("spine") of cable cartridges. Doubling the GPUs doubles those
# links into the same backplane: the density of connectors where trays meet the rack, and of cables in the
# backplane, is the limit; cables have a minimum bend radius, so they cannot be packed arbitrarily tight;
# more copper and the metal to hold it without sagging make the rack heavier; and every GPU added brings
# its power and its heat. NVIDIA's own step beyond the NVL72 rack changes the rack itself: the Kyber rack
# for Rubin Ultra NVL576 mounts compute blades vertically around a switch mid-plane, announced for 2027
# at up to about 600 kW per rack (Tom's Hardware, "Nvidia shows off Rubin Ultra with 600,000-Watt Kyber
# racks", GTC 2025). Those figures are announcements, not measurements.

# %% [markdown]
# ## 6. Scale-up history, and the chapter's law
#
# **Question.** How big a model fits in one scale-up domain, and how fast can it be read?
#
# Give a fraction $f_w$ of the domain's HBM to weights (half, leaving the rest for KV); the largest model
# and the time to read it once (chapter 1's weight term, the decode latency floor of that model once the
# batch touches every expert: section 2's few hundred tokens; at batch 1 an MoE reads only its $k$ experts
# per layer, and its floor is lower) are:

# %%
show(moe.max_params_expr, lhs=r"N_\text{max}")
show(moe.weight_floor_expr, lhs=r"t_\text{floor}")
hist = moe.scaleup_history()
rows = ["| domain | chips | status | HBM | HBM bandwidth | largest fp8 model (½ HBM) | its weight-read floor |",
        "|---|---:|---|---:|---:|---:|---:|"]
rows += [f"| {d.name} | {d.chips} | {d.status} | {fmt(d.hbm_capacity, 'B')} | {fmt(d.hbm_bandwidth, 'B/s')} | "
         f"{fmt(d.max_params)} | {fmt(d.weight_floor_s, 's')} |" for d in hist]
say("\n".join(rows))
plots.history_chart(hist)

# %%
h = {d.name: d for d in hist}
say(f"The lecture: Hopper {L['hopper_domain']} → Blackwell {L['blackwell_domain']} → Rubin \"{L['rubin_domain']} and "
    f"something\". The Hopper box: {fmt(h['HGX-H100'].hbm_capacity, 'B')} (the lecture: "
    f"{fmt(L['hopper_box_bytes'], 'B')}). A Blackwell rack: {fmt(h['GB200-NVL72'].hbm_capacity, 'B')} (GB200) to "
    f"{fmt(h['GB300-NVL72'].hbm_capacity, 'B')} (GB300); the lecture: {fmt(L['blackwell_rack_bytes'][0], 'B')}–"
    f"{fmt(L['blackwell_rack_bytes'][1], 'B')}. **Erratum 5:** the first Vera Rubin rack is called NVL144 but "
    f"counts dies: it is {h['VR-NVL144'].chips} packages, the same count as Blackwell, with the same HBM as GB300 "
    f"(announced). The \"500 and something\" is most likely **Rubin Ultra NVL576** (announced for 2027): 576 dies = "
    f"{h['Rubin-Ultra-NVL576'].chips} packages, {h['Rubin-Ultra-NVL576'].chips / h['GB300-NVL72'].chips:.0f}× the "
    f"packages of NVL72, near the lecture's genuine ~{L['rubin_real_gain']}× in dies; its per-package figures are "
    "uncertain (coverage conflicts on HBM per package).")
assert h["HGX-H100"].hbm_capacity == L["hopper_box_bytes"]
assert L["blackwell_rack_bytes"][0] <= h["GB200-NVL72"].hbm_capacity <= h["GB300-NVL72"].hbm_capacity \
    <= 1.1 * L["blackwell_rack_bytes"][1]
assert h["VR-NVL144"].chips == h["GB300-NVL72"].chips and h["Rubin-Ultra-NVL576"].chips * 4 == 576

# %% [markdown]
# **Dwarkesh's hypothesis (labelled as such).** GPT-4 (released 2023) was **rumoured** at over 1T parameters
# (unverified, erratum 15); only recently have clearly bigger models appeared. His reading: the 8-GPU
# Hopper box capped model size, and Blackwell racks lifted the cap, enough for a ~5T model plus KV.
# Reiner broadly agrees. The arithmetic behind it:

# %%
r_box = L["gpt4_params"] / h["HGX-H100"].max_params
fits_5t = L["dwarkesh_model_params"] <= h["GB200-NVL72"].max_params
say(f"A {fmt(L['gpt4_params'])}-parameter model in fp8 is {r_box:.1f}× what fits an 8-GPU Hopper box with half its "
    f"HBM for KV (it needed bigger boxes, pipeline stages or a smaller KV share). A {fmt(L['dwarkesh_model_params'])} "
    f"model fits a GB200 rack's half ({fmt(h['GB200-NVL72'].max_params)}): {fits_5t}. Both are consistent with the "
    "hypothesis; neither proves it: the model sizes are rumours and guesses, not published figures.")
assert r_box > 1 and fits_5t

# %% [markdown]
# **The law.** Compute prices the **active** parameters: at the compute floor a token costs
# $2 N_\text{active}$ FLOPs whatever the domain. Scale-up HBM caps the **total**: the experts must all sit
# in one domain (section 4). Chapter 1's cost formula at its compute floor:

# %%
show(moe.compute_cost_expr, lhs=r"\$ / \text{token}")
c = moe.compute_cost_per_token("GB200", dsv3.active_params, "fp8", L["gpu_dollars_per_hour"])
say(f"DeepSeek-V3's {fmt(dsv3.active_params)} active parameters cost at least ${c * 1e6:.4f} per million tokens of "
    f"GB200 compute at ${L['gpu_dollars_per_hour']:g}/GPU-hour, on any rack; its {fmt(dsv3.total_params)} total fit "
    f"only where {fmt(dsv3.weight_bytes('fp8'), 'B')} of fp8 weights fit.")
plots.law_chart(domains=hist)

# %%
assert moe.compute_cost_expr.free_symbols == {nt.N_act, nt.n_chips, nt.p_chip, nt.F}    # no N_total, no HBM
assert moe.max_params_expr.free_symbols == {nt.f_wt, nt.C_hbm, nt.b_w}                  # no N_active, no FLOP/s
moe_models = [models.get(n) for n in ("DeepSeek-V3", "Kimi-K2", "Qwen3-235B-A22B")]
assert all(m.total_params <= h["GB200-NVL72"].max_params for m in moe_models)

# %%
say(f"**Takeaway:** active parameters are limited by compute cost; total parameters are limited by scale-up "
    f"size. Growing scale-up domains ({' → '.join(str(h[n].chips) for n in ('HGX-H100', 'GB200-NVL72', 'Rubin-Ultra-NVL576'))} "
    "packages) is what lets total parameters grow.")
