"""The port check: two programs' spectra (FFTW-MPI's and its port's), each written as one file
per rank (spectrum_file.h), assembled into the global spectrum and compared to rounding.
    compare_spectra.py PREFIX_A RANKS_A PREFIX_B RANKS_B
Prints "ports: 1 passed, 0 failed" when they agree."""
import sys

import numpy as np


def assemble(prefix, ranks):
    planes = {}
    for r in range(ranks):
        raw = open(f"{prefix}.{r}", "rb").read()
        first, count = np.frombuffer(raw[:16], dtype=np.int64)
        values = np.frombuffer(raw[16:], dtype=np.complex128)
        if count:
            for i, plane in enumerate(values.reshape(count, -1)):
                planes[int(first) + i] = plane
    return np.array([planes[k] for k in sorted(planes)])


a = assemble(sys.argv[1], int(sys.argv[2]))
b = assemble(sys.argv[3], int(sys.argv[4]))
ok = a.shape == b.shape and np.abs(a - b).max() <= 1e-12 * np.abs(a).max()
error = np.abs(a - b).max() / np.abs(a).max() if a.shape == b.shape else float("inf")
print(f"spectra {a.shape}, relative difference {error:.1e}")
print(f"ports: {int(ok)} passed, {int(not ok)} failed")
sys.exit(0 if ok else 1)
