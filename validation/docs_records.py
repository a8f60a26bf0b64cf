"""The dated records (docs/records/*.md) are readable and rerunnable by anyone: they name no
absolute path of the machine they were made on (a home, /root, /tmp, /work, /mnt: commands are
given relative to the repository) and say nothing of how the work that made them was organised
(an issue tracker, sessions, machines lent for a while).
    docs_records.py REPOSITORY_ROOT
The raw JSON lines and results files beside them (docs/records/*/*.jsonl, *.h5: their bytes,
attributes included) name no such path either.
Prints "docs_records: N passed, M failed" (one check per record, one per folder of raw lines)."""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1])
machine_path = re.compile(r"(?<![\w.~-])/(?:root|home|tmp|work|mnt|Users)/")
organisation = re.compile(r"\b(?:the issue|issue \d+|issues? (?:tracker|list)|tracker|session|"
                          r"lent)\b", re.I)


def foreign(line, found):
    """Another project's issue ("openucx/ucx issue 8738") is a reference, not this one's."""
    before = line[:found.start()].split()
    return bool(before) and "/" in before[-1]


passed, failed = 0, 0


def tally(problems):
    """One check: passed without problems, else failed and printed."""
    global passed, failed
    if problems:
        failed += 1
        print("FAILED:", *problems, sep="\n  ")
    else:
        passed += 1

for record in sorted((root / "docs" / "records").glob("*.md")):
    problems = []
    for number, line in enumerate(record.read_text().splitlines(), 1):
        for what, pattern in (("a machine's path", machine_path), ("the work's organisation",
                                                                    organisation)):
            found = pattern.search(line)
            if found and found.group(0).lower().startswith("issue ") and foreign(line, found):
                found = None
            if found:
                problems.append(f"{record.name}:{number}: {what}: '{found.group(0)}' in "
                                f"{line.strip()[:120]!r}")
    tally(problems)
# The raw files beside them, read as bytes: the JSON lines and the results files' attributes.
machine_path_bytes = re.compile(machine_path.pattern.encode())
for folder in sorted(p for p in (root / "docs" / "records").iterdir() if p.is_dir()):
    problems = []
    for raw in sorted(f for f in folder.rglob("*") if f.suffix in (".jsonl", ".h5")):
        found = machine_path_bytes.search(raw.read_bytes())
        if found:
            problems.append(f"{raw.relative_to(root)}: a machine's path: "
                            f"'{found.group(0).decode(errors='replace')}'")
    tally(problems)
print(f"docs_records: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
