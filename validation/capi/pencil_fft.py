"""A 3D FFT in Python on the a2a transpose layer, checked against numpy.fft.fftn:
    mpirun --oversubscribe -np 4 python3 pencil_fft.py [BACKEND]
The field starts in x-slabs (each rank: a range of x, every y and z), is redistributed to
z-pencils on a P1 x P2 process grid, transformed along z, redistributed to y-pencils (row
communicator) and transformed along y, then to x-pencils (column communicator) and
transformed along x. Every rank compares its x-pencil with the same part of numpy's serial
transform of the whole field (every rank can make the input: a closed form).
Prints "pencil_fft.py: N passed, M failed"."""
import sys

import numpy as np
from mpi4py import MPI

import a2a

comm = MPI.COMM_WORLD
rank, procs = comm.Get_rank(), comm.Get_size()
backend = sys.argv[1] if len(sys.argv) > 1 else "auto"
n = (12, 10, 8)
p1, p2 = MPI.Compute_dims(procs, 2)
r1, r2 = divmod(rank, p2)
row, col = comm.Split(r1, r2), comm.Split(r2, r1)


def part(length, parts, index):
    return a2a.block_start(length, parts, index), a2a.block_start(length, parts, index + 1)


def field(box):
    (lo, hi) = box
    i, j, k = np.meshgrid(*[np.arange(l, h) for l, h in zip(lo, hi)], indexing="ij")
    return (np.sin(0.1 * i + 0.2 * j) + 1j * np.cos(0.3 * k + 0.05 * i)).astype(np.complex128)


def shape(box):
    return tuple(h - l for l, h in zip(*box))


x0, x1 = part(n[0], procs, rank)
slab = ((x0, 0, 0), (x1, n[1], n[2]))
(a0, a1), (b0, b1), (c0, c1) = part(n[0], p1, r1), part(n[1], p2, r2), part(n[2], p2, r2)
(d0, d1) = part(n[1], p1, r1)
zpencil = ((a0, b0, 0), (a1, b1, n[2]))
ypencil = ((a0, 0, c0), (a1, n[1], c1))
xpencil = ((0, d0, c0), (n[0], d1, c1))

checks = fails = 0


def check(ok, what):
    global checks, fails
    checks += 1
    if not ok:
        fails += 1
        print(f"[rank {rank}] FAILED: {what}", file=sys.stderr)


to_pencils = a2a.Redistribution(comm, slab, zpencil, np.complex128, backend)
z_to_y = a2a.Redistribution(row, zpencil, ypencil, np.complex128, backend)
y_to_x = a2a.Redistribution(col, ypencil, xpencil, np.complex128, backend)
# They run one after another: one set of buffers (and a window, single-copy on the same ranks).
steps = [to_pencils, z_to_y, y_to_x]
apart = sum(a2a.Redistribution.memory_bytes([r]) for r in steps)
largest = max(a2a.Redistribution.memory_bytes([r]) for r in steps)
z_to_y.share(to_pencils)
y_to_x.share(to_pencils)
shared = a2a.Redistribution.memory_bytes(steps)
check(largest <= shared <= apart, f"shared: {shared} bytes held, {apart} apart, {largest} the largest")

data = field(slab)
z = np.empty(shape(zpencil), np.complex128)
to_pencils.execute(data, z)
check(np.array_equal(z, field(zpencil)), "x-slabs -> z-pencils equal the closed form")
z = np.fft.fft(z, axis=2)
y = np.empty(shape(ypencil), np.complex128)
z_to_y.execute(np.ascontiguousarray(z), y)
y = np.fft.fft(y, axis=1)
x = np.empty(shape(xpencil), np.complex128)
y_to_x.execute(np.ascontiguousarray(y), x)
x = np.fft.fft(x, axis=0)

whole = np.fft.fftn(field(((0, 0, 0), n)))
want = whole[:, d0:d1, c0:c1]
error = np.max(np.abs(x - want)) / np.max(np.abs(whole)) if x.size else 0.0
error = comm.allreduce(error, op=MPI.MAX)
check(error < 1e-12, f"the distributed FFT equals numpy.fft.fftn (relative error {error:.3e})")

# Bad specs raise on every rank, nobody waits.
try:
    a2a.Redistribution(row, zpencil, ypencil, np.complex128, "nosuch")
    check(False, "a bad backend raises")
except a2a.SpecError as e:
    check("unknown backend 'nosuch'" in str(e) and e.code == 1, "a bad backend: SpecError")

totals = comm.allreduce(np.array([checks, fails]), op=MPI.SUM)
if rank == 0:
    print(f"pencil_fft.py {n[0]}x{n[1]}x{n[2]} on {p1}x{p2} via {z_to_y.backend}: relative max error "
          f"{error:.3e}")
    print(f"pencil_fft.py: {totals[0] - totals[1]} passed, {totals[1]} failed")
sys.exit(1 if totals[1] else 0)
