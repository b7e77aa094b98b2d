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
# # 06 · RL and ~100× over-training beyond Chinchilla
#
# *Lecture chapter 5 (1:18:59–1:33:02).* **The question:** Chinchilla says a model should see about 20
# training tokens per parameter. Frontier models are said to see far more. Once a model's whole life
# counts (pre-training, RL rollouts and serving), how far past Chinchilla should a lab train? Nobody
# publishes the scaling laws or the traffic, so this is estimation with wide error bars. The aim is to get
# the reasoning right and see which guesses matter.
#
# 1. **6·N·D**: where the 6 comes from, and a check against published training runs.
# 2. **"The minimum is where the terms are equal"**: when that is exact and when it is only close.
# 3. **Equal cost across pre-training, RL and inference**: the token ratios, and the blackboard's tangle.
# 4. **How many inference tokens?** And so how far past Chinchilla, with error bars.
#
# Every number below comes from `lecture_lib`. Where the lecture says something, its figure stands beside
# ours (`SAID`). Each claim is followed by an `assert`.

# %%
import numpy as np
import sympy as sp

from lecture_lib import explorers, hardware, lecture, models, traffic, training, training_runs
from lecture_lib import notation as nt
from lecture_lib.lecture import SAID as L
from lecture_lib.plots import training as plots
from lecture_lib.prose import say, show
from lecture_lib.units import DAY, HOUR, fmt

chapter = lecture.CHAPTERS[4]
say(f"[Watch this section]({lecture.video_url(chapter.start_s)}) ({lecture.timestamp(chapter.start_s)} to "
    f"{lecture.timestamp(lecture.CHAPTERS[5].start_s)}): *{chapter.title}*.")

# %% [markdown]
# ## 1. Where the 6 in 6·N·D comes from
#
# **Question.** Training a model of $N$ parameters on $D$ tokens costs about $6ND$ FLOPs. Why 6?
#
# Almost all the FLOPs are matmuls against weight matrices. Take one: $W$ with shape $d_\text{in}\times
# d_\text{out}$, and one token's activation $x$ of shape $1\times d_\text{in}$. An $(m\times k)\cdot(k\times
# n)$ matmul does $m\,k\,n$ multiply-adds, which is 2 FLOPs each:

# %%
d_in, d_out = nt.d_in, nt.d_out
def macs(m, k, n):
    return m * k * n                                # multiply-adds of an (m×k)·(k×n) matmul

forward = 2 * macs(1, d_in, d_out)                  # y = x·W
grad_input = 2 * macs(1, d_out, d_in)               # dL/dx = dL/dy · Wᵀ   (passed back to the layer below)
grad_weight = 2 * macs(d_in, 1, d_out)              # dL/dW = xᵀ · dL/dy   (the weight update)
params = d_in * d_out
show(forward / params, lhs=r"\text{forward FLOPs per parameter}")
show((grad_input + grad_weight) / params, lhs=r"\text{backward FLOPs per parameter}")
assert forward / params == training.FORWARD_FLOPS_PER_PARAM == 2
assert (grad_input + grad_weight) / params == training.BACKWARD_FLOPS_PER_PARAM == 4
assert sp.simplify(training.forward_flops_expr - forward) == 0

# %% [markdown]
# The backward pass needs two matmuls of the same size as the forward one. One gives the gradient for the
# activations, so the error can flow to earlier layers. The other gives the gradient for the weights,
# which is what training is for. So per parameter per token: 2 forward + 4 backward = 6.

# %%
show(training.flops_expr, lhs="C")
assert sp.simplify(training.flops_expr - 6 * nt.N * nt.D) == 0

# %% [markdown]
# For a mixture-of-experts model, $N$ is the **active** parameter count: a token only multiplies the
# weights it is routed to. (Attention over the context adds FLOPs that 6·N·D leaves out. At training
# context lengths they are a few percent.)
#
# ### 1.1 Checked against published runs
#
# The papers' own figures are in the registry (`lecture_lib/data/training_runs.toml`), each with its
# source and date:

