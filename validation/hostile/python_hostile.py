"""Hostile Python callers of the a2a package (mpirun -np P python3 python_hostile.py): objects a
NumPy user can hand over by mistake must be refused before anything is sent, with the same
outcome on every rank, never a crash or wrong data:
  - arrays of dtype object (pointers to Python objects, not data), of strings of objects;
  - a Redistribution's arrays in the wrong shape (a transposed copy of the right byte count);
  - integers out of range or not integers: block_bytes 2**64 + 8, 8.9, -8, True; counts that are
    negative, floats, 2**64 - 1; model(-1, 2), model(2**64 + 16, 2); block_start past its range;
  - a plan, an exchange and a redistribution used after comm.Free();
  - an Fft in a reference cycle that the cycle collector frees on one rank only (freeing is
    collective: it must not wait there for the other ranks), and one dropped while the
    collector runs in another thread (freed at once, as on the other ranks).
Prints "python_hostile: N passed, M failed"."""
import gc
import sys
import threading

import numpy as np
from mpi4py import MPI

import a2a

comm = MPI.COMM_WORLD
rank, procs = comm.Get_rank(), comm.Get_size()
checks = fails = 0


def check(ok, what):
    global checks, fails
    checks += 1
    if not ok:
        fails += 1
        print(f"[rank {rank}] FAILED: {what}", file=sys.stderr)


def raises(kind, what, call, words=""):
    """call() must raise `kind` (with `words` in its message) on this rank."""
    try:
        call()
    except kind as e:
        check(words in str(e), f"{what}: '{words}' in '{e}'")
        return
    except Exception as e:  # noqa: BLE001 - the wrong exception is what is tested
        check(False, f"{what}: {type(e).__name__} {e}, expected {kind.__name__}")
        return
    check(False, f"{what}: no exception, expected {kind.__name__}")


block = 16
good_send = np.arange(procs * block, dtype=np.uint8)
good_recv = np.zeros(procs * block, dtype=np.uint8)
with a2a.Plan("mpi", comm, block) as plan:
    objects = np.array(["x"] * 2 * procs * block, dtype=object)
    raises(TypeError, "object send array", lambda: plan.execute(objects, good_recv), "dtype object")
    raises(TypeError, "object recv array",
           lambda: plan.execute(good_send, np.empty(procs * block, dtype=object)), "dtype object")
    mixed = np.zeros(procs, dtype=[("a", "i8"), ("b", "O")])
    raises(TypeError, "structured dtype holding objects", lambda: plan.execute(mixed, good_recv))
    plan.execute(good_send, good_recv)  # still usable, nothing was sent before
    want = np.zeros_like(good_recv)
    comm.Alltoall(good_send, want)
    check(np.array_equal(good_recv, want), "the plan still works after the refusals")

for value, kind, words in [(2**64 + 8, ValueError, "outside"), (8.9, TypeError, "integer"),
                           (-8, ValueError, "outside"), (True, TypeError, "integer"),
                           ("8", TypeError, "integer")]:
    raises(kind, f"block_bytes={value!r}", lambda: a2a.Plan("mpi", comm, value), words)

counts = np.full(procs, 4)
displs = np.arange(procs) * 4
with a2a.VectorExchange("linear", comm) as ex:
    buf = np.zeros(4 * procs, dtype=np.uint8)
    for bad, kind, what in [(np.full(procs, -4), ValueError, "negative counts"),
                            (np.full(procs, 4.0), TypeError, "float counts"),
                            (np.full(procs, 2**64 - 1, dtype=np.uint64), ValueError, "2^64 - 1"),
                            (np.full(procs + 1, 4), ValueError, "one count too many")]:
        raises(kind, what, lambda: ex.execute(buf, bad, displs, buf.copy(), counts, displs))

for args, kind in [((-1, 2), ValueError), ((2**64 + 16, 2), ValueError), ((16, 1), ValueError),
                   ((16.0, 2), TypeError)]:
    raises(kind, f"model{args}", lambda: a2a.model(*args))
check(a2a.model(16384, 128) == {"digits": 2, "rounds": 254, "blocks": 32512},
      "model(16384, 128): the paper's values")
raises(a2a.Error, "model(2**63 + 1, 2): D does not fit", lambda: a2a.model(2**63 + 1, 2),
       "exceeds 2^64 - 1")
check(a2a.block_start(2**62, 4, 3) == 3 * 2**60, "block_start(2^62, 4, 3)")
raises(ValueError, "block_start(10, 2, 3)", lambda: a2a.block_start(10, 2, 3))

