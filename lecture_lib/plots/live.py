"""LivePlot: a matplotlib Figure whose data artists update in place and render to PNG fast.

Explorers must answer a slider move within ~100 ms on a 2-core laptop. A full Agg draw of a log-log
figure with a legend costs 30-60 ms there, so a LivePlot draws the static part (axes, ticks, labels,
legend) once, keeps it as a bitmap, and on each render only restores that bitmap and draws the
*dynamic* artists (lines, markers, labels that move). The static part is redrawn only when it
changes: axis limits, scales, titles, axis labels or legend texts (see `static_key`).

Subclass pattern (see plots/roofline.py):

    class MyPlot(LivePlot):
        def __init__(self, **params):
            super().__init__()
            self.ax = self.figure.add_subplot()
            (self.line,) = self.ax.plot([], [], label="...")
            self.dynamic(self.line)           # artists that change on update()
            self.update(**params)
        def update(self, **params):           # compute with the library, then set_data / set_ylim
            ...; return self

`render_png()` returns PNG bytes; `_repr_png_` lets a notebook display the object directly.
The Figure is a plain `matplotlib.figure.Figure` (no pyplot, no global state); `fig.savefig` works.
"""
from __future__ import annotations

import io
import textwrap

import numpy as np
from matplotlib.patches import Rectangle
from matplotlib.ticker import FuncFormatter, NullLocator
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from PIL import Image

from ..units import fmt

FIGSIZE = (7.2, 3.9)   # inches; at 100 dpi a 720 x 390 px PNG
DPI = 100


class LivePlot:
    """A Figure plus the list of its dynamic artists; renders by blitting over a cached background."""

    def __init__(self, figsize=FIGSIZE, dpi=DPI):
        self.figure = Figure(figsize=figsize, dpi=dpi)
        self.canvas = FigureCanvasAgg(self.figure)
        self._dynamic: list = []
        self._chrome: list = []          # static artists drawn once and pasted afterwards
        self._chrome_regions = None
        self._background = None
        self._background_key = None
        self.state: dict = {}        # the numbers behind the picture, for tests and readers
        self.warning = ""            # a non-fatal note for the reader (e.g. "weights do not fit")
        self.message = self.figure.text(0.5, 0.5, "", ha="center", va="center", fontsize=10,
                                        color="#a00", zorder=10,
                                        bbox=dict(facecolor="white", edgecolor="#a00", pad=6))
        # while a message shows, a white sheet over the whole figure hides the empty axes and the
        # legends (blitted like the data: no full redraw), and the box sits on it
        self._sheet = Rectangle((0, 0), 1, 1, transform=self.figure.transFigure, facecolor="white",
                                edgecolor="none", zorder=9, visible=False)
        self.figure.add_artist(self._sheet)
        self._message_on = False
        self.dynamic(self._sheet, self.message)

    # --- building -------------------------------------------------------------------------------
    def dynamic(self, *artists):
        """Register artists that change on update(); returns the first one for convenience."""
        self._dynamic.extend(artists)
        return artists[0] if artists else None

    def chrome(self, *artists):
        """Register static artists that sit OUTSIDE the axes and never change (a legend beside the
        axes, a title with a fixed position). They are drawn once; later full redraws (after a limit
        change) skip them and paste their pixels back, which saves a third of a full draw."""
        self._chrome.extend(artists)
        return artists[0] if artists else None

    def static_key(self) -> tuple:
        """What the cached background depends on; a change forces a full redraw."""
        key = [tuple(self.figure.get_size_inches())]
        for ax in self.figure.axes:
            key += [ax.get_xlim(), ax.get_ylim(), ax.get_xscale(), ax.get_yscale(),
                    *(ax.get_title(loc=loc) for loc in ("left", "center", "right")),
                    ax.get_xlabel(), ax.get_ylabel()]
            legend = ax.get_legend()
            if legend is not None:
                key += [t.get_text() for t in legend.get_texts()]
        key += [t.get_text() for t in self.figure.texts if t not in self._dynamic]
        return tuple(key)

    # --- messages (invalid parameter combinations) ----------------------------------------------
    def show_message(self, text: str):
        """Hide the data, axes and legends under a white sheet and show `text` in a box over the axes
        (used when parameters are invalid). The text is wrapped to fit the axes (all of them together), so the
        box is never clipped."""
        boxes = [ax.get_position().extents for ax in self.figure.axes] or [(0.05, 0.05, 0.95, 0.95)]
        x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
        x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
        width_px = (x1 - x0) * self.figure.get_figwidth() * self.figure.dpi
        char_px = 0.6 * self.message.get_fontsize() * self.figure.dpi / 72     # average glyph width
        chars = max(20, int(0.9 * width_px / char_px))
        self.message.set_text("\n".join(textwrap.wrap(text, chars)) or text)
        self.message.set_position(((x0 + x1) / 2, (y0 + y1) / 2))
        self._message_on = True
        self._sheet.set_visible(True)
        self.state = {"error": text}

    def clear_message(self):
        self.message.set_text("")
        self._message_on = False
        self._sheet.set_visible(False)

    # --- rendering ------------------------------------------------------------------------------
    def _visible_dynamic(self):
        if self._message_on:
            return [self._sheet, self.message]
        return [a for a in self._dynamic if a not in (self.message, self._sheet) and a.get_visible()]

    def render_png(self) -> bytes:
        """The figure as PNG bytes (what an explorer displays); fast when only data changed."""
        key = self.static_key()
        for a in self._dynamic:
            a.set_animated(True)        # animated artists are left out of canvas.draw()
        try:
            if key != self._background_key:
                self._full_draw()
                self._background = self.canvas.copy_from_bbox(self.figure.bbox)
                self._background_key = key
            else:
                self.canvas.restore_region(self._background)
            renderer = self.canvas.get_renderer()
            for a in self._visible_dynamic():
                a.draw(renderer)
        finally:
            for a in self._dynamic:
                a.set_animated(False)   # so a plain figure.savefig() still shows everything
        w, h = self.canvas.get_width_height(physical=True)
        buf = io.BytesIO()
        image = Image.frombuffer("RGBA", (w, h), self.canvas.buffer_rgba(), "raw", "RGBA", 0, 1)
        image.convert("RGB").save(buf, format="png", compress_level=1)   # opaque figure: RGB is smaller
        return buf.getvalue()

    def _full_draw(self):
        if self._chrome_regions is None:
            self.canvas.draw()
            renderer = self.canvas.get_renderer()
            self._chrome_regions = [self.canvas.copy_from_bbox(a.get_window_extent(renderer).padded(2))
                                    for a in self._chrome]
            return
        for a in self._chrome:
            a.set_visible(False)
        try:
            self.canvas.draw()
        finally:
            for a in self._chrome:
                a.set_visible(True)
        for region in self._chrome_regions:
            self.canvas.restore_region(region)

    def _repr_png_(self) -> bytes:
        return self.render_png()


