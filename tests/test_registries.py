"""Registries: names from design.md exist, every figure has a dated source, KV bytes match hand arithmetic."""
import re

import pytest

from lecture_lib import hardware, models, prices
from lecture_lib.units import GB, TB

DESIGN_CHIPS = ["A100-80GB", "H100-SXM", "H800", "H200", "B200", "GB200", "GB300", "Rubin", "TPU-v4",
                "TPU-v5e", "TPU-v5p", "TPU-v6e", "TPU7x", "MI300X", "MI355X"]
DESIGN_SYSTEMS = {"HGX-H100": 8, "GB200-NVL72": 72, "GB300-NVL72": 72}
DESIGN_MODELS = ["Llama-3-8B", "Llama-3-70B", "Llama-3-405B", "Mixtral-8x7B", "Qwen2.5-72B",
                 "Qwen3-235B-A22B", "DeepSeek-V3", "Kimi-K2", "gpt-oss-120b", "PaLM-540B"]
DATE = re.compile(r"^\d{4}-\d{2}(-\d{2})?$")


def _valid(src):
    return src is not None and src.url.startswith("https://") and DATE.match(src.as_of) and src.quality in "PSRU"


@pytest.mark.parametrize("name", DESIGN_CHIPS + list(DESIGN_SYSTEMS))
def test_every_design_hardware_name_resolves(name):
    assert hardware.get(name).name == name


@pytest.mark.parametrize("name,n", DESIGN_SYSTEMS.items())
def test_systems_aggregate_their_chips(name, n):
    rack = hardware.get(name)
    assert rack.n_chips == n
    assert rack.hbm_bandwidth == pytest.approx(n * rack.chip.hbm_bandwidth)
    assert rack.hbm_capacity == pytest.approx(n * rack.chip.hbm_capacity)
    assert rack.flops("bf16") == pytest.approx(n * rack.chip.flops("bf16"))


def test_gb200_rack_matches_published_rack_totals():
    # NVIDIA's GB200 NVL72 page: 720 PF dense FP4 (1,440 sparse), ~13.4 TB HBM3e, 576 TB/s
    rack = hardware.get("GB200-NVL72")
    assert rack.flops("fp4") == pytest.approx(720e15, rel=0.01)
    assert rack.hbm_capacity == pytest.approx(13.4 * TB, rel=0.01)
    assert rack.hbm_bandwidth == pytest.approx(576 * TB, rel=0.01)


@pytest.mark.parametrize("chip", hardware.CHIPS.values(), ids=lambda c: c.name)
def test_every_chip_figure_has_a_dated_source(chip):
    for figure in hardware.FIGURES:
        if figure in ("scale_up_bandwidth", "scale_out_bandwidth") and getattr(chip, figure) is None:
            continue
        assert _valid(chip.source_for(figure)), f"{chip.name}.{figure} lacks a source with URL and date"


@pytest.mark.parametrize("model", models.MODELS.values(), ids=lambda m: m.name)
def test_every_model_figure_has_a_dated_source(model):
    for figure in models.FIGURES:
        assert _valid(model.source_for(figure)), f"{model.name}.{figure} lacks a source"


def test_every_price_has_a_dated_source_and_positive_prices():
    assert {p.provider for p in prices.PRICES} >= {"Anthropic", "OpenAI", "Google", "DeepSeek"}
    for p in prices.PRICES:
        assert _valid(p.source), p.key
        assert p.input > 0 and p.output > 0


def test_announced_hardware_is_marked():
    assert hardware.get("Rubin").announced
    assert "announced" in repr(hardware.get("Rubin"))
    assert not hardware.get("H100-SXM").announced


def test_dense_not_sparse_flops():
    # the H100 datasheet headline 1,979 TFLOP/s BF16 is the 2:4-sparse figure; dense is half
    assert hardware.get("H100-SXM").flops("bf16") == pytest.approx(1979e12 / 2, rel=0.01)
    assert hardware.get("H100-SXM").flops("fp8") == pytest.approx(2 * hardware.get("H100-SXM").flops("bf16"), rel=0.01)


@pytest.mark.parametrize("name", DESIGN_MODELS)
def test_every_design_model_resolves(name):
    assert models.get(name).name == name