# %%
table = ["| run | active params | tokens | 6·N·D | the paper's FLOPs | ratio | source |", "|---|---:|---:|---:|---:|---:|---|"]
for run in training_runs.RUNS.values():
    est = training.flops(run.params, run.tokens)
    rep = run.reported_flops
    table.append(f"| {run.name} | {fmt(run.params, 'params')} | {fmt(run.tokens)} | {fmt(est, 'FLOP')} | "
                 f"{fmt(rep, 'FLOP') if rep else '(not given)'} | {f'{est / rep:.3f}' if rep else '–'} | "
                 f"[{run.source.url}]({run.source.url}) ({run.source.as_of}, {run.source.quality}) |")
say("\n".join(table))
ratios = [training.flops(r.params, r.tokens) / r.reported_flops for r in training_runs.RUNS.values() if r.reported_flops]
assert len(ratios) >= 3 and all(abs(x - 1) < 0.03 for x in ratios)

# %%
plots.six_nd_vs_reported()

# %%
ds_run, ll_run = training_runs.get("DeepSeek-V3"), training_runs.get("Llama-3-405B")
say(f"**DeepSeek-V3** gives no FLOP count, but it does report its GPU-hours: {fmt(ds_run.chip_hours)} "
    f"{ds_run.chip}-hours for pre-training. Dividing 6·N_active·D by GPU-seconds × peak gives the **model FLOP "
    "utilisation** (MFU):")
show(training.mfu_expr, lhs=r"\eta")
ds_fp8, ds_bf16 = training.run_mfu(ds_run, "fp8"), training.run_mfu(ds_run, "bf16")
ll_mfu = training.run_mfu(ll_run)
say(f"DeepSeek-V3: 6 × {fmt(ds_run.params, 'params')} × {fmt(ds_run.tokens)} tokens = "
    f"{fmt(training.flops(ds_run.params, ds_run.tokens), 'FLOP')} over {fmt(ds_run.chip_hours)} {ds_run.chip}-hours: "
    f"**{100 * ds_fp8:.0f}%** of the H800's dense FP8 peak ({fmt(hardware.get('H800').flops('fp8'), 'FLOP/s')}), or "
    f"{100 * ds_bf16:.0f}% of its BF16 peak. Llama 3 405B, for comparison: {fmt(ll_run.reported_flops, 'FLOP')} over "
    f"{fmt(ll_run.chip_hours)} H100-hours = **{100 * ll_mfu:.0f}%** of the BF16 peak (the paper reports 38–43% "
    "while running; the GPU-hours also count restarts).")
assert 0.15 < ds_fp8 < 0.2 and np.isclose(ds_bf16, 2 * ds_fp8, rtol=0.01) and 0.3 < ll_mfu < 0.45

# %% [markdown]
# DeepSeek ran its matmuls in FP8, so the fair yardstick is the FP8 peak. By that yardstick its
# utilisation is about half of Llama's. Quoted against BF16, the same run looks just like Llama. An MFU
# means little until you say which peak it divides by.
#
# **Chinchilla's 20.** Hoffmann et al. 2022 ([arXiv 2203.15556](https://arxiv.org/abs/2203.15556)) found
# that, for a fixed compute budget, parameters and tokens should grow together, about 20 tokens per
# parameter. Their own 70B model is the example:

# %%
chin = training_runs.get("Chinchilla-70B")
l8 = models.get("Llama-3-8B")
say(f"Chinchilla: {fmt(chin.tokens)} tokens / {fmt(chin.params, 'params')} = **{chin.tokens / chin.params:.0f}** "
    f"tokens per parameter. Llama 3 405B trained at {training.overtraining(ll_run.params, ll_run.tokens):.1f}× "
    f"that, DeepSeek-V3 at {training.overtraining(ds_run.params, ds_run.tokens):.0f}× (per *active* parameter), "
    f"Llama 3 8B at {training.overtraining(l8.active_params, l8.training_tokens):.0f}×.")
assert chin.tokens / chin.params == training.CHINCHILLA_TOKENS_PER_PARAM

# %%
say(f"**Takeaway:** 6·N·D is 2 FLOPs forward plus 4 backward per parameter per token. It lands within "
    f"{100 * max(abs(x - 1) for x in ratios):.0f}% of every published FLOP count here. Published chip-hours then "
    f"give the utilisation: about {100 * ll_mfu:.0f}% for Llama 3 (BF16) and {100 * ds_fp8:.0f}% for DeepSeek-V3 (FP8).")
assert max(abs(x - 1) for x in ratios) < 0.03

