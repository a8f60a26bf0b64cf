#!/usr/bin/python3
"""check_results.py RESULTS.h5 [DECK]: the layout `a2a run` promises (docs/decks.md, "Results files"),
read with h5py, independently of the C++ writer: run metadata, one group per experiment in deck
order, per series the attributes and a times_us dataset of `iters` values (slowest rank per
iteration), and every check passed; with A2A_EXPECT_NODES=N, N nodes and N distinct hostnames in
the run's metadata. Exits 1 with the reasons otherwise."""
import os
import sys

import h5py
import numpy as np

problems = []


def need(ok, what):
    if not ok:
        problems.append(what)


path = sys.argv[1]
deck = sys.argv[2] if len(sys.argv) > 2 else None
with h5py.File(path, "r") as f:
    for key in ("format", "deck", "deck_text", "created", "procs", "nodes", "hostnames",
                "mpi_library", "mpi_version", "compiler", "git_commit", "a2a_version"):
        need(key in f.attrs, f"root attribute {key}")
    need(f.attrs.get("format") == "a2a-results-1", "format a2a-results-1")
    if deck:
        need(f.attrs.get("deck_text") == open(deck).read(), "deck_text is the deck")
    procs = int(f.attrs["procs"])
    # Under scripts/cluster the run's metadata must name the hosts it ran on.
    if os.environ.get("A2A_EXPECT_NODES"):
        nodes = int(os.environ["A2A_EXPECT_NODES"])
        need(int(f.attrs["nodes"]) == nodes, f"nodes = {f.attrs['nodes']}, expected {nodes}")
        need(len(set(str(f.attrs["hostnames"]).split(","))) == nodes,
             f"{nodes} distinct hostnames in {f.attrs['hostnames']!r}")
    names = sorted(f["experiments"])
    need([n.split("-", 1)[0] for n in names] == [f"{i:02d}" for i in range(len(names))],
         f"experiments numbered in order: {names}")
    for name in names:
        g = f["experiments"][name]
        kind = g.attrs.get("type")
        need(kind in ("bench", "fft", "fft1d", "is", "model"), f"{name}: type {kind}")
        series = g["series"]
        need(len(series) > 0, f"{name}: has series")
        for index in series:
            s = series[index]
            where = f"{name}/series/{index}"
            if kind == "model":
                r, k, d = (np.asarray(s[x]) for x in ("radix", "rounds", "blocks"))
                need(len(r) == len(k) == len(d) > 0, f"{where}: radix/rounds/blocks")
                continue
            for key in ("label", "backend", "procs", "iters", "median_us", "min_us", "max_us",
                        "mean_us", "ci95_low_us", "ci95_high_us", "check"):
                need(key in s.attrs, f"{where}: attribute {key}")
            need(int(s.attrs["procs"]) == procs, f"{where}: procs")
            t = np.asarray(s["times_us"])
            expected = int(g.attrs["iters"]) * (int(s.attrs["iters"]) if kind == "is" else 1)
            need(len(t) == expected, f"{where}: {len(t)} times, expected {expected}")
            need(np.all(t > 0), f"{where}: positive times")
            need(abs(np.median(t) - s.attrs["median_us"]) <= 1e-9 * max(1, np.median(t)),
                 f"{where}: median_us is the median of times_us")
            need(s.attrs["min_us"] == t.min() and s.attrs["max_us"] == t.max(),
                 f"{where}: min/max")
            need(s.attrs["ci95_low_us"] <= s.attrs["median_us"] <= s.attrs["ci95_high_us"],
                 f"{where}: CI brackets the median")
            need(s.attrs["check"] in ("passed", "skipped"), f"{where}: check {s.attrs['check']}")
            if kind in ("fft", "fft1d") and not s.attrs["label"].startswith("fftw-mpi"):
                split = [np.asarray(s[x]) for x in ("transpose_us", "compute_us")]
                need(all(len(x) == len(t) for x in split), f"{where}: transpose/compute split")
                # Each part of a call lies within the call on the rank that spent it, so within
                # the slowest rank's time (the fused copies move from one part to the other).
                need(all(np.all((x >= 0) & (x <= t * (1 + 1e-6) + 1)) for x in split
                         if len(x) == len(t)), f"{where}: transpose/compute within the call")
for p in problems:
    print("check_results: FAILED:", p)
print(f"check_results: {path}: {'OK' if not problems else str(len(problems)) + ' problems'}")
sys.exit(1 if problems else 0)
