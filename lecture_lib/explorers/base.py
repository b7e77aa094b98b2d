"""The Explorer base class: controls (ipywidgets) mapped onto one LivePlot, thinly.

An explorer is a plot (lecture_lib.plots, a LivePlot subclass with `update(**params)`) plus one
control per parameter. Moving a control calls `plot.update(**values)` with every control's value,
renders the PNG and puts it in an Image widget. No arithmetic lives here: the plot asks the formula
modules, which own every number.

To write one (chapter 2 does exactly this):

    class BalanceExplorer(Explorer):
        title = "Balance batch across chip generations"
        plot_class = BalancePlot                       # a LivePlot; its update() takes the names below
        def make_controls(self):
            return {"hw": dropdown(hardware.names(), "GB200-NVL72", "system"),
                    "weight_dtype": dropdown(["fp4", "fp8", "bf16"], "fp8", "weights")}

then add one line to explorers/__init__.py:  REGISTRY["balance_batch"] = BalanceExplorer

The plot's side of the contract (LivePlot gives all but update): `update(**params)` raises ValueError
or KeyError for an invalid combination (the explorer then shows the message instead of the data) and
may set `plot.warning` to a non-fatal note; `plot.state` holds the numbers behind the picture.

What tests and the benchmark use:
    ex.controls      {parameter name: ipywidget}; set `.value` to drive the explorer headlessly
    ex.figure        the matplotlib Figure;  ex.plot the LivePlot (its `.lines`, `.state`)
    ex.state         the numbers behind the current picture (plot.state; {"error": ...} if invalid)
    ex.error         the message shown for an invalid combination, else ""
    ex.render_png()  PNG bytes of the current figure (what the notebook shows)
    ex.bench_steps() [(control name, value), ...]: the benchmark's control changes
    ex.widget        the displayable box: controls, a message line, the picture
"""
from __future__ import annotations

import html

import ipywidgets as widgets

from .. import hardware, models
from ..units import fmt

_STYLE = {"description_width": "initial"}


# --- control factories (keep explorers short and alike) ----------------------------------------------
def dropdown(options, value, description):
    return widgets.Dropdown(options=list(options), value=value, description=description, style=_STYLE,
                            layout=widgets.Layout(width="max-content", margin="2px 12px 2px 0"))


def choice_slider(options, value, description):
    """A slider over labelled values: options = [(label, value), ...]."""
    return widgets.SelectionSlider(options=list(options), value=value, description=description,
                                   style=_STYLE, continuous_update=False)


def range_slider(options, value, description):
    """A two-handle slider over labelled values; value is a (low, high) pair of option values."""
    return widgets.SelectionRangeSlider(options=list(options), value=value, description=description,
                                        style=_STYLE, continuous_update=False)


def float_slider(value, lo, hi, step, description):
    return widgets.FloatSlider(value=value, min=lo, max=hi, step=step, description=description,
                               style=_STYLE, continuous_update=False)


#: number formats the explorers offer, narrowest first
DTYPES = ["fp4", "fp8", "bf16"]


def labelled(values, unit: str = "") -> list[tuple[str, object]]:
    """[(label, value), ...] for a slider: each value formatted with `fmt` (and `unit`)."""
    return [(fmt(v, unit), v) for v in values]


def system_model_controls(defaults: dict) -> dict:
    """System, model and the two number formats: the controls every roofline-type explorer shares.

    defaults: {"hw": ..., "model": ..., "weight_dtype": ..., "kv_dtype": ...}.
    """
    return {
        "hw": dropdown(hardware.names(), defaults["hw"], "system"),
        "model": dropdown(models.names(), defaults["model"], "model"),
        "weight_dtype": dropdown(DTYPES, defaults["weight_dtype"], "weights"),
        "kv_dtype": dropdown(DTYPES, defaults["kv_dtype"], "KV cache"),
    }


