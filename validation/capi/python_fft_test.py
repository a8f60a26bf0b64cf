"""a2a.Fft from Python against NumPy and SciPy (computed here, on every rank, from one seeded
global array; no FFTW or a2a in the reference): random brick boxes on both sides (some ranks
empty), every real kind, DFT axes and none, r2c, batches interleaved and contiguous, double and
float; the round trip; and misuse: a wrong dtype, a too small or wrongly shaped array (on every
rank, or on one), a bad kind name, boxes that overlap, a batch of 0: one exception, the same on every rank, and no hang.
    mpirun -np P python3 python_fft_test.py
Prints "python_fft (P=N): X passed, Y failed" on rank 0."""
import numpy as np
import scipy.fft
from mpi4py import MPI

import a2a

comm = MPI.COMM_WORLD
P, me = comm.size, comm.rank
rng = np.random.default_rng(99 + P)
checks = failures = 0


def expect(ok, what):
    global checks, failures
    checks += 1
    if not ok:
        failures += 1
        print(f"[rank {me}] FAILED: {what}", flush=True)


def bricks(n):
    """Random bricks tiling n, dealt to the ranks in a random order (the same everywhere)."""
    factors = [(a, b, P // (a * b)) for a in range(1, P + 1) for b in range(1, P + 1)
               if P % (a * b) == 0]
    f = factors[rng.integers(len(factors))]
    cuts = [sorted([0, n[d]] + list(rng.integers(0, n[d] + 1, f[d] - 1))) for d in range(3)]
    boxes = [((cuts[0][i], cuts[1][j], cuts[2][k]), (cuts[0][i + 1], cuts[1][j + 1], cuts[2][k + 1]))
             for i in range(f[0]) for j in range(f[1]) for k in range(f[2])]
    order = rng.permutation(len(boxes))
    return [tuple(tuple(int(v) for v in corner) for corner in boxes[o]) for o in order]


def part(array, box, batch_layout):
    (lo, hi) = box
    piece = array[lo[0]:hi[0], lo[1]:hi[1], lo[2]:hi[2], ...]
    if batch_layout == "contiguous":
        piece = np.moveaxis(piece, 3, 0)
    return np.ascontiguousarray(piece)


def reference(data, kinds, r2c):
    out = np.fft.rfft(data, axis=2) if r2c else data
    for axis, kind in enumerate(kinds):
        if kind == "none" or (r2c and axis == 2):
            continue
        if kind == "dft":
            out = np.fft.fft(out, axis=axis)
        else:
            transform = scipy.fft.dct if kind.startswith("dct") else scipy.fft.dst
            out = transform(out, type=int(kind[3]), axis=axis)
    return out


cases = [((5, 6, 7), ("dct1", "dst2", "dct3"), False, 1),
         ((6, 5, 4), ("dst4", "dft", "dct4"), False, 3),
         ((7, 4, 9), ("dft", "dft", "dft"), True, 5),
         ((4, 6, 8), ("dst1", "none", "dft"), False, 2),
         ((6, 6, 5), ("dct2", "dst3", "none"), False, 1)]
for n, kinds, r2c, batch in cases:
    for precision, layout in (("double", "interleaved"), ("float", "contiguous")):
        label = f"{n} {kinds} r2c={r2c} batch={batch} {precision} {layout}"
        complex_in = "dft" in kinds and not r2c
        data = rng.standard_normal(n + (batch,))
        if complex_in:
            data = data + 1j * rng.standard_normal(n + (batch,))
        spectrum_grid = (n[0], n[1], n[2] // 2 + 1) if r2c else n
        in_box, out_box = bricks(n)[me], bricks(spectrum_grid)[me]
        fft = a2a.Fft(comm, n, in_box, out_box, kinds=kinds, r2c=r2c, batch=batch,
                      batch_layout=layout, precision=precision)
        x = part(data, in_box, layout).astype(fft.input_dtype)
        if batch == 1:
            x = x.reshape(fft.input_shape)
        y = fft.forward(x)
        want = part(reference(data, kinds, r2c), out_box, layout).reshape(fft.output_shape)
        scale = max(comm.allreduce(float(np.abs(want).max(initial=0)), op=MPI.MAX), 1e-300)
        error = comm.allreduce(float(np.abs(y - want).max(initial=0)), op=MPI.MAX) / scale
        tolerance = 1e-11 if precision == "double" else 2e-5
        expect(y.dtype == fft.output_dtype and y.shape == fft.output_shape, label + ": output")
        expect(error < tolerance, f"{label}: forward against SciPy, error {error:.1e}")
        back = fft.backward(y)
        trip = comm.allreduce(float(np.abs(back - x).max(initial=0)), op=MPI.MAX)
        expect(trip < 10 * tolerance, f"{label}: round trip, error {trip:.1e}")
        fft.close()

# FFTW-MPI's transposed layout: slabs in, the spectrum split along y and stored [y][x][z].
n = (6, 8, 5)
data = rng.standard_normal(n) + 1j * rng.standard_normal(n)
y_slab = a2a.slab_box(n, P, me, axis=1)
fft = a2a.Fft(comm, n, a2a.slab_box(n, P, me), y_slab, out_order=(1, 0, 2))
y = fft.forward(part(data[..., None], a2a.slab_box(n, P, me), "interleaved")[..., 0])
want = np.transpose(part(np.fft.fftn(data)[..., None], y_slab, "interleaved")[..., 0], (1, 0, 2))
expect(y.shape == want.shape and np.abs(y - want).max(initial=0) < 1e-10,
       "out_order (1, 0, 2): FFTW-MPI's transposed layout")
# The plan keeps its work arrays (no external workspace from Python) and more.
expect(isinstance(fft.memory_bytes, int) and fft.memory_bytes >= fft.workspace_bytes > 0,
       f"memory_bytes {fft.memory_bytes} holds workspace_bytes {fft.workspace_bytes}")
fft.close()
# TRA's work array: P blocks (the paper's W), kept by the plan.
with a2a.Plan("tra", comm, 1000) as plan:
    expect(plan.scratch_bytes >= (1000 * P if P > 1 else 0),
           f"tra's scratch_bytes {plan.scratch_bytes} holds its {P} blocks")

# r2c in place in FFTW's padded rows: one array, the spectrum over the real input.
n = (6, 5, 8)
data = rng.standard_normal(n)
slab = a2a.slab_box(n, P, me)
fft = a2a.Fft(comm, n, slab, slab[:1] + ((slab[1][0], slab[1][1], 5),), r2c=True,
              r2c_padded=True)
x = np.zeros(fft.input_shape)
x[..., :8] = part(data[..., None], slab, "interleaved")[..., 0]
y = fft.forward(x, out=x.view(np.complex128).reshape(fft.output_shape))
want = part(np.fft.rfftn(data)[..., None], fft_box := (slab[0], (slab[1][0], slab[1][1], 5)),
            "interleaved")[..., 0]
expect(np.abs(y - want).max(initial=0) < 1e-10 and np.shares_memory(x, y),
       "r2c in place in padded rows")
fft.close()


def same_error(what, make, cls, needle):
    """make() raises cls on every rank, with a message naming `needle`, the same everywhere."""
    message = None
    try:
        make()
    except cls as e:
        message = str(e)
    except Exception as e:  # noqa: BLE001: the wrong class is a failure, reported
        message = f"{type(e).__name__}: {e}"
    expect(message is not None and needle in message, f"{what}: raised {message!r}")
    expect(len(set(comm.allgather(message))) == 1, f"{what}: the same on every rank")


n = (6, 4, 5)
slab, pencil = a2a.slab_box(n, P, me), a2a.pencil_box(n, 0, P, me)
plan = a2a.Fft(comm, n, slab, pencil)
count = int(np.prod([h - l for l, h in zip(*slab)]))
same_error("a real array for a complex transform",
           lambda: plan.forward(np.zeros(count, np.float64)), TypeError, "dtype")
same_error("an array too small",
           lambda: plan.forward(np.zeros(count + 1, np.complex128)), ValueError, "shape")
same_error("one rank's array of the wrong shape",
           lambda: plan.forward(np.zeros(count + (me == P - 1), np.complex128)), ValueError,
           f"(rank {P - 1})" if P > 1 else "shape")
same_error("a bad kind", lambda: a2a.Fft(comm, n, slab, pencil, kinds=("dft", "dct5", "dft")),
           ValueError, "dct5")
if P > 1:
    overlap = a2a.slab_box(n, P, P - 1) if me == P - 2 else slab
    same_error("overlapping boxes", lambda: a2a.Fft(comm, n, overlap, pencil), a2a.Error,
               "overlap")
same_error("a batch of 0", lambda: a2a.Fft(comm, n, slab, pencil, batch=0), ValueError, "batch")
plan.close()

total = comm.allreduce(checks), comm.allreduce(failures)
if me == 0:
    print(f"python_fft (P={P}): {total[0] - total[1]} passed, {total[1]} failed")
raise SystemExit(1 if total[1] or total[0] == 0 else 0)
