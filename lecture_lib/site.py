"""The course as a static site: every notebook and solution executed and rendered to HTML, offline.

    make html                              (or: python -m lecture_lib site --out site)
    python -m lecture_lib site --only 08   just the pages whose name starts with 08 (and the index)
    python -m lecture_lib site --check     check an existing site's links and images; exit 1 if any break

Layout (mirrors the repository, so the notebooks' relative links keep working):
    site/index.html                 the course title, the lecture's chapters with video timestamps,
                                    and every page with the part of the lecture it covers
    site/notebooks/NAME.html        one page per notebook in notebooks/
    site/solutions/NAME.html        one page per worked solution in solutions/

Each notebook is run top to bottom in a fresh kernel (nbclient; figures drawn inline), then rendered
with nbconvert's own "lab" template; figures are embedded in the page. An explorer shows its initial
figure: its display carries the PNG beside the widget (explorers/base.py), and the page uses the PNG.
Any other widget becomes a one-line note. Links to another notebook become links to its page; a link
to something the site does not hold (my_work/, exercises/) keeps its text and loses the link. No
script, style sheet or font is fetched from the network, at build time or when the page is read;
formulas stay as TeX source (MathJax needs a network).
"""
from __future__ import annotations

import copy
import html
import os
import re
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

from . import lecture

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("notebooks", "solutions")
WIDGET = "application/vnd.jupyter.widget-view+json"
WIDGET_NOTE = ("*(An interactive widget: run this notebook in JupyterLab, `make lab`, or on Binder "
               "to use it.)*")


def sources(only: list[str] | None = None, root: Path = ROOT) -> list[Path]:
    """The notebooks the site is built from, in folder and name order (`only`: name prefixes)."""
    found = [p for folder in FOLDERS for p in sorted((root / folder).glob("*.ipynb"))]
    if only:
        found = [p for p in found if any(p.stem.startswith(o) for o in only)]
    return found


def page_path(src: Path, root: Path = ROOT) -> Path:
    """Where a notebook's page lives in the site, relative to the site's root."""
    return src.relative_to(root).with_suffix(".html")


# --- one page ----------------------------------------------------------------------------------------
def execute(src: Path, timeout: int = 600):
    """Run a notebook in a fresh kernel in its own folder; return the executed notebook. A failing cell
    does not stop it (the page shows the error; `errors(nb)` lists them)."""
    import nbformat
    from nbclient import NotebookClient
    nb = nbformat.read(src, as_version=4)
    saved = os.environ.pop("MPLBACKEND", None)     # the kernel must draw inline (Agg would show nothing)
    try:
        NotebookClient(nb, timeout=timeout, kernel_name="python3", store_widget_state=False, allow_errors=True,
                       resources={"metadata": {"path": str(src.parent)}}).execute()
    finally:
        if saved is not None:
            os.environ["MPLBACKEND"] = saved
    return nb


def errors(nb) -> list[str]:
    """'ename: evalue' of every error output in an executed notebook."""
    return [f"{o.get('ename')}: {o.get('evalue', '')}".strip() for c in nb.cells if c.cell_type == "code"
            for o in c.get("outputs", []) if o.get("output_type") == "error"]


def static_outputs(nb):
    """Widgets replaced by what a page can show: an explorer's PNG, or a note for any other widget."""
    nb = copy.deepcopy(nb)
    nb.metadata.pop("widgets", None)
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            if WIDGET in data:
                del data[WIDGET]
                if not any(k.startswith("image/") for k in data):
                    data.clear()
                    data["text/markdown"] = WIDGET_NOTE
    return nb


_LINK = re.compile(r'(href|src)="([^"#?]+)((?:[?#][^"]*)?)"')


