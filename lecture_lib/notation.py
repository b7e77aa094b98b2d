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
N_sh = _s("N_sh")
N_rt = _s("N_rt")

LATEX = {
    B: "B", N_act: r"N_{\mathrm{active}}", N_tot: r"N_{\mathrm{total}}", b_w: r"b_{w}",
    L_ctx: r"L_{\mathrm{ctx}}", b_kv: r"b_{\mathrm{kv}}", l_pass: r"\ell_{\mathrm{pass}}",
    F: "F", BW: r"\mathrm{BW}", C_hbm: r"C_{\mathrm{HBM}}", n_chips: r"n_{\mathrm{chips}}",
    p_chip: r"p_{\mathrm{chip}}", t_compute: r"t_{\mathrm{compute}}",
    t_weights: r"t_{\mathrm{weights}}", t_kv: r"t_{\mathrm{kv}}", t_mem: r"t_{\mathrm{mem}}",
    T_step: r"T_{\mathrm{step}}", N: "N", D: "D", E: "E", P: "P",
    k_act: r"k_{\mathrm{active}}", n_exp: r"n_{\mathrm{experts}}",
    F_mac: r"F_{\mathrm{MAC}}", r_hw: "r", m_cost: "m", f_touch: r"f_{\mathrm{touched}}", w_wait: "w",
    R_tok: r"R_{\mathrm{tok}}", t_dep: r"t_{\mathrm{deploy}}", N_sh: r"N_{\mathrm{always}}", N_rt: r"N_{\mathrm{routed}}",
}

TABLE: list[Entry] = [
    Entry(B, "batch size: sequences decoded together, one new token each per step", "sequences", "B, batch", 1),
    Entry(N_act, "active parameters: weights each token is multiplied by", "parameters", "N_active", 1),
    Entry(N_tot, "total parameters: every weight that must sit in (and be read from) memory", "parameters", "N_total", 1),
    Entry(b_w, "bytes per weight at the serving precision (bf16 2, fp8 1, fp4 0.5)", "bytes/parameter", "(folded into N)", 1),
    Entry(L_ctx, "context length: tokens already in a sequence's KV cache", "tokens", "len_ctx", 1),
    Entry(b_kv, "KV-cache bytes per token of context (a model property; with sliding-window layers, the average over the context)", "bytes/token", "bytes_tok", 1),
    Entry(l_pass, "new tokens per sequence in one pass (1 in decode, the prompt length in prefill)", "tokens", "len_pass", 6),
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
    Entry(w_wait, "wait from a request's arrival to the next step's start", "s", "waiting for the train", 1),
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
        return text.replace("$", "\\$")
    lines = ["| symbol | meaning | unit | the lecture's name |", "|---|---|---|---|"]
    lines += [f"| {s} | {esc(m)} | {esc(u)} | {esc(l)} |" for s, m, u, l in rows()]
    return "\n".join(lines)
