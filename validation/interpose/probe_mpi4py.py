"""A Python MPI program (mpi4py and NumPy, no a2a import) that calls Alltoall and Alltoallv the
ways mpi4py users do, for liba2a_interpose.so preloaded into python3 (and without it): every
result against a closed form of the sending rank and the position. Cases: NumPy buffers of
float64, complex128 and int32 at 1, 3 and 1000 values per peer; MPI.IN_PLACE; Alltoallv with
counts that differ per pair, zero counts and gaps between blocks; a resized vector datatype
(every other double, the gaps kept); the lowercase alltoall of Python objects, which mpi4py
pickles and sends through MPI_Alltoall (sizes) and MPI_Alltoallv (bytes); a split
communicator. Prints "probe_mpi4py.py: N passed, M failed"."""
import sys

import numpy as np
from mpi4py import MPI

world = MPI.COMM_WORLD
checks = failures = 0


def expect(ok, what):
    global checks, failures
    checks += 1
    if not ok:
        failures += 1
        print(f"[rank {world.rank}] FAILED: {what}", file=sys.stderr)


def value(source, dest, i):
    """What rank `source` sends as the i-th value of its block for rank `dest`."""
    return 1_000_000 * source + 1000 * dest + i


def uniform(comm, what):
    r, p = comm.rank, comm.size
    for n in (1, 3, 1000):
        for dtype in (np.float64, np.complex128, np.int32):
            send = np.array([value(r, q, i) for q in range(p) for i in range(n)], dtype=dtype)
            want = np.array([value(q, r, i) for q in range(p) for i in range(n)], dtype=dtype)
            recv = np.full(p * n, -1, dtype=dtype)
            comm.Alltoall(send, recv)
            expect(np.array_equal(recv, want), f"{what}: Alltoall of {n} {np.dtype(dtype)}")
            comm.Alltoall(MPI.IN_PLACE, send)
            expect(np.array_equal(send, want), f"{what}: Alltoall in place, {n} {np.dtype(dtype)}")


def vector(comm, what):
    r, p = comm.rank, comm.size

    def count(source, dest):  # differs per pair, 0 for some
        return (3 * source + dest) % 4

    gap = 2  # values left untouched between blocks
    sc = np.array([count(r, q) for q in range(p)], dtype=np.int32)
    rc = np.array([count(q, r) for q in range(p)], dtype=np.int32)
    sd = np.array([sum(sc[:q]) + gap * q for q in range(p)], dtype=np.int32)
    rd = np.array([sum(rc[:q]) + gap * q for q in range(p)], dtype=np.int32)
    send = np.full(int(sd[-1] + sc[-1]), -7, dtype=np.int64)
    for q in range(p):
        send[sd[q]:sd[q] + sc[q]] = [value(r, q, i) for i in range(sc[q])]
    recv = np.full(int(rd[-1] + rc[-1]) + gap, -9, dtype=np.int64)
    want = recv.copy()
    for q in range(p):
        want[rd[q]:rd[q] + rc[q]] = [value(q, r, i) for i in range(rc[q])]
    comm.Alltoallv([send, (sc, sd), MPI.INT64_T], [recv, (rc, rd), MPI.INT64_T])
    expect(np.array_equal(recv, want), f"{what}: Alltoallv with zero counts and gaps")


def derived(comm, what):
    r, p = comm.rank, comm.size
    every_other = MPI.DOUBLE.Create_vector(2, 1, 2)
    block = every_other.Create_resized(0, 4 * 8)  # 4 doubles a block: values 0 and 2 moved
    block.Commit()
    send = np.array([value(r, q, i) for q in range(p) for i in range(4)], dtype=np.float64)
    recv = np.full(4 * p, -1.0)
    want = recv.copy()
    for q in range(p):
        want[4 * q] = value(q, r, 0)
        want[4 * q + 2] = value(q, r, 2)
    comm.Alltoall([send, 1, block], [recv, 1, block])
    expect(np.array_equal(recv, want), f"{what}: Alltoall of a resized vector type")
    block.Free()
    every_other.Free()


def objects(comm, what):
    r, p = comm.rank, comm.size
    got = comm.alltoall([{"from": r, "to": q, "data": list(range(r + q))} for q in range(p)])
    expect(got == [{"from": q, "to": r, "data": list(range(q + r))} for q in range(p)],
           f"{what}: alltoall of pickled objects")


for comm, what in ((world, "world"), (world.Split(world.rank % 2, -world.rank), "split")):
    uniform(comm, what)
    vector(comm, what)
    derived(comm, what)
    objects(comm, what)
    if comm != world:
        comm.Free()

totals = world.allreduce(np.array([checks, failures]))
if world.rank == 0:
    print(f"probe_mpi4py.py: {totals[0] - totals[1]} passed, {totals[1]} failed")
sys.exit(1 if totals[1] else 0)