# A redistribution of 4 x 3 x 2 per rank: the transposed copy has the right bytes, wrong shape.
box = ((rank * 4, 0, 0), (rank * 4 + 4, 3, 2))
with a2a.Redistribution(comm, box, box, np.float64, "mpi") as r:
    x = np.arange(24, dtype=np.float64).reshape(4, 3, 2)
    y = np.zeros_like(x)
    raises(ValueError, "a transposed array of the right size",
           lambda: r.execute(np.ascontiguousarray(x.transpose()), y), "shape")
    raises(ValueError, "an array of the wrong size", lambda: r.execute(x[:3], y), "bytes")
    r.execute(x.ravel(), y)  # flat is fine
    check(np.array_equal(x, y), "a flat array over the box")
raises(ValueError, "a box of two corners that are not triples",
       lambda: a2a.Redistribution(comm, ((0, 0), (1, 1)), box, np.float64))
raises(TypeError, "a dtype of objects", lambda: a2a.Redistribution(comm, box, box, object))

# One rank's bad argument to a collective create: the same exception, with the same message
# naming that rank, on every rank (the others, whose arguments are good, would wait in the
# create otherwise).
bad_rank = procs - 1
good_redistribution = lambda: a2a.Redistribution(comm, box, box, 8)  # noqa: E731
for what, bad, good, kind, words in [
        ("a box of None", lambda: a2a.Redistribution(comm, None, box, 8), good_redistribution,
         ValueError, "in_box"),
        ("a float coordinate",
         lambda: a2a.Redistribution(comm, ((box[0][0] + 0.5, 0, 0), box[1]), box, 8),
         good_redistribution, TypeError, "integer"),
        ("a negative element size", lambda: a2a.Redistribution(comm, box, box, -8),
         good_redistribution, ValueError, "outside"),
        ("dtype=object", lambda: a2a.Redistribution(comm, box, box, object), good_redistribution,
         TypeError, "numeric"),
        ("backend=5", lambda: a2a.Redistribution(comm, box, box, 8, backend=5),
         good_redistribution, TypeError, "backend spec"),
        ("block_bytes=8.5", lambda: a2a.Plan("mpi", comm, 8.5), lambda: a2a.Plan("mpi", comm, 8),
         TypeError, "integer"),
        ("a spec of 3", lambda: a2a.VectorExchange(3, comm),
         lambda: a2a.VectorExchange("linear", comm), TypeError, "backend spec")]:
    raises(kind, f"{what} on rank {bad_rank} only", bad if rank == bad_rank else good,
           f"(rank {bad_rank})" if procs > 1 else words)
# backend=None means auto, as NULL does in C.
with a2a.Redistribution(comm, box, box, np.float64, backend=None) as r:
    check(r.backend.startswith("auto"), f"backend=None is auto: {r.backend}")

# An inter-communicator (even and odd ranks) is refused on every rank before any collective.
if procs >= 2:
    half = comm.Split(rank % 2, rank)
    inter = half.Create_intercomm(0, comm, 1 if rank % 2 == 0 else 0, 7)
    for what, make in [("Plan", lambda: a2a.Plan("linear", inter, 8)),
                       ("VectorExchange", lambda: a2a.VectorExchange("sloav", inter)),
                       ("Redistribution", lambda: a2a.Redistribution(inter, box, box, 8))]:
        raises(a2a.Error, f"a {what} on an inter-communicator", make, "inter-communicator")
    merged = inter.Merge(rank % 2)
    with a2a.Redistribution(merged, ((merged.Get_rank(), 0, 0), (merged.Get_rank() + 1, 2, 2)),
                            ((merged.Get_rank(), 0, 0), (merged.Get_rank() + 1, 2, 2)), 8) as r:
        check(True, "the merged intra-communicator")
    merged.Free()
    inter.Free()
    half.Free()

# After comm.Free(): an error on every rank, the receive buffer untouched.
dup = comm.Dup()
plan = a2a.Plan("tra:r=2", dup, block)
ex = a2a.VectorExchange("sloav", dup)
dup.Free()
other = comm.Split(rank % 2, rank)
recv = np.full(procs * block, 0x5A, dtype=np.uint8)
raises(a2a.Error, "a plan after comm.Free()", lambda: plan.execute(good_send, recv), "freed")
raises(a2a.Error, "an exchange after comm.Free()",
       lambda: ex.execute(good_send, np.full(procs, block), np.arange(procs) * block, recv,
                          np.full(procs, block), np.arange(procs) * block), "freed")