# KV bytes per token worked by hand from the published configs (layers x 2 x KV heads x head_dim x bytes)
HAND_KV_BF16 = {
    "Llama-2-7B": 32 * 2 * 32 * 128 * 2,          # MHA: 32 KV heads = 32 query heads -> 524,288
    "Llama-3-8B": 32 * 2 * 8 * 128 * 2,           # GQA: 8 KV heads -> 131,072
    "Llama-3-70B": 80 * 2 * 8 * 128 * 2,          # 327,680
    "Llama-3-405B": 126 * 2 * 8 * 128 * 2,        # 516,096
    "Qwen3-235B-A22B": 94 * 2 * 4 * 128 * 2,      # 192,512
    "PaLM-540B": 118 * 2 * 1 * 256 * 2,           # MQA: one KV head -> 120,832
    "DeepSeek-V3": 61 * (512 + 64) * 2,           # MLA: one 576-wide latent per layer -> 70,272
    "Kimi-K2": 61 * (512 + 64) * 2,
    "gpt-oss-120b": 18 * 2 * 8 * 64 * 2,          # only the 18 full-attention layers grow with context
}


@pytest.mark.parametrize("name,expected", HAND_KV_BF16.items())
def test_kv_bytes_per_token_matches_hand_arithmetic(name, expected):
    assert models.get(name).kv_bytes_per_token("bf16") == expected


def test_kv_attention_kinds_are_recognised():
    kinds = {n: models.get(n).attention for n in ("Llama-2-7B", "Llama-3-70B", "PaLM-540B", "DeepSeek-V3", "gpt-oss-120b")}
    assert kinds == {"Llama-2-7B": "MHA", "Llama-3-70B": "GQA", "PaLM-540B": "MQA",
                     "DeepSeek-V3": "MLA", "gpt-oss-120b": "GQA+sliding-window"}


def test_published_kv_figures_cross_check():
    # DeepSeek's ISCA'25 paper quotes 70.272 KB (DeepSeek-V3), 327.680 KB (Qwen2.5-72B), 516.096 KB (Llama-3.1-405B)
    assert models.get("DeepSeek-V3").kv_bytes_per_token() == pytest.approx(70.272e3)
    assert models.get("Qwen2.5-72B").kv_bytes_per_token() == pytest.approx(327.680e3)
    assert models.get("Llama-3-405B").kv_bytes_per_token() == pytest.approx(516.096e3)


def test_kv_heads_not_query_heads():
    m = models.get("Llama-3-70B")
    buggy = m.n_layers * 2 * m.n_heads * m.head_dim * 2      # the calculator bug: query heads
    assert buggy / m.kv_bytes_per_token() == m.n_heads / m.n_kv_heads == 8


def test_kv_dtype_scales_bytes():
    m = models.get("DeepSeek-V3")
    assert m.kv_bytes_per_token("fp8") == m.kv_bytes_per_token("bf16") / 2


def test_sliding_window_layers_hold_a_fixed_amount_per_sequence():
    m = models.get("gpt-oss-120b")
    per_layer_tok = 2 * 8 * 64 * 2
    # at 100K tokens: 18 full layers x 100K + 18 windowed layers x 128 tokens
    assert m.kv_bytes_per_sequence(100_000) == 18 * per_layer_tok * 100_000 + 18 * per_layer_tok * 128
    # below the window every layer grows
    assert m.kv_bytes_per_sequence(100) == 36 * per_layer_tok * 100


def test_moe_counts():
    m = models.get("DeepSeek-V3")
    assert (m.total_params, m.active_params) == (671e9, 37e9)
    assert (m.n_experts, m.experts_per_token) == (256, 8)
    assert m.sparsity == pytest.approx(37 / 671)


def test_user_built_chip_and_model_work_everywhere():
    from lecture_lib import roofline
    chip = hardware.Chip(name="MyChip", flops={"bf16": 1e15}, hbm_bandwidth=2e12, hbm_capacity=100 * GB)
    m = models.Model("Tiny", total_params=1e9, active_params=1e9, n_layers=4, d_model=256,
                     n_heads=4, n_kv_heads=4, head_dim=64)
    r = roofline.step_time(chip, m, batch=1)
    assert r.weights == pytest.approx(1e9 * 2 / 2e12)
    assert hardware.system(chip, 4).hbm_bandwidth == 8e12


