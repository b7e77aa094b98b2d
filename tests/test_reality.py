"""Beyond the lecture (lecture_lib.reality, lecture_lib.machine): published measurements against their
bounds. The heart is `test_no_measurement_beats_its_bound`: a row that would is a bug in the model or
in the row, to be investigated, never loosened."""
import textwrap

import numpy as np
import pytest
import sympy as sp

from lecture_lib import hardware, machine, models, reality, roofline, training
from lecture_lib._registry import RegistryError
from lecture_lib.notation import B, L_out, R_tok, T_dec, T_pre, n_conc, r_user

rng = np.random.default_rng(9)


# --- the measurements file ---------------------------------------------------------------------------
def test_measurements_cover_the_issue():
    rows = reality.MEASUREMENTS
    assert len(rows) >= 12
    assert len({r.source.url for r in rows}) >= 5                   # independent sources
    kinds = {(r.kind, models.get(r.model).is_moe, r.chip.startswith("TPU")) for r in rows}
    assert {k for k, _, _ in kinds} == {"serving", "training"}
    assert {moe for _, moe, _ in kinds} == {True, False}             # dense and MoE
    assert {tpu for _, _, tpu in kinds} == {True, False}             # GPU and TPU
    for r in rows:
        assert r.source.url.startswith("https://") and r.source.quality in "PSRU" and r.published


def _write(tmp_path, body: str):
    path = tmp_path / "m.toml"
    path.write_text(textwrap.dedent(body))
    return path


GOOD = """
    [sources.x]
    url = "https://example.org/paper"
    as_of = "2026-11"
    quality = "P"

    [[measurements]]
    key = "row"
    kind = "serving"
    phase = "end-to-end"
    quantity = "output_tokens_per_s"
    value = 100
    chip = "H200"
    chips = 1
    model = "Llama-2-70B"
    weight_dtype = "fp8"
    batch = 8
    prompt_tokens = 128
    output_tokens = 128
    date = "2024-01"
    published = "a figure"
    source = "x"
"""


def test_a_good_file_loads(tmp_path):
    rows, kernels = reality.load(_write(tmp_path, GOOD))
    assert [r.key for r in rows] == ["row"] and kernels == []


@pytest.mark.parametrize("old, new, field", [
    ('value = 100', 'value = "100 tok/s"', "value"),                     # a number written as text
    ('chips = 1', 'chips = 0', "chips"),
    ('quantity = "output_tokens_per_s"', 'quantity = "tokens"', "quantity"),
    ('model = "Llama-2-70B"', 'model = "Llama-2-71B"', "model"),
    ('chip = "H200"', 'chip = "H300"', "chip"),
    ('weight_dtype = "fp8"', 'weight_dtype = "fp7"', "weight_dtype"),
    ('date = "2024-01"', 'date = "January 2024"', "date"),
    ('source = "x"', 'source = "y"', "source"),
    ('batch = 8', 'bacth = 8', "bacth"),                                  # a typo of a field name
])
def test_a_malformed_row_names_its_field(tmp_path, old, new, field):
    with pytest.raises(RegistryError) as err:
        reality.load(_write(tmp_path, GOOD.replace(old, new)))
    assert err.value.field == field and "'row'" in str(err.value)


def test_a_row_needs_a_value_or_a_run(tmp_path):
    with pytest.raises(RegistryError, match="exactly one of value"):
        reality.load(_write(tmp_path, GOOD.replace("value = 100\n", "")))
    with pytest.raises(RegistryError, match="prompt_tokens and output_tokens"):
        reality.load(_write(tmp_path, GOOD.replace("output_tokens = 128\n", "")))


# --- the heart: no measurement beats its bound -----------------------------------------------------------
def test_no_measurement_beats_its_bound():
    for c in reality.cases():
        assert c.bound > 0 and np.isfinite(c.bound), c.measurement.key
        assert c.efficiency <= 1, (f"{c.measurement.key} beats its bound: measured {c.measured:.4g}, "
                                   f"bound {c.bound:.4g} — a bug in the model or in the row")


def test_the_lecture_bound_is_more_generous_and_never_beaten_either():
    strict = {c.measurement.key: c.efficiency for c in reality.cases()}
    for c in reality.cases(()):
        assert c.efficiency <= strict[c.measurement.key] + 1e-12 and c.efficiency <= 1


