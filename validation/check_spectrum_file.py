#!/usr/bin/env python3
"""check_spectrum_file.py F.h5: the datasets `a2a fft --output` wrote, checked with numpy (not
FFTW, not a2a): `spectrum` must be numpy.fft.fftn of `input` (c2c; rfftn for r2c) to 1e-10
relative, and neither may hold a NaN or Inf."""
import sys

import h5py
import numpy as np

with h5py.File(sys.argv[1], "r") as f:
    x = f["input"][...]
    s = f["spectrum"][...]
    transform = f.attrs["transform"]
    transform = transform.decode() if isinstance(transform, bytes) else str(transform)
spectrum = s[..., 0] + 1j * s[..., 1]
if transform == "r2c":
    want = np.fft.rfftn(x)
else:
    want = np.fft.fftn(x[..., 0] + 1j * x[..., 1])
finite = np.isfinite(spectrum).all() and np.isfinite(want).all()
error = np.abs(spectrum - want).max() / max(np.abs(want).max(), 1e-300) if finite else np.inf
ok = finite and spectrum.shape == want.shape and error <= 1e-10
print(f"{sys.argv[1]}: {transform} spectrum {spectrum.shape} vs numpy: relative error {error:.3e}"
      f" -> {'passed' if ok else 'FAILED'}")
sys.exit(0 if ok else 1)
