"""The flashcard deck: the lecture's 27 cards in our words, numeric cards, randomized drills.

Chapters are the LECTURE's seven chapters (1 batch size & cost, 2 MoE on racks, 3 pipeline
parallelism, 4 "pipelining is not wise", 5 RL & over-training, 6 prices as evidence, 7 nets &
ciphers); the `notebook` field says which course notebook teaches the card ("01", "02", ...).

Three kinds of item:
- `Card` with value=None: a text card (question -> answer), graded by the learner.
- `Card` with a value: a numeric card; its answer is computed by lecture_lib when the deck is built,
  and a typed answer is accepted within `rtol`.
- `Drill`: a template that draws fresh numbers each time (`drill.draw(rng)` -> a numeric Card).

To add cards for a notebook, create `lecture_lib/practice/cards_NN.py` defining
`def cards() -> list[Card]` and/or `DRILLS = [Drill(...)]`; `all_items()` collects every module.
Card ids must be unique and stable (progress is stored by id).
"""
from __future__ import annotations

import importlib
import math
import pkgutil
import random
from dataclasses import dataclass
from typing import Callable

from .. import lecture, roofline, training
from ..units import DAY, fmt

CHAPTERS = {1: "Batch size, cost and speed", 2: "MoE on GPU racks", 3: "Pipeline parallelism",
            4: "Pipelining is not wise", 5: "RL and over-training", 6: "Prices as evidence",
            7: "Neural nets and ciphers"}


@dataclass
class Card:
    """One card. front/back are plain text (newlines allowed); value (in `unit`) makes it numeric."""
    id: str
    chapter: int
    front: str
    back: str
    notebook: str = ""
    tags: tuple = ()
    value: float | None = None
    unit: str = ""
    rtol: float = 0.02
    origin: str = "lecture"      # "lecture" (the 27), "numeric", "drill", or a helper's own label

    @property
    def numeric(self) -> bool:
        return self.value is not None

    def check(self, typed) -> bool:
        """True when `typed` (a number or text like '23.9', '2.4e3', '1,200 ms') is within rtol."""
        x = parse_number(typed, self.unit)
        return x is not None and self.value is not None and \
            abs(x - self.value) <= self.rtol * abs(self.value)

    def all_tags(self) -> list[str]:
        tags = ["lecture_lib", f"chapter-{self.chapter}", self.origin]
        if self.notebook:
            tags.append(f"notebook-{self.notebook}")
        return tags + [t for t in self.tags if t not in tags]


@dataclass
class Drill:
    """A randomized numeric card: `make(rng)` returns (front, value, back) with fresh numbers."""
    id: str
    chapter: int
    make: Callable[[random.Random], tuple]
    unit: str = ""
    rtol: float = 0.02
    notebook: str = ""
    tags: tuple = ()

    def draw(self, rng: random.Random | None = None) -> Card:
        front, value, back = self.make(rng or random.Random())
        return Card(self.id, self.chapter, front, back, self.notebook, self.tags, float(value),
                    self.unit, self.rtol, "drill")


def parse_number(typed, unit: str = "") -> float | None:
    """A float from a typed answer, or None. Accepts '1,200', '2.4e3', '23.9 ms' (the card's unit)."""
    if isinstance(typed, (int, float)) and not isinstance(typed, bool):
        x = float(typed)
    else:
        s = str(typed).strip().replace(",", "").replace("_", "")
        if unit and s.endswith(unit):
            s = s[: -len(unit)].strip()
        s = s.replace("×10^", "e").replace("x10^", "e").replace("*10**", "e")
        try:
            x = float(s)
        except ValueError:
            return None
    return x if math.isfinite(x) else None


def _fmt(x, unit="", digits=3):
    from ..units import fmt
    return fmt(x, unit, digits)