def test_published_batches_fit_in_memory():
    # a published batch that does not fit at the row's dtypes says the row's dtypes are wrong
    for c in reality.cases():
        assert c.fits, c.measurement.key


def test_each_addition_moves_the_bound_toward_the_measurement_and_never_past_it():
    steps = reality.ladder()
    for (name, before), (_, after) in zip(steps, steps[1:]):
        for b, a in zip(before, after):
            assert a.efficiency >= b.efficiency - 1e-9, (name, a.measurement.key)
            assert a.efficiency <= 1, (name, a.measurement.key)
    first = np.median([c.efficiency for c in steps[0][1]])
    last = np.median([c.efficiency for c in steps[-1][1]])
    assert last > 1.5 * first                       # the additions close a real part of the gap


# --- throughput_bound against arithmetic by hand ---------------------------------------------------------
def test_throughput_bound_by_hand_llama2_70b_on_h200():
    # TensorRT-LLM's row: Llama-2-70B (68.98e9 params, 80 layers, 8 KV heads of 128) on one H200 at fp8,
    # batch 32, prompt 2048, output 128. H200: 1979e12 FLOP/s fp8, 4.8e12 B/s.
    n, F, bw, b = 68.98e9, 1979e12, 4.8e12, 32
    kv = 80 * 2 * 8 * 128 * 1                                        # 163,840 bytes per token at fp8
    prefill = max(2 * b * 2048 * n / F, n / bw)                      # compute-bound: 4.566 s
    decode = sum(max(2 * b * n / F, (n + b * (2048 + i) * kv) / bw) for i in range(128))
    tb = reality.throughput_bound("H200", "Llama-2-70B", b, 2048, 128, "fp8", "fp8")
    assert tb.prefill == pytest.approx(prefill, rel=1e-12)
    assert tb.decode == pytest.approx(decode, rel=1e-12)
    assert tb.tokens_per_s == pytest.approx(b * 128 / (prefill + decode), rel=1e-12)
    assert tb.tokens_per_s == pytest.approx(611, rel=0.01)          # the measured 303 is 50 % of it
    assert tb.bound == "compute"                                     # the prefill dominates


def test_decode_is_summed_not_taken_at_the_mean_context():
    # a step's time is a max of lines in the context: the mean step time >= the step time at the mean context
    # 512 sequences on 8 H200: compute-bound early in the output, memory-bound (KV) past ~1.2k tokens
    tb = reality.throughput_bound("HGX-H200", "Llama-2-70B", 512, 0, 4096, "fp8", "fp8", include_prefill=False)
    at_mean = roofline.step_time("HGX-H200", "Llama-2-70B", 512, 4095 / 2, "fp8", "fp8").total * 4096
    assert tb.decode > 1.02 * at_mean
    assert tb.compute > 0 and tb.memory > 0                           # both terms bind some steps
    steps = roofline.step_time("HGX-H200", "Llama-2-70B", 512, np.arange(4096.0), "fp8", "fp8").total
    assert tb.decode == pytest.approx(np.sum(steps), rel=1e-12)


def test_throughput_bound_properties():
    for _ in range(5):
        b, p, o = rng.integers(1, 256), rng.integers(0, 4000), rng.integers(1, 600)
        tb = reality.throughput_bound("HGX-H200", "Llama-3-70B", b, p, o, "fp8")
        more = reality.throughput_bound("HGX-H200", "Llama-3-70B", b + 64, p, o, "fp8")
        assert more.tokens_per_s >= tb.tokens_per_s * (1 - 1e-12)       # batching never lowers the bound
        longer = reality.throughput_bound("HGX-H200", "Llama-3-70B", b, p + 1000, o, "fp8")
        assert longer.tokens_per_s < tb.tokens_per_s                      # a longer prompt costs time
        no_pre = reality.throughput_bound("HGX-H200", "Llama-3-70B", b, p, o, "fp8", include_prefill=False)
        assert no_pre.tokens_per_s >= tb.tokens_per_s
    # speculative decoding: with k tokens per step the memory-bound decode is up to k times faster
    one = reality.throughput_bound("H200", "Llama-2-70B", 1, 0, 512, "fp8", include_prefill=False)
    two = reality.throughput_bound("H200", "Llama-2-70B", 1, 0, 512, "fp8", tokens_per_step=2, include_prefill=False)
    assert 1.9 < two.tokens_per_s / one.tokens_per_s <= 2.01       # (and it reads the cache half as often)