def rewrite_links(page_html: str, page_rel: Path, planned: set[Path]) -> str:
    """X.ipynb -> X.html where that page exists (or is planned); links to anything else the site
    lacks are unlinked (their text stays)."""
    def fix(m):
        attr, target, tail = m.group(1), m.group(2), m.group(3)
        if _external(target):
            return m.group(0)
        resolved = _resolve(page_rel, target)
        if target.endswith(".ipynb") and resolved.with_suffix(".html") in planned:
            return f'{attr}="{target[:-len(".ipynb")]}.html{tail}"'
        if resolved in planned:
            return m.group(0)
        return 'data-unlinked="' + html.escape(target) + '"' if attr == "href" else m.group(0)
    return _LINK.sub(fix, page_html)


def render(nb, title: str) -> str:
    """An executed notebook as one self-contained HTML page (nbconvert's lab template, offline)."""
    from nbconvert import HTMLExporter
    exporter = HTMLExporter(template_name="lab", embed_images=True)
    body, _ = exporter.from_notebook_node(static_outputs(nb), resources={"metadata": {"name": title}})
    # nbconvert points MathJax and require.js at a CDN: drop those scripts (formulas stay TeX source)
    body = re.sub(r'<script[^>]*src="https?://[^"]*"[^>]*>\s*</script>', "", body)
    body = re.sub(r'<script type="text/x-mathjax-config">.*?</script>', "", body, flags=re.S)
    # ... and imports Mermaid from one when a page has a diagram (ours have none): drop any script
    # whose code fetches from the network
    body = re.sub(r"<script\b[^>]*>(?:(?!</script>).)*?https?://(?:(?!</script>).)*?</script>", "", body, flags=re.S)
    return body


# --- the index ---------------------------------------------------------------------------------------
_CSS = """body{font:16px/1.5 system-ui,sans-serif;max-width:58rem;margin:2rem auto;padding:0 1rem;color:#222}
table{border-collapse:collapse}td,th{padding:.25rem .75rem;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}
a{color:#0550ae}.muted{color:#777}"""


def index_html(built: set[Path]) -> str:
    """The index: title, the lecture's chapters (video timestamps), and the pages in lecture order."""
    esc = html.escape
    rows = []
    listed = set()
    for nb in lecture.NOTEBOOKS:
        page = Path("notebooks") / Path(nb.file).with_suffix(".html")
        sol = Path("solutions") / page.name
        span = "–" if nb.start_s is None else (
            f'<a href="{lecture.video_url(nb.start_s)}">{lecture.timestamp(nb.start_s)}</a>'
            f"–{lecture.timestamp(nb.end_s)}")
        name = (f'<a href="{page.as_posix()}">{esc(Path(nb.file).stem)}</a>' if page in built
                else f'{esc(Path(nb.file).stem)} <span class="muted">(in preparation)</span>')
        solution = f'<a href="{sol.as_posix()}">solution</a>' if sol in built else ""
        rows.append(f"<tr><td>{name}</td><td>{span}</td><td>{esc(nb.topic)}</td><td>{solution}</td></tr>")
        listed |= {page, sol}
    for page in sorted(built - listed):          # a page the lecture table does not know yet
        rows.append(f'<tr><td><a href="{page.as_posix()}">{esc(page.stem)}</a></td><td>–</td>'
                    f'<td class="muted">{esc(page.parent.name)}</td><td></td></tr>')
    chapters = "".join(
        f'<tr><td>{c.number}</td><td><a href="{lecture.video_url(c.start_s)}">{lecture.timestamp(c.start_s)}</a>'
        f"</td><td>{esc(c.title)}</td></tr>" for c in lecture.CHAPTERS)
    title = esc(lecture.COURSE_TITLE)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title><style>{_CSS}</style></head>