# --- the lecture's 27 cards, in our own words (lecture order) ------------------------------------
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
         "B = (FLOPs / bandwidth) × (N_total / N_active) ≈ 300 / sparsity.\n"
         "The weight read is fixed per step, compute grows with B, so B must be large enough to "
         "hide the read.", "02"),
    Card("L1.09", 1, "Batches leave like trains every ~20 ms. Why that period, and what goes wrong with a shorter or longer one?",
         "~20 ms is about the time to read all of HBM once (capacity / bandwidth). Shorter: "
         "impossible, the weights cannot be read faster. Longer: you would re-read the same bytes or "
         "leave the compute idle.", "02"),
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


# --- numeric cards: answers computed by the library when the deck is built ----------------------
def cards() -> list[Card]:
    """The numeric cards of this module (computed now, from the registries)."""
    from .. import hardware, models, roofline, training
    from ..units import MS
    out = []
    h100, rubin = hardware.get("H100-SXM"), hardware.get("Rubin")
    ratio = roofline.hardware_ratio(h100, "bf16")
    out.append(Card("N1.h100_ratio", 1, "H100-SXM: dense bf16 FLOP/s ÷ HBM bandwidth (FLOP per byte)?",
                    f"{ratio:.0f} FLOP/byte = {_fmt(h100.flops('bf16'), 'FLOP/s')} / "
                    f"{_fmt(h100.hbm_bandwidth, 'B/s')}.", "02", value=ratio, unit="FLOP/byte",
                    rtol=0.05, origin="numeric"))
    lr = roofline.lecture_ratio("B200", "fp8")
    out.append(Card("N1.b200_lecture_ratio", 1,
                    "B200 at fp8, in the lecture's units: multiply-adds per second ÷ weights read per second?",
                    f"≈ {lr:.0f} (dimensionless): the lecture's '~300'.", "02", value=lr, unit="",
                    rtol=0.05, origin="numeric"))
    for chip in (h100, rubin):
        d = roofline.drain_time(chip)
        out.append(Card(f"N1.drain_{chip.name}", 1, f"Drain time of one {chip.name} (HBM capacity ÷ bandwidth), in ms?",
                        f"{d / MS:.1f} ms = {_fmt(chip.hbm_capacity, 'B')} / {_fmt(chip.hbm_bandwidth, 'B/s')}.",
                        "02", value=d / MS, unit="ms", rtol=0.05, origin="numeric"))
    rack, dsv3 = hardware.get("GB200-NVL72"), models.get("DeepSeek-V3")
    bb = roofline.balance_batch(rack, dsv3, weight_dtype="fp8")
    out.append(Card("N1.balance_dsv3", 1,
                    "Balance batch of DeepSeek-V3 (fp8 weights, KV ignored) on a GB200-NVL72, in sequences?",
                    f"≈ {bb:,.0f} sequences = hardware ratio × total/active parameters "
                    f"({_fmt(dsv3.total_params, 'params')} / {_fmt(dsv3.active_params, 'params')}).",
                    "02", value=bb, unit="sequences", rtol=0.05, origin="numeric"))
    l70, hgx = models.get("Llama-3-70B"), hardware.get("HGX-H100")
    floor = roofline.step_time(hgx, l70, batch=1, context=0, weight_dtype="bf16").weights
    out.append(Card("N1.floor_llama70b", 1,
                    "Latency floor of Llama-3-70B in bf16 on an HGX-H100 (8 GPUs), in ms per decode step?",
                    f"{floor / MS:.2f} ms: {_fmt(l70.weight_bytes('bf16'), 'B')} of weights / "
                    f"{_fmt(hgx.hbm_bandwidth, 'B/s')}.", "01", value=floor / MS, unit="ms", rtol=0.05,
                    origin="numeric"))
    out.append(Card("N2.nvl72_hbm", 2, "Total HBM of a GB200-NVL72 rack, in TB?",
                    f"{rack.hbm_capacity / 1e12:.1f} TB ({rack.n_chips} GPUs).", "03",
                    value=rack.hbm_capacity / 1e12, unit="TB", rtol=0.05, origin="numeric"))
    kv = dsv3.kv_bytes_per_token("bf16")
    out.append(Card("N6.kv_dsv3", 6, "DeepSeek-V3's KV cache per token of context in bf16 (MLA), in kB?",
                    f"{kv / 1e3:.1f} kB = {dsv3.n_layers} layers × ({dsv3.kv_lora_rank} latent + "
                    f"{dsv3.qk_rope_dim} RoPE) values × 2 bytes.", "07", value=kv / 1e3, unit="kB",
                    rtol=0.02, origin="numeric"))
    kv70 = l70.kv_bytes_per_token("bf16")
    out.append(Card("N6.kv_llama70b", 6, "Llama-3-70B's KV cache per token in bf16 (GQA), in kB?",
                    f"{kv70 / 1e3:.1f} kB = 2 × {l70.n_layers} layers × {l70.n_kv_heads} KV heads × "
                    f"{l70.head_dim} × 2 bytes.", "07", value=kv70 / 1e3, unit="kB", rtol=0.02,
                    origin="numeric"))
    tokens = l70.training_tokens          # the Llama 3 paper: 15T tokens
    c = training.flops(l70.active_params, tokens)
    out.append(Card("N5.6nd_llama70b", 5,
                    f"Training FLOPs (6·N·D) of Llama-3-70B on {tokens / 1e12:.0f}T tokens? "
                    "(type e.g. 1.2e25)",
                    f"≈ {c:.2g} FLOP = 6 × {_fmt(l70.active_params, 'params')} × {tokens / 1e12:.0f}T tokens.",
                    "06", value=c, unit="FLOP", rtol=0.03, origin="numeric"))
    return out


