"""The lecture itself: its video, official chapters (start times in seconds) and the course notebooks.

Reiner Pope, "The math behind how LLMs are trained and served", Dwarkesh Podcast, 2026-04-29.

    lecture.video_url(1929)     # 'https://youtu.be/xmkSf5IS-zw?t=1929'
    lecture.CHAPTERS[0].title
"""
from __future__ import annotations

from dataclasses import dataclass

from .units import GB, MS, TB

#: the course's title: the README's and the start page's heading, and the site's (a test keeps them equal)
COURSE_TITLE = "The math of how LLMs are trained and served: an interactive course"
VIDEO_ID = "xmkSf5IS-zw"
DURATION_S = 8030          # the audio is listed at 8,030 s (about 2 h 13 min)


def video_url(seconds: float = 0) -> str:
    """Link to the lecture video at `seconds` from the start."""
    return f"https://youtu.be/{VIDEO_ID}?t={int(seconds)}"


def timestamp(seconds: float) -> str:
    """'0:32:09' style."""
    s = int(seconds)
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"


@dataclass(frozen=True)
class Chapter:
    number: int
    start_s: int
    title: str          # the official chapter title


CHAPTERS = [
    Chapter(1, 0, "How batch size affects token cost and speed"),
    Chapter(2, 32 * 60 + 9, "How MoE models are laid out across GPU racks"),
    Chapter(3, 47 * 60 + 12, "How pipeline parallelism spreads model layers across racks"),
    Chapter(4, 3600 + 3 * 60 + 37, 'Why Ilya said, "As we now know, pipelining is not wise."'),
    Chapter(5, 3600 + 18 * 60 + 59, "Because of RL, models may be 100x over-trained beyond Chinchilla-optimal"),
    Chapter(6, 3600 + 33 * 60 + 2, "Deducing long context memory costs from API pricing"),
    Chapter(7, 2 * 3600 + 4 * 60 + 2, "Convergent evolution between neural nets and cryptography"),
]


@dataclass(frozen=True)
class Notebook:
    file: str           # under notebooks/
    topic: str
    start_s: int | None  # where in the lecture it starts (None: not tied to the video)
    end_s: int | None


_C = {c.number: c.start_s for c in CHAPTERS}
BALANCE_BATCH_S = 16 * 60   # ~16:00, where the balance-batch derivation starts (±1 min, third-party summaries)

NOTEBOOKS = [
    Notebook("00_start_here.ipynb", "how to use the course; notation, hardware and model tables", None, None),
    Notebook("01_roofline_and_batching.ipynb", "roofline: latency and cost per token vs batch", 0, BALANCE_BATCH_S),
    Notebook("02_balance_batch.ipynb", "the balance batch, drain time, throughput, sparsity", BALANCE_BATCH_S, _C[2]),
    Notebook("03_moe_on_racks.ipynb", "MoE layout, expert parallelism, scale-up vs scale-out", _C[2], _C[3]),
    Notebook("04_pipeline_parallelism.ipynb", "pipeline parallelism and its bubbles", _C[3], _C[4]),
    Notebook("05_memory_wall.ipynb", "the memory wall: why pipelining does not shrink KV", _C[4], _C[5]),
    Notebook("06_overtraining.ipynb", "6ND and ~100x past Chinchilla", _C[5], _C[6]),
    Notebook("07_prices_as_evidence.ipynb", "deducing KV bytes and memory tiers from API prices", _C[6], _C[7]),
    Notebook("08_nets_and_ciphers.ipynb", "mixing, Feistel networks and reversible layers", _C[7], DURATION_S),
    Notebook("09_reality_check.ipynb", "the bounds against measurements", None, None),
    Notebook("flashcards.ipynb", "the drill over the whole deck", None, None),
]