check(bool((recv == 0x5A).all()), "the receive buffer untouched")
plan.close()
ex.close()
other.Free()

# The FFT library (where a2a was built with FFTW): a create on an inter-communicator, and a plan
# of the tuned slab path (whose exchanges run on communicators split from the caller's) after
# comm.Free(): errors on every rank, the output untouched.
try:
    a2a._require_fft()
    has_fft = True
except a2a.Error:
    has_fft = False
if has_fft:
    n = (8, 6, 4)
    slab, y_slab = a2a.slab_box(n, procs, rank), a2a.slab_box(n, procs, rank, axis=1)
    if procs >= 2:
        half = comm.Split(rank % 2, rank)
        inter = half.Create_intercomm(0, comm, 1 if rank % 2 == 0 else 0, 8)
        raises(a2a.Error, "an Fft on an inter-communicator",
               lambda: a2a.Fft(inter, n, slab, y_slab, out_order=(1, 0, 2)), "inter-communicator")
        inter.Free()
        half.Free()
    dup = comm.Dup()
    fft = a2a.Fft(dup, n, slab, y_slab, out_order=(1, 0, 2))
    x = np.random.default_rng(rank).standard_normal(fft.input_shape) + 0j
    check(np.allclose(fft.backward(fft.forward(x), scaling="full"), x),
          "an Fft's round trip on a live communicator")
    dup.Free()
    spectrum = np.full(fft.output_shape, 5 + 5j)
    raises(a2a.Error, "an Fft's forward after comm.Free()",
           lambda: fft.forward(x, out=spectrum), "freed")
    check(bool((spectrum == 5 + 5j).all()), "the Fft's output untouched")
    fft.close()

    # agree_calls=False: each rank checks its own call (no collective), a correct round trip
    # runs; set on one rank only, the options differ and the plan is refused on every rank.
    with a2a.Fft(comm, n, slab, y_slab, out_order=(1, 0, 2), agree_calls=False) as local:
        check(np.allclose(local.backward(local.forward(x), scaling="full"), x),
              "agree_calls=False: a round trip")
        raises(ValueError, "agree_calls=False: a bad scaling on every rank",
               lambda: local.forward(x, scaling="half"), "scaling")
    if procs >= 2:
        raises(a2a.Error, "agree_calls=False on one rank only",
               lambda: a2a.Fft(comm, n, slab, y_slab, out_order=(1, 0, 2),
                               agree_calls=rank != procs - 1), "differ")

    # Freeing is collective, and Python's cycle collector runs when each rank's own allocations
    # trigger it: an Fft held in a reference cycle and collected on rank 0 only is parked there
    # (a collective free would wait for ranks that are in their next call); once every rank has
    # collected it, the next call that agrees with the others frees it on all of them.
    class Solver:
        def __init__(self):
            self.fft = a2a.Fft(comm, n, slab, y_slab, out_order=(1, 0, 2))
            self.step = self.run  # a bound method: the solver is in a reference cycle

        def run(self, u):
            return self.fft.forward(u)

    gc.disable()  # the collector runs only where this test says
    freeing = a2a._freeing(comm)
    solver = Solver()
    solver.run(x)
    del solver
    if rank == 0:
        gc.collect()
    with a2a.Fft(comm, n, slab, y_slab, out_order=(1, 0, 2)) as other:
        check(np.allclose(other.backward(other.forward(x), scaling="full"), x),
              "a round trip while rank 0 alone has collected an Fft")
        check(len(freeing.parked) == (1 if rank == 0 else 0),
              f"parked where collected: {len(freeing.parked)}")
        gc.collect()
        check(len(freeing.parked) == 1, f"parked once every rank collected: {len(freeing.parked)}")
        other.forward(x)
        check(len(freeing.parked) == 0, f"freed at the next agreed call: {len(freeing.parked)}")
    # While the collector runs in another thread, what this thread drops is freed at once, at
    # the same point as on the ranks where no collection runs.
    elsewhere = threading.Thread(target=a2a._collector_phase, args=("start", {}))
    elsewhere.start()
    elsewhere.join()
    dropped = a2a.Fft(comm, n, slab, y_slab, out_order=(1, 0, 2))
    del dropped
    check(len(freeing.parked) == 0, "dropped while another thread collects: freed at once")
    a2a._collector_phase("stop", {})
    gc.enable()

totals = comm.allreduce(np.array([checks, fails]))
if rank == 0:
    print(f"python_hostile: {totals[0] - totals[1]} passed, {totals[1]} failed")
sys.exit(1 if totals[1] else 0)
