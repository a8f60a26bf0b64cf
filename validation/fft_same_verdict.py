#!/usr/bin/env python3
"""One FFT experiment, two ways in: `a2a fft`/`a2a fft1d` on the command line and the same case
as a deck's [[fft]]/[[fft1d]] must give the same verdict, the same check, and the deck's record
fields must all be in the command's record with the same values (timings aside).

usage: fft_same_verdict.py A2A BROKEN_PLUGIN.so LAUNCH... (e.g. mpiexec -n 3)

Cases: a correct backend (both pass), and toy_broken from the test plugin, whose exchange
overwrites one received block with NaN bytes (both must fail, and both exit non-zero)."""
import json
import os
import subprocess
import sys
import tempfile

a2a, plugin, launch = sys.argv[1], sys.argv[2], sys.argv[3:]
TIMING = ("_us", "_gbps", "gflops", "planning_s")
DECK_ONLY = {"experiment", "type", "size", "vs_mpi", "vs_mpi_ci95_low", "vs_mpi_ci95_high"}

CASES = [
    # (command flags, deck table): the same transform.
    (["fft", "--grid", "12x10x8", "--transform", "r2c", "--check", "serial"],
     '[[fft]]\ngrid = "12x10x8"\ntransform = "r2c"\ncheck = "serial"'),
    (["fft", "--grid", "8x6x10", "--decomp", "pencil", "--check", "roundtrip"],
     '[[fft]]\ngrid = "8x6x10"\ndecomp = "pencil"\ncheck = "roundtrip"'),
    (["fft", "--grid", "12x10x8", "--decomp", "pencil", "--spectrum-layout", "natural"],
     '[[fft]]\ngrid = "12x10x8"\ndecomp = "pencil"\nspectrum_layout = "natural"'),
    (["fft1d", "--points", "2304"], '[[fft1d]]\npoints = 2304\ncheck = true'),
]

failures = 0


def run(args, env):
    p = subprocess.run(launch + [a2a] + args, capture_output=True, text=True, env=env,
                       timeout=240)
    records = [json.loads(line) for line in p.stdout.splitlines() if line.startswith("{")]
    return p.returncode, records, p.stderr


def compare(name, cli, deck):
    global failures
    problems = []
    for key, value in deck.items():
        if key in DECK_ONLY or key.endswith(TIMING):
            continue
        if key not in cli:
            problems.append(f"{key} only in the deck's record")
        elif key == "relative_error":
            both_finite = all(isinstance(v, (int, float)) for v in (value, cli[key]))
            if both_finite and abs(value - cli[key]) > 1e-12 * max(1.0, abs(value)):
                problems.append(f"relative_error {cli[key]} (command) vs {value} (deck)")
        elif cli[key] != value:
            problems.append(f"{key}: {cli[key]!r} (command) vs {value!r} (deck)")
    if problems:
        failures += 1
        print(f"FAIL {name}: " + "; ".join(problems))
    return not problems


with tempfile.TemporaryDirectory() as work:
    for backend, expect, env_extra in (("pairwise", "passed", {}),
                                       ("toy_broken", "failed", {"A2A_PLUGINS": plugin})):
        env = dict(os.environ, **env_extra)
        for flags, table in CASES:
            name = f"{flags[0]} {' '.join(flags[1:])} with {backend}"
            common = ["--backend", backend, "--fftw-plan", "estimate", "--wisdom", "none",
                      "--iters", "2"]
            cli_rc, cli, err = run(flags + common + ["--format", "json"], env)
            deck_file = os.path.join(work, "deck.toml")
            with open(deck_file, "w") as f:
                f.write(f'{table}\nname = "same"\nbackends = ["{backend}"]\n'
                        'fftw_plan = "estimate"\nwisdom = "none"\niters = 2\nwarmup = 0\n')
            deck_rc, deck, deck_err = run(["run", deck_file, "--output", "none", "--format",
                                           "json"], env)
            if len(cli) != 1 or len(deck) != 1:
                failures += 1
                print(f"FAIL {name}: expected one record each, got {len(cli)} and {len(deck)}\n"
                      f"{err}\n{deck_err}")
                continue
            verdicts = (cli[0]["check"], deck[0]["check"])
            codes_ok = (cli_rc == 0) == (expect == "passed") and (deck_rc == 0) == (expect == "passed")
            if verdicts != (expect, expect) or not codes_ok:
                failures += 1
                print(f"FAIL {name}: verdicts {verdicts} (expected {expect}), exit codes "
                      f"{cli_rc} and {deck_rc}")
                continue
            if compare(name, cli[0], deck[0]):
                error = cli[0]["relative_error"]  # JSON null: not finite
                shown = "not finite" if error is None else f"{error:.3g}"
                print(f"ok   {name}: {expect} both ways, relative error {shown}")
total = 2 * len(CASES)
print(f"same verdict: {total - failures} passed, {failures} failed")
sys.exit(1 if failures else 0)