def test_prices_lecture_facts():
    std, fast = prices.get("claude-opus-4.6"), prices.get("claude-opus-4.6", tier="fast")
    assert fast.output / std.output == 6 and fast.input / std.input == 6
    gem = prices.get("gemini-3.1-pro-preview")
    assert gem.per_token("input", 300_000) / gem.per_token("input", 1000) == 2.0
    assert gem.per_token("output", 300_000) / gem.per_token("output", 1000) == 1.5
    assert std.cache_read / std.input == pytest.approx(0.1)
    assert std.cache_write_5m / std.input == pytest.approx(1.25)
    assert std.cache_write_1h / std.input == pytest.approx(2.0)
    assert prices.get("gpt-5", tier="priority").output / prices.get("gpt-5").output == 2


# --- the data files: labelled rows, checked on load ------------------------------------------------

import dataclasses                                    # noqa: E402
import inspect                                        # noqa: E402
import tomllib                                        # noqa: E402

from lecture_lib import _registry, traffic           # noqa: E402
from lecture_lib._registry import RegistryError       # noqa: E402

GOOD_HARDWARE = '''
[sources.Fab]
url = "https://example.com/fab"
as_of = "2026-01"
quality = "P"
note = "sparse figure halved"

[[chips]]
name = "Alpha"
flops = { bf16 = "100 TFLOP/s", fp8 = "200 TFLOP/s" }
hbm_bandwidth = "2 TB/s"
hbm_capacity = "64 GB"
scale_up_bandwidth = "400 GB/s"
scale_up_domain = 8
source = "Fab"

[[systems]]
name = "Alpha-x4"
chip = "Alpha"
n_chips = 4
'''

# (fault, text to replace in GOOD_HARDWARE, replacement, row named in the error, field named in the error)
HARDWARE_FAULTS = [
    ("unknown field", 'scale_up_domain = 8', 'scale_up_domain = 8\nhbm_capacty = "64 GB"', "Alpha", "hbm_capacty"),
    ("missing required field", 'hbm_bandwidth = "2 TB/s"\n', '', "Alpha", "hbm_bandwidth"),
    ("wrong type (no unit)", 'hbm_bandwidth = "2 TB/s"', 'hbm_bandwidth = 2e12', "Alpha", "hbm_bandwidth"),
    ("wrong type (text for a count)", 'scale_up_domain = 8', 'scale_up_domain = "8"', "Alpha", "scale_up_domain"),
    ("wrong unit", 'hbm_capacity = "64 GB"', 'hbm_capacity = "64 GB/s"', "Alpha", "hbm_capacity"),
    ("non-positive figure", 'hbm_capacity = "64 GB"', 'hbm_capacity = "0 GB"', "Alpha", "hbm_capacity"),
    ("non-positive flops", 'fp8 = "200 TFLOP/s"', 'fp8 = "-200 TFLOP/s"', "Alpha", "flops.fp8"),
    ("unknown dtype", 'fp8 = "200 TFLOP/s"', 'fp9 = "200 TFLOP/s"', "Alpha", "flops.fp9"),
    ("non-positive count", 'n_chips = 4', 'n_chips = 0', "Alpha-x4", "n_chips"),
    ("unknown source key", 'source = "Fab"', 'source = "Fabb"', "Alpha", "source"),
    ("per-figure source lacks a figure",
     'source = "Fab"', 'source = { flops = "Fab", hbm_bandwidth = "Fab", hbm_capacity = "Fab" }',
     "Alpha", "source.scale_up_bandwidth"),
    ("inline source without a date", 'source = "Fab"', 'source = { url = "https://example.com", quality = "P" }',
     "Alpha", "source.as_of"),
    ("bad status", 'scale_up_domain = 8', 'scale_up_domain = 8\nstatus = "rumoured"', "Alpha", "status"),
    ("duplicate name", 'name = "Alpha-x4"', 'name = "Alpha"', "Alpha", "name"),
    ("system of an unknown chip", 'chip = "Alpha"', 'chip = "Alpah"', "Alpha-x4", "chip"),
    ("bad quality flag", 'quality = "P"', 'quality = "A"', "Fab", "quality"),
    ("source date not a date", 'as_of = "2026-01"', 'as_of = "Jan 2026"', "Fab", "as_of"),
    ("source url not a url", 'url = "https://example.com/fab"', 'url = "example.com/fab"', "Fab", "url"),
]


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_good_hardware_file_loads(tmp_path):
    chips, systems = hardware.load(_write(tmp_path, "hw.toml", GOOD_HARDWARE))
    alpha, rack = chips["Alpha"], systems["Alpha-x4"]
    assert alpha.flops("fp8") == 200e12 and alpha.hbm_bandwidth == 2e12 and alpha.hbm_capacity == 64e9
    assert alpha.source_for("flops").note == "sparse figure halved"
    assert rack.chip is alpha and rack.hbm_capacity == 4 * 64e9


