"""How an answer leaves a student's kernel: `encode` there, `decode` in the grader.

The grader never asks a submission's kernel whether an answer is right. After the cell that checks a
problem has run, it asks the kernel for the VALUE of the checked variable, through the
`user_expressions` field of a Jupyter execute request (the value comes back in the kernel's reply on
the shell channel, not in any cell output, so nothing a notebook prints can pose as it). The kernel
evaluates

    __import__('lecture_lib.practice.capture', fromlist=['encode']).encode(answer)

and returns the repr of a JSON string. A kernel that patches this module, `check()`, or anything else
can change WHICH value is sent, and nothing more: the grader reads the reply with `ast.literal_eval`
(a string literal, nothing else), parses the JSON, rebuilds the value from a short whitelist of types
(numbers, strings, a SymPy tree of known node types, placeholders for containers) and then judges it
in its own process. No `eval`, no pickle, no `sympify` of student text.

Encoded forms, {"t": kind, ...}:
  ellipsis | none | bool v | int v (decimal text: 10**400 survives) | float v (repr text, also
  nan/inf) | complex re im | str v (at most MAX_STR characters) | sympy tree | container type n
  (list/tuple/set/dict/array: its length, enough for check()'s messages) | other type (its name).
A SymPy tree is [node, args...] with node one of SYMPY_NODES, or ["Symbol", name],
["Integer", "123"], ["Rational", "p", "q"], ["Float", "1.5"], ["S", "Pi"], ["Function", "f", args...] (an undefined function applied).
"""
from __future__ import annotations

import json
import numbers
import re

MAX_STR = 1000            # characters of a string answer kept
MAX_TEXT = 200_000        # characters of encoded JSON the grader accepts
MAX_NODES = 2_000         # nodes of a SymPy tree
MAX_INT_DIGITS = 400      # digits of an integer inside a SymPy tree (10**400 as a plain int is fine)
MAX_POW_EXP = 1_000       # |integer exponent| of a Pow: 10**(10**9) would hang the grader

#: SymPy node types a symbolic answer may be built from (enough for every formula of the course)
SYMPY_NODES = ("Add", "Mul", "Pow", "Max", "Min", "Abs", "exp", "log", "sqrt", "Equality",
               "floor", "ceiling", "sin", "cos", "tan")
#: singleton constants, ["S", name]
SYMPY_CONSTANTS = ("Pi", "Exp1", "Half", "One", "Zero", "NegativeOne", "Infinity", "NegativeInfinity",
                   "NaN", "ComplexInfinity", "ImaginaryUnit", "EulerGamma")


class Unreadable(ValueError):
    """An encoded answer the grader will not rebuild (too big, unknown node, malformed)."""


# --- in the kernel ---------------------------------------------------------------------------------
def _sympy_tree(expr, budget):
    import sympy
    budget[0] -= 1
    if budget[0] < 0:
        raise Unreadable(f"a SymPy expression of more than {MAX_NODES} nodes")
    if isinstance(expr, sympy.Symbol):
        return ["Symbol", expr.name]
    if isinstance(expr, sympy.Integer):
        return ["Integer", str(int(expr))]
    if isinstance(expr, sympy.Rational):
        return ["Rational", str(expr.p), str(expr.q)]
    if isinstance(expr, sympy.Float):
        return ["Float", str(expr)]
    for name in SYMPY_CONSTANTS:
        if expr is getattr(sympy.S, name, None):
            return ["S", name]
    if isinstance(expr, sympy.core.function.AppliedUndef):       # f(b) with f = sympy.Function("f")
        return ["Function", expr.func.__name__] + [_sympy_tree(a, budget) for a in expr.args]
    name = type(expr).__name__
    if name not in SYMPY_NODES:
        raise Unreadable(f"a SymPy {name}")
    return [name] + [_sympy_tree(a, budget) for a in expr.args]


def _encode(value) -> dict:
    if value is Ellipsis:
        return {"t": "ellipsis"}
    if value is None:
        return {"t": "none"}
    if isinstance(value, bool):
        return {"t": "bool", "v": value}
    if isinstance(value, str):
        return {"t": "str", "v": value[:MAX_STR]}
    try:
        import sympy
        if isinstance(value, sympy.Basic):
            try:
                return {"t": "sympy", "tree": _sympy_tree(value, [MAX_NODES])}
            except Unreadable as exc:
                return {"t": "other", "type": str(exc)}
    except ImportError:  # pragma: no cover
        pass
    if isinstance(value, numbers.Integral) and not hasattr(value, "shape"):
        return {"t": "int", "v": str(int(value))}
    if isinstance(value, complex):
        return {"t": "complex", "re": repr(value.real), "im": repr(value.imag)}
    if isinstance(value, (list, tuple, set, frozenset, dict)):
        return {"t": "container", "type": type(value).__name__, "n": len(value)}
    shape = getattr(value, "shape", None)
    if shape is not None and shape != ():
        n = 1
        for s in shape:
            n *= int(s)
        return {"t": "container", "type": "array", "n": n}
    try:
        x = float(value)          # numpy scalars, 0-d arrays, Decimal, Fraction
    except (TypeError, ValueError, OverflowError):
        try:
            c = complex(value)
            return {"t": "complex", "re": repr(c.real), "im": repr(c.imag)}
        except (TypeError, ValueError, OverflowError):
            return {"t": "other", "type": type(value).__name__}
    return {"t": "float", "v": repr(x)}