def test_moe_at_batch_one_reads_only_the_touched_experts():
    # DeepSeek-V3 (37B active of 671B) in fp8 on 8 x H200 (4.8 TB/s each): one sequence's decode step reads
    # about 37 GB, not 671 GB: the bound at batch 1 is ~1 ms per token, not ~17 ms
    m = models.get("DeepSeek-V3")
    tb = reality.throughput_bound("HGX-H200", m, 1, 0, 64, "fp8", include_prefill=False)
    per_step = tb.decode / 64
    assert 37e9 / (8 * 4.8e12) * 0.98 < per_step < 37e9 / (8 * 4.8e12) * 1.06
    assert per_step < 0.1 * 671e9 / (8 * 4.8e12)
    # a big batch touches every expert: the weight read climbs to (nearly) the whole model
    big = reality.throughput_bound("HGX-H200", m, 4096, 0, 1, "fp8", include_prefill=False)
    assert big.decode > 0.95 * 671e9 / (8 * 4.8e12)


def test_a_batch_that_does_not_fit_is_flagged():
    # 4,096 sequences of 100K tokens: ~28 TB of MLA cache alone, against 1.1 TB of HBM on 8 x H200
    tb = reality.throughput_bound("HGX-H200", "DeepSeek-V3", 4096, 0, 8, "fp8", history_tokens=100_000,
                                  include_prefill=False)
    assert not tb.fits
    rate, _, fits = reality.decode_rate("HGX-H200", "DeepSeek-V3", 4096, 100_000, "fp8")
    assert not fits and rate > 0
    assert reality.throughput_bound("HGX-H200", "DeepSeek-V3", 8, 0, 8, "fp8", history_tokens=1000).fits
    assert reality.decode_rate("HGX-H200", "DeepSeek-V3", 8, 1000, "fp8")[2]


def test_throughput_bound_symbolic_form():
    assert sp.simplify(reality.throughput_bound_expr.subs({T_pre: 0}) - B * L_out / T_dec) == 0
    # the decode sum of a memory-bound model with no weights: Σ B·(L_in + i)·b_kv/BW, in closed form
    from lecture_lib.notation import BW, L_in, b_kv, i_step
    summed = sp.summation(B * (L_in + i_step) * b_kv / BW, (i_step, 0, L_out - 1))
    assert sp.simplify(summed - B * b_kv * L_out * (2 * L_in + L_out - 1) / (2 * BW)) == 0


def test_bad_input_names_the_parameter():
    for kwargs, name in ((dict(batch=0), "batch"), (dict(prompt_tokens=-1), "prompt_tokens"),
                         (dict(output_tokens=0), "output_tokens"), (dict(tokens_per_step=0), "tokens_per_step")):
        args = dict(hw="H200", model="Llama-2-70B", batch=8, prompt_tokens=10, output_tokens=10) | kwargs
        with pytest.raises(ValueError, match=name):
            reality.throughput_bound(**args)
    with pytest.raises(ValueError, match="racks"):
        reality.throughput_bound("H200", "Llama-2-70B", 8, 10, 10, racks=1.5)
    with pytest.raises(ValueError, match="mfu"):
        reality.derated("H200", 1.2, 0.9)
    with pytest.raises(ValueError, match="unknown options"):
        reality.evaluate(reality.MEASUREMENTS[0], ("magic",))


# --- Little's law ------------------------------------------------------------------------------------------
def test_littles_law_symbolic_and_by_hand():
    assert sp.simplify(reality.concurrency_expr - R_tok / r_user) == 0
    assert reality.littles_law.lhs == n_conc
    # DeepSeek's day-6 overview: 14.8k output tokens/s per node, 20-22 tokens/s per user -> 673 to 740 per node
    assert reality.concurrency(14_800, 22) == pytest.approx(672.7, abs=0.1)
    assert reality.concurrency(14_800, 20) == pytest.approx(740)
    with pytest.raises(ValueError, match="user_tokens_per_s"):
        reality.concurrency(14_800, 0)


