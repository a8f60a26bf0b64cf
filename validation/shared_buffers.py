#!/usr/bin/env python3
"""scripts/simulate --shared-buffers: folding the exchange buffers changes memory, not times.

1. The same simulated bench (uniform Alltoall through the direct, Bruck, TRA, TRA2 and
   randomized backends; random Alltoallv through SLOAV, SLOAVx, TRA-v and the padded Bruck)
   with and without folding from 1 KiB: every simulated time must be equal to the last digit
   (nothing is computed in the simulation, so what the buffers hold cannot change a time).
2. Folding must take effect: a run whose buffers total about 0.9 GiB over all ranks must peak
   at less than a quarter of the private memory of the same run unfolded.
3. Every check on folded buffers (bench --check, fft and fft1d --check serial, NPB IS, a deck)
   is refused with a clear message (the contents are shared).

usage: shared_buffers.py SIMULATE WORKDIR
"""
import json
import pathlib
import subprocess
import sys
import time

simulate, work = sys.argv[1], pathlib.Path(sys.argv[2])
work.mkdir(parents=True, exist_ok=True)
failures = []


def descendants(pid):
    """Every live process under pid (ppid chains read from /proc)."""
    parent = {}
    for stat in pathlib.Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            parent[int(stat.parent.name)] = int(fields[1])
        except (OSError, IndexError, ValueError):
            pass
    found, frontier = set(), {pid}
    while frontier:
        frontier = {p for p, pp in parent.items() if pp in frontier} - found
        found |= frontier
    return found


def anonymous_kib(pid):
    """Private (anonymous) resident memory: pages SMPI folds are file-backed and not in it."""
    try:
        for line in open(f"/proc/{pid}/status"):
            if line.startswith("RssAnon:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def run(name, fold, *args):
    """Simulates `bench ARGS` on P = args[0] ranks; returns its records and the peak private
    memory of the simulation (sampled every 20 ms)."""
    out = work / f"{name}.jsonl"
    cmd = [simulate, "dragonfly", "-np", str(args[0]), "-q", "4", "--timeout", "600", "--out", str(out)]
    if fold:
        cmd += ["--shared-buffers", str(fold)]
    cmd += ["--", "bench", *args[1:]]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    peak = 0
    while proc.poll() is None:
        peak = max([peak] + [anonymous_kib(p) for p in descendants(proc.pid)])
        time.sleep(0.02)
    stdout, stderr = proc.communicate()
    if proc.returncode != 0:
        sys.exit(f"FAILED: {' '.join(cmd)}\n{stdout}\n{stderr}")
    records = {(r["label"], r["bytes"], r.get("distribution", "")): r for r in map(json.loads, open(out))}
    return records, peak


cases = [
    ("uniform", 16, "--algorithms", "linear;pairwise;bruck;tra:r=4;tra:r=4,window=all;tra2:q=4;"
     "tra_modified:r=2;random_sendrecv;random_scatter",
     "--sizes", "16,1024,4096"),
    ("vector", 16, "--vector", "random", "--algorithms", "sloav;sloavx:q=4;tra_v;padded_bruck_v;linear",
     "--sizes", "256,4096"),
]
for name, procs, *args in cases:
    plain, _ = run(f"{name}-plain", 0, procs, *args)
    folded, _ = run(f"{name}-folded", 1024, procs, *args)
    if plain.keys() != folded.keys():
        failures.append(f"{name}: different records {sorted(plain.keys() ^ folded.keys())}")
    for key in sorted(plain.keys() & folded.keys()):
        a, b = plain[key]["median_us"], folded[key]["median_us"]
        if a != b:
            failures.append(f"{name} {key}: {a} us unfolded, {b} us folded")
    if not plain:
        failures.append(f"{name}: no records")
    print(f"{name}: {len(plain)} simulated times compared, folded from 1 KiB")

# Memory: 64 ranks, 64 KiB blocks: 4 MiB send + 4 MiB receive per rank, plus TRA's staging,
# about 0.9 GiB in all. (Resident memory would count each folded page once per mapping.)
_, plain_kib = run("memory-plain", 0, 64, "--algorithms", "linear;tra:r=8", "--sizes", "65536", "--iters", "3")
_, folded_kib = run("memory-folded", 65536, 64, "--algorithms", "linear;tra:r=8", "--sizes", "65536", "--iters", "3")
print(f"peak private memory: {plain_kib / 1024:.0f} MiB unfolded, {folded_kib / 1024:.0f} MiB folded")
if plain_kib < 512 * 1024 or folded_kib * 4 > plain_kib:
    failures.append(f"folding did not cut the private memory to a quarter ({folded_kib} KiB folded, "
                    f"{plain_kib} KiB unfolded)")

# Every check on folded buffers: a clear error, not a wrong verdict (bench, the FFTs, NPB IS,
# and a deck, refused before anything runs).
refusals = [
    ("dragonfly", ["bench", "--algorithms", "linear", "--sizes", "4096", "--check"], "bench --check"),
    ("dragonfly", ["fft", "--grid", "16x16x16", "--backend", "tra", "--iters", "1"], "fft --check serial"),
    ("dragonfly", ["fft1d", "--points", "4096", "--backend", "tra", "--iters", "1"], "fft1d --check serial"),
    ("dragonfly", ["is", "--class", "S", "--backend", "sloav"], "is (the NPB verification)"),
    ("dragonfly", ["run", str(pathlib.Path(__file__).resolve().parents[1] / "inputs" / "tra-vs-mpi.toml"),
                   "--output", "none"], "cannot verify"),
]
for platform, args, what in refusals:
    proc = subprocess.run([simulate, platform, "-np", "4", "--shared-buffers", "1024", "--", *args],
                          capture_output=True, text=True)
    said = proc.stdout + proc.stderr
    if proc.returncode == 0 or what not in said or "cannot verify exchanges whose buffers SimGrid folds" not in said:
        failures.append(f"{' '.join(args)} with folded buffers: exit {proc.returncode}, output:\n{said}")
print(f"{len(refusals)} checks on folded buffers refused")

for f in failures:
    print("FAILED:", f)
sys.exit(1 if failures else 0)