@pytest.mark.parametrize("fault,old,new,row,field", HARDWARE_FAULTS, ids=[f[0] for f in HARDWARE_FAULTS])
def test_a_malformed_hardware_row_names_file_row_and_field(tmp_path, fault, old, new, row, field):
    assert old in GOOD_HARDWARE
    path = _write(tmp_path, "bad_hardware.toml", GOOD_HARDWARE.replace(old, new, 1))
    with pytest.raises(RegistryError) as err:
        hardware.load(path)
    message = str(err.value)
    assert "bad_hardware.toml" in message and (repr(row) in message or f"[sources.{row}]" in message), message
    assert f"field {field!r}" in message, message
    assert err.value.field == field
    assert isinstance(err.value, ValueError)


def test_a_file_that_is_not_toml_names_the_file(tmp_path):
    path = _write(tmp_path, "broken.toml", GOOD_HARDWARE.replace("n_chips = 4", "n_chips = "))
    with pytest.raises(RegistryError, match="broken.toml.*not valid TOML.*line"):
        hardware.load(path)


def test_an_unknown_table_is_refused(tmp_path):
    path = _write(tmp_path, "hw.toml", GOOD_HARDWARE.replace("[[systems]]", "[[system]]"))
    with pytest.raises(RegistryError, match="hw.toml.*'system'.*unknown table"):
        hardware.load(path)


GOOD_PRICES = '''
[sources.Vendor]
url = "https://example.com/pricing"
as_of = "2026-02-03"
quality = "S"

[[prices]]
provider = "Acme"
model = "acme-1"
tier = "standard"
input = 2.00
output = 8.00
cache_read = 0.20
long_context_threshold = 200_000
input_long = 4.00
output_long = 12.00
source = "Vendor"

[[prices]]
provider = "Acme"
model = "acme-1"
tier = "fast"
input = 12.00
output = 48.00
speedup = 2.5
source = { url = "https://example.com/fast", as_of = "2026-02", quality = "P" }
'''

PRICE_FAULTS = [
    ("unknown field", 'cache_read = 0.20', 'cache_read = 0.20\ncache_hit = 0.20', "acme-1:standard", "cache_hit"),
    ("missing required field", 'output = 8.00\n', '', "acme-1:standard", "output"),
    ("wrong type", 'input = 2.00', 'input = "2.00"', "acme-1:standard", "input"),
    ("non-positive price", 'output = 48.00', 'output = 0.0', "acme-1:fast", "output"),
    ("negative price", 'cache_read = 0.20', 'cache_read = -0.20', "acme-1:standard", "cache_read"),
    ("float for a token count", 'long_context_threshold = 200_000', 'long_context_threshold = 2e5',
     "acme-1:standard", "long_context_threshold"),
    ("unknown source key", 'source = "Vendor"', 'source = "Vendr"', "acme-1:standard", "source"),
    ("bad quality flag inline", 'quality = "P" }', 'quality = "primary" }', "acme-1:fast", "source.quality"),
    ("unknown tier", 'tier = "fast"', 'tier = "turbo"', "acme-1:turbo", "tier"),
    ("duplicate model and tier", 'tier = "fast"', 'tier = "standard"', "acme-1:standard", "tier"),
    ("bad quality flag", 'quality = "S"', 'quality = "s"', "Vendor", "quality"),
]


def test_a_good_price_file_loads(tmp_path):
    std, fast = prices.load(_write(tmp_path, "p.toml", GOOD_PRICES))
    assert (std.key, fast.key) == ("acme-1", "acme-1:fast")
    assert std.per_token("input", 300_000) == 4.00 / 1e6 and fast.source.as_of == "2026-02"


