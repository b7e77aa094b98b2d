"""From a SymPy expression to the numeric function a plot or a problem calls: one path, one helper.

Every formula module states its equations once, as SymPy expressions over the notation table, and
gets its numbers from them through `numeric`:

    t_kv = numeric(t_kv_expr)                       # B·L_ctx·b_kv / BW
    t_kv(B=64, L_ctx=4096, b_kv=327_680, BW=3.35e12)  # keyword arguments named by the symbols

The function is lambdified once, on first call (so `import lecture_lib` stays fast), broadcasts
NumPy arrays, and returns a float for scalar inputs and an array otherwise. An expression that needs
`sympy.solve` is passed as a zero-argument function returning it (usually an `lru_cache`d one), so the
solve also happens on first use only.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np
import sympy as sp


def out(x):
    """A float for a 0-d result, a float array otherwise (the library's return convention)."""
    x = np.asarray(x, dtype=float)
    return float(x) if x.ndim == 0 else x


class Numeric:
    """A numeric function of one expression; call it with one keyword argument per free symbol."""

    def __init__(self, expr_or_builder):
        self._source = expr_or_builder
        self._expr = None
        self._f = None
        self._names: tuple[str, ...] = ()

    @property
    def expr(self) -> sp.Expr:
        """The expression this function evaluates (built on first use if it was given lazily)."""
        if self._expr is None:
            src = self._source
            self._expr = sp.sympify(src() if callable(src) and not isinstance(src, sp.Basic) else src)
        return self._expr

    @property
    def names(self) -> tuple[str, ...]:
        """The keyword arguments, i.e. the expression's free symbols by name, sorted."""
        self._compile()
        return self._names

    def _compile(self):
        if self._f is None:
            symbols = sorted(self.expr.free_symbols, key=lambda s: s.name)
            self._names = tuple(s.name for s in symbols)
            self._f = sp.lambdify(symbols, self.expr, "numpy")

    def __call__(self, **values):
        self._compile()
        missing = [n for n in self._names if n not in values]
        extra = [n for n in values if n not in self._names]
        if missing or extra:
            raise TypeError(f"{self.expr} takes {', '.join(self._names)}; "
                            + (f"missing {', '.join(missing)}" if missing else "")
                            + ("; " if missing and extra else "")
                            + (f"unexpected {', '.join(extra)}" if extra else ""))
        with np.errstate(divide="ignore", invalid="ignore"):
            result = self._f(*(np.asarray(values[n], dtype=float) for n in self._names))
        return out(result)

    def __repr__(self) -> str:
        return f"Numeric({self._expr if self._expr is not None else '<lazy>'})"


@lru_cache(maxsize=None)
def numeric(expr_or_builder) -> Numeric:
    """The cached numeric function of an expression (or of a zero-argument function returning one)."""
    return Numeric(expr_or_builder)


__all__ = ["Numeric", "numeric", "out"]