# %% [markdown]
# ## 2. "The minimum is where the terms are equal"
#
# **Question.** Reiner's rule of thumb: when one cost falls and another rises as you turn a knob $x$,
# the total is smallest about where the two are equal. He did not prove it. When is it right?
#
# Start with $a/x + b\,x$:

# %%
x, a, b, p, q = nt.x_h, nt.a_h, nt.b_h, nt.p_h, nt.q_h
cost = a / x + b * x
(x_star,) = sp.solve(sp.diff(cost, x), x)
show(x_star, lhs="x^*")
show(sp.simplify((a / x) / (b * x)).subs(x, x_star), lhs=r"\frac{A}{B}\Big|_{x^*}")
assert sp.simplify(((a / x) / (b * x)).subs(x, x_star)) == 1          # exactly equal

# %% [markdown]
# Now the general pair $a\,x^{-p} + b\,x^{q}$. Setting the derivative to zero gives
# $p\,a\,x^{-p} = q\,b\,x^{q}$, so at the minimum the falling term is $q/p$ times the rising one:

# %%
A, Bterm = a * x ** -p, b * x ** q
(x_opt,) = sp.solve(sp.diff(A + Bterm, x), x)
ratio_at_min = sp.simplify((A / Bterm).subs(x, x_opt))
show(x_opt, lhs="x^*")
show(ratio_at_min, lhs=r"\frac{A}{B}\Big|_{x^*}")
assert sp.simplify(ratio_at_min - q / p) == 0
assert sp.simplify(ratio_at_min - training.optimum_term_ratio_expr()) == 0

# %% [markdown]
# So "A = B" is exact only when $p = q$. How much does it cost to use it anyway? Take the $x$ where the
# terms are equal, and compare the total there with the true minimum (the ratio depends on $p$ and $q$
# only):

# %%
pairs = [(1, 1), (1, 2), (2, 1), (0.5, 2), (1, 3), (0.3, 1)]
table = ["| p | q | A/B at the minimum | x where A = B ÷ x* | cost at A = B ÷ minimum |", "|---:|---:|---:|---:|---:|"]
table += [f"| {pp:g} | {qq:g} | {training.power_law_optimum(pp, qq):.2f} | {training.heuristic_x_miss(pp, qq):.2f} | "
          f"{training.heuristic_cost_penalty(pp, qq):.3f} |" for pp, qq in pairs]
say("\n".join(table))
penalties = {pq: training.heuristic_cost_penalty(*pq) for pq in pairs}
assert penalties[(1, 1)] == 1 and max(penalties.values()) < 1.25

# %%
plots.heuristic()

# %%
worst = max(penalties, key=penalties.get)
say(f"**Takeaway:** at the optimum the terms stand in the ratio q/p, so the terms are equal only when the "
    f"exponents match. The total cost is flat near its minimum, so setting A = B costs little: "
    f"{100 * (penalties[(1, 2)] - 1):.0f}% for (p, q) = (1, 2), and {100 * (penalties[worst] - 1):.0f}% for "
    f"the most lopsided pair above, {worst}. The error bars on the inputs are larger than that.")
assert penalties[(1, 2)] < 1.1

# %% [markdown]
# ## 3. Equal cost across pre-training, RL and inference
#
# **Question.** A model's lifetime compute has three parts. In the lecture's terms, with $N$ the active
# parameters:
#
# * pre-training, 6 FLOPs per parameter per token;
# * RL, between 2 (rollouts only generated) and 6 (every rollout trained on), times an **inefficiency**:
#   rollouts are mostly decode, which runs at low utilisation (Reiner guesses about 30%);
# * inference, 2 per token, times the same kind of inefficiency.
#
# If the three terms trade against each other and the rule of section 2 holds, each takes about a third
# of the compute. What token counts follow?

# %%
C_PT, C_RL, C_inf = training.pretrain_cost_expr, training.rl_cost_expr, training.inference_cost_expr
for lhs, c in ((r"C_{\mathrm{PT}}", C_PT), (r"C_{\mathrm{RL}}", C_RL), (r"C_{\mathrm{inf}}", C_inf)):
    show(c, lhs=lhs)
sol = sp.solve([sp.Eq(C_RL, C_PT * nt.s_RL / nt.s_PT), sp.Eq(C_inf, C_PT * nt.s_inf / nt.s_PT)],
               [nt.D_RL, nt.D_inf], dict=True)[0]