# --- randomized drills: fresh numbers on every draw ----------------------------------------------
def _drain_drill(rng):
    from .. import hardware, roofline
    cap_gb = rng.choice([40, 80, 96, 141, 192, 288])
    bw_tbs = round(rng.uniform(1.5, 22), 1)
    chip = hardware.Chip(name="drill chip", flops={"bf16": 1e15}, hbm_bandwidth=bw_tbs * 1e12,
                         hbm_capacity=cap_gb * 1e9)
    d = roofline.drain_time(chip) * 1e3
    return (f"A chip has {cap_gb} GB of HBM at {bw_tbs} TB/s. Drain time, in ms?", d,
            f"{cap_gb} GB / {bw_tbs} TB/s = {d:.1f} ms")


def _balance_drill(rng):
    from .. import hardware, models, roofline
    tflops = rng.choice([400, 1000, 2000, 4500, 9000])
    bw = round(rng.uniform(2, 10), 1)
    total_b = rng.choice([100, 200, 400, 671, 1000, 2000])
    active_b = rng.choice([10, 20, 37, 50, 100])
    active_b = min(active_b, total_b)
    chip = hardware.Chip(name="drill chip", flops={"fp8": tflops * 1e12}, hbm_bandwidth=bw * 1e12,
                         hbm_capacity=1e12)
    model = models.Model(name="drill model", total_params=total_b * 1e9, active_params=active_b * 1e9,
                         n_layers=1, d_model=1, n_heads=1, n_kv_heads=1, head_dim=1)
    b = roofline.balance_batch(chip, model, weight_dtype="fp8")
    return (f"A chip does {tflops} TFLOP/s (fp8, 2 FLOPs per multiply-add) with {bw} TB/s of HBM. "
            f"A model has {total_b}B total and {active_b}B active parameters, stored in fp8. "
            "Balance batch (KV ignored), in sequences?", b,
            f"B* = (F / BW) × (1 byte / 2) × (total / active) = {tflops}e12/{bw}e12 × 0.5 × "
            f"{total_b}/{active_b} ≈ {b:,.0f}")


