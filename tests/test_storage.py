"""The storage-device registry (data/storage.toml): sources on every figure, the HBM row follows its chip,
and a malformed row names the file, the row and the field."""
import re

import pytest

from lecture_lib import _registry, hardware, storage
from lecture_lib._registry import RegistryError

DATE = re.compile(r"^\d{4}-\d{2}(-\d{2})?$")


def test_every_kind_of_tier_is_there():
    assert {d.kind for d in storage.DEVICES.values()} == set(storage.KINDS)


@pytest.mark.parametrize("device", storage.DEVICES.values(), ids=lambda d: d.name)
def test_every_figure_has_a_dated_source(device):
    for figure in ("capacity", "bandwidth", "cost"):
        src = device.source_for(figure)
        assert src is not None and src.url.startswith("https://") and DATE.match(src.as_of), (device.name, figure)
        assert src.quality in _registry.QUALITY
    assert device.dollars_per_second > 0


def test_recalled_and_uncertain_figures_are_flagged():
    # the device datasheets are not in reference/specs.md: recalled (R); street prices uncertain (U)
    for d in storage.DEVICES.values():
        assert d.source_for("cost").quality == "U", d.name
        if d.kind != "HBM":
            assert d.source_for("bandwidth").quality in ("R", "U"), d.name


def test_hbm_row_takes_its_chip_figures():
    hbm, h200 = storage.by_kind("HBM"), hardware.get("H200")
    assert (hbm.capacity, hbm.bandwidth) == (141e9, 4.8e12) == (h200.hbm_capacity, h200.hbm_bandwidth)
    assert hbm.source_for("capacity") is h200.source_for("hbm_capacity")
    assert hbm.dollars_per_second == pytest.approx(2.0 / 3600)


def test_device_figures_by_hand():
    hdd = storage.get("HDD 24 TB")
    assert (hdd.capacity, hdd.bandwidth) == (24e12, 285e6)
    assert hdd.dollars_per_second == pytest.approx(430 / (5 * 365.25 * 86400))
    assert hdd.dollars_per_byte == pytest.approx(430 / 24e12)
    ddr = storage.by_kind("DDR")
    assert ddr.bandwidth == pytest.approx(2 * 12 * 4800e6 * 8)      # 2 sockets × 12 channels × DDR5-4800 × 8 B
    assert storage.by_kind("HBM").dollars_per_byte is None           # rented, not bought


GOOD = '''
[sources.Vendor]
url = "https://example.com/datasheet"
as_of = "2026-01"
quality = "R"

[sources.Shop]
url = "https://example.com/shop"
as_of = "2026-01"
quality = "U"

[[devices]]
name = "Drive"
kind = "flash"
capacity = "4 TB"
bandwidth = "7 GB/s"
price_usd = 400.0
service_years = 5.0
source = { capacity = "Vendor", bandwidth = "Vendor", price_usd = "Shop" }

[[devices]]
name = "GPU memory"
kind = "HBM"
chip = "H100-SXM"
dollars_per_hour = 2.5
source = "Shop"
'''


def _write(tmp_path, text, name="storage.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_good_file_loads(tmp_path):
    devices = storage.load(_write(tmp_path, GOOD))
    assert list(devices) == ["Drive", "GPU memory"]
    assert devices["GPU memory"].bandwidth == hardware.get("H100-SXM").hbm_bandwidth
    assert devices["Drive"].source_for("cost").quality == "U"


FAULTS = [
    ("unknown field", 'price_usd = 400.0', 'price_usd = 400.0\nprice = 400.0', "'Drive' of [[devices]]", "price"),
    ("a capacity without its unit", 'capacity = "4 TB"', 'capacity = 4e12', "'Drive' of [[devices]]", "capacity"),
    ("a bandwidth in the wrong unit", 'bandwidth = "7 GB/s"', 'bandwidth = "7 GB"', "'Drive' of [[devices]]", "bandwidth"),
    ("missing bandwidth", 'bandwidth = "7 GB/s"\n', '', "'Drive' of [[devices]]", "bandwidth"),
    ("unknown kind", 'kind = "flash"', 'kind = "tape"', "'Drive' of [[devices]]", "kind"),
    ("negative price", 'price_usd = 400.0', 'price_usd = -400.0', "'Drive' of [[devices]]", "price_usd"),
    ("per-figure source lacks the price", 'bandwidth = "Vendor", price_usd = "Shop" }', 'bandwidth = "Vendor" }',
     "'Drive' of [[devices]]", "source.price_usd"),
    ("unknown source key", 'price_usd = "Shop"', 'price_usd = "Shpo"', "'Drive' of [[devices]]", "source.price_usd"),
    ("chip and capacity both", 'chip = "H100-SXM"', 'chip = "H100-SXM"\ncapacity = "80 GB"',
     "'GPU memory' of [[devices]]", "capacity"),
    ("unknown chip", 'chip = "H100-SXM"', 'chip = "H100-SMX"', "'GPU memory' of [[devices]]", "chip"),
    ("bad quality flag", 'quality = "U"', 'quality = "guess"', "[sources.Shop]", "quality"),
]


@pytest.mark.parametrize("fault,old,new,row,field", FAULTS, ids=[f[0] for f in FAULTS])
def test_a_malformed_row_names_file_row_and_field(tmp_path, fault, old, new, row, field):
    assert old in GOOD
    path = _write(tmp_path, GOOD.replace(old, new, 1), "bad_storage.toml")
    with pytest.raises(RegistryError) as err:
        storage.load(path)
    message = str(err.value)
    assert "bad_storage.toml" in message and row in message, message
    assert f"field {field!r}" in message and err.value.field == field, message


@pytest.mark.parametrize("old,new,words", [
    ('service_years = 5.0\n', '', "service_years"),                       # a price needs its service life
    ('dollars_per_hour = 2.5', 'dollars_per_hour = 2.5\nprice_usd = 30000.0\nservice_years = 4.0', "not both"),
])
def test_a_row_the_constructor_refuses_names_file_and_row(tmp_path, old, new, words):
    path = _write(tmp_path, GOOD.replace(old, new, 1), "bad_storage.toml")
    with pytest.raises(RegistryError, match=rf"bad_storage.toml, row '.*' of \[\[devices\]\]: .*{words}"):
        storage.load(path)


def test_lookup_suggests_close_matches():
    with pytest.raises(KeyError, match="Did you mean"):
        storage.get("HDD 42 TB")
    with pytest.raises(ValueError, match="kind"):
        storage.by_kind("tape")
