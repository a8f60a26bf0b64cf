"""The complete examples in docs/ are the programs the suite runs: every block that follows an
`<!-- example: PATH -->` line must equal the file PATH (relative to the repository root).
    docs_examples.py REPOSITORY_ROOT
Prints "docs_examples: N passed, M failed"."""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1])
marker = re.compile(r"<!-- example: (\S+) -->\n```[a-z]*\n(.*?)```\n", re.S)
checks = failures = 0
for page in sorted((root / "docs").glob("*.md")):
    for match in marker.finditer(page.read_text()):
        checks += 1
        path, shown = match.group(1), match.group(2)
        source = root / path
        if not source.is_file() or source.read_text() != shown:
            failures += 1
            print(f"FAILED: {page.name} shows {path}, which differs from the file "
                  f"(regenerate the block from the file)", file=sys.stderr)
if checks == 0:
    failures += 1
    print("FAILED: no examples found in docs/", file=sys.stderr)
print(f"docs_examples: {checks - failures} passed, {failures} failed")
sys.exit(1 if failures else 0)