def _weight_read_drill(rng):
    from .. import hardware, models
    from ..units import dtype_bytes
    params_b = rng.choice([8, 70, 120, 405, 671, 1000])
    dtype = rng.choice(["bf16", "fp8"])
    bw = rng.choice([3.35, 4.8, 8.0, 26.8, 64.0, 576.0])
    chip = hardware.Chip(name="drill chip", flops={dtype: 1e15}, hbm_bandwidth=bw * 1e12, hbm_capacity=1e12)
    model = models.Model(name="drill model", total_params=params_b * 1e9, active_params=params_b * 1e9,
                         n_layers=1, d_model=1, n_heads=1, n_kv_heads=1, head_dim=1)
    t = roofline.step_time(chip, model, batch=1, weight_dtype=dtype).weights * 1e3
    return (f"Read {params_b}B parameters stored in {dtype} at {bw} TB/s: how many ms per decode step "
            "at least?", t, f"{params_b}e9 × {dtype_bytes(dtype):g} B / {bw}e12 B/s = {t:.3g} ms")


def _six_nd_drill(rng):
    from .. import training
    n_b = rng.choice([1, 7, 8, 13, 37, 70, 100, 405])
    d_t = rng.choice([1, 2, 10, 15, 30, 100, 200])
    c = training.flops(n_b * 1e9, d_t * 1e12)
    return (f"Training FLOPs for {n_b}B (active) parameters on {d_t}T tokens? (e.g. 1.2e24)", c,
            f"6 × {n_b}e9 × {d_t}e12 = {c:.3g} FLOP")


def _kv_drill(rng):
    from .. import models
    layers = rng.choice([32, 40, 48, 64, 80, 126])
    kv_heads = rng.choice([1, 4, 8, 16])
    head_dim = rng.choice([64, 128, 256])
    dtype = rng.choice(["bf16", "fp8"])
    m = models.Model(name="drill model", total_params=1e9, active_params=1e9, n_layers=layers,
                     d_model=kv_heads * head_dim * 8, n_heads=kv_heads * 8, n_kv_heads=kv_heads,
                     head_dim=head_dim)
    kv = m.kv_bytes_per_token(dtype) / 1e3
    return (f"{layers} layers, {kv_heads * 8} query heads, {kv_heads} KV heads, head_dim {head_dim}, "
            f"KV stored in {dtype}: KV cache per token, in kB?", kv,
            f"2 × {layers} × {kv_heads} (KV heads, not query heads) × {head_dim} × bytes = {kv:.4g} kB")


def _chinchilla_drill(rng):
    n_b = rng.choice([8, 30, 70, 100, 400])
    d_t = rng.choice([2, 15, 36, 100, 200])
    x = training.overtraining(n_b * 1e9, d_t * 1e12)
    per = training.CHINCHILLA_TOKENS_PER_PARAM
    return (f"{n_b}B parameters trained on {d_t}T tokens: how many times the Chinchilla-optimal "
            f"token count ({per} tokens per parameter)?", x, f"{d_t}e12 / ({per} × {n_b}e9) = {x:.3g}×")


DRILLS = [
    Drill("D1.drain", 1, _drain_drill, unit="ms", notebook="02"),
    Drill("D1.balance", 1, _balance_drill, unit="sequences", rtol=0.03, notebook="02"),
    Drill("D1.weight_read", 1, _weight_read_drill, unit="ms", notebook="01"),
    Drill("D5.six_nd", 5, _six_nd_drill, unit="FLOP", notebook="06"),
    Drill("D6.kv_bytes", 6, _kv_drill, unit="kB", notebook="07"),
    Drill("D5.chinchilla", 5, _chinchilla_drill, unit="×", notebook="06"),
]


def all_items() -> list:
    """Every card and drill: this module's, then each cards_NN module's, in name order."""
    items: list = list(LECTURE_CARDS) + cards() + list(DRILLS)
    from . import __path__ as pkg_path
    for info in sorted(pkgutil.iter_modules(pkg_path), key=lambda i: i.name):
        if info.name.startswith("cards_"):
            mod = importlib.import_module(f"{__package__}.{info.name}")
            if hasattr(mod, "cards"):
                items += list(mod.cards())
            items += list(getattr(mod, "DRILLS", []))
    ids = [i.id for i in items]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    if dup:
        raise ValueError(f"flashcard ids must be unique; repeated: {dup}")
    return items
