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
# # 07 · Prices as evidence: what API price sheets reveal about long-context memory costs
#
# *Lecture chapter 6 (1:33:02–2:04:02), the longest of the lecture.* Providers compete, so their prices
# sit near their costs, and the *shape* of a price sheet (a step at 200K tokens, an output premium, a
# cheaper cache hit, two cache durations) leaks how serving works inside. The chapter's question:
# **what can you deduce about a model's KV cache and its memory hierarchy from public prices alone?**
#
# 1. **The long-context surcharge**: cost per token against context, the kink, the two-tier price.
# 2. **KV bytes per token read off a price**, the reverse problem, and the architecture check.
# 3. **Input against output price**: the len_pass model, and the decode MFU each price sheet implies.
# 4. **The context ceiling**: when attention compute matters, and what 100M-token contexts would need.
# 5. **Prompt caching and memory tiers**: hold or recompute, the drain-time rule, break-even reuse counts.
#
# Every number below is computed by `lecture_lib`; where the lecture said something different, the two
# stand side by side. Prices are dated snapshots from `lecture_lib/data/prices.toml`; storage devices come
# from `lecture_lib/data/storage.toml`, whose datasheet figures are **recalled** (flag R) and whose street
# prices are **uncertain** (flag U): treat those as rough.

# %%
import numpy as np
import sympy as sp

from lecture_lib import balance, explorers, fmt, hardware, lecture, models, prices, pricing, roofline, storage
from lecture_lib import notation as nt
from lecture_lib.lecture import SAID as L     # what the lecture said, for side-by-side comparisons
from lecture_lib.plots import pricing as plots
from lecture_lib.prose import say, show

chapter = lecture.CHAPTERS[5]
say(f"**Watch:** [{chapter.title} ({lecture.timestamp(chapter.start_s)})]({lecture.video_url(chapter.start_s)})")
assert chapter.number == 6

# %% [markdown]
# ## 1. The long-context surcharge
#
# **Question.** Dwarkesh: Gemini is "50% more expensive above 200K tokens". Why would a price step up
# at a context length, and why there? First, what the price sheet actually says:

# %%
gemini = prices.get("gemini-3.1-pro-preview")
up_in, up_out = pricing.long_context_multipliers(gemini)
say(f"{gemini.model} (snapshot {gemini.source.as_of}, quality {gemini.source.quality}): input "
    f"{fmt(gemini.input, '$')} → {fmt(gemini.input_long, '$')} per M tokens (×{up_in:g}), output "
    f"{fmt(gemini.output, '$')} → {fmt(gemini.output_long, '$')} (×{up_out:g}) above "
    f"{fmt(gemini.long_context_threshold)} prompt tokens. The lecture: \"{100 * L['long_context_surcharge']:.0f}% more\".")
assert up_out == 1 + L["long_context_surcharge"]          # the lecture's 50% is the output step ...
assert up_in == 2 * up_out / (1 + L["long_context_surcharge"]) == 2     # ... the input price doubles (erratum 8)

# %% [markdown]
# **Slip (syllabus §6, item 8).** "50% more" is right for output tokens only; input tokens cost twice as
# much above 200K. Anthropic's and OpenAI's long-context steps have the same asymmetric shape (registry:
# `claude-sonnet-4.5`, `gpt-5.5`). Section 3 explains why input is hit harder: input is prefill, which is
# compute-bound below the step, so KV reads change its cost more than decode's.
#
# **The cost per token against context.** Per sequence and per decode step, compute does not depend on the
# context; reading the sequence's KV cache grows linearly with it (the chapter-1 roofline, divided by B):

# %%
t_c = pricing.compute_time_per_sequence_expr       # 2·N_act / F
t_kv = pricing.kv_time_per_sequence_expr            # L_ctx·b_kv / BW
show(t_c, lhs=r"t_\text{compute}/B")
show(t_kv, lhs=r"t_\text{kv}/B")
assert nt.L_ctx not in t_c.free_symbols and sp.diff(t_kv, nt.L_ctx) == nt.b_kv / nt.BW

# %% [markdown]
# The time per token is the larger of compute and memory (weights shared by the batch, plus KV), so it is
# flat and then rises, with a kink where the two cross. Here is the lecture's kind of model (100B active,
# attention like **one global KV layer**, 2 KB per token in fp8: a hypothetical built by
# `pricing.lecture_model()`) on a GB200-NVL72 rack in fp8, at a large batch, beside Gemini's price sheet:

# %%
guess = pricing.lecture_model()
rack, batch = hardware.get("GB200-NVL72"), 4_000
crossover = roofline.balance_context(rack, guess, "fp8", "fp8")
plots.cost_vs_context(rack, guess, batch, "fp8", "fp8", gemini.model)