rl_ratio, inf_ratio = sp.simplify(sol[nt.D_RL] / nt.D_PT), sp.simplify(sol[nt.D_inf] / nt.D_PT)
show(rl_ratio, lhs=r"D_{\mathrm{RL}} / D_{\mathrm{PT}}")
show(inf_ratio, lhs=r"D_{\mathrm{inf}} / D_{\mathrm{PT}}")
assert nt.N_act not in rl_ratio.free_symbols | inf_ratio.free_symbols        # N_active cancels
assert sp.simplify(rl_ratio - training.rl_token_ratio_expr()) == 0
assert sp.simplify(inf_ratio - training.inference_token_ratio_expr()) == 0

# %% [markdown]
# $N_\text{active}$ cancels: the answer does not depend on the model's size. With equal thirds and the
# flashcard's numbers (RL at 3 FLOPs per parameter per token, both inefficiencies 3):

# %%
card = {nt.k_PT: training.TRAIN_FLOPS_PER_PARAM, nt.k_RL: L["card_rl_flops"], nt.u_RL: L["card_inefficiency"],
        nt.k_inf: training.INFERENCE_FLOPS_PER_PARAM, nt.u_inf: L["card_inefficiency"],
        nt.s_PT: sp.Rational(1, 3), nt.s_RL: sp.Rational(1, 3), nt.s_inf: sp.Rational(1, 3)}
show(sp.Eq(6 * nt.D_PT, sp.Mul(3, 3, nt.D_RL, evaluate=False)), lhs=None)
r_rl, r_inf = rl_ratio.subs(card), inf_ratio.subs(card)
split = training.equal_cost_split()
say(f"D_PT : D_RL : D_inf = 1 : **{r_rl}** : **{r_inf}**, so pre-training ÷ RL tokens = {1 / r_rl} "
    f"(the lecture landed on {L['pt_over_rl']} : 1, with inference ≈ pre-training).")
assert r_rl == sp.Rational(2, 3) and r_inf == 1 and float(1 / r_rl) == L["pt_over_rl"]
assert np.isclose(split.rl, float(r_rl)) and np.isclose(split.inference, float(r_inf))

# %% [markdown]
# ### 3.1 The blackboard version, untangled (syllabus §6, erratum 10)
#
# On the board the bookkeeping got tangled. Reiner named the factors α and β, wrote fractions like 1/10
# and 2/10, then reversed the direction of the correction. We do not reproduce the board itself. The
# syllabus records only its ingredients. Here is the one thing that can go wrong, shown cleanly.
#
# A chip running at **efficiency** $e$ (a fraction such as 1/10, 2/10 or 30%) costs
# $u = 1/e$ times as much per FLOP of useful work. The **inefficiency** $u$ multiplies cost. At a fixed
# share of compute, more cost per token means *fewer* tokens: $D_\text{RL} \propto e$. If you put the
# efficiency where the inefficiency belongs, the direction flips and RL appears to get *more* tokens
# as it gets less efficient:

# %%
flipped = rl_ratio.subs(nt.u_RL, 1 / nt.u_RL)         # the slip: the efficiency written as the cost factor
show(rl_ratio.subs(nt.u_RL, 1 / sp.Symbol("e", positive=True)), lhs=r"\text{right: } D_{\mathrm{RL}}/D_{\mathrm{PT}}")
show(flipped.subs(nt.u_RL, 1 / sp.Symbol("e", positive=True)), lhs=r"\text{flipped: } D_{\mathrm{RL}}/D_{\mathrm{PT}}")
fracs = [*L["blackboard_fractions"], L["rl_efficiency"], 1 / L["card_inefficiency"]]
base = {k: v for k, v in card.items() if k != nt.u_RL}
right_f, flipped_f = sp.lambdify(nt.u_RL, rl_ratio.subs(base)), sp.lambdify(nt.u_RL, flipped.subs(base))
table = ["| efficiency e | inefficiency u = 1/e | right: D_RL / D_PT | flipped: D_RL / D_PT |", "|---:|---:|---:|---:|"]
table += [f"| {e:.2f} | {1 / e:.1f} | {right_f(1 / e):.2f} | {flipped_f(1 / e):.1f} |" for e in fracs]
say("\n".join(table))
assert right_f(10) < right_f(5) < 1 < flipped_f(5) < flipped_f(10)

