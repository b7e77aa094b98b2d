"""lecture_lib: every formula and every number of the course, in one small library.

    from lecture_lib import hardware, models, roofline, training, prices, units, notation
"""
from . import hardware, models, notation, prices, roofline, training, units  # noqa: F401
from . import balance, fastmode, formula, moe, queueing, routing, traffic  # noqa: F401
from . import mixing  # noqa: F401
from . import pipeline  # noqa: F401
from . import deployments, memory  # noqa: F401
from .units import fmt  # noqa: F401

__version__ = "0.1.0"