# %%
below = roofline.step_time(rack, guess, batch, context=crossover / 2, weight_dtype="fp8", kv_dtype="fp8")
above = roofline.step_time(rack, guess, batch, context=2 * crossover, weight_dtype="fp8", kv_dtype="fp8")
say(f"KV per token: {fmt(guess.kv_bytes_per_token('fp8'), 'B')}. KV read = compute per sequence at "
    f"**{fmt(crossover)} tokens**. At half that the step is {below.bound}-bound; at twice it, {above.bound}-bound "
    f"and {above.total / below.total:.2f}× slower per token. The batch ({batch:,} sequences at "
    f"{fmt(2 * crossover)} tokens) fits in the rack's HBM: {above.fits}.")
assert below.bound == "compute" and above.bound == "memory" and above.fits
assert above.total / below.total > 1.5

# %% [markdown]
# Why two tiers and not a price per token that rises with context? A provider must be profitable at every
# context length, and a simple sheet wins customers: one flat price where cost is flat, one higher price
# where memory dominates. And why do prices leak costs at all? A provider pricing far above cost gets
# undercut by a competitor serving the same kind of model.
#
# **Takeaway:** below the crossover a token costs the same at any context (compute-bound); above it, KV
# reads make the step memory-bound and the cost climbs with every token of context. A price step at 200K
# says the provider's crossover is somewhere near 200K.

# %%
assert roofline.step_time(rack, guess, batch, context=0.9 * crossover, weight_dtype="fp8", kv_dtype="fp8").compute == \
    below.compute                                                      # compute is flat in context

# %% [markdown]
# ## 2. KV bytes per token, read off a price
#
# **Question.** If the step sits at the crossover, what does its position say about the KV bytes per
# token? Set a sequence's KV read equal to its compute and solve for $b_\text{kv}$:

# %%
crossing = sp.Eq(t_kv, t_c)
(b_star,) = sp.solve(crossing, nt.b_kv)
show(crossing)
show(b_star, lhs=r"b_\text{kv}")
assert sp.simplify(b_star - pricing.crossover_kv_bytes_expr()) == 0

# %% [markdown]
# The batch cancelled before we started: both sides were per sequence. (With the B's kept,
# $B\cdot L\cdot b/\mathrm{BW} = 2B\cdot N/F$, they cancel the same way.) In the lecture's units,
# $F = 2\,r\,\mathrm{BW}/b_w$ with $r \approx 300$:

# %%
(F_of_r,) = sp.solve(sp.Eq(nt.r_hw, roofline.lecture_ratio_expr.subs(roofline.lecture_substitution)), nt.F)
b_lecture = sp.simplify(b_star.subs(nt.F, F_of_r))
show(b_lecture, lhs=r"b_\text{kv}")
with_B = sp.solve(sp.Eq(roofline.t_kv_expr, roofline.t_compute_expr.subs(nt.l_pass, 1)), nt.b_kv)[0]
assert nt.B not in with_B.free_symbols                                  # B cancels
assert sp.simplify(b_lecture - roofline.implied_kv_bytes_expr()) == 0  # the library's expression

# %%
N100, ctx200 = L["frontier_active_params"], L["price_step_context"]
implied = roofline.implied_kv_bytes_per_token(N100, ctx200, L["ratio"])
slip = sp.simplify(nt.N_act * nt.L_ctx * nt.b_w / nt.r_hw)            # the lecture's first try: context upstairs
slip_value = float(slip.subs({nt.N_act: N100, nt.L_ctx: ctx200, nt.b_w: 1, nt.r_hw: L["ratio"]}))
say(f"With {fmt(N100, 'params')} active, the step at {fmt(ctx200)} tokens and r = {L['ratio']}: "
    f"**{fmt(implied, 'B')} per token** (Dwarkesh: {L['implied_kv_bytes']:,}, \"almost 2 KB\"). Reiner first put "
    f"the context in the numerator; that gives {fmt(slip_value, 'B')} per token, absurd, which is how he caught it.")
assert round(implied) == L["implied_kv_bytes"]
assert slip_value / implied > 1e10

# %% [markdown]
# **The reverse problem.** Given the bytes per token, where should the price step sit? Solve the same
# equation for the context:

# %%
(L_star,) = sp.solve(sp.Eq(nt.b_kv, b_lecture), nt.L_ctx)
show(L_star, lhs=r"L^*")
sanity = pricing.kv_bytes_from_architecture(L["kv_sanity_layers"], L["kv_sanity_kv_heads"], L["kv_sanity_head_dim"],
                                            L["kv_sanity_bytes_per_element"])
step = pricing.step_context(N100, sanity, L["ratio"])
say(f"With {fmt(sanity, 'B')} per token and {fmt(N100, 'params')} active the step belongs at "
    f"**{fmt(step)} tokens**.")
assert sp.simplify(L_star - pricing.step_context_expr()) == 0
assert 150_000 < step < 170_000