# %% [markdown]
# The flashcard version is the right column at $e = 1/3$: 6·D_PT = 3·3·D_RL = 2·3·D_inf. RL gets
# **fewer** tokens than pre-training because it runs less efficiently, never more.

# %%
e_low = min(L["blackboard_fractions"])
say(f"Trying a range of efficiencies as in the table also shows how soft the \"{L['pt_over_rl']}\" is: at "
    f"{e_low:g} efficiency, pre-training tokens are {1 / right_f(1 / e_low):.0f}× RL's.")
assert 1 / right_f(1 / e_low) > 2 * L["pt_over_rl"]

# %% [markdown]
# ### 3.2 Thirds, or Dwarkesh's 50/50?
#
# Dwarkesh suggested half for training (pre-training + RL) and half for inference. Reiner said that is
# just as defensible: pre-training's share moves by a small factor.

# %%
thirds, fifty = training.cost_split(shares="thirds"), training.cost_split(shares="50/50")
say(f"Thirds: pre-training gets {100 * thirds.shares[0]:.0f}% (the lecture: {100 * L['share_thirds']:.0f}%), D_inf = "
    f"{thirds.inference:.1f}·D_PT. 50/50: pre-training gets {100 * fifty.shares[0]:.0f}% (the lecture: "
    f"{100 * L['share_dwarkesh']:.0f}%), D_inf = {fifty.inference:.1f}·D_PT.")
assert np.isclose(fifty.inference / thirds.inference, 2) and np.isclose(fifty.rl, thirds.rl)

# %% [markdown]
# Move the RL FLOPs per token, the two inefficiencies and the split:

# %%
split_explorer = explorers.get("cost_split")()
split_explorer

# %%
say(f"**Takeaway:** equal cost is close to equal data. With the flashcard's numbers D_PT = "
    f"{1 / split.rl:.1f}·D_RL = {1 / split.inference:.0f}·D_inf, and N_active cancels. Every factor "
    "(2 vs 6 FLOPs for RL, the inefficiencies, thirds vs 50/50) moves a token ratio by at most a small "
    "factor, never by orders of magnitude.")
assert split_explorer.state["pretrain_over_rl"] == L["pt_over_rl"]

# %% [markdown]
# ## 4. How many inference tokens, and so how far past Chinchilla?
#
# **Question.** If pre-training tokens ≈ inference tokens, then the traffic a model will serve tells
# you how long to pre-train it. The lecture's guesses: worldwide traffic **~500M tokens/s** (a guess),
# a model is deployed for **~2 months**, and a family of about **5–10** models shares the traffic.

# %%
show(training.inference_tokens_expr, lhs=r"D_{\mathrm{inf}}")
two_months = L["deployment_days"] * DAY
world = training.inference_tokens(L["world_tok_s"], two_months)
google = traffic.get("google-2025-10")
say(f"World, 2 months: {fmt(L['world_tok_s'], 'tok/s')} × {L['deployment_days']} days = **{fmt(world)}** tokens "
    f"(Dwarkesh: {fmt(L['world_tokens_2mo'])}). A sanity check on the guess: Google alone announced "
    f"{fmt(google.tokens_per_month)} tokens a month in {google.as_of} ({google.source.url}) = "
    f"{fmt(google.tokens_per_second, 'tok/s')}.")
assert abs(world / L["world_tokens_2mo"] - 1) < 0.01
assert 0.5 < google.tokens_per_second / L["world_tok_s"] < 2     # the guess is the right order of magnitude

# %%
per_model = {n: training.inference_tokens(L["world_tok_s"], two_months, n) for n in (L["family_low"], L["family_high"])}
d_inf = training.tokens_served(L["model_tok_s"], two_months)
say(f"Split over {L['family_low']}–{L['family_high']} models: {fmt(per_model[L['family_high']])}–"
    f"{fmt(per_model[L['family_low']])} tokens each. At the lecture's {fmt(L['model_tok_s'], 'tok/s')} per model: "
    f"**{fmt(d_inf)}** tokens, which the lecture rounded to ~{fmt(L['pretrain_tokens'])}.")