def decade_limits(values, max_decades: float = 7.0) -> tuple[float, float]:
    """Log-axis limits snapped to powers of ten around the positive finite `values`.

    Snapping keeps the limits (and so the cached background) unchanged for most slider moves.
    At most `max_decades` decades are shown, counted down from the largest value.
    """
    v = np.asarray(values, dtype=float).ravel()
    v = v[np.isfinite(v) & (v > 0)]
    if v.size == 0:
        return 1e-3, 1.0
    hi = 10.0 ** np.ceil(np.log10(v.max()) - 1e-9)
    lo = 10.0 ** np.floor(np.log10(v.min()) + 1e-9)
    lo = max(lo, hi / 10.0 ** max_decades)
    if lo >= hi:
        lo = hi / 10.0
    return float(lo), float(hi)


def sticky_log_limits(current, values, max_decades: float = 7.0, slack: float = 2.0):
    """decade_limits(values), but keep `current` limits while they still hold the data with at most
    `slack` spare decades: fewer limit changes mean fewer full redraws when a slider moves."""
    lo, hi = decade_limits(values, max_decades)
    if current is not None:
        c_lo, c_hi = current
        if c_lo <= lo and hi <= c_hi and np.log10(c_hi / c_lo) - np.log10(hi / lo) <= slack:
            return float(c_lo), float(c_hi)
    return lo, hi


def tick_label(value, pos=None) -> str:
    """Plain tick labels for log axes ('0.01', '1', '10k', '1M'): easier to read than 10^k, and
    cheaper to draw than mathtext."""
    if value >= 1000:
        return fmt(value)
    return f"{value:g}"


def log_axes(ax, xlim=None, ylim=None):
    """Both axes log, with fixed limits where given, plain major tick labels (`tick_label`) and no minor
    ticks (they cost ~40% of a log-log draw): the usual set-up of a LivePlot's log-log axes."""
    ax.set_xscale("log")
    ax.set_yscale("log")
    if xlim is not None:
        ax.set_xlim(*xlim)
    if ylim is not None:
        ax.set_ylim(*ylim)
    for axis in (ax.xaxis, ax.yaxis):
        axis.set_minor_locator(NullLocator())
        axis.set_major_formatter(FuncFormatter(tick_label))


def positive(values) -> np.ndarray:
    """Copy of `values` with non-positive entries as NaN, so a log axis leaves them out."""
    out = np.array(values, dtype=float, copy=True, ndmin=1)
    out[~(out > 0)] = np.nan
    return out

def static_figure(figsize=(6.6, 3.9)) -> Figure:
    """A pyplot-free Figure (100 dpi) that also displays in Jupyter without `%matplotlib inline`."""
    fig = Figure(figsize=figsize, dpi=100)
    FigureCanvasAgg(fig)

    def _repr_png_():
        buf = io.BytesIO()
        fig.savefig(buf, format="png")
        return buf.getvalue()

    fig._repr_png_ = _repr_png_
    return fig