# %% [markdown]
# ### The sanity check: what architecture holds 1.7 KB per token?
#
# Bytes per token = unique KV layers × 2 (K and V) × KV heads × $d_\text{head}$ × bytes per element. The
# query heads do not count: they belong to the new token only and are thrown away.

# %%
show(pricing.kv_bytes_formula_expr, lhs=r"b_\text{kv}")
show(pricing.kv_layer_heads_expr(), lhs=r"n_{\mathrm{KV\,layers}} \cdot n_{\mathrm{KV\,heads}}")
heads = pricing.kv_layer_heads(implied, L["kv_sanity_head_dim"], L["kv_sanity_bytes_per_element"])
say(f"The lecture's guess, {L['kv_sanity_layers']} global layer × 2 × {L['kv_sanity_head_dim']} × "
    f"{L['kv_sanity_kv_heads']} KV heads × {L['kv_sanity_bytes_per_element']} byte = **{fmt(sanity, 'B')}** (the "
    f"1 byte per element is implicit on the board). Read the other way, {fmt(implied, 'B')} is "
    f"**{heads:.1f} layer × KV-head pairs** of d_head = {L['kv_sanity_head_dim']} in fp8: one global "
    f"layer with ~8 KV heads (KV shared across layers, as in Character.AI's and Gemma's local/global designs), or "
    f"a few MQA layers.")
assert sanity == 2048 and 6 < heads < 7
llama = models.get("Llama-3-70B")
assert pricing.kv_bytes_from_architecture(llama.n_layers, llama.n_kv_heads, llama.head_dim, 2) == \
    llama.kv_bytes_per_token("bf16")

# %% [markdown]
# And the registry's real architectures (KV at bf16; gpt-oss-120b's 18 sliding-window layers hold a fixed
# amount per sequence, shown as its average over 200K tokens; DeepSeek-V3 stores one MLA latent per layer):

# %%
names = ["Llama-3-70B", "DeepSeek-V3", "gpt-oss-120b"]
table = ["| model | attention | KV bytes/token at 200K (bf16) | × the price's answer | where its step would be (r = 300) |",
         "|---|---|---:|---:|---:|"]
for n in names:
    m = models.get(n)
    kv = roofline.kv_bytes_per_token_at(m, ctx200, "bf16")
    table.append(f"| {n} | {m.attention} | {fmt(kv, 'B')} | {kv / implied:.0f}× | "
                 f"{fmt(pricing.step_context(m.active_params, kv, L['ratio']))} tokens |")
say("\n".join(table))
kv_all = {n: roofline.kv_bytes_per_token_at(n, ctx200, "bf16") for n in names}
assert all(kv / implied > 20 for kv in kv_all.values())
assert kv_all["gpt-oss-120b"] > models.get("gpt-oss-120b").kv_bytes_per_token("bf16")   # + the windowed layers

# %% [markdown]
# **How wrong can the answer be?** Each input is a guess: the active parameters (the lecture's "~100B" is a
# rumour), the hardware ratio (it depends on the chip and the number format), and whether the step sits at
# the crossover at all. The spread over plausible inputs, with the ratio taken from the registry's chips:

# %%
ratios = [r["lecture_ratio"] for r in balance.ratio_table() if r["status"] != "announced"]
actives = np.array([50e9, 100e9, 200e9])
grid = roofline.implied_kv_bytes_per_token(actives[:, None], ctx200, np.array(ratios)[None, :])
spread = (float(grid.min()), float(grid.max()))
say(f"Active parameters {fmt(actives.min(), 'params')}–{fmt(actives.max(), 'params')}, hardware ratio "
    f"{min(ratios):.0f}–{max(ratios):.0f}: the price's answer spans **{fmt(spread[0], 'B')} to "
    f"{fmt(spread[1], 'B')}** per token, a factor of {spread[1] / spread[0]:.0f}.")
assert spread[0] < implied < spread[1] and spread[1] / spread[0] > 5

# %%
plots.implied_vs_models(implied, ctx200, names, "bf16", spread)

# %% [markdown]
# Even the top of that range is far below what dense full-attention architectures hold, so either the
# priced model keeps very little KV per token (few global layers, fp8 or smaller, sparse attention: each of
# these multiplies the allowed bytes by 1/sparsity, as the lecture says), or the step is not at the cost
# crossover. The price alone cannot tell which; it bounds the product.

# %%
say(f"**Takeaway:** a step at {fmt(ctx200)} with ~{fmt(N100, 'params')} active parameters implies "
    f"~{fmt(implied, 'B')} of KV per token, consistent with about one global KV layer of ~{heads:.0f} heads in fp8, "
    f"and {min(kv_all.values()) / implied:.0f}–{max(kv_all.values()) / implied:.0f}× less than "
    f"{', '.join(names)} hold. Treat it as an order of magnitude: the inputs alone move it by "
    f"{spread[1] / spread[0]:.0f}×.")
assert kv_all["Llama-3-70B"] / spread[1] > 10            # even the generous end is 10× below a dense GQA model