@pytest.mark.parametrize("fault,old,new,row,field", PRICE_FAULTS, ids=[f[0] for f in PRICE_FAULTS])
def test_a_malformed_price_row_names_file_row_and_field(tmp_path, fault, old, new, row, field):
    assert old in GOOD_PRICES
    path = _write(tmp_path, "bad_prices.toml", GOOD_PRICES.replace(old, new, 1))
    with pytest.raises(RegistryError) as err:
        prices.load(path)
    message = str(err.value)
    assert "bad_prices.toml" in message and (repr(row) in message or f"[sources.{row}]" in message), message
    assert f"field {field!r}" in message and err.value.field == field, message


GOOD_MODEL = '''
[sources.Paper]
url = "https://example.com/paper"
as_of = "2025-12"
quality = "R"

[[models]]
name = "Tiny"
total_params = 1e9
active_params = 1e9
n_layers = 4
d_model = 256
n_heads = 4
n_kv_heads = 4
head_dim = 64
source = "Paper"
'''


@pytest.mark.parametrize("old,new,field", [
    ("n_layers = 4", "n_layers = 4.0", "n_layers"),
    ("n_kv_heads = 4", "n_kv_heads = 0", "n_kv_heads"),
    ("head_dim = 64\n", "", "head_dim"),
    ("total_params = 1e9", "total_params = -1e9", "total_params"),
])
def test_a_malformed_model_row_names_file_row_and_field(tmp_path, old, new, field):
    models.load(_write(tmp_path, "good_models.toml", GOOD_MODEL))
    path = _write(tmp_path, "bad_models.toml", GOOD_MODEL.replace(old, new, 1))
    with pytest.raises(RegistryError, match=rf"bad_models.toml, row 'Tiny' of \[\[models\]\], field '{field}'"):
        models.load(path)


def test_a_row_the_constructor_refuses_names_file_and_row(tmp_path):
    # each field is fine alone; together they break a rule of Model itself (active <= total)
    path = _write(tmp_path, "bad_models.toml", GOOD_MODEL.replace("active_params = 1e9", "active_params = 2e9"))
    with pytest.raises(RegistryError, match=r"bad_models.toml, row 'Tiny' of \[\[models\]\]: active_params"):
        models.load(path)


def test_a_malformed_traffic_row_names_file_row_and_field(tmp_path):
    text = (_registry.DATA / "traffic.toml").read_text(encoding="utf-8")
    path = _write(tmp_path, "bad_traffic.toml", text.replace('as_of = "2025-07"', 'as_of = 2025-07-01', 1))
    where = r"bad_traffic.toml, row 'google-2025-07' of \[\[volumes\]\], field 'as_of'"
    with pytest.raises(RegistryError, match=where):
        traffic.load(path)


SHIPPED = {"hardware.toml": hardware.load, "models.toml": models.load, "prices.toml": prices.load,
           "traffic.toml": traffic.load}


def _rows_with_sources(file, loaded):
    """(row name, {figure: Source}) for every row a shipped file yields."""
    if file == "hardware.toml":
        chips, systems = loaded
        return [(n, c.sources) for n, c in {**chips, **systems}.items()]
    if file == "models.toml":
        return [(n, m.sources) for n, m in loaded.items()]
    return [(getattr(x, "key", None), {"source": x.source}) for x in loaded]


def test_the_registry_files_ship_in_the_package_folder():
    assert {p.name for p in _registry.DATA.glob("*.toml")} >= set(SHIPPED)


@pytest.mark.parametrize("file", SHIPPED)
def test_every_row_of_every_shipped_file_has_a_labelled_source(file):
    rows = _rows_with_sources(file, SHIPPED[file](_registry.DATA / file))
    assert rows
    for name, sources in rows:
        assert sources, f"{file}: {name} has no source"
        for figure, src in sources.items():
            assert src.url.startswith("https://"), (file, name, figure)
            assert DATE.match(src.as_of), (file, name, figure)
            assert src.quality in _registry.QUALITY, (file, name, figure)


