"""The lecture's 27 flashcards, rewritten in our own words, in lecture order (a card module, see cards.py).

Text cards: the learner reveals the answer and grades it. Numbers quoted in the text come from
lecture_lib (the lecture's own figures from `lecture.SAID`, the rest computed).
"""
from __future__ import annotations

from .. import lecture, roofline, training
from ..units import DAY, fmt
from .cards import Card

LECTURE_CARDS = [
    # chapter 1 (9)
    Card("L1.01", 1, "One decode step of a batch: what two times bound it from below, and how do they combine?",
         "The compute time and the memory time; the step takes at least the larger of the two:\n"
         "T ≥ max(t_compute, t_mem).", "01"),
    Card("L1.02", 1, "Write the compute time of one decode step for a batch of B sequences.",
         "t_compute = B · N_active / FLOPs in the lecture's units (multiply-adds per second).\n"
         "With FLOPs counted as 2 per multiply-add: 2 · B · N_active / F.", "01"),
    Card("L1.03", 1, "Write the memory time of one decode step: what is read, and how does each part scale with B?",
         "t_mem = (weight bytes + B · context · KV bytes per token) / HBM bandwidth.\n"
         "The weights are read once for the whole batch; each sequence reads its own KV cache.", "01"),
    Card("L1.04", 1, "Sketch step time against batch size: which lines appear, and what is the total?",
         "Compute: a line through the origin. Weight read: a flat line. KV read: a line through the "
         "origin, stacked on the weights, so memory is a line with an offset.\n"
         "Step time = the upper envelope, max(compute, memory): flat at small B, then rising.", "01"),
    Card("L1.05", 1, "Why can't a tiny batch make decoding arbitrarily fast?",
         "Each step still has to stream the weights out of HBM. That read time is a floor on latency "
         "no matter how few sequences share it. (The lecture counts all weights; an MoE at batch 1 "
         "strictly reads only the experts it routes to.)", "01"),
    Card("L1.06", 1, "Cost per token falls as the batch grows, then stops falling. Which two costs never get shared?",
         "The compute for each token and the read of each sequence's own KV cache: both are paid per "
         "sequence. Only the weight read is shared by the batch.", "01"),
    Card("L1.07", 1, "Roughly what is the ratio of compute throughput to memory bandwidth on current accelerators?",
         f"About {lecture.SAID['ratio']} (in the lecture's units: multiply-adds per second over weight "
         f"values per second; H100 {roofline.lecture_ratio('H100-SXM', 'bf16'):.0f}, "
         f"B200 {roofline.lecture_ratio('B200', 'fp8'):.0f}, but A100 only "
         f"{roofline.lecture_ratio('A100-80GB', 'bf16'):.0f}).", "01"),
    Card("L1.08", 1, "Ignoring the KV cache, derive the smallest batch that keeps the chip compute-bound.",
         "Equate B · N_active / FLOPs with N_total / bandwidth:\n"
         "B = (FLOPs / bandwidth) × (N_total / N_active) ≈ 300 / sparsity, with sparsity = "
         "N_active / N_total (DeepSeek-V3: about 0.055, so B ≈ 5,400).\n"
         "The weight read is fixed per step, compute grows with B, so B must be large enough to "
         "hide the read.", "02"),
    Card("L1.09", 1, "Batches leave like trains every ~20 ms. Why that period, and what goes wrong with a shorter or longer one?",
         "~20 ms is about the time to read all of HBM once (capacity / bandwidth). Shorter: "
         "impossible, the weights cannot be read faster. Longer: once every byte in HBM has been read "
         "there is nothing new to read, so the bandwidth would sit idle (or re-read the same bytes). "
         "A full HBM read once per step is exactly the memory-bound step at the largest batch that fits.",
         "02"),
    # chapter 2 (1)
    Card("L2.01", 2, "Why does one rack make a natural home for an MoE layer?",
         "Routing tokens to experts is all-to-all traffic. Inside a rack, the scale-up network links "
         "every GPU to every other at full speed; between racks the network is roughly 8× slower and "
         "would throttle the exchange.", "03"),
    # chapter 3 (3)
    Card("L3.01", 3, "Where do pipeline bubbles come from in training?",
         "When a batch starts, the stages holding later layers have nothing to do yet; when it ends, "
         "the early stages finish first and wait. Those idle stretches are the bubbles.", "04"),
    Card("L3.02", 3, "Why can't training hide the bubbles by starting the next batch early?",
         "The next batch needs the updated weights: the gradients of this batch must be combined and "
         "applied before it can begin.", "04"),
    Card("L3.03", 3, "P pipeline stages split the weights P ways. Why doesn't the KV memory per GPU shrink too?",
         "To keep P stages busy you need P micro-batches in flight, so P times as many sequences are "
         "alive at once; their KV caches grow with P and cancel the split. At long context KV "
         "dominates, so pipelining saves little memory.", "05"),
    # chapter 4 (1)
    Card("L4.01", 4, "Why might a lab call pipelining unwise, even when the arithmetic allows it?",
         "It constrains the architecture: layers that look at earlier layers' outputs, or uneven "
         "layer types, are awkward when layers live on different stages. That friction slows down "
         "research iteration, the costliest thing to lose.", "05"),
    # chapter 5 (6)
    Card("L5.01", 5, "Training compute is 6·N·D. Where does the 6 come from?",
         "Forward: one multiply-add per parameter per token = 2 FLOPs. Backward: about twice the "
         "forward (gradients for activations and for weights) = 4 FLOPs. 2 + 4 = 6.", "06"),
    Card("L5.02", 5, "Write the total compute of a model's life: pre-training, RL and serving.",
         "C ≈ 6·N·D_pretrain + (2 to 6)·N·D_RL·(inefficiency) + 2·N·D_inference·(inefficiency).\n"
         "RL rollouts that are only generated cost 2, trained-on ones 6; low decode utilisation is the "
         "inefficiency factor.", "06"),
    Card("L5.03", 5, "Why would the three compute terms end up roughly equal?",
         "They trade against each other (a longer pre-train makes serving and RL cheaper per unit "
         "quality). For sums like a/x + b·x the optimum is where the terms are about equal.", "06"),
    Card("L5.04", 5, "With decode running at a third of prefill's utilisation, how do the token counts relate?",
         "6·D_PT = 3·3·D_RL = 2·3·D_inf, so D_PT = 1.5·D_RL = D_inf.", "06"),
    Card("L5.05", 5, f"A model serves {fmt(lecture.SAID['model_tok_s'], 'tok/s')} for "
         f"{lecture.SAID['deployment_days']} days. How many pre-training tokens does cost balancing suggest?",
         f"D_inf ≈ {fmt(lecture.SAID['model_tok_s'])} tok/s × {lecture.SAID['deployment_days']} days = "
         f"{training.tokens_served(lecture.SAID['model_tok_s'], lecture.SAID['deployment_days'] * DAY):.2g} "
         f"tokens (the lecture: ~{fmt(lecture.SAID['pretrain_tokens'])}), and balancing costs gives "
         "D_PT ≈ D_inf.", "06"),
    Card("L5.06", 5, f"{fmt(lecture.SAID['frontier_active_params'], 'params')} active trained on "
         f"{fmt(lecture.SAID['pretrain_tokens'])} tokens: how far beyond Chinchilla-optimal?",
         f"Chinchilla: ~{training.CHINCHILLA_TOKENS_PER_PARAM} tokens per parameter = "
         f"{fmt(training.chinchilla_tokens(lecture.SAID['frontier_active_params']))} tokens; "
         f"{training.overtraining(lecture.SAID['frontier_active_params'], lecture.SAID['pretrain_tokens']):.0f}× "
         "over-trained.", "06"),
    # chapter 6 (5)
    Card("L6.01", 6, "Why could a long-context surcharge (e.g. above 200K tokens) make economic sense?",
         "Below the crossover, serving is compute-bound and cost does not depend on context. Above it, "
         "KV reads dominate: the step is memory-bound and cost grows with every extra token of "
         "context.", "07"),
    Card("L6.02", 6, "Sketch compute and memory time per token against context length, and the price that follows.",
         "Compute: flat. Memory: rises linearly with context and crosses compute at some length. A "
         "fair price is flat below the crossing and rises (in practice: steps up) above it.", "07"),
    Card("L6.03", 6, f"A price step at {fmt(lecture.SAID['price_step_context'])} tokens of context, "
         f"{fmt(lecture.SAID['frontier_active_params'], 'params')} active: what KV bytes per token does that imply?",
         "At the crossover compute per sequence = KV read per sequence: bytes/token = N_active / "
         f"({lecture.SAID['ratio']} × context) ≈ "
         f"{fmt(roofline.implied_kv_bytes_per_token(lecture.SAID['frontier_active_params'], lecture.SAID['price_step_context'], lecture.SAID['ratio']), 'B')}"
         " (weights at 1 byte per parameter).", "07"),
    Card("L6.04", 6, "Output tokens cost 3–5× input tokens. What does that say about decode?",
         "Decode runs at a fraction (~1/5) of prefill's utilisation: prefill pushes many tokens "
         "through each weight read, decode re-reads all weights for one new token per sequence and "
         "waits on memory.", "07"),
    Card("L6.05", 6, "Why are cache hits about 10× cheaper than fresh input tokens?",
         "Reading a stored KV cache back from memory costs far less than recomputing it from the "
         "prompt.", "07"),
    # chapter 7 (2)
    Card("L7.01", 7, "Why do ciphers and neural nets both stack many layers of mixing?",
         "Convergent evolution: a cipher wants every output bit to depend on every input bit in a "
         "complicated way; a network wants its outputs to combine information from all of its "
         "inputs. Repeated mixing layers achieve both.", "08"),
    Card("L7.02", 7, "In what sense do ciphers and neural nets aim at opposite things?",
         "A cipher turns structured input into output that looks random; a network takes input that "
         "looks random and pulls structure out of it.", "08"),
]


def cards() -> list[Card]:
    """This module's cards for the deck: the lecture's 27."""
    return list(LECTURE_CARDS)