def encode(value) -> str:
    """JSON text for `value` (runs in the student's kernel; see the module docstring)."""
    try:
        return json.dumps(_encode(value))
    except Exception as exc:          # a value whose __float__ / __len__ raises, say
        return json.dumps({"t": "other", "type": f"{type(value).__name__} ({type(exc).__name__})"})


# --- in the grader ---------------------------------------------------------------------------------
class Other:
    """A value of a kind no problem accepts; check() describes it by its type name."""

    def __repr__(self):
        return f"<{type(self).__name__}>"


def _other(type_name: str) -> Other:
    """An Other whose class is called like the student's value's type (for check()'s messages)."""
    name = re.sub(r"\W+", "_", type_name)[:40] or "value"
    return type(name if name[0].isalpha() else "value", (Other,), {})()


def _container(type_name: str, n: int):
    n = max(0, min(int(n), 1000))
    if type_name == "dict":
        return {i: 0 for i in range(n)}
    if type_name in ("set", "frozenset"):
        return set(range(n))
    if type_name == "tuple":
        return tuple([0] * n)
    return [0] * n         # list, array: check() only needs the length


def _float(text) -> float:
    if not isinstance(text, str) or len(text) > 40:
        raise Unreadable("a malformed number")
    try:
        return float(text)     # accepts 'nan', 'inf', '1e+300': all plain floats
    except ValueError:
        raise Unreadable("a malformed number") from None


def _rebuild_sympy(tree, budget):
    import sympy
    budget[0] -= 1
    if budget[0] < 0:
        raise Unreadable(f"a SymPy expression of more than {MAX_NODES} nodes")
    if not isinstance(tree, list) or not tree or not isinstance(tree[0], str):
        raise Unreadable("a malformed SymPy tree")
    node, args = tree[0], tree[1:]
    if node == "Symbol":
        if len(args) != 1 or not isinstance(args[0], str) or not args[0].isidentifier():
            raise Unreadable("a malformed symbol")
        return sympy.Symbol(args[0])
    if node in ("Integer", "Rational"):
        if not all(isinstance(a, str) and len(a.lstrip("-")) <= MAX_INT_DIGITS
                   and a.lstrip("-").isdigit() for a in args) or len(args) != (1 if node == "Integer" else 2):
            raise Unreadable("a malformed or too long integer")
        return sympy.Integer(int(args[0])) if node == "Integer" else sympy.Rational(int(args[0]), int(args[1]))
    if node == "Float":
        return sympy.Float(_float(args[0] if len(args) == 1 else None))
    if node == "Function":
        if not args or not isinstance(args[0], str) or not args[0].isidentifier():
            raise Unreadable("a malformed function")
        return sympy.Function(args[0])(*[_rebuild_sympy(a, budget) for a in args[1:]])
    if node == "S":
        if len(args) != 1 or args[0] not in SYMPY_CONSTANTS:
            raise Unreadable("an unknown SymPy constant")
        return getattr(sympy.S, args[0])
    if node not in SYMPY_NODES:
        raise Unreadable(f"a SymPy {str(node)[:40]}")
    built = [_rebuild_sympy(a, budget) for a in args]
    if node == "Pow":
        if len(built) != 2:
            raise Unreadable("a malformed power")
        if built[1].is_Integer and abs(int(built[1])) > MAX_POW_EXP:
            raise Unreadable(f"a power with an exponent above {MAX_POW_EXP}")
        return sympy.Pow(*built, evaluate=False)
    if node in ("Add", "Mul"):
        return getattr(sympy, node)(*built, evaluate=False)
    if node == "Equality":
        if len(built) != 2:
            raise Unreadable("a malformed equation")
        return sympy.Eq(*built, evaluate=False)
    if node == "sqrt":
        return sympy.sqrt(*built)
    return getattr(sympy, node)(*built)


def decode(text: str):
    """The value `encode` described, rebuilt from whitelisted types; Unreadable otherwise."""
    if not isinstance(text, str) or len(text) > MAX_TEXT:
        raise Unreadable("an answer too large to read")
    try:
        d = json.loads(text)
    except (ValueError, RecursionError):
        raise Unreadable("an answer the grader could not read") from None
    if not isinstance(d, dict):
        raise Unreadable("an answer the grader could not read")
    t = d.get("t")
    if t == "ellipsis":
        return Ellipsis
    if t == "none":
        return None
    if t == "bool":
        return bool(d.get("v"))
    if t == "str":
        v = d.get("v")
        if not isinstance(v, str):
            raise Unreadable("a malformed string")
        return v[:MAX_STR]
    if t == "int":
        v = d.get("v")
        if not isinstance(v, str) or len(v) > 5000 or not v.lstrip("-").isdigit():
            raise Unreadable("a malformed integer")
        return int(v)
    if t == "float":
        return _float(d.get("v"))
    if t == "complex":
        return complex(_float(d.get("re")), _float(d.get("im")))
    if t == "container":
        n = d.get("n")
        if not isinstance(n, int) or isinstance(n, bool):
            raise Unreadable("a malformed container")
        return _container(str(d.get("type")), n)
    if t == "sympy":
        try:
            return _rebuild_sympy(d.get("tree"), [MAX_NODES])
        except RecursionError:
            raise Unreadable("a SymPy expression nested too deeply") from None
        except Unreadable:
            raise
        except Exception as exc:       # SymPy refused the arguments
            raise Unreadable(f"a SymPy expression the grader could not rebuild ({type(exc).__name__})") from None
    if t == "other":
        return _other(str(d.get("type")))
    raise Unreadable("an answer of an unknown kind")