# %% [markdown]
# Move each input and watch the answer (and the reverse problem: where a model's KV puts its step):

# %%
explorers.get("kv_from_price")()

# %% [markdown]
# ## 3. Input against output price
#
# **Question.** Output tokens cost several times input tokens (Dwarkesh's first guess: "50% more"; Reiner:
# "3–5×"; they proceed with 5×). Why, and what does the ratio reveal?
#
# The **len_pass model**: a pass processes $\ell_\text{pass}$ new tokens per sequence. Decode is
# $\ell_\text{pass} = 1$; prefill (the prompt, a tool result, a file) is $\ell_\text{pass} \gg 1$. Compute
# grows with the new tokens; memory does not: the weights and the existing KV are read once per pass, and
# prefill's own attention (flash attention) stays on chip.

# %%
show(pricing.time_per_token_expr, lhs=r"t/\text{token}")
l_star = pricing.compute_bound_length_expr()
show(l_star, lhs=r"\ell_\text{pass}^*")
per_token = pricing.time_per_token_expr
assert per_token.subs(nt.l_pass, 1) == sp.Max(nt.t_tok, nt.t_mem)                  # decode: pays all of t_mem
assert sp.simplify(per_token.subs(nt.l_pass, 2 * l_star) - nt.t_tok) == 0          # long prefill: compute only

# %%
t_mem_ex, t_tok_ex = 10e-3, 0.1e-3        # syllabus §5, chapter 6 problem 7
plots.time_per_token_vs_len_pass(t_mem_ex, t_tok_ex)

# %%
n_star = pricing.compute_bound_length(t_mem_ex, t_tok_ex)
say(f"With t_mem = {fmt(t_mem_ex, 's')} per pass and t_tok = {fmt(t_tok_ex, 's')} per token, prefill is "
    f"compute-bound from **{n_star:.0f} tokens** per pass; a decode token costs "
    f"{pricing.time_per_token(t_mem_ex, t_tok_ex, 1) / pricing.time_per_token(t_mem_ex, t_tok_ex, 1e4):.0f}× a "
    "long prefill's token.")
assert n_star == 100

# %% [markdown]
# **Reading the price ratio.** If prices follow time per token, $p_\text{out}/p_\text{in} = t_\text{mem}/t_\text{tok}$
# (decode memory-bound, prefill compute-bound). Decode's utilisation relative to prefill's is
# $t_\text{tok}/t_\text{mem}$; in prices:

# %%
ratio_eq = sp.Eq(nt.p_out / nt.p_in, pricing.decode_time_per_token_expr / pricing.prefill_time_per_token_expr)
(t_mem_of_p,) = sp.solve(ratio_eq, nt.t_mem)
mfu_ratio = sp.simplify((nt.t_tok / nt.t_mem).subs(nt.t_mem, t_mem_of_p))
show(ratio_eq)
show(mfu_ratio, lhs=r"\eta_\text{decode}/\eta_\text{prefill}")
assert sp.simplify(mfu_ratio - pricing.decode_mfu_expr()) == 0

# %%
opus = prices.get("claude-opus-4.6")
mfu_opus = pricing.decode_mfu_from_prices(opus.input, opus.output)
mfu_guess = pricing.decode_mfu_from_prices(1, L["output_premium_first_guess"])
say(f"{opus.model}: {fmt(opus.input, '$')} in, {fmt(opus.output, '$')} out: {opus.output / opus.input:g}×, so "
    f"decode runs at **{mfu_opus:.2f}** of prefill's MFU (the flashcard: {L['decode_mfu_fraction']:.2f}). "
    f"Dwarkesh's first guess of {L['output_premium_first_guess']}× (syllabus §6, item 9) would mean decode at "
    f"{mfu_guess:.2f} of prefill's, barely memory-bound at all; Reiner's \"{L['output_premium_low']}–"
    f"{L['output_premium']}×\" and the price sheets say otherwise.")
assert mfu_opus == L["decode_mfu_fraction"] and mfu_guess > 0.6

# %% [markdown]
# Every standard-tier price in the registry, and the decode utilisation it implies:

# %%
rows = pricing.output_input_table()
plots.decode_mfu_by_model(rows)

# %%
by = {r["model"]: r for r in rows}
main = [r["ratio"] for r in rows if r["model"] != "deepseek-v3.2"]
say(f"Claude: {by['claude-opus-4.6']['ratio']:g}×; Gemini 3.1 Pro: {by['gemini-3.1-pro-preview']['ratio']:g}×; "
    f"GPT-5: {by['gpt-5']['ratio']:g}×; DeepSeek V3 (early 2025): {by['deepseek-chat-v3-2025']['ratio']:.1f}×; "
    f"DeepSeek V3.2 (Dec 2025): **{by['deepseek-v3.2']['ratio']:.1f}×**. The other sheets sit at "
    f"{min(main):g}–{max(main):g}×, i.e. decode at 1/{max(main):g} to 1/{min(main):g} of prefill's utilisation. DeepSeek V3.2 is the outlier; whether that reflects its sparse "
    "attention and large serving batches or a pricing choice, the price alone cannot say (speculation).")
