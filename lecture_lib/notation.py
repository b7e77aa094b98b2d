"""The notation table: every SymPy symbol the course uses, with its meaning, unit and lecture name.

One symbol, one meaning, across the whole course. Formula modules build their equations from these
symbols only, so a symbol printed in any notebook means what this table says.
"""
from __future__ import annotations

from dataclasses import dataclass

import sympy as sp


@dataclass(frozen=True)
class Entry:
    symbol: sp.Symbol
    meaning: str
    unit: str
    lecture: str          # how the lecture (blackboard) writes or says it
    chapter: int          # chapter where it first appears


def _s(name: str) -> sp.Symbol:
    return sp.Symbol(name, positive=True)


# symbols (SymPy names are plain ASCII; LaTeX rendering via sp.latex with symbol_names)
B = _s("B")
N_act = _s("N_act")
N_tot = _s("N_tot")
b_w = _s("b_w")
L_ctx = _s("L_ctx")
b_kv = _s("b_kv")
l_pass = _s("l_pass")
F = _s("F")
BW = _s("BW")
C_hbm = _s("C_hbm")
n_chips = _s("n_chips")
p_chip = _s("p_chip")
t_compute = _s("t_compute")
t_weights = _s("t_weights")
t_kv = _s("t_kv")
t_mem = _s("t_mem")
T_step = _s("T_step")
N = _s("N")
D = _s("D")
E = _s("E")
P = _s("P")
k_act = _s("k_act")
n_exp = _s("n_exp")
F_mac = _s("F_mac")
r_hw = _s("r")
m_cost = _s("m_cost")
f_touch = _s("f_touch")
w_wait = sp.Symbol("w", nonnegative=True)
R_tok = _s("R_tok")
t_dep = _s("t_dep")
f_att = _s("f_att")
N_sh = _s("N_sh")
N_rt = _s("N_rt")
S_fast = _s("S_fast")
# chapter 5: training, RL and inference compute (lecture_lib/training.py)
d_in = _s("d_in")
d_out = _s("d_out")
D_PT = _s("D_PT")
D_RL = _s("D_RL")
D_inf = _s("D_inf")
k_PT = _s("k_PT")
k_RL = _s("k_RL")
k_inf = _s("k_inf")
u_RL = _s("u_RL")
u_inf = _s("u_inf")
s_PT = _s("s_PT")
s_RL = _s("s_RL")
s_inf = _s("s_inf")
x_h = _s("x_h")
a_h = _s("a_h")
b_h = _s("b_h")
p_h = _s("p_h")
q_h = _s("q_h")
R_world = _s("R_world")
n_fam = _s("n_fam")
f_keep = _s("f_keep")
eta = _s("eta")
T_chip = _s("T_chip")
n_serve = _s("n_serve")
# chapter 7: activation memory of training, stored vs reversible (lecture_lib/mixing.py)
d_model = _s("d_model")
n_layers = _s("n_layers")
n_heads = _s("n_heads")
L_seq = _s("L_seq")
b_act = _s("b_act")
b_mask = sp.Symbol("b_mask", nonnegative=True)
n_tok = _s("n_tok")
n_bits = _s("n_bits")
# chapter 6: prices as evidence, memory tiers (lecture_lib/pricing.py, lecture_lib/storage.py)
t_tok = _s("t_tok")
p_in = _s("p_in")
p_out = _s("p_out")
C_dev = _s("C_dev")
W_dev = _s("W_dev")
p_dev = _s("p_dev")
T_hold = sp.Symbol("T_hold", nonnegative=True)
n_read = sp.Symbol("n_read", nonnegative=True)
m_write = _s("m_write")
m_read = _s("m_read")
n_kvl = _s("n_kvl")
n_kv = _s("n_kv")
d_head = _s("d_head")
b_el = _s("b_el")
f_win = sp.Symbol("f_win", nonnegative=True)
# chapter 3: pipeline parallelism across racks (lecture_lib/pipeline.py)
L_st = _s("L_stage")
W_up = _s("W_up")
W_out = _s("W_out")
rho_bw = _s("rho_bw")
M_mb = _s("M_mb")
t_F = _s("t_F")
t_B = _s("t_B")
t_W = _s("t_W")
# chapter 4: the memory wall (lecture_lib/memory.py)
b_mb = _s("b_mb")
c_mem = _s("c_mem")
t_hop = _s("t_hop")

