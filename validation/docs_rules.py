"""The rules docs/algorithms.md shows for `auto` are the shipped table's:
    docs_rules.py REPOSITORY_ROOT
Every row of the table under "## `auto` and its selection table" (except the tuned one-node
rows, which the table's `tuned` entries describe) must be, in order per kind, the shipped
table's (alltoall/tuning/default.json) next rule without `ranks_per_node`: the same backend,
`single_copy`, `min_procs`, `max_procs` and `max_bytes`. Prints "docs_rules: N passed, M failed"."""
import json
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1])
table = json.loads((root / "alltoall" / "tuning" / "default.json").read_text())
page = (root / "docs" / "algorithms.md").read_text()
section = page.split("## `auto` and its selection table", 1)[1].split("\n## ", 1)[0]
rows = [[c.strip() for c in line.strip("|").split("|")] for line in section.splitlines()
        if line.startswith("| ") and not line.startswith("| kind")]
units = {"B": 1, "KiB": 1024, "MiB": 1024 * 1024}


def shown(ranks, block):
    """The bounds a row's words give: {min_procs, max_procs, max_bytes, single_copy}."""
    bounds = {}
    if m := re.fullmatch(r"up to (\d+)", ranks):
        bounds["max_procs"] = int(m.group(1))
    elif m := re.fullmatch(r"(\d+) or more", ranks):
        bounds["min_procs"] = int(m.group(1))
    elif ranks not in ("more", "otherwise", "all on one node"):
        raise ValueError(f"ranks '{ranks}' not understood")
    if m := re.fullmatch(r"up to (\d+) (B|KiB|MiB)", block):
        bounds["max_bytes"] = int(m.group(1)) * units[m.group(2)]
    elif block not in ("any", "larger", ""):
        raise ValueError(f"block '{block}' not understood")
    return bounds


checks, failures = 0, []
expected = {kind: [r for r in table[kind] if "ranks_per_node" not in r]
            for kind in ("uniform", "vector")}
for kinds, ranks, block, backend, *_ in rows:
    if "on one node" in ranks and "as measured" in backend:
        continue  # the tuned rules: one per measured size, described by the table's `tuned`
    name = re.sub(r"`", "", backend)
    try:
        bounds = shown(ranks, block)
    except ValueError as e:
        failures.append(f"algorithms.md row '{kinds} | {ranks} | {block} | {backend}': {e}")
        continue
    if "single_copy" in kinds:
        bounds["single_copy"] = True
    for kind in ("uniform", "vector"):
        if kind not in kinds:
            continue
        checks += 1
        if not expected[kind]:
            failures.append(f"algorithms.md shows a {kind} rule for {name} that the table lacks")
            continue
        rule = expected[kind].pop(0)
        given = {k: rule[k] for k in ("min_procs", "max_procs", "max_bytes", "single_copy")
                 if k in rule}
        if rule["backend"] != name or given != bounds:
            failures.append(f"algorithms.md: {kind} rule '{ranks} | {block} | {name}' is "
                            f"{rule['backend']} with {given} in default.json")
for kind, left in expected.items():
    for rule in left:
        checks += 1
        failures.append(f"algorithms.md does not show default.json's {kind} rule {rule}")
for f in failures:
    print("FAILED:", f, file=sys.stderr)
print(f"docs_rules: {checks - len(failures)} passed, {len(failures)} failed")
sys.exit(1 if failures or checks == 0 else 0)