assert all(3.9 < r["ratio"] <= 8 for r in rows if r["provider"] != "DeepSeek" or "2025" in r["model"])
assert by["deepseek-v3.2"]["ratio"] < 2

# %% [markdown]
# **Does the roofline agree?** DeepSeek-V3 on a GB200-NVL72 (fp8 weights, bf16 KV), decoding 1,024
# sequences, against a compute-bound prefill of 4,096-token prompts: the ratio of time per token is the
# output premium the roofline predicts, at two context lengths.

# %%
dsv3 = models.get("DeepSeek-V3")
premium = {}
for ctx in (4_000, 32_000):
    dec = roofline.step_time(rack, dsv3, 1_024, context=ctx, weight_dtype="fp8", kv_dtype="bf16")
    pre = roofline.step_time(rack, dsv3, 8, context=ctx, weight_dtype="fp8", kv_dtype="bf16", tokens_per_seq=4_096)
    assert dec.bound == "memory" and pre.bound == "compute" and dec.fits     # the decode batch fits in HBM
    premium[ctx] = (dec.total / dec.tokens) / (pre.total / pre.tokens)
say(f"Decode ÷ prefill time per token: **{premium[4_000]:.1f}×** at {fmt(4_000)} tokens of context, "
    f"**{premium[32_000]:.1f}×** at {fmt(32_000)}. The same order as the price sheets at short context, and "
    "growing with context: a flat output price averages over the contexts and batches a provider serves.")
assert 2 < premium[4_000] < 20 and premium[32_000] > premium[4_000]

# %% [markdown]
# **Takeaway:** prefill amortizes one memory read over many tokens and runs compute-bound; decode re-reads
# weights and KV for one token per sequence and waits on memory. A 5× output premium reads as decode MFU ≈
# 1/5 of prefill's.

# %%
assert pricing.decode_mfu_from_prices(1, 5) == 1 / 5

# %% [markdown]
# ## 4. The context ceiling
#
# **Question.** Context lengths jumped from ~8K to 100–200K and then plateaued for a year or two; even 1M is
# rare. Is attention's quadratic compute the wall? Per new token, attention costs $f_\text{att}$ FLOPs per
# cached token (plus a constant for sliding-window layers); the weights cost $2N_\text{active}$. They are
# equal at:

# %%
eq = sp.Eq(pricing.attention_flops_expr, pricing.weight_flops_expr)
(L_ceiling,) = sp.solve(eq, nt.L_ctx)
show(eq)
show(L_ceiling, lhs=r"L_\text{attention}")
assert sp.simplify(L_ceiling - pricing.context_ceiling_expr()) == 0

# %% [markdown]
# $f_\text{att}$ comes from the architecture (the term added in chapter 1): each query head takes a dot
# product with every cached key and adds every cached value in, $2 \cdot 2\, n_\text{heads}\, d_\text{head}$
# FLOPs per full-attention layer per cached token (MLA in DeepSeek's absorbed decode form works in its
# 512-wide latent, which makes it expensive).

# %%
ceil_models = [guess, models.get("gpt-oss-120b"), models.get("Llama-3-70B"), models.get("Qwen3-235B-A22B"), dsv3]
table = ["| model | attention FLOPs per cached token | weight FLOPs per token | attention = weights at |",
         "|---|---:|---:|---:|"]
for m in ceil_models:
    table.append(f"| {m.name} | {fmt(m.attention_flops_per_token(), 'FLOP')} | "
                 f"{fmt(float(pricing.weight_flops_expr.subs(nt.N_act, m.active_params)), 'FLOP')} | "
                 f"{fmt(pricing.context_ceiling(m))} tokens |")
say("\n".join(table))
ceil = {m.name: pricing.context_ceiling(m) for m in ceil_models}
assert ceil[guess.name] > L["attention_matters_tokens"]                   # few global layers: millions
assert 30_000 < ceil["Llama-3-70B"] < 150_000                             # full attention everywhere: ~100K

# %%
plots.attention_vs_weights(ceil_models)

# %%
full_att = [ceil[n] for n in ("Llama-3-70B", "Qwen3-235B-A22B")]
say(f"So \"attention compute only matters at millions of tokens\" holds for the lecture's kind of architecture "
    f"(one global layer: {fmt(ceil[guess.name])} tokens); with full attention in every layer it matters from "
    f"{fmt(min(full_att))}–{fmt(max(full_att))} tokens, and DeepSeek-V3's MLA (absorbed) already at "
    f"{fmt(ceil[dsv3.name])}. (Decode is memory-bound there, so spare compute absorbs part of it.) The binding "
    "costs are the lecture's: **memory bandwidth and capacity**. At the lecture model's own crossover the KV read "
    "matches the compute by construction; the history fits that: contexts grew to where KV and compute balance, "
    "then plateaued.")
