"""The Python package against mpi4py's own collectives and closed forms:
    mpirun -np P python3 python_test.py UNIFORM_SPEC VECTOR_SPEC
Plans (uniform, fixed vector) and the per-call exchange with changing counts against
comm.Alltoall/Alltoallv; the registry and the model; errors: bad specs raise the same
SpecError on every rank, bad buffers raise ValueError before anything is sent."""
import sys

import numpy as np
from mpi4py import MPI

import a2a

comm = MPI.COMM_WORLD
rank, procs = comm.Get_rank(), comm.Get_size()
uniform_spec, vector_spec = (sys.argv[1:3] + ["tra:r=2", "sloav"])[:2] if len(sys.argv) < 3 \
    else sys.argv[1:3]
checks = fails = 0


def check(ok, what):
    global checks, fails
    checks += 1
    if not ok:
        fails += 1
        print(f"[rank {rank}] FAILED: {what}", file=sys.stderr)


def pattern(s, d, count):
    return ((s * 131 + d * 31 + np.arange(count) * 7 + 1) % 256).astype(np.uint8)


# Uniform
block = 11
send = np.concatenate([pattern(rank, d, block) for d in range(procs)])
got, want = np.zeros_like(send), np.zeros_like(send)
with a2a.Plan(uniform_spec, comm, block) as plan:
    plan.execute(send, got)
    comm.Alltoall(send, want)
    check(np.array_equal(got, want), f"uniform {plan.name} equals comm.Alltoall")
    check(np.array_equal(got, np.concatenate([pattern(s, rank, block) for s in range(procs)])),
          "uniform equals the closed form")
    check(plan.counters["bytes_sent"] >= 0, "counters")

# Vector: counts change every call (per-call exchange) and a fixed plan per layout.
ex = a2a.VectorExchange(vector_spec, comm)
for variant in range(3):
    sc = np.array([(rank + d + variant) % 4 * 5 for d in range(procs)], np.uint64)
    rc = np.array([(s + rank + variant) % 4 * 5 for s in range(procs)], np.uint64)
    sd = np.concatenate([[0], np.cumsum(sc[:-1] + 3)]).astype(np.uint64)  # gaps of 3 bytes
    rd = np.concatenate([[0], np.cumsum(rc[:-1] + 3)]).astype(np.uint64)
    send = np.zeros(int(sd[-1] + sc[-1]) + 1, np.uint8)
    for d in range(procs):
        send[int(sd[d]):int(sd[d] + sc[d])] = pattern(rank, d, int(sc[d]))
    want = np.full(int(rd[-1] + rc[-1]) + 1, 0xEE, np.uint8)
    comm.Alltoallv([send, (sc.astype(int), sd.astype(int)), MPI.BYTE],
                   [want, (rc.astype(int), rd.astype(int)), MPI.BYTE])
    got = np.full_like(want, 0xEE)
    ex.execute(send, sc, sd, got, rc, rd)
    check(np.array_equal(got, want), f"per-call {ex.name} equals comm.Alltoallv ({variant})")
    got = np.full_like(want, 0xEE)
    fixed = a2a.Plan.vector(vector_spec, comm, sc, sd, rc, rd)
    fixed.execute(send, got)
    check(np.array_equal(got, want), f"fixed {fixed.name} equals comm.Alltoallv ({variant})")
    fixed.close()
# A single-copy exchange holds the largest call's received bytes in its window, kept after it
# (where every rank shares one node: the backend needs it).
node = comm.Split_type(MPI.COMM_TYPE_SHARED)
on_one_node = comm.allreduce(node.Get_size()) == procs * procs
node.Free()
if on_one_node:
    with a2a.VectorExchange("shared_window", comm) as shared:
        held = 0
        for size in (64, 4096, 16):
            counts = np.full(procs, size, np.uint64)
            displs = (np.arange(procs) * size).astype(np.uint64)
            send = np.zeros(size * procs, np.uint8)
            got = np.zeros_like(send)
            shared.execute(send, counts, displs, got, counts, displs)
            check(shared.scratch_bytes >= max(held, size * procs),
                  f"shared_window per call: scratch_bytes {shared.scratch_bytes} holds "
                  f"{size * procs} bytes and what it held")
            held = shared.scratch_bytes

# Registry and model
names = [a["name"] for a in a2a.list_algorithms()]
check({"mpi", "tra", "tra2", "sloav", "sloavx", "random_scatter", "auto"} <= set(names),
      "the registry lists the algorithms")
check(a2a.model(16384, 128) == {"digits": 2, "rounds": 254, "blocks": 32512}, "the model")

# Errors: the same on every rank, no hang
for spec, kind in [("nosuch", a2a.SpecError), ("tra:r=999999", a2a.SpecError)]:
    try:
        a2a.Plan(spec, comm, 8)
        check(False, f"{spec} raises")
    except kind as e:
        codes = comm.allgather(e.code)
        check(len(set(codes)) == 1, f"{spec}: the same error on every rank")
try:
    a2a.VectorExchange("tra", comm)
    check(False, "a uniform-only backend for a per-call Alltoallv raises")
except a2a.SpecError:
    check(True, "")
with a2a.Plan("mpi", comm, 8) as plan:
    try:
        plan.execute(np.zeros(8 * procs, np.uint8), np.zeros(4, np.uint8))
        check(False, "a short receive buffer raises")
    except ValueError:
        check(True, "")

totals = comm.allreduce(np.array([checks, fails]), op=MPI.SUM)
if rank == 0:
    print(f"python_test ({uniform_spec}, {vector_spec}): {totals[0] - totals[1]} passed, "
          f"{totals[1]} failed")
sys.exit(1 if totals[1] else 0)