# chapter 2: MoE on racks, the all-to-all (lecture_lib/moe.py)
d_ff = _s("d_ff")
d_ffe = _s("d_ff_expert")
V_voc = _s("V_vocab")
L_moe = _s("L_moe")
L_dense = sp.Symbol("L_dense", nonnegative=True)
n_shx = sp.Symbol("n_shared", nonnegative=True)
r_q = _s("r_q")
r_kv = _s("r_kv")
d_rope = _s("d_rope")
b_disp = _s("b_disp")
b_comb = _s("b_comb")
R_rk = _s("R_racks")
t_net = _s("t_net")
f_wt = _s("f_wt")
# beyond the lecture: the bounds against measurements (lecture_lib/reality.py)
L_in = sp.Symbol("L_in", nonnegative=True)
L_out = _s("L_out")
T_pre = sp.Symbol("T_pre", nonnegative=True)
T_dec = _s("T_dec")
i_step = sp.Symbol("i", integer=True, nonnegative=True)
n_conc = _s("n_conc")
lam_req = _s("lambda_req")
W_req = _s("W_req")
r_user = _s("r_user")
eta_bw = _s("eta_bw")
LATEX = {
    B: "B", N_act: r"N_{\mathrm{active}}", N_tot: r"N_{\mathrm{total}}", b_w: r"b_{w}",
    L_ctx: r"L_{\mathrm{ctx}}", b_kv: r"b_{\mathrm{kv}}", l_pass: r"\ell_{\mathrm{pass}}",
    F: "F", BW: r"\mathrm{BW}", C_hbm: r"C_{\mathrm{HBM}}", n_chips: r"n_{\mathrm{chips}}",
    p_chip: r"p_{\mathrm{chip}}", t_compute: r"t_{\mathrm{compute}}",
    t_weights: r"t_{\mathrm{weights}}", t_kv: r"t_{\mathrm{kv}}", t_mem: r"t_{\mathrm{mem}}",
    T_step: r"T_{\mathrm{step}}", N: "N", D: "D", E: "E", P: "P",
    k_act: r"k_{\mathrm{active}}", n_exp: r"n_{\mathrm{experts}}",
    F_mac: r"F_{\mathrm{MAC}}", r_hw: "r", m_cost: "m", f_touch: r"f_{\mathrm{touched}}", w_wait: "w",
    f_att: r"f_{\mathrm{att}}", R_tok: r"R_{\mathrm{tok}}", t_dep: r"t_{\mathrm{deploy}}", N_sh: r"N_{\mathrm{always}}", N_rt: r"N_{\mathrm{routed}}", S_fast: r"S_{\mathrm{fast}}",
    d_in: r"d_{\mathrm{in}}", d_out: r"d_{\mathrm{out}}", D_PT: r"D_{\mathrm{PT}}", D_RL: r"D_{\mathrm{RL}}",
    D_inf: r"D_{\mathrm{inf}}", k_PT: r"k_{\mathrm{PT}}", k_RL: r"k_{\mathrm{RL}}", k_inf: r"k_{\mathrm{inf}}",
    u_RL: r"u_{\mathrm{RL}}", u_inf: r"u_{\mathrm{inf}}", s_PT: r"s_{\mathrm{PT}}", s_RL: r"s_{\mathrm{RL}}",
    s_inf: r"s_{\mathrm{inf}}", x_h: "x", a_h: "a", b_h: "b", p_h: "p", q_h: "q",
    R_world: r"R_{\mathrm{world}}", n_fam: r"n_{\mathrm{family}}", f_keep: r"f_{\mathrm{keep}}", eta: r"\eta",
    T_chip: r"T_{\mathrm{chip}}", n_serve: r"n_{\mathrm{serve}}",
    d_model: r"d_{\mathrm{model}}", n_layers: r"n_{\mathrm{layers}}", n_heads: r"n_{\mathrm{heads}}",
    L_seq: r"L_{\mathrm{seq}}", b_act: r"b_{\mathrm{act}}", b_mask: r"b_{\mathrm{mask}}", n_tok: r"n_{\mathrm{tok}}", n_bits: r"n_{\mathrm{bits}}",
    t_tok: r"t_{\mathrm{tok}}", p_in: r"p_{\mathrm{in}}", p_out: r"p_{\mathrm{out}}", C_dev: r"C_{\mathrm{dev}}",
    W_dev: r"W_{\mathrm{dev}}", p_dev: r"p_{\mathrm{dev}}", T_hold: r"T_{\mathrm{hold}}", n_read: r"n_{\mathrm{read}}",
    m_write: r"m_{\mathrm{write}}", m_read: r"m_{\mathrm{read}}", n_kvl: r"n_{\mathrm{KV\,layers}}",
    n_kv: r"n_{\mathrm{KV\,heads}}", d_head: r"d_{\mathrm{head}}", b_el: r"b_{\mathrm{el}}", f_win: r"f_{\mathrm{win}}",
    L_st: r"L_{\mathrm{stage}}", W_up: r"W_{\mathrm{up}}", W_out: r"W_{\mathrm{out}}", rho_bw: r"\rho_{\mathrm{bw}}",
    M_mb: "M", t_F: r"t_{F}", t_B: r"t_{B}", t_W: r"t_{W}",
    b_mb: r"b_{\mathrm{micro}}", c_mem: r"c_{\mathrm{mem}}", t_hop: r"t_{\mathrm{hop}}",
    d_ff: r"d_{\mathrm{ff}}", d_ffe: r"d_{\mathrm{ff,expert}}", V_voc: "V", L_moe: r"L_{\mathrm{MoE}}",
    L_dense: r"L_{\mathrm{dense}}", n_shx: r"n_{\mathrm{shared}}", r_q: r"r_{q}", r_kv: r"r_{kv}",
    d_rope: r"d_{\mathrm{rope}}", b_disp: r"b_{\mathrm{dispatch}}", b_comb: r"b_{\mathrm{combine}}",
    R_rk: "R", t_net: r"t_{\mathrm{net}}", f_wt: r"f_{w}",
    L_in: r"L_{\mathrm{in}}", L_out: r"L_{\mathrm{out}}", T_pre: r"T_{\mathrm{prefill}}", T_dec: r"T_{\mathrm{decode}}",
    i_step: "i", n_conc: r"n_{\mathrm{conc}}", lam_req: r"\lambda", W_req: "W", r_user: r"r_{\mathrm{user}}",
    eta_bw: r"\eta_{\mathrm{BW}}",
}