assert ceil[guess.name] > 1e6 > 10 * max(full_att) and ceil[dsv3.name] < min(full_att)

# %%
say(f"History (the lecture's figures): {fmt(L['context_before'])} → {fmt(L['context_after_low'])}–"
    f"{fmt(L['context_after_high'])}, then a plateau of {L['context_plateau_years'][0]}–{L['context_plateau_years'][1]} "
    f"years. The lecture model's crossover on a GB200-NVL72 in fp8: {fmt(crossover)} tokens.")
assert L["context_after_low"] <= crossover <= L["context_after_high"]

# %% [markdown]
# **What would 100M tokens need?** (Dario's in-context-learning route to AGI, "a month of working
# together".) One sequence of the lecture's model on one H200, fp8:

# %%
h200 = hardware.get("H200")
big = roofline.step_time(h200, guess, 1, context=L["agi_context_tokens"], weight_dtype="fp8", kv_dtype="fp8")
now = roofline.step_time(h200, guess, 1, context=L["price_step_context"], weight_dtype="fp8", kv_dtype="fp8")
att = pricing.attention_flops_multiple(guess, L["agi_context_tokens"])
say(f"KV cache: **{fmt(guess.kv_bytes_per_sequence(L['agi_context_tokens'], 'fp8'), 'B')} per sequence** "
    f"(one H200 holds {fmt(h200.hbm_capacity, 'B')}: fits = {big.fits}); reading it takes "
    f"**{fmt(big.kv, 's')} per generated token**, {big.kv / now.kv:.0f}× the 200K figure; attention FLOPs are "
    f"{att:.0f}× the weight FLOPs. A 500× costlier token per user, or a new memory hierarchy: Reiner sees no good "
    "path, since HBM is not getting hugely better.")
assert not big.fits and big.kv > 0.03 and att > 10

# %% [markdown]
# **Takeaway:** long context is priced by memory, not by attention FLOPs: the KV read per token grows
# linearly with context and caps the useful length near where it meets compute (~100–200K today). Attention
# compute joins in at millions of tokens only for architectures with few global layers.

# %%
assert np.isclose(big.kv / now.kv, L["agi_context_tokens"] / L["price_step_context"])          # linear in context

# %% [markdown]
# ## 5. Prompt caching and memory tiers
#
# **Question.** Cache hits cost ~10× less than fresh input, writes cost more, and there are two durations
# (5 minutes and 1 hour). What does that say about where the KV cache is kept?
#
# To have a token's KV again you either **rematerialize** it (a forward pass from the token ids: a cache
# miss) or **retrieve** it from a memory where it was held. Holding costs your share of the device's
# capacity for the time held; retrieving costs the time to copy it into HBM:

# %%
show(pricing.hold_cost_expr, lhs=r"\text{hold}")
show(pricing.retrieve_cost_expr, lhs=r"\text{retrieve}")
show(pricing.remat_cost_expr, lhs=r"\text{remat}")
assert sp.diff(pricing.tier_cost_expr, nt.n_read) == pricing.retrieve_cost_expr

# %% [markdown]
# The lecture's table (columns as corrected mid-lecture), per token of the lecture's model (2 KB), with the
# registry's devices. HBM retrieval counts as free (it is where inference needs the KV); remat is a prefill
# token at an assumed 50% MFU on the H200 at <span>&#36;</span>2/hour:

# %%
kv_guess = guess.kv_bytes_per_token("fp8")
remat = pricing.remat_cost(guess.active_params)
table = ["| mechanism | retrieve, once ($/M tokens) | hold, per second ($/M tokens) | drain time |", "|---|---:|---:|---:|",
         f"| rematerialize | {fmt(remat * 1e6, '$')} | 0 | – |"]
for d in storage.DEVICES.values():
    retrieve = 0.0 if d.kind == "HBM" else pricing.hold_and_retrieve_cost(d, 0, 1, kv_guess)
    hold = pricing.hold_and_retrieve_cost(d, 1, 0, kv_guess)
    table.append(f"| {d.name} ({d.kind}) | {retrieve * 1e6:.2g} | {hold * 1e6:.2g} | "
                 f"{fmt(pricing.tier_drain_time(d.capacity, d.bandwidth), 's')} |")
say("\n".join(table))
costs_1s = pricing.tier_costs(1, 0, kv_guess, guess.active_params)
order = [storage.by_kind(k).name for k in ("HBM", "DDR", "flash", "disk")]
assert all(costs_1s[a] > costs_1s[b] for a, b in zip(order, order[1:]))   # holding gets cheaper down the tiers

# %% [markdown]
# Down the tiers, retrieval gets dearer and holding cheaper. **The drain-time rule:** for a device, holding a
# token for $T$ costs as much as one retrieval when

