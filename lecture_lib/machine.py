"""This computer's own roofline, measured (notebook 09): achieved FLOP/s against arithmetic intensity.

Chapter 1's roofline says a kernel of arithmetic intensity I (FLOP per byte moved) runs at most at
min(F, I·BW). Here both ceilings are measured on the machine the notebook runs on:

    memory ceiling   a large array copy (far larger than the caches): bytes read + written per second
    compute ceiling  the fastest of a family of matmuls  A (n × n) · X (n × k)  of growing k
    intensity        2·n²·k FLOPs over the (n² + 2·n·k)·b bytes the matmul must at least move
                     (A once, X read, the result written; b bytes per element): about k/2 FLOP/byte
                     in float32 once n ≫ k, so small k is memory-bound and large k compute-bound.

`measure(quick=True)` takes a few seconds (quick, for the test run); `quick=False` uses bigger arrays and
more repeats for steadier numbers. Timing: `time.perf_counter`, one warm-up call, then the best of
`repeats` (the run least disturbed by other work on the machine). NumPy's BLAS uses every core it is
given; the results say how many threads it reported (threadpoolctl when installed). Shared machines
(this course's CI runs beside other jobs) are noisy: read the numbers as this moment's, not the chip's.

`measure_torch()` does the same on a CUDA GPU with PyTorch when both are present, and returns None
otherwise (PyTorch is optional and never installed by this course).

Units: FLOP/s, bytes/s, FLOP per byte, seconds.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass

import numpy as np

from . import roofline
from .training import matmul_flops
from .formula import numeric

# the same ridge point as chapter 1's hardware_ratio: peak FLOP/s over bytes/s
ridge_expr = roofline.hardware_ratio_expr


@dataclass(frozen=True)
class Roofline:
    """A measured roofline. intensity (FLOP/byte), flops (achieved FLOP/s) and seconds per point are arrays
    in order of growing intensity; bandwidth (bytes/s) from the copy; peak_flops the best matmul."""
    device: str
    dtype: str
    intensity: np.ndarray
    flops: np.ndarray
    seconds: np.ndarray
    bandwidth: float
    threads: int | None
    n: int

    @property
    def peak_flops(self) -> float:
        """The compute ceiling: the fastest matmul measured, FLOP/s."""
        return float(np.max(self.flops))

    @property
    def ridge(self) -> float:
        """Ridge point, FLOP/byte: where I·BW meets the compute ceiling (chapter 1's hardware ratio)."""
        return numeric(ridge_expr)(F=self.peak_flops, BW=self.bandwidth)

    def ceiling(self, intensity):
        """min(peak, I·BW): the roofline at `intensity` (FLOP/byte; arrays ok), FLOP/s."""
        return np.minimum(self.peak_flops, np.asarray(intensity, float) * self.bandwidth)


def _best(fn, repeats: int) -> float:
    """Best wall time of fn() over `repeats` runs after one warm-up, s."""
    fn()
    best = np.inf
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def blas_threads() -> int | None:
    """Threads NumPy's BLAS reports (threadpoolctl if installed; else the environment's setting or None)."""
    try:
        from threadpoolctl import threadpool_info
        counts = [p["num_threads"] for p in threadpool_info() if p.get("user_api") == "blas"]
        return max(counts) if counts else None
    except ImportError:
        for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
            if os.environ.get(var, "").isdigit():
                return int(os.environ[var])
        return None


def matmul_intensity(n, k, bytes_per_element):
    """FLOP per byte of A (n × n) · X (n × k): 2·n²·k / ((n² + 2·n·k)·b), the least traffic it can have."""
    n, k = np.asarray(n, float), np.asarray(k, float)
    return matmul_flops(n, n, k) / ((n * n + 2 * n * k) * bytes_per_element)


def copy_bandwidth(n_bytes: int, repeats: int = 3) -> float:
    """Bytes/s of copying an n_bytes array into another (n_bytes read + n_bytes written per copy)."""
    if n_bytes < 1 << 20:
        raise ValueError(f"n_bytes must be at least 1 MiB to measure memory, not caches, got {n_bytes!r}")
    src = np.ones(n_bytes // 8, dtype=np.float64)
    dst = np.empty_like(src)
    t = _best(lambda: np.copyto(dst, src), repeats)
    return 2 * src.nbytes / t


def measure(quick: bool = True, dtype=np.float32) -> Roofline:
    """Measure this machine's roofline with NumPy (a few seconds when quick; ~30 s otherwise).

    quick: A is 4096 × 4096 (64 MiB in float32, more than most caches) and k doubles from 1 to 512, best
    of 3; the copy moves 256 MiB. quick=False: k up to 2048, best of 7, a 1 GiB copy.
    """
    n, k_max, repeats, copy_bytes = (4096, 512, 3, 256 << 20) if quick else (4096, 2048, 7, 1 << 30)
    dt = np.dtype(dtype)
    rng = np.random.default_rng(0)
    a = rng.random((n, n), dtype=dt)
    ks = 2 ** np.arange(int(np.log2(k_max)) + 1)
    seconds = []
    for k in ks:
        x = rng.random((n, int(k)), dtype=dt)
        out = np.empty((n, int(k)), dtype=dt)
        seconds.append(_best(lambda x=x, out=out: np.matmul(a, x, out=out), repeats))
    seconds = np.asarray(seconds)
    flops = matmul_flops(n, n, ks) / seconds
    return Roofline(device="CPU (NumPy)", dtype=dt.name, intensity=matmul_intensity(n, ks, dt.itemsize),
                    flops=flops, seconds=seconds, bandwidth=copy_bandwidth(copy_bytes, repeats),
                    threads=blas_threads(), n=n)


def measure_torch(quick: bool = True) -> Roofline | None:
    """The same on a CUDA GPU with PyTorch (bf16 matmuls, a device-to-device copy); None when PyTorch or
    a CUDA device is missing. Never installs anything."""
    try:
        import torch
    except ImportError:
        return None
    if not torch.cuda.is_available():
        return None
    n, k_max, repeats, copy_bytes = (8192, 8192, 3, 1 << 30) if quick else (16384, 16384, 10, 4 << 30)
    dev = torch.device("cuda")

    def timed(fn):
        fn()
        torch.cuda.synchronize()
        best = np.inf
        for _ in range(repeats):
            t0 = time.perf_counter()
            fn()
            torch.cuda.synchronize()
            best = min(best, time.perf_counter() - t0)
        return best

    a = torch.randn(n, n, device=dev, dtype=torch.bfloat16)
    ks = 2 ** np.arange(int(np.log2(k_max)) + 1)
    seconds = np.asarray([timed(lambda x=torch.randn(n, int(k), device=dev, dtype=torch.bfloat16): a @ x)
                          for k in ks])
    src = torch.empty(copy_bytes // 2, device=dev, dtype=torch.bfloat16)
    dst = torch.empty_like(src)
    bandwidth = 2 * copy_bytes / timed(lambda: dst.copy_(src))
    return Roofline(device=torch.cuda.get_device_name(0), dtype="bfloat16", intensity=matmul_intensity(n, ks, 2),
                    flops=matmul_flops(n, n, ks) / seconds, seconds=seconds, bandwidth=bandwidth, threads=None, n=n)


__all__ = ["Roofline", "measure", "measure_torch", "copy_bandwidth", "matmul_intensity", "blas_threads", "ridge_expr"]
