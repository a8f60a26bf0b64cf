#!/usr/bin/python3
"""a2a tune end to end: the table it writes is checked against its own raw results (read with
h5py, not by a2a; the JSON lines of a build without HDF5), then used by `auto`, and its model
is refitted from the raw results by `a2a model --fit`.

usage: tune_roundtrip.py A2A WORKDIR MPIEXEC -n P [mpiexec flags...]
"""
import json
import math
import os
import subprocess
import sys


a2a, work, launcher = sys.argv[1], sys.argv[2], sys.argv[3:]
procs = int(launcher[launcher.index("-n") + 1] if "-n" in launcher else launcher[2])
os.makedirs(work, exist_ok=True)
table_path = os.path.join(work, "tuned.json")
sizes = [1, 64, 512, 4096]
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAILED:", what, file=sys.stderr)


def run(*args):
    done = subprocess.run(launcher + [a2a, *args], capture_output=True, text=True, timeout=240)
    if done.returncode != 0:
        sys.exit(f"{' '.join(args)} failed ({done.returncode}):\n{done.stderr}")
    return done.stdout


tie = 1.03
run("tune", "--sizes", ",".join(map(str, sizes)), "--budget", "120s", "--iters", "5",
    "--warmup", "1", "--tie", str(tie), "--smooth", "1", "--output", table_path)
table = json.load(open(table_path))
tuned = table["tuned"][0]
check(tuned["procs"] == procs, f"tuned P = {tuned['procs']}")
check(tuned["refined_sizes"]["uniform"] == sizes, "every size refined within the budget")

# The raw results, read independently: per (kind, size), the last median of each spec (the
# fine pass measured after the coarse one), and for the vector kind per distribution.
last = {}
largest = {}  # (nominal size, distribution) -> largest block
results = os.path.join(work, "tuned.h5")
series = []  # (experiment, attributes) of every measured series
if os.path.exists(results):
    import h5py
    with h5py.File(results, "r") as f:
        check(bool(f.attrs["completed"]), "results file completed")
        for name in sorted(f["experiments"]):
            for one in sorted(f["experiments"][name]["series"]):
                series.append((name, dict(f["experiments"][name]["series"][one].attrs)))
else:  # a build without HDF5 writes JSON lines
    results = os.path.join(work, "tuned.jsonl")
    series = [(r["experiment"], r) for r in map(json.loads, open(results))]
check(len(series) > 0, "raw results")
for name, attrs in series:
    kind = "uniform" if "uniform" in name else "vector"
    key = (kind, int(attrs["bytes"]), attrs.get("distribution", ""), attrs["spec"])
    last[key] = float(attrs["median_us"])
    if kind == "vector":
        largest[(int(attrs["bytes"]), attrs["distribution"])] = int(attrs["largest_bytes"])

# auto selects Alltoallv by the largest block: the table keys each nominal size by the
# geometric mean of its distributions' largest blocks.
def selected(kind, nominal):
    if kind == "uniform":
        return nominal
    logs = [math.log(max(v, 1)) for (b, _), v in largest.items() if b == nominal]
    return int(math.floor(math.exp(sum(logs) / len(logs)) + 0.5))


def score(kind, size, spec):
    """Geometric mean over the distributions of median / the best median there."""
    dists = {d for (k, b, d, _) in last if k == kind and b == size}
    logs = []
    for d in dists:
        best = min(t for (k, b, dd, _), t in last.items() if (k, b, dd) == (kind, size, d))
        logs.append(math.log(last[(kind, size, d, spec)] / best))
    return math.exp(sum(logs) / len(logs))


def rule_for(kind, size):
    for rule in table[kind]:
        if rule.get("min_bytes", 0) <= size <= rule.get("max_bytes", 2**64):
            return rule
    return None