# %%
(T_star,) = sp.solve(sp.Eq(pricing.hold_cost_expr, pricing.retrieve_cost_expr), nt.T_hold)
show(T_star, lhs=r"T^*")
assert T_star == nt.C_dev / nt.W_dev == pricing.drain_rule_expr()

# %% [markdown]
# the device's drain time, whatever the KV size or the device's price: a device is used in balance (as
# much of it paid for holding as for moving) when the hold time matches its drain time. The lecture's
# guesses against the registry's public device figures:

# %%
drains = pricing.drain_table()
table = ["| device | capacity | bandwidth | drain time | the lecture's guess | figures (quality) |", "|---|---:|---:|---:|---:|---|"]
guessed = {"HBM": fmt(L["drain_s"], "s"), "DDR": f"{fmt(L['drain_ddr_s'][0], 's')}–{fmt(L['drain_ddr_s'][1], 's')}",
           "flash": fmt(L["drain_flash_s"], "s"), "disk": fmt(L["drain_disk_s"], "s")}
for r in drains:
    d = r["device"]
    q = ", ".join(f"{f} {d.source_for(f).quality}" for f in ("capacity", "bandwidth", "cost"))
    table.append(f"| {r['name']} | {fmt(r['capacity'], 'B')} | {fmt(r['bandwidth'], 'B/s')} | {fmt(r['drain_s'], 's')} | "
                 f"{guessed[r['kind']]} | {q} |")
say("\n".join(table))
drain = {r["kind"]: r["drain_s"] for r in drains}
assert drain["flash"] / L["drain_flash_s"] > 10 and drain["disk"] / L["drain_disk_s"] > 10    # erratum 11

# %%
plots.drain_times(drains)

# %% [markdown]
# The device figures are **recalled datasheet values (R)** and **uncertain street prices (U)**: check the
# vendors' pages (URLs in `data/storage.toml`) before quoting them. The HBM row is the H200 of the hardware
# registry.
#
# %%
flash_dev, disk_dev = storage.by_kind("flash"), storage.by_kind("disk")
say(f"**Slip (syllabus §6, item 11).** \"Flash ≈ {fmt(L['drain_flash_s'], 's')}, disk ≈ {fmt(L['drain_disk_s'], 's')}\" "
    f"is too short by more than 10× for today's drives: a {flash_dev.name} drive drains in "
    f"{fmt(drain['flash'], 's')}, a {disk_dev.name} disk in {fmt(drain['disk'], 's')}. By the drain-time rule alone:")
t5, t60 = pricing.tier_by_drain_time(300), pricing.tier_by_drain_time(3600)
say(f"5-minute cache → **{t5}**; 1-hour cache → **{t60}** (nearest drain time on a log scale). The lecture "
    f"tentatively said {L['tier_5min']} and {L['tier_1h']}.")
assert storage.get(t60).kind == "flash" != L["tier_1h"]

# %% [markdown]
# The rule compares one device with itself. Choosing *between* tiers needs their prices too: the cheapest
# tier for a hold time, counting holding and one read back (capex over 5 years for the drives and DIMMs,
# rental for the GPU's HBM):

# %%
for hold in (300, 3600):
    c = pricing.cheapest_tier(hold, 1, kv_guess, guess.active_params)
    say(f"Hold {fmt(hold, 's')}, one read: cheapest = **{c.name}** at {fmt(c.cost_per_million, '$')} per M tokens.")
flash_disk = pricing.crossover_hold(storage.by_kind("flash"), storage.by_kind("disk"))
say(f"Disk only beats flash for holds beyond **{fmt(flash_disk, 's')}** (one read; KV size cancels).")
assert pricing.cheapest_tier(3600, 1, kv_guess, guess.active_params).name == storage.by_kind("flash").name
assert flash_disk > 3600

# %% [markdown]
# So with public figures the 1-hour tier looks like flash, not spinning disk; the lecture's conclusion is
# shaky (UNCERTAIN: a provider's real costs include servers, power and networks that these capex figures
# leave out, and those could shift the crossovers).
#
# **Break-even reuse counts.** In multiples of the base input price, $n$ reuses of a prefix cost $1 + n$ without
# a cache (each reuse is a miss) and $m_\text{write} + m_\text{read}\,n$ with one:

# %%
be = sp.Eq(pricing.no_cache_cost_expr, pricing.cache_cost_expr)
(n_be,) = sp.solve(be, nt.n_read)
show(be)
show(n_be, lhs=r"n^*")
assert sp.simplify(n_be - pricing.break_even_reuses_expr()) == 0

