"""The one way a notebook prints prose and equations: `say` for Markdown, `show` for an equation.

    from lecture_lib.prose import say, show
    say(f"At {fmt(2, '$')}/GPU-hour ...")     # Markdown; every $ is a dollar sign, not LaTeX
    show(roofline.step_time_eq)               # an equation, with the course's symbol names
    show(expr, lhs="B^*")                     # "B^* = <expr>"

Markdown renderers (JupyterLab, GitHub, nbconvert) read `$...$` as math, so "$2/GPU-hour ... $25"
would typeset the text between the two dollar signs as a formula. `say` escapes every `$`; pass
`math=True` only when the text holds inline LaTeX on purpose (and no money).
"""
from __future__ import annotations

import re

import sympy as sp

from .notation import latex


#: a dollar sign that no math typesetter pairs up. `\$` is not enough: JupyterLab 4's Markdown renderer
#: unescapes it, then MathJax typesets the text between two of them ("$25 per million ... $150", seen
#: in the browser test). A `$` alone in its own <span> (as an entity) is left alone by JupyterLab,
#: nbconvert's HTML and GitHub alike.
DOLLAR = "<span>&#36;</span>"


def escape_dollars(text: str) -> str:
    """Every `$` in `text` (escaped as `\\$` or not) as DOLLAR, so Markdown shows a dollar sign, not math."""
    return re.sub(r"\\?\$", DOLLAR, text)


def markdown(text: str, math: bool = False):
    """The IPython Markdown object `say` displays (for tests, and for notebooks that build output)."""
    from IPython.display import Markdown
    return Markdown(text if math else escape_dollars(text))


def say(text: str, math: bool = False) -> None:
    """Display `text` as Markdown with dollar signs escaped (math=True keeps `$...$` as LaTeX)."""
    from IPython.display import display
    display(markdown(text, math))


def equation(expr, lhs: str | None = None):
    """The IPython Math object `show` displays: `expr` (a SymPy object or LaTeX string), `lhs = expr` if given."""
    from IPython.display import Math
    body = expr if isinstance(expr, str) else latex(sp.sympify(expr))
    return Math(body if lhs is None else f"{lhs} = {body}")


def show(expr, lhs: str | None = None) -> None:
    """Display an equation or expression with the course's symbol names (N_act prints as N_active)."""
    from IPython.display import display
    display(equation(expr, lhs))


__all__ = ["DOLLAR", "escape_dollars", "markdown", "say", "equation", "show"]