<body>
<h1>{title}</h1>
<p>A rendered, read-only copy of the course: every notebook run top to bottom, with its figures. The
explorers show their first figure; to move their sliders, run the course in JupyterLab (<code>make lab</code>).
The lecture: <a href="{lecture.video_url(0)}">Reiner Pope, “The math behind how LLMs are trained and served”</a>.</p>
<h2>The lecture's chapters</h2>
<table><tr><th>#</th><th>starts</th><th>chapter</th></tr>{chapters}</table>
<h2>The notebooks</h2>
<table><tr><th>notebook</th><th>lecture</th><th>topic</th><th></th></tr>{"".join(rows)}</table>
</body></html>
"""


# --- build and check ---------------------------------------------------------------------------------
def build(out: Path | str = ROOT / "site", only: list[str] | None = None, log=print,
          failed: dict | None = None) -> list[Path]:
    """Execute and render the pages (all, or those named by `only`) and the index into `out`.
    A notebook with an error still gets its page (error shown); `failed` collects {page: errors}."""
    out = Path(out)
    srcs = sources(only)
    planned = {page_path(p) for p in sources()}
    built = set()
    for src in srcs:
        rel = page_path(src)
        log(f"  {rel}")
        nb = execute(src)
        errs = errors(nb)
        if errs:
            log(f"    error in {src.relative_to(ROOT)}: {'; '.join(errs)[:300]}")
            if failed is not None:
                failed[rel] = errs
        page = rewrite_links(render(nb, src.stem), rel, planned)
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_text(page, encoding="utf-8")
        built.add(rel)
    (out / "index.html").write_text(index_html(built), encoding="utf-8")
    return sorted(built)


def _external(url: str) -> bool:
    return bool(urlsplit(url).scheme) or url.startswith("//") or url.startswith("#")


def _resolve(page_rel: Path, target: str) -> Path:
    parts = list(page_rel.parent.parts)
    for part in Path(unquote(target)).parts:
        if part == "..":
            if parts:
                parts.pop()
        elif part != ".":
            parts.append(part)
    return Path(*parts) if parts else Path(".")


class _Refs(HTMLParser):
    def __init__(self):
        super().__init__()
        self.refs = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if value and ((tag == "a" and name == "href") or (tag in ("img", "script", "link", "source")
                                                               and name in ("src", "href"))):
                self.refs.append((tag, value))


def check(site: Path | str, planned: set[Path] | None = None) -> list[str]:
    """Broken internal links and images in `site` ([] when every one resolves). A network address in
    a script, style sheet or image is a break too (the site must work offline). `planned`: pages a
    partial build may link to that a full build would hold."""
    site = Path(site)
    broken = []
    for page in sorted(site.rglob("*.html")):
        rel = page.relative_to(site)
        parser = _Refs()
        text = page.read_text(encoding="utf-8")
        parser.feed(text)
        for script in re.findall(r"<script\b[^>]*>(.*?)</script>", text, flags=re.S):
            for url in re.findall(r"https?://[^\s\"'`)]+", script):
                broken.append(f"{rel}: a script fetches {url} from the network")
        for tag, url in parser.refs:
            if url.startswith("data:"):
                continue
            if _external(url):
                if tag != "a" and not url.startswith("#"):
                    broken.append(f"{rel}: <{tag}> loads {url} from the network")
                continue
            target = _resolve(rel, urlsplit(url).path)
            if not (site / target).exists() and target not in (planned or set()):
                broken.append(f"{rel}: <{tag}> {url} -> {target} does not exist")
    return broken


def add_arguments(parser) -> None:
    parser.add_argument("--out", default=str(ROOT / "site"), help="the site's folder (default: site/)")
    parser.add_argument("--only", nargs="*", help="build only the pages whose names start with these")
    parser.add_argument("--check", action="store_true", help="only check an existing site's links")


def main(args) -> int:
    out = Path(args.out)
    if not args.check:
        print(f"building {out}/ (each notebook runs in a fresh kernel):")
        failed = {}
        pages = build(out, args.only, failed=failed)
        print(f"{len(pages)} pages and index.html in {out}/")
        if failed:
            print(f"{len(failed)} notebook(s) raised an error (shown on their pages): "
                  + ", ".join(p.as_posix() for p in failed), file=sys.stderr)
    broken = check(out, {page_path(p) for p in sources()} if args.only else None)
    for line in broken:
        print(line, file=sys.stderr)
    print(f"links and images: {'all resolve' if not broken else f'{len(broken)} broken'}")
    return 1 if broken or (not args.check and failed) else 0
