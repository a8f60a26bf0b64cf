"""A distributed 3D transform from Python with a2a.Fft: a DCT-II along x and DFTs along y and
z of a 24 x 20 x 16 field held in slabs, the spectrum wanted in x-pencils, checked against
SciPy, then transformed back."""
import numpy as np
import scipy.fft
from mpi4py import MPI

import a2a

comm = MPI.COMM_WORLD
n = (24, 20, 16)
field = np.random.default_rng(7).standard_normal(n) + 0j  # every rank makes the same one
mine = a2a.slab_box(n, comm.size, comm.rank)                # the box this rank holds
wanted = a2a.pencil_box(n, 0, comm.size, comm.rank)         # the box it wants back
fft = a2a.Fft(comm, n, mine, wanted, kinds=("dct2", "dft", "dft"))  # collective: plans once

def part(array, box):
    (lo, hi) = box
    return np.ascontiguousarray(array[lo[0]:hi[0], lo[1]:hi[1], lo[2]:hi[2]])

spectrum = fft.forward(part(field, mine))
reference = np.fft.fftn(scipy.fft.dct(field, type=2, axis=0), axes=(1, 2))
error = comm.allreduce(np.max(np.abs(spectrum - part(reference, wanted)), initial=0), op=MPI.MAX)
back = fft.backward(spectrum)                               # DCT-III and inverse DFTs, 1/N
round_trip = comm.allreduce(np.max(np.abs(back - part(field, mine)), initial=0), op=MPI.MAX)
ok = error < 1e-9 * np.abs(reference).max() and round_trip < 1e-12
if comm.rank == 0:
    print(f"{fft.description}: error {error:.1e}, round trip {round_trip:.1e}:",
          "passed" if ok else "FAILED")
if not ok:
    comm.Abort(1)