# %%
mult = pricing.cache_multipliers(opus)
table = ["| cache | write × | hit × | break-even n* | pays from n = | cost at that n: cache vs none |", "|---|---:|---:|---:|---:|---|"]
for key, name in (("write_5m", "5 minutes"), ("write_1h", "1 hour")):
    n_min = pricing.min_reuses(mult[key], mult["read"])
    with_cache = float(pricing.cache_cost_expr.subs({nt.m_write: mult[key], nt.m_read: mult["read"], nt.n_read: n_min}))
    table.append(f"| {name} | {mult[key]:g} | {mult['read']:g} | {pricing.break_even_reuses(mult[key], mult['read']):.2f} | "
                 f"{n_min} | {with_cache:g} vs {1 + n_min} |")
say(f"{opus.model} ({opus.source.as_of}), base input {fmt(opus.input, '$')}/M (the lecture: "
    f"{fmt(L['base_input_price'], '$')}; 5-minute write {fmt(L['cache_write_5m_price'], '$')}):\n\n" + "\n".join(table))
assert pricing.min_reuses(mult["write_5m"], mult["read"]) == 1 and pricing.min_reuses(mult["write_1h"], mult["read"]) == 2
assert 1 / mult["read"] == L["cache_hit_discount"]

# %%
say(f"**The price it justifies.** The write premium Anthropic charges ({fmt(opus.cache_write_5m - opus.input, '$')}/M "
    f"for 5 minutes, {fmt(opus.cache_write_1h - opus.input, '$')}/M for an hour, {opus.model}) against the cheapest "
    f"tier's cost at cost, for the lecture's {fmt(kv_guess, 'B')} per token and for DeepSeek-V3's MLA cache (bf16):")
for name, kv, active in (("the lecture's guess", kv_guess, guess.active_params),
                         ("DeepSeek-V3", dsv3.kv_bytes_per_token("bf16"), dsv3.active_params)):
    c = pricing.cheapest_tier(3600, 1, kv, active)
    premium = (opus.cache_write_1h - opus.input)
    say(f"{name}: one hour in {c.name} costs {fmt(c.cost_per_million, '$')} per M tokens, "
        f"{premium / c.cost_per_million:,.0f}× below the {fmt(premium, '$')}/M premium; a hit (read) costs "
        f"{pricing.hold_and_retrieve_cost(c.name, 0, 1, kv) / pricing.remat_cost(active):.1e} of a recompute.")
assert pricing.cheapest_tier(3600, 1, dsv3.kv_bytes_per_token("bf16"), dsv3.active_params).cost_per_million < \
    opus.cache_write_1h - opus.input

# %% [markdown]
# The device costs are tiny next to the prices: cache prices follow the *structure* the lecture describes
# (hits ≈ 10× cheaper than a recompute, a premium for longer holds) but their *level* carries other costs
# and margin. The drain-time rule tells which tier fits a duration; it does not price it.
#
# **Takeaway:** a cache hit is cheap because reading stored KV costs far less than recomputing it; a cache
# pays from one reuse (5 minutes) or two (1 hour); and by drain time, with public drives, the 5-minute and
# 1-hour tiers look like DDR-or-flash and flash rather than flash and disk.

# %%
assert pricing.tier_by_drain_time(300) != storage.by_kind("disk").name

# %% [markdown]
# Hold time and reuse → the cheapest tier and its cost (the grey band), against the list premiums:

# %%
explorers.get("cache_tiers")()

# %%
say("## Summary\n\n| lecture | computed | note |\n|---|---|---|\n"
    f"| Gemini \"+{L['long_context_surcharge']:.0%} above {fmt(ctx200)}\" | input ×{up_in:g}, output ×{up_out:g} | "
    "slip §6.8: output only |\n"
    f"| KV ≈ {L['implied_kv_bytes']:,} B per token | {fmt(implied, 'B')} (`roofline.implied_kv_bytes_per_token`) | "
    f"the inputs move it ~{spread[1] / spread[0]:.0f}× |\n"
    f"| output {L['output_premium']}× input → decode MFU ≈ 1/{L['output_premium']} | registry: {min(main):g}–"
    f"{max(main):g}× (DeepSeek V3.2: {by['deepseek-v3.2']['ratio']:.1f}×) | first guess "
    f"\"{L['output_premium_first_guess'] - 1:.0%}\": slip §6.9 |\n"
    f"| attention matters at millions of tokens | few global layers: {fmt(ceil[guess.name])}; full attention: "
    f"{fmt(min(full_att))}–{fmt(max(full_att))} | memory binds first |\n"
    f"| flash ≈ {fmt(L['drain_flash_s'], 's')}, disk ≈ {fmt(L['drain_disk_s'], 's')} → 1-h tier = {L['tier_1h']} | "
    f"{flash_dev.name} ≈ {fmt(drain['flash'], 's')}, {disk_dev.name} ≈ {fmt(drain['disk'], 's')} → 1-h tier ≈ {t60} | "
    "slip §6.11, UNCERTAIN |")

# %% [markdown]
# Practice: `exercises/07_prices_as_evidence.ipynb` (answer in your copy under `my_work/`), and the
# chapter-6 flashcards in `notebooks/flashcards.ipynb`.