for kind in ("uniform", "vector"):
    for size in sorted({b for (k, b, _, _) in last if k == kind}):
        rule = rule_for(kind, selected(kind, size))
        check(rule is not None, f"{kind} {size} B: a rule")
        if rule is None:
            continue
        check(rule["min_procs"] == procs == rule["max_procs"], f"{kind}: rule for P only")
        # Within the tie of the least score of any backend measured in every distribution.
        dists = {d for (k, b, d, _) in last if (k, b) == (kind, size)}
        specs = {sp for (k, b, _, sp) in last if (k, b) == (kind, size)}
        complete = [sp for sp in specs if all((kind, size, d, sp) in last for d in dists)]
        least = min(score(kind, size, sp) for sp in complete)
        s = score(kind, size, rule["backend"])
        check(s <= tie * least + 1e-9,
              f"{kind} {size} B: {rule['backend']} scores {s:.3f}, the least {least:.3f}")

def same_backend(resolved, spec):
    """`resolved` is `spec` with its other parameters' defaults written out."""
    def parse(text):
        name, _, params = text.partition(":")
        return name, dict(p.split("=", 1) for p in params.split(",") if p)
    (n1, p1), (n2, p2) = parse(resolved), parse(spec)
    return n1 == n2 and all(p1.get(k) == v for k, v in p2.items())


# auto with the table picks the table's backend at every size (every rank agrees, or the
# exchange would not have completed; the check compares the bytes with MPI's).
out = run("bench", "--algorithms", "auto:table=" + table_path, "--sizes",
          ",".join(map(str, sizes)), "--iters", "1", "--warmup", "0", "--check",
          "--format", "json")
records = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
check(len(records) == len(sizes), f"{len(records)} bench records")
for r in records:
    got = r["backend"].split("->", 1)[1]
    want = rule_for("uniform", r["bytes"])["backend"]
    check(same_backend(got, want), f"auto at {r['bytes']} B ran {got}, the table says {want}")
    check(r["check"] == "passed", f"auto at {r['bytes']} B: check {r['check']}")

# The model refitted from the raw results file is the table's model, where the fit holds; where
# it does not (a2a model --fit's criteria), the table has no model.
fitted = json.loads(subprocess.run([a2a, "model", "--fit", results, "--format", "json"],
                                   capture_output=True, text=True, check=True).stdout)
if fitted["holds"]:
    check("model" in table, "the fit holds: the table has a model")
    for key in ("alpha_us", "beta_us_per_byte"):
        a, b = fitted[key], table.get("model", {}).get("fit", {}).get(key)
        check(b is not None and abs(a - b) <= 1e-6 * abs(b),
              f"model {key}: {a} from the .h5, {b} in the table")
else:
    check("model" not in table,
          f"the fit does not hold ({'; '.join(fitted['doubts'])}): the table has no model")

# With one iteration and no warm-up (a simulation's settings) the fine pass reuses the coarse
# measurements instead of repeating them: nothing is measured twice at a coarse size (1 and
# 4096 B here), and the in-between sizes are still refined.
once = os.path.join(work, "once.json")
done = subprocess.run(launcher + [a2a, "tune", "--kind", "uniform", "--sizes", ",".join(map(str, sizes)),
                                  "--iters", "1", "--warmup", "0", "--budget", "60s", "--output", once],
                      capture_output=True, text=True, timeout=240)
check(done.returncode == 0, f"tune --iters 1 --warmup 0 failed:\n{done.stderr}")
lines = [l for l in done.stderr.splitlines() if l.startswith("tune: uniform,")]
for size in sizes:
    phases = [l.split(": ")[1].split(", ")[2] for l in lines if f", {size} B, " in l]
    want = ["coarse"] if size in (1, 4096) else ["fine"]
    check(phases == want, f"tune --iters 1: {size} B measured as {phases}, expected {want}")
if done.returncode == 0:
    check(len(json.load(open(once))["uniform"]) > 0, "tune --iters 1 wrote no uniform rules")

print(f"tune round trip (P={procs}): {len(failures)} failed")
sys.exit(1 if failures else 0)