def test_training_bound_is_chapter_5s_six_n():
    c = reality.evaluate(reality.get("llama3-405b-8k-gpus"))
    assert c.bound == 1 and c.efficiency == pytest.approx(0.43)
    run = reality.evaluate(reality.get("deepseek-v3-pretraining"))
    assert run.measured == pytest.approx(training.run_mfu("DeepSeek-V3"))
    # attention at 131k tokens: 3 · f_att · L/2 on top of 6·N per token
    m = models.get("Llama-3-405B")
    extra = 3 * m.attention_flops_per_token() * 131072 / 2
    long = reality.evaluate(reality.get("llama3-405b-long-context"), ("prefill", "attention"))
    assert long.bound == pytest.approx(6 * m.active_params / (6 * m.active_params + extra), rel=1e-9)


def test_kernel_efficiency_derates_the_chip():
    eta, eta_bw = reality.kernel_efficiency("H200")
    assert eta == pytest.approx(1350 / 1979) and eta_bw == pytest.approx(3000 / 3350)
    assert reality.kernel_efficiency("TPU-v4") == (1.0, 1.0)          # nothing published: no factor
    d = reality.derated("H200", eta, eta_bw)
    assert d.flops("fp8") == pytest.approx(1350e12 * 1979 / 1979) and d.hbm_bandwidth == pytest.approx(4.8e12 * eta_bw)


# --- this machine's roofline -------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def measured():
    return machine.measure(quick=True)


def test_machine_measurement_is_sane(measured):
    for x in (measured.flops, measured.seconds, measured.intensity):
        assert np.all(np.isfinite(x)) and np.all(x > 0)
    assert np.isfinite(measured.bandwidth) and measured.bandwidth > 0
    assert np.all(np.diff(measured.intensity) > 0)
    # memory-bound at low intensity: far below the best matmul, and near the copy's line (caches allow some slack)
    assert measured.flops[0] < measured.peak_flops / 4
    assert measured.flops[0] < 4 * measured.intensity[0] * measured.bandwidth
    assert measured.ridge == pytest.approx(measured.peak_flops / measured.bandwidth)
    assert np.all(measured.ceiling(measured.intensity) <= measured.peak_flops)


def test_matmul_intensity_by_hand():
    # A 4096 x 4096 times X 4096 x 1 in float32: 2·4096² FLOPs over (4096² + 2·4096)·4 bytes ≈ 0.5
    assert machine.matmul_intensity(4096, 1, 4) == pytest.approx(2 * 4096**2 / ((4096**2 + 2 * 4096) * 4))
    with pytest.raises(ValueError, match="n_bytes"):
        machine.copy_bandwidth(1000)


def test_torch_is_optional():
    import importlib.util
    if importlib.util.find_spec("torch") is None:
        assert machine.measure_torch() is None


def test_plots_draw_the_data(measured):
    from lecture_lib.plots import reality as rp
    fig = rp.machine_roofline(measured)
    points = [line for line in fig.axes[0].lines if line.get_marker() == "o"]
    np.testing.assert_allclose(points[0].get_ydata(), measured.flops)
    fig = rp.efficiency_by_workload(reality.cases())
    xs = np.concatenate([c.get_offsets()[:, 0] for c in fig.axes[0].collections])
    assert sorted(xs) == pytest.approx(sorted(c.efficiency for c in reality.cases()))
    steps = reality.ladder()
    fig = rp.ladder(steps)
    median = next(line for line in fig.axes[0].lines if line.get_label() == "median")
    np.testing.assert_allclose(median.get_ydata(), [np.median([c.efficiency for c in cs]) for _, cs in steps])


def test_registry_gained_what_the_rows_need():
    m = models.get("Llama-2-70B")
    assert m.kv_bytes_per_token("bf16") == 80 * 2 * 8 * 128 * 2           # 327,680: GQA with 8 KV heads
    assert hardware.get("TPU-v4-64").flops("bf16") == pytest.approx(64 * 275e12)
    assert hardware.get("HGX-H800").n_chips == 8
