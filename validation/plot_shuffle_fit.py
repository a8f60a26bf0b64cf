#!/usr/bin/python3
"""scripts/plot's randomized-paper outputs against closed forms (randomized Fig. 2 and 3).

Writes a results file whose latencies are exact power laws, latency = C s^K from 32 KiB up and
flat below, for a randomized exchange and its :shuffle=off twin, runs scripts/plot on it and
checks the fit (K, C, R = C / C_twin, Total = sum randomized / sum twin) against the numbers
the latencies were made from, and that the twin heatmap is drawn only where a twin exists.
"""
import csv
import os
import subprocess
import sys
import tempfile

import h5py

plot = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "plot")
sizes = [8, 512, 4096, 32768, 65536, 131072, 262144]
laws = {  # label: (C in us, K, flat latency below 32 KiB)
    "random_scatter": (0.011, 0.97, 40.0),
    "random_scatter:shuffle=off": (0.0175, 0.99, 35.0),
    "mpi": (0.02, 1.0, 30.0),
}


def latency(label, size):
    scale, power, flat = laws[label]
    return scale * size**power if size >= 32768 else flat


def write(path, labels):
    with h5py.File(path, "w") as f:
        f.attrs.update({"format": "a2a-results-1", "procs": 32, "nodes": 32,
                        "platform": "slimfly", "mpi_library": "synthetic",
                        "created": "2026-11-24T00:00:00Z"})
        g = f.create_group("experiments/00-synthetic")
        g.attrs["type"] = "bench"
        i = 0
        for label in labels:
            for size in sizes:
                s = g.create_group(f"series/{i:03d}")
                value = latency(label, size)
                s.attrs.update({"label": label, "bytes": size, "median_us": value,
                                "ci95_low_us": value, "ci95_high_us": value})
                i += 1


failures = 0


def check(what, got, want, tolerance=1e-5):
    global failures
    ok = abs(got - want) <= tolerance * abs(want)
    print(f"{'ok ' if ok else 'BAD'} {what}: {got:.8g} (want {want:.8g})")
    failures += not ok


with tempfile.TemporaryDirectory() as work:
    write(f"{work}/r.h5", list(laws))
    subprocess.run([plot, f"{work}/r.h5", "--out", f"{work}/plots"], check=True)
    rows = {r["label"]: r for r in csv.DictReader(open(f"{work}/plots/00-synthetic-fit.csv"))}
    for label, (scale, power, _) in laws.items():
        check(f"{label} K", float(rows[label]["K"]), power)
        check(f"{label} C", float(rows[label]["C_us"]), scale)
        check(f"{label} points", float(rows[label]["points"]), 4)
    shuffled, ordered = "random_scatter", "random_scatter:shuffle=off"
    check("R", float(rows[shuffled]["R_vs_twin"]), laws[shuffled][0] / laws[ordered][0])
    check("Total", float(rows[shuffled]["total_vs_twin"]),
          sum(latency(shuffled, s) for s in sizes) / sum(latency(ordered, s) for s in sizes))
    if rows["mpi"]["R_vs_twin"] or rows[ordered]["R_vs_twin"]:
        print("BAD only a randomized exchange with a twin has R")
        failures += 1
    if not os.path.exists(f"{work}/plots/00-synthetic-shuffle.png"):
        print("BAD no twin heatmap")
        failures += 1
    # Without the twin: no twin heatmap, no R.
    write(f"{work}/alone.h5", ["random_scatter", "mpi"])
    subprocess.run([plot, f"{work}/alone.h5", "--out", f"{work}/alone"], check=True)
    if os.path.exists(f"{work}/alone/00-synthetic-shuffle.png"):
        print("BAD a twin heatmap without twins")
        failures += 1
    # --fit-from moves the fit: from 64 KiB, three points.
    subprocess.run([plot, f"{work}/r.h5", "--out", f"{work}/from64", "--fit-from", "65536"],
                   check=True)
    rows = {r["label"]: r for r in csv.DictReader(open(f"{work}/from64/00-synthetic-fit.csv"))}
    check("points from 64 KiB", float(rows["mpi"]["points"]), 3)
print(f"plot_shuffle_fit: {'failed' if failures else 'passed'}")
sys.exit(1 if failures else 0)