@pytest.mark.parametrize("file", SHIPPED)
def test_every_shipped_row_labels_its_source_in_the_file(file):
    doc = tomllib.loads((_registry.DATA / file).read_text(encoding="utf-8"))
    assert doc["sources"]
    for table, rows in doc.items():
        if table not in ("sources", "systems"):          # a system's figures are its chip's, sourced there
            assert all("source" in row for row in rows), f"{file} [[{table}]] has a row without source"


def test_the_shipped_registries_are_what_the_files_say():
    chips, systems = hardware.load()
    assert list(chips) == list(hardware.CHIPS) and list(systems) == list(hardware.SYSTEMS)
    assert [p.key for p in prices.load()] == [p.key for p in prices.PRICES]
    assert models.load() == models.MODELS


@pytest.mark.parametrize("name", hardware.SYSTEMS)
def test_system_figures_are_chip_figures_times_n_chips(name):
    rack = hardware.get(name)
    chip, n = rack.chip, rack.n_chips
    assert isinstance(rack, hardware.Chip) and not isinstance(chip, hardware.System)
    assert chip is hardware.CHIPS[chip.name]
    for dtype in chip.dtypes:
        assert rack.flops(dtype) == chip.flops(dtype) * n
    assert rack.hbm_bandwidth == chip.hbm_bandwidth * n
    assert rack.hbm_capacity == chip.hbm_capacity * n
    # per-chip facts are the chip's own
    assert rack.peak_flops == chip.peak_flops and rack.dtypes == chip.dtypes
    for attr in ("scale_up_bandwidth", "scale_up_domain", "vendor", "year", "status", "announced", "notes",
                 "sources"):
        assert getattr(rack, attr) == getattr(chip, attr), attr
    assert rack.source_for("flops") is chip.source_for("flops")


def test_a_system_follows_its_chip():
    chip = hardware.Chip("Mine", {"bf16": 1e15}, 2e12, 1e11, scale_up_bandwidth=1e11)
    pod = hardware.system(chip, 16)
    assert (pod.flops("bf16"), pod.hbm_bandwidth, pod.hbm_capacity) == (16e15, 32e12, 16e11)
    assert pod.scale_up_bandwidth == 1e11 and pod.name == "16xMine"
    with pytest.raises(TypeError):
        hardware.system(pod, 2)
    with pytest.raises(ValueError, match="n_chips"):
        hardware.system(chip, 0)


def test_file_schemas_match_the_constructors():
    init = [p for p in inspect.signature(hardware.Chip.__init__).parameters if p != "self"]
    assert set(hardware._CHIP_FIELDS) == set(init)
    for module, cls in ((models, models.Model), (prices, prices.Price), (traffic, traffic.TokenVolume)):
        assert set(module._FIELDS) == {f.name for f in dataclasses.fields(cls) if f.init}, cls.__name__


def test_chip_constructor_signature_is_unchanged():
    params = inspect.signature(hardware.Chip.__init__).parameters
    assert list(params)[:5] == ["self", "name", "flops", "hbm_bandwidth", "hbm_capacity"]
    assert all(params[p].kind is inspect.Parameter.KEYWORD_ONLY for p in list(params)[5:])


def test_user_models_still_replace_like_dataclasses():
    m = models.get("Llama-3-70B")
    m2 = dataclasses.replace(m, name="x2", total_params=2 * m.active_params, source=None)
    assert m2.sources == {} and m2.total_params == 2 * m.active_params and m.source_for("total_params")


def test_scale_up_and_scale_out_per_chip_one_direction_by_hand():
    # NVLink 4: 900 GB/s bidirectional = 450 GB/s each way; one ConnectX-7 (400 Gb/s) per H100 = 50 GB/s
    h100 = hardware.get("H100-SXM")
    assert h100.scaleup_bandwidth == pytest.approx(450e9) and h100.scaleout_bandwidth == pytest.approx(400e9 / 8)
    # GB300 NVL72: NVLink 5 1.8 TB/s bidirectional; one ConnectX-8 (800 Gb/s) per GPU
    rack = hardware.get("GB300-NVL72")
    assert rack.scaleup_bandwidth == pytest.approx(900e9) and rack.scaleout_bandwidth == pytest.approx(100e9)
    assert rack.scaleup_bandwidth / rack.scaleout_bandwidth == pytest.approx(9)   # the lecture's "~8x slower"
    assert hardware.get("TPU-v5p").scaleout_bandwidth is None          # no public per-chip DCN figure