class Explorer:
    """Base class of every interactive explorer. Subclasses set `plot_class` (or define `make_plot`) and define `make_controls`."""

    title = ""

    def __init__(self, **values):
        self.plot = self.make_plot()
        self.controls: dict = self.make_controls()
        for name, value in values.items():           # starting values, e.g. Explorer(context=10_000)
            self.controls[name].value = value
        self.message = widgets.HTML()
        # shown at the figure's own pixel size (not stretched to the cell width, which blurs it)
        w_px, _ = self.plot.canvas.get_width_height(physical=True)
        self.image = widgets.Image(format="png", layout=widgets.Layout(width=f"{w_px}px", max_width="100%",
                                                                       height="auto"))
        self.error = ""
        self.renders = 0
        for control in self.controls.values():
            control.observe(self._on_change, names="value")
        self.refresh()

    #: the LivePlot class this explorer drives (the default make_plot builds it with its defaults)
    plot_class = None

    # --- to override ------------------------------------------------------------------------------
    def make_plot(self):
        """Return the LivePlot this explorer drives: `plot_class()` unless overridden."""
        if self.plot_class is None:
            raise NotImplementedError(f"{type(self).__name__} sets neither plot_class nor make_plot")
        return self.plot_class()

    def make_controls(self) -> dict:
        """Return {parameter name of plot.update: ipywidget}."""
        raise NotImplementedError

    def draw(self, **values):
        """Map control values to the plot; the default passes them straight to plot.update."""
        self.plot.update(**values)

    # --- behaviour ----------------------------------------------------------------------------------
    @property
    def figure(self):
        return self.plot.figure

    @property
    def state(self) -> dict:
        return self.plot.state

    def values(self) -> dict:
        return {name: control.value for name, control in self.controls.items()}

    def refresh(self) -> bytes:
        """Redraw for the current control values; invalid combinations show a message, never raise."""
        try:
            self.draw(**self.values())
            self.error = ""
            note = self.plot.warning
            self.message.value = f"<span style='color:#8a5a00'>⚠ {html.escape(note)}</span>" if note else ""
        except (ValueError, KeyError, TypeError) as exc:
            self.error = str(exc)
            self.plot.show_message(self.error)
            self.message.value = f"<span style='color:#a00'>✖ {html.escape(self.error)}</span>"
        png = self.render_png()
        self.image.value = png
        self.renders += 1
        return png

    def _on_change(self, change):
        self.refresh()

    def render_png(self) -> bytes:
        return self.plot.render_png()

    def bench_steps(self, n: int = 24) -> list[tuple[str, object]]:
        """n control changes for the benchmark: each control in turn walks through a few of its values.

        Every step changes a value (so each one triggers a render). Override to choose other steps.
        """
        walks = {}
        for name, control in self.controls.items():
            options = getattr(control, "options", None)
            if isinstance(control, widgets.SelectionRangeSlider):
                vals = [v for _, v in control.options] if isinstance(control.options[0], tuple) else list(control.options)
                k = len(vals)
                walk = [(vals[0], vals[k // 2]), (vals[k // 4], vals[-1]), (vals[k // 3], vals[2 * k // 3])]
            elif options is not None:
                vals = [o[1] if isinstance(o, tuple) else o for o in options]
                walk = vals[:: max(1, len(vals) // 4)][:4]
            else:
                walk = [control.min + (control.max - control.min) * f for f in (0.2, 0.8, 0.5)]
            walk = [v for v in walk if v != control.value] + [control.value]
            walks[name] = walk
        steps = []
        while len(steps) < n:          # every control at least once, then again until n steps
            for name, walk in walks.items():
                steps.extend((name, v) for v in walk)
        return steps

    @property
    def widget(self):
        """Controls on top (wrapping), the message line, then the picture."""
        if not hasattr(self, "_widget"):
            box = widgets.Box(list(self.controls.values()),
                              layout=widgets.Layout(flex_flow="row wrap"))
            parts = [box, self.message, self.image]
            if self.title:
                parts.insert(0, widgets.HTML(f"<b>{html.escape(self.title)}</b>"))
            self._widget = widgets.VBox(parts)
        return self._widget

    def _repr_mimebundle_(self, include=None, exclude=None):
        """The live widget (JupyterLab picks it) plus the current picture as image/png, the static
        fallback that nbconvert's HTML (`make html`), GitHub and an untrusted notebook show."""
        import base64
        bundle = dict(self.widget._repr_mimebundle_() or {})
        bundle["image/png"] = base64.b64encode(bytes(self.image.value)).decode("ascii")
        return bundle
