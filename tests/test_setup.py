"""The two ways to install (pip via pyproject.toml, conda/Binder via environment.yml) must agree."""
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _name(req: str) -> str:
    return re.split(r"[<>=!~ \[;]", req.strip(), maxsplit=1)[0].lower().replace("_", "-")


def _pyproject_deps() -> dict[str, str]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    reqs = data["project"]["dependencies"] + data["project"]["optional-dependencies"]["test"]
    return {_name(r): r.replace(" ", "") for r in reqs}


def _conda_deps() -> dict[str, str]:
    deps, in_deps = {}, False
    for line in (ROOT / "environment.yml").read_text().splitlines():
        if line.startswith("dependencies:"):
            in_deps = True
            continue
        m = re.match(r"^  - ([A-Za-z0-9_.\-]+.*)$", line)   # top-level conda entries only (not pip:)
        if in_deps and m and not m.group(1).startswith("pip"):
            deps[_name(m.group(1))] = m.group(1).replace(" ", "")
    return deps


def test_environment_yml_names_the_same_dependencies_as_pyproject():
    py, conda = _pyproject_deps(), _conda_deps()
    conda.pop("python")
    assert set(py) == set(conda), f"only in pyproject: {set(py) - set(conda)}; only in environment.yml: {set(conda) - set(py)}"
    assert py == conda, "version bounds differ between pyproject.toml and environment.yml"


def test_environment_yml_installs_the_package_itself():
    text = (ROOT / "environment.yml").read_text()
    assert re.search(r"- pip:\n\s+- -e \.", text), "environment.yml must pip-install the course package"
    assert "conda-forge" in text


def test_python_floor_matches():
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert data["project"]["requires-python"] == ">=3.11"
    assert "python>=3.11" in (ROOT / "environment.yml").read_text()


def test_notebooks_are_committed_without_outputs():
    import json
    for nb_path in sorted(ROOT.glob("*/*.ipynb")):
        if ".venv" in nb_path.parts or ".ipynb_checkpoints" in nb_path.parts:
            continue
        nb = json.loads(nb_path.read_text(encoding="utf-8"))
        for cell in nb["cells"]:
            if cell["cell_type"] == "code":
                assert not cell.get("outputs"), f"{nb_path.name} has stored outputs"
                assert cell.get("execution_count") is None, f"{nb_path.name} has execution counts"
