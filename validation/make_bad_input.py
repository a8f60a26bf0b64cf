#!/usr/bin/env python3
"""make_bad_input.py FILE N0xN1xN2 nan|inf|string|integers|ok|real: an a2a fft input file written by h5py
(dataset "input", complex as (n0, n1, n2, 2) float64; `real`: (n0, n1, n2) float64 for r2c), with
one NaN or Inf at a fixed point. The checks
that read it must fail: a2a fft --input FILE --check serial|roundtrip."""
import sys

import h5py
import numpy as np

path, grid, kind = sys.argv[1], sys.argv[2], sys.argv[3]
n = [int(x) for x in grid.split("x")]
rng = np.random.default_rng(7)
data = rng.standard_normal(n + [2])
if kind == "nan":
    data[1, 2, 3, 0] = np.nan
elif kind == "inf":
    data[n[0] - 1, 0, 1, 1] = np.inf
with h5py.File(path, "w") as f:
    if kind == "string":
        f.create_dataset("input", data="not numbers")  # a scalar string dataset
    elif kind == "integers":
        f.create_dataset("input", data=np.zeros(n + [2], dtype=np.int32))
    elif kind == "real":
        f.create_dataset("input", data=data[..., 0])
    else:
        f.create_dataset("input", data=data)
print(f"{path}: {grid} input with {kind}")