assert np.isclose(d_inf, per_model[L["family_high"]]) and 1 < d_inf / L["pretrain_tokens"] < 1.4

# %% [markdown]
# Chinchilla for a frontier model with **~100B active** parameters (a guess; syllabus §6, erratum 15:
# unverified), and the resulting over-training:

# %%
n_front = L["frontier_active_params"]
d_chin = training.chinchilla_tokens(n_front)
over = training.overtraining(n_front, d_inf / split.inference)
over_said = training.overtraining(n_front, L["pretrain_tokens"])
rumour = training.overtraining(n_front, L["rumoured_pretrain_tokens"])
derated = training.lifetime_overtraining(n_front, L["world_tok_s"], two_months, L["family_high"], keep=0.5)
say(f"D_Chinchilla = 20 × {fmt(n_front, 'params')} = **{fmt(d_chin)}** tokens (the lecture: {fmt(L['chinchilla_tokens'])}). "
    f"D_PT = D_inf = {fmt(d_inf)} → **{over:.0f}×** past Chinchilla; with the lecture's rounded "
    f"{fmt(L['pretrain_tokens'])}: {over_said:.0f}× (the lecture: ~{L['overtraining']}×).\n\n"
    f"*Rumour, not well sourced (relayed by Dwarkesh):* a frontier model pre-trained on ~{fmt(L['rumoured_pretrain_tokens'])} "
    f"tokens, which would be {rumour:.0f}×, the same ballpark.\n\n"
    f"**Derating:** a model may be shelved early. If it has even odds of serving its full two months, the "
    f"expected D_inf halves and so does the equalised D_PT: {derated:.0f}×.")
assert d_chin == L["chinchilla_tokens"] and over_said == L["overtraining"]
assert 100 < over < 140 and np.isclose(derated, over / 2) and 50 < rumour < 100

# %% [markdown]
# Every input is uncertain, so give each a range. The explorer takes a (low, high) range for each input.
# The red bar spans every combination of the ends. The dot is the geometric middle. Published runs are
# shown for comparison (per active parameter):

# %%
over_explorer = explorers.get("overtraining_range")()
over_explorer

# %%
st = over_explorer.state
say(f"With the default ranges: **{st['overtraining']:.0f}×**, from {st['low']:.0f}× to {st['high']:,.0f}×.")
assert st["low"] < L["overtraining"] < st["high"] and st["high"] / st["low"] > 100

# %% [markdown]
# ### 4.1 How many chips serve that traffic?
#
# Inference needs $2\,N_\text{active}$ FLOPs per token. At the compute bound of chapter 1 (every chip at
# or past the balance batch) a chip delivers its peak. Realistically decode runs nearer the lecture's ~30%:

# %%
show(training.serving_chips_expr, lhs=r"n_{\mathrm{serve}}")
b200 = hardware.get("B200")
peak = b200.flops("fp8")
bound = training.serving_chips(n_front, L["model_tok_s"], peak)
real = training.serving_chips(n_front, L["model_tok_s"], peak, L["rl_efficiency"])
say(f"{fmt(L['model_tok_s'], 'tok/s')} on a model with {fmt(n_front, 'params')} active = "
    f"{fmt(2 * n_front * L['model_tok_s'], 'FLOP/s')}. B200 in fp8 ({fmt(peak, 'FLOP/s')} dense): **{bound:,.0f}** chips "
    f"at the bound, **{real:,.0f}** at {100 * L['rl_efficiency']:.0f}% utilisation; the whole world's "
    f"{fmt(L['world_tok_s'], 'tok/s')} takes {training.serving_chips(n_front, L['world_tok_s'], peak, L['rl_efficiency']):,.0f}.")
assert 7000 < real < 8000 and np.isclose(real * L["rl_efficiency"], bound)

# %%
say(f"**Takeaway:** {fmt(L['world_tok_s'], 'tok/s')} over two months, shared by ~{L['family_high']} models, is "
    f"~{fmt(d_inf)} tokens per model. Equalising cost makes that the pre-training budget too. Against "
    f"Chinchilla's {fmt(d_chin)} for {fmt(n_front, 'params')} active, that is ~{over:.0f}× over-trained, "
    f"and the guesses behind it span two orders of magnitude. Even the low end of the range is several times "
    "past Chinchilla.")
assert over > 50