TABLE: list[Entry] = [
    Entry(B, "batch size: sequences decoded together, one new token each per step", "sequences", "B, batch", 1),
    Entry(N_act, "active parameters: weights each token is multiplied by", "parameters", "N_active", 1),
    Entry(N_tot, "total parameters: every weight that must sit in (and be read from) memory", "parameters", "N_total", 1),
    Entry(b_w, "bytes per weight at the serving precision (bf16 2, fp8 1, fp4 0.5)", "bytes/parameter", "(folded into N)", 1),
    Entry(L_ctx, "context length: tokens already in a sequence's KV cache", "tokens", "len_ctx", 1),
    Entry(b_kv, "KV-cache bytes per token of context (a model property; with sliding-window layers, the average over the context)", "bytes/token", "bytes_tok", 1),
    Entry(l_pass, "new tokens per sequence in one pass (1 in decode, the prompt length in prefill)", "tokens", "len_pass", 6),
    Entry(f_att, "attention FLOPs per new token per cached token (Q·K and P·V over every layer; MLA absorbed: its latent width)", "FLOP/token", "(left out as small)", 1),
    Entry(F, "peak dense compute at the stated dtype (2 FLOPs per multiply-add)", "FLOP/s", "FLOPs (counted as multiplies)", 1),
    Entry(BW, "memory (HBM) bandwidth", "bytes/s", "mem_bw", 1),
    Entry(C_hbm, "memory (HBM) capacity", "bytes", "HBM capacity", 1),
    Entry(n_chips, "chips in one scale-up domain serving the model", "chips", "GPUs in the rack", 1),
    Entry(p_chip, "rental price of one chip", "$/chip-hour", "$2/hour per GPU", 1),
    Entry(t_compute, "time the matmuls take at peak compute", "s", "t_compute", 1),
    Entry(t_weights, "time to read every weight once from HBM", "s", "weight fetch", 1),
    Entry(t_kv, "time to read every sequence's KV cache once", "s", "KV fetch", 1),
    Entry(t_mem, "memory time: weights + KV", "s", "t_mem", 1),
    Entry(T_step, "time of one forward pass (a lower bound): max(t_compute, t_mem)", "s", "T, latency", 1),
    Entry(N, "parameters in the training-cost formula 6·N·D", "parameters", "N", 5),
    Entry(D, "training tokens", "tokens", "D", 5),
    Entry(R_tok, "tokens per second a model serves", "tokens/s", "tokens/s", 5),
    Entry(t_dep, "time a model is deployed (serves traffic)", "s", "two months", 5),
    Entry(E, "expert-parallel extent: GPUs one MoE layer is spread over", "chips", "E", 4),
    Entry(P, "pipeline extent: number of pipeline stages (racks)", "stages", "P", 4),
    Entry(k_act, "experts each token is routed to", "experts", "active experts", 2),
    Entry(n_exp, "routed experts per MoE layer", "experts", "experts", 2),
    Entry(F_mac, "peak dense multiply-adds per second: the lecture's 'FLOPs' (= F / 2)", "MAC/s", "FLOPs", 1),
    Entry(r_hw, "the lecture's hardware ratio: multiply-adds per weight parameter read (F_MAC·b_w / BW)", "dimensionless", "FLOPs / mem_bw, ~300", 1),
    Entry(m_cost, "cost per token as a multiple of the balance point's (fast mode)", "×", "6× the price", 1),
    Entry(f_touch, "fraction of one layer's routed experts a batch touches", "dimensionless", "(all experts touched)", 1),
    Entry(N_sh, "parameters every token reads: attention, dense layers, shared experts, embeddings", "parameters", "(the non-expert weights)", 1),
    Entry(N_rt, "parameters in the routed experts of all MoE layers", "parameters", "experts", 1),
    Entry(S_fast, "speed-up: step time at the balance batch ÷ step time at a smaller batch (fast mode)", "×", "2.5× the speed", 1),
    Entry(w_wait, "wait from a request's arrival to the next step's start", "s", "waiting for the train", 1),
    Entry(d_in, "input width of one weight matrix (y = x·W, W is d_in × d_out)", "numbers", "(matmul shape)", 5),
    Entry(d_out, "output width of one weight matrix", "numbers", "(matmul shape)", 5),
    Entry(D_PT, "pre-training tokens", "tokens", "D_pretrain, D_PT", 5),
    Entry(D_RL, "RL rollout tokens", "tokens", "D_RL", 5),
    Entry(D_inf, "tokens a model serves over its deployment", "tokens", "D_inference", 5),
    Entry(k_PT, "pre-training FLOPs per active parameter per token (2 forward + 4 backward)", "FLOP/(param·token)", "6", 5),
    Entry(k_RL, "RL FLOPs per active parameter per token (2 forward-only rollouts, 6 if trained on)", "FLOP/(param·token)", "2 to 6", 5),
    Entry(k_inf, "inference FLOPs per active parameter per token (forward only)", "FLOP/(param·token)", "2", 5),
    Entry(u_RL, "RL inefficiency: cost multiplier for running below training's utilisation (>= 1)", "×", "inefficiency", 5),
    Entry(u_inf, "inference inefficiency: cost multiplier for decode's low utilisation (>= 1)", "×", "inefficiency", 5),
    Entry(s_PT, "share of a model's lifetime compute spent on pre-training", "fraction", "a third", 5),
    Entry(s_RL, "share of lifetime compute spent on RL", "fraction", "a third", 5),
    Entry(s_inf, "share of lifetime compute spent on inference", "fraction", "a third (Dwarkesh: half)", 5),
    Entry(x_h, "the knob of a trade-off: one term of the cost falls with it, the other rises", "any", "x", 5),
    Entry(a_h, "scale of the falling term a·x^(-p)", "cost", "A", 5),
    Entry(b_h, "scale of the rising term b·x^q", "cost", "B", 5),
    Entry(p_h, "exponent of the falling term", "dimensionless", "(1 in 1/x)", 5),
    Entry(q_h, "exponent of the rising term", "dimensionless", "(1 in x)", 5),
    Entry(R_world, "tokens per second served worldwide, all models together", "tokens/s", "500M tokens/s", 5),
    Entry(n_fam, "models in a family sharing the traffic", "models", "divide by 5 to 10", 5),
    Entry(f_keep, "expected fraction of the planned deployment a model really serves (derating)", "fraction", "derate", 5),
    Entry(eta, "utilisation: achieved FLOP/s over peak (MFU)", "fraction", "efficiency, ~30%", 5),
    Entry(T_chip, "chip-seconds a run used (GPU-hours × 3600)", "chip·s", "GPU-hours", 5),
    Entry(n_serve, "chips needed to serve a token rate", "chips", "how many GPUs", 5),
    Entry(d_model, "model width: numbers in one token's residual-stream vector", "numbers", "d_model", 7),
    Entry(n_layers, "transformer layers (blocks)", "layers", "layers", 7),
    Entry(n_heads, "attention (query) heads per layer", "heads", "heads", 7),
    Entry(L_seq, "training sequence length (tokens per sequence in one step)", "tokens", "(sequence length)", 7),
    Entry(b_act, "bytes per stored activation element (bf16 2)", "bytes", "2 bytes", 7),
    Entry(b_mask, "bytes per stored dropout-mask element (1, or 0 without dropout)", "bytes", "(not in the lecture)", 7),
    Entry(n_tok, "tokens whose activations one training step holds (sequences × sequence length)", "tokens", "tokens in flight", 7),
    Entry(n_bits, "block size of a cipher (or bit width of a function) in bits", "bits", "(64-bit blocks)", 7),
    Entry(t_tok, "compute time of one new token of one sequence at peak (2·N_active / F)", "s", "compute per token", 6),
    Entry(p_in, "list price of one input (prompt) token", "$/token", "input price", 6),
    Entry(p_out, "list price of one output (generated) token", "$/token", "output price", 6),
    Entry(C_dev, "capacity of one memory device or tier (HBM, DDR, flash, disk)", "bytes", "capacity", 6),
    Entry(W_dev, "bandwidth of one memory device or tier, to or from HBM", "bytes/s", "bandwidth", 6),
    Entry(p_dev, "cost of one memory device per second (rental, or purchase price over its service life)", "$/s", "$ per second", 6),
    Entry(T_hold, "how long a KV cache is held between uses", "s", "5 minutes, 1 hour", 6),
    Entry(n_read, "times a held KV cache is read back (cache hits)", "reads", "(reuses)", 6),
    Entry(m_write, "cache-write price as a multiple of the base input price", "×", "cache write, 1.25×", 6),
    Entry(m_read, "cache-read (hit) price as a multiple of the base input price", "×", "cache hit, 10× cheaper", 6),
    Entry(n_kvl, "layers holding their own full-context KV cache (unique global KV layers)", "layers", "n_layers (unique KV)", 6),
    Entry(n_kv, "key/value heads per layer (1 MQA, a few GQA, all heads MHA)", "heads", "n_kv_heads", 6),
    Entry(d_head, "dimension of one attention head", "numbers", "d_head", 6),
    Entry(b_el, "bytes per stored KV element (bf16 2, fp8 1)", "bytes", "(bytes per element)", 6),
    Entry(f_win, "attention FLOPs per new token in the sliding-window layers (constant past the window)", "FLOP", "(local layers)", 6),
    Entry(L_st, "MoE layers in one pipeline stage (one rack)", "layers", "L_stage, layers per stage", 3),
    Entry(W_up, "scale-up (NVLink) bandwidth per chip, one direction", "bytes/s", "scale-up bandwidth", 3),
    Entry(W_out, "scale-out (NIC) bandwidth per chip, one direction", "bytes/s", "scale-out bandwidth", 3),
    Entry(rho_bw, "bandwidth ratio: scale-up ÷ scale-out bandwidth per chip", "×", "8× slower", 3),
    Entry(M_mb, "micro-batches per batch (per optimizer step in training; in flight in inference)", "micro-batches", "micro-batches", 3),
    Entry(t_F, "time of one micro-batch's forward pass through one stage", "s (or stage-passes)", "forward", 3),
    Entry(t_B, "time of one micro-batch's backward pass through one stage: the gradient for the input (B)", "s (or stage-passes)", "backward", 3),
    Entry(t_W, "time of one micro-batch's weight-gradient pass through one stage (W; zero-bubble splits it from B)", "s (or stage-passes)", "(weight-gradient step)", 3),
    Entry(b_mb, "micro-batch size: sequences in one micro-batch (one train leaving every step)", "sequences", "b", 4),
    Entry(c_mem, "memory one GPU needs: its share of the weights and of the KV caches", "bytes", "c_mem", 4),
    Entry(t_hop, "latency of one rack-to-rack hop (GPU, NIC, switch, NIC, GPU)", "s", "a few ms per hop", 4),
    Entry(d_ff, "hidden width of a dense MLP (gate, up and down matrices: 3·d_model·d_ff weights)", "numbers", "(MLP width)", 2),
    Entry(d_ffe, "hidden width of one expert's MLP", "numbers", "(expert width)", 2),
    Entry(V_voc, "vocabulary size: rows of the embedding table and of the output head", "tokens", "(vocabulary)", 2),
    Entry(L_moe, "layers whose MLP is a mixture of experts", "layers", "MoE layers", 2),
    Entry(L_dense, "layers with a dense MLP (DeepSeek-V3: the first 3)", "layers", "(dense layers)", 2),
    Entry(n_shx, "shared experts per MoE layer: every token goes through them", "experts", "(shared expert)", 2),
    Entry(r_q, "MLA query compression rank", "numbers", "(q_lora_rank)", 2),
    Entry(r_kv, "MLA key/value latent width (what the KV cache stores per layer, besides the RoPE dims)", "numbers", "(kv_lora_rank)", 2),
    Entry(d_rope, "MLA decoupled RoPE dimensions per head", "numbers", "(rope dims)", 2),
    Entry(b_disp, "bytes per activation element sent to the experts (dispatch)", "bytes", "(dispatch precision)", 2),
    Entry(b_comb, "bytes per activation element sent back from the experts (combine)", "bytes", "(combine precision)", 2),
    Entry(R_rk, "racks (scale-up domains) one expert layer spans", "racks", "two racks", 2),
    Entry(t_net, "time of a step's all-to-all traffic (dispatch + combine over every MoE layer) per chip", "s", "(the network)", 2),
    Entry(f_wt, "fraction of a scale-up domain's HBM given to weights (the rest holds KV)", "fraction", "half for KV", 2),
    Entry(L_in, "prompt (input) tokens of one request", "tokens", "(prompt length)", 9),
    Entry(L_out, "output tokens one request generates", "tokens", "(output length)", 9),
    Entry(T_pre, "time of the prefill pass over a batch's prompts (a lower bound)", "s", "(prefill)", 9),
    Entry(T_dec, "time of all the decode steps of a batch (a lower bound): the sum of their step times", "s", "(decode)", 9),
    Entry(i_step, "index of a decode step (0 for the first output token)", "steps", "(step)", 9),
    Entry(n_conc, "requests in the system at once (concurrency; the decode batch)", "requests", "(batch)", 9),
    Entry(lam_req, "request arrival (= completion) rate of a steady system", "requests/s", "(traffic)", 9),
    Entry(W_req, "time one request spends in the system (its latency)", "s", "(latency)", 9),
    Entry(r_user, "output tokens per second one request sees (1 / time per output token)", "tokens/s", "(speed)", 9),
    Entry(eta_bw, "memory-bandwidth utilisation: achieved bytes/s over peak (MBU)", "fraction", "(not in the lecture)", 9),
]

SYMBOLS: dict[str, sp.Symbol] = {e.symbol.name: e.symbol for e in TABLE}


def latex(expr) -> str:
    """LaTeX of an expression with the course's symbol names (N_act prints as N_active, ...)."""
    return sp.latex(expr, symbol_names=LATEX)


def rows() -> list[tuple[str, str, str, str]]:
    """The table as (LaTeX symbol, meaning, unit, lecture name) rows."""
    return [(f"${LATEX[e.symbol]}$", e.meaning, e.unit, e.lecture) for e in TABLE]


def markdown() -> str:
    """The notation table as a Markdown table (rendered in 00_start_here; display with math on).

    The symbol column is LaTeX; every `$` in the other columns is a dollar sign and is escaped.
    """
    def esc(text: str) -> str:
        return text.replace("$", "<span>&#36;</span>")   # as prose.DOLLAR: JupyterLab typesets \$...\$ as math
    lines = ["| symbol | meaning | unit | the lecture's name |", "|---|---|---|---|"]
    lines += [f"| {s} | {esc(m)} | {esc(u)} | {esc(l)} |" for s, m, u, l in rows()]
    return "\n".join(lines)