# --- what the lecture said: quoted figures, shown beside every computed number -------------------
#: the lecture's own numbers, as said on the blackboard (errata in the comments; see syllabus section 6)
SAID = {
    "ratio": 300,                    # "FLOPs / mem_bw ≈ 300 on most GPUs" (FP4 multiplies, ½ byte each)
    "dsv3_active_experts": 32,       # "32 of 256 experts active"  (erratum 1: really 8 routed + 1 shared)
    "dsv3_experts": 256,
    "dsv3_total_params": 700e9,      # "about 700B total" (erratum 2: 671B)
    "dsv3_active_params": 37e9,
    "dsv3_balance_batch": 2400,      # 300 × 8
    "step_s": 20 * MS,               # "a train leaves every 20 ms"
    "worst_latency_s": 40 * MS,      # 20 ms waiting + 20 ms riding
    "steps_per_second": 64,          # "tokens/s ≈ 64 × B"
    "batch": 2000,                   # "about 2,000 sequences"
    "deployment_tok_s": 128_000,     # 64 × 2,000
    "fraction_of_gemini": 1 / 1000,  # "one deployment ≈ 1/1000 of Gemini"
    "rubin_capacity": 288 * GB,      # Rubin: 288 GB / 20 TB/s ≈ 15 ms
    "rubin_bandwidth": 20 * TB,
    "rubin_drain_s": 15 * MS,
    "drain_s": 20 * MS,              # "about 20 ms across many HBM generations"
    "fast_price": 6.0,               # fast mode: about 6× the price ...
    "fast_speed": 2.5,               # ... for about 2.5× the speed
    "without_batching": 1000,        # "about 1000× worse without batching"
    "expert_multiple": 64,           # "64× for 4×" (Clark et al. 2022)
    "quality_multiple": 4,
    "gpu_dollars_per_hour": 2.0,
    # chapters 5 and 6 (the deck's cards use these until their notebooks land)
    "model_tok_s": 50e6,             # "~50M tokens/s per model" (500M worldwide / ~10 models)
    "deployment_days": 60,           # "two months" of deployment
    "frontier_active_params": 100e9, # "~100B active", a guess
    "pretrain_tokens": 200e12,       # "~200T tokens" (rounded from 2.6e14)
    "overtraining": 100,             # "~100x past Chinchilla"
    "price_step_context": 200_000,   # Gemini's price step at 200K tokens of context
    "implied_kv_bytes": 1667,        # "1,667 bytes, almost 2 KB"
    # chapter 6 (notebook 07): prices as evidence; all of these are the lecture's figures or guesses
    "long_context_surcharge": 0.5,   # Dwarkesh: Gemini "50% more expensive above 200K" (erratum 8: output only)
    "kv_sanity_layers": 1,           # sanity check: 1 unique global KV layer ...
    "kv_sanity_kv_heads": 8,         # ... × 8 KV heads ...
    "kv_sanity_head_dim": 128,       # ... × d_head 128 × 2 (K, V) ...
    "kv_sanity_bytes_per_element": 1,   # ... × 1 byte (implicit on the board) = 2,048 bytes
    "output_premium_first_guess": 1.5,  # Dwarkesh first guessed output ~50% more than input (erratum 9)
    "output_premium_low": 3,         # Reiner: "3-5×"
    "output_premium": 5,             # the figure they proceed with
    "decode_mfu_fraction": 1 / 5,    # the flashcard: decode MFU ≈ 1/5 of prefill MFU
    "attention_matters_tokens": 1e6, # attention compute "only matters around millions of tokens"
    "context_before": 8_000,         # context lengths jumped from ~8K ...
    "context_after_low": 100_000,    # ... to 100-200K (GPT-3 → GPT-4 era) ...
    "context_after_high": 200_000,
    "context_plateau_years": (1, 2), # ... then plateaued for 1-2 years
    "agi_context_tokens": 100e6,     # ~100M tokens (about a month of working together)
    "cache_hit_discount": 10,        # cache hits "about 10× cheaper"
    "base_input_price": 5.0,         # $/M tokens, the "remat" price
    "cache_write_5m_price": 6.25,    # $/M tokens, 5-minute cache write
    "drain_ddr_s": (1.0, 10.0),      # drain-time guesses: DDR ~1-10 s ...
    "drain_flash_s": 60.0,           # ... flash ~1 minute ...
    "drain_disk_s": 3600.0,          # ... spinning disk ~1 hour (erratum 11: too short for today's drives)
    "tier_5min": "flash",            # tentative conclusion: 5-min cache ≈ flash ...
    "tier_1h": "disk",               # ... 1-hour cache ≈ spinning disk
    # chapter 5 (notebook 06): RL and over-training; all of these are the lecture's guesses
    "world_tok_s": 500e6,            # "~500M tokens/s worldwide" (a guess)
    "world_tokens_2mo": 2.6e15,      # Dwarkesh: 500M tok/s × 2 months ≈ 2.6×10^15
    "family_low": 5,                 # "divide by about 5 to 10" models in a family
    "family_high": 10,
    "rl_flops_low": 2,               # RL: "2 to 6" FLOPs per parameter per token
    "rl_flops_high": 6,
    "rl_efficiency": 0.30,           # decode/rollout efficiency "around 30%"
    "card_rl_flops": 3,              # the flashcard's clean version: RL 3 FLOPs/param/token ...
    "card_inefficiency": 3,          # ... and 3× inefficiency for RL and inference
    "pt_over_rl": 1.5,               # "pre-training vs RL tokens ≈ 1.5 : 1"
    "blackboard_fractions": (1 / 10, 2 / 10),   # the tangled board: "1/10" and "2/10" (erratum 10)
    "share_thirds": 1 / 3,           # "33% each"
    "share_dwarkesh": 0.25,          # Dwarkesh's 50/50: pre-training and RL 25% each
    "chinchilla_tokens": 2e12,       # "D_Chinchilla ≈ 2T" for ~100B active
    "rumoured_pretrain_tokens": 150e12,   # a rumour relayed by Dwarkesh, not well sourced (erratum 15)
    # chapter 7 (notebook 08): nets and ciphers; the chapter is talk, so few numbers
    "new_ciphers_broken": 0.99,      # "almost all of them are broken, like 99%" (of newly invented ciphers)
    "revnet_skip_layers": 2,         # a RevNet layer is "a residual connection from two layers back"
    # chapter 3 (notebook 04): pipeline parallelism across racks
    "scaleout_slower": 8,            # scale-out is "typically about 8× slower" than scale-up
    "boundary_dispatch_combine": 2,  # the ×2 Dwarkesh supplied: dispatch and combine
    "typical_k": 8,                  # "k is often about 8 by itself"
    "one_rack_per_layer": 1,         # "you can build a pipeline with even one rack per layer"
    "pipeline_racks": 4,             # the diagrams: 4 racks (stages)
    "model_1t_params": 1e12,         # "a 1T-parameter model ..."
    "model_1t_bytes": 1e12,          # "... needs only about 1 TB" (fp8: one byte per parameter)
    "rack_memory": "many tens of TB",   # a Blackwell rack (public: GB200 NVL72 13.4 TB, GB300 NVL72 20.7 TB)
    "spread_racks": 8,               # "if you were willing to spread the weights over ~8 racks ..."
    # chapter 4 (notebook 05): the memory wall; rumours and guesses are marked
    "capex_memory_share": 0.5,       # Dylan Patel via Dwarkesh: ~50% of hyperscaler CapEx on memory (UNVERIFIED, relayed)
    "hyperscaler_capex": 1e12,       # "high hundreds of billions, maybe a trillion" dollars (a guess)
    "smartphone_drop": 0.30,         # smartphone volume might drop ~30% (relayed by Dwarkesh)
    "expert_parallel": 64,           # E: 64 GPUs of a rack hold the experts
    "pipeline_stages": 4,            # P: 4 racks
    "micro_batch_first": 2000,       # b first said as "~2,000", then corrected to "300 × sparsity"
    "hop_s": 2.5 * MS,               # "a few ms" per rack hop (our reading: 4 hops ≈ 10 ms); erratum 12: ±10×
    "hop_uncertainty": 10,           # "could be off by an order of magnitude"
    "hop_added_s": 10 * MS,          # "~10 ms per token" for about 4 stages
    "hop_step_before_s": 20 * MS,    # a step goes from about 20 ms ...
    "hop_step_after_s": 30 * MS,     # ... to about 30 ms
    "bw_growth_low": 1.5,            # HBM bandwidth per GPU grows "1.5-2× per generation"
    "bw_growth_high": 2.0,
    "scaleup_growth": 8,             # n_scale-up "grew 8×" from Hopper (8) to Blackwell (72: really 9×; 64 used = 8×)
    "deepseek_pp_stages": 2,         # "maybe 2 stages, just enough for weight storage" (not in DeepSeek's papers)
    # chapter 2: MoE on racks (notebook 03)
    "route_fraction": 1 / 32,        # the router sends each token to "1 in 32" experts (an example)
    "rack_gpus": 72,                 # a Blackwell rack: 72 GPUs ...
    "ep_used_gpus": 64,              # ... "use 64 and ignore 8" for 256 experts ...
    "experts_per_gpu": 4,            # ... 4 experts per GPU (the drawing simplifies to 2)
    "drawn_experts_per_gpu": 2,
    "rack_holds_gpus": 64,           # "a rack holds about 64 GPUs/XPUs"
    "switch_hops": 2,                # GPU -> NVSwitch -> GPU: any GPU reaches any other in 2 hops
    "two_rack_leave": 1 / 2,         # two racks: "about half the routed tokens must leave the rack"
    "hopper_domain": 8,              # scale-up domain: Hopper 8 ...
    "blackwell_domain": 72,          # ... Blackwell 72 ...
    "rubin_domain": 500,             # ... Rubin "500 and something" (erratum 5: Rubin Ultra NVL576, counting dies)
    "rubin_real_gain": 4,            # "a genuine ~4x" beyond the Jensen math
    "hopper_box_bytes": 640 * GB,    # an 8-GPU Hopper box "about 640 GB" (2022)
    "blackwell_rack_bytes": (10 * TB, 20 * TB),   # Blackwell rack "~10-20 TB"
    "gpt4_year": 2023,               # GPT-4 released 2023 ...
    "gpt4_params": 1e12,             # ... RUMOURED at over 1T parameters (erratum 15: unverified)
    "dwarkesh_model_params": 5e12,   # Dwarkesh's HYPOTHESIS: "~5T model plus KV" fits a Blackwell rack
}
