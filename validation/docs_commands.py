"""The commands the README and docs show are commands a2a takes, and docs/cli.md names every
option each subcommand has:
    docs_commands.py A2A REPOSITORY_ROOT
For every line of a code block (or inline code) in README.md and docs/*.md that runs `a2a SUB`
(directly or after mpirun/mpiexec/srun/scripts/cluster ... --), every --option it passes must be
one of SUB's (read from `a2a SUB --help`); and every option of every subcommand must appear in
docs/cli.md. Prints "docs_commands: N passed, M failed"."""
import pathlib
import re
import subprocess
import sys

a2a, root = sys.argv[1], pathlib.Path(sys.argv[2])
failures, checks = [], 0


def options_of(sub):
    """The options SUB's --help defines: the names that open its option lines (not those its
    descriptions mention)."""
    done = subprocess.run([a2a, sub, "--help"], capture_output=True, text=True, timeout=60)
    names = set()
    for line in done.stdout.splitlines():
        opening = re.match(r"  (-\S+)", line)
        if opening:
            names |= {n for n in opening.group(1).split(",") if n.startswith("--")}
    return names | {"--help"}


main_help = subprocess.run([a2a, "--help"], capture_output=True, text=True, timeout=60).stdout
subcommands = re.findall(r"^  ([a-z0-9]+) {2,}", main_help.split("Subcommands:", 1)[1], re.M)
known = {sub: options_of(sub) for sub in subcommands}

# Commands in code: an `a2a SUB ...` inside a line of a fenced block or of inline code.
call = re.compile(r"(?:^|[\s/`(])a2a\s+(" + "|".join(subcommands) + r")\b([^`\n|#]*)")
pages = [root / "README.md"] + sorted((root / "docs").glob("*.md"))
for page in pages:
    text = page.read_text()
    blocks = re.findall(r"```[^\n]*\n(.*?)```", text, re.S) + re.findall(r"`([^`\n]+)`", text)
    for block in blocks:
        for line in block.splitlines():
            for sub, rest in call.findall(line):
                checks += 1
                used = set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", rest))
                unknown = sorted(used - known[sub])
                if unknown:
                    failures.append(f"{page.relative_to(root)}: `a2a {sub}{rest.rstrip()}` "
                                    f"passes {', '.join(unknown)}, which a2a {sub} does not take")

# docs/cli.md names every option: its synopses, a line per subcommand (continued on indented
# lines that name no other subcommand).
synopsis, current = {}, None
for line in (root / "docs" / "cli.md").read_text().splitlines():
    named = re.search(r"\ba2a (" + "|".join(subcommands) + r")\b", line)
    if named:
        current = named.group(1)
    elif not line.startswith("    "):
        current = None
    if current:
        synopsis[current] = synopsis.get(current, "") + " " + line
for sub, options in known.items():
    for option in sorted(options - {"--help"}):
        checks += 1
        if not re.search(re.escape(option) + r"(?![\w-])", synopsis.get(sub, "")):
            failures.append(f"docs/cli.md: the synopsis of `a2a {sub}` lacks {option}")

# The scripts: what --help says each takes.
scripts = {}
for name in ("measure", "plot", "simulate", "cluster"):
    shown = subprocess.run([str(root / "scripts" / name), "--help"], capture_output=True,
                           text=True, timeout=60, cwd=root)
    text = shown.stdout + shown.stderr
    synopsis_lines = [l for l in text.splitlines()
                      if re.match(rf"\s*(usage: {name}|scripts/{name}|\s{{8,}}\[)", l)]
    scripts[name] = (set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", text)),
                     set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)",
                                    " ".join(re.split(r"\s--\s", l)[0] for l in synopsis_lines))),
                     set(re.findall(r"\{([a-z,-]+)\}", text)[0].split(",")) if name == "measure"
                     else set())
script_call = re.compile(r"(?:^|[\s`(])scripts/(" + "|".join(scripts) + r")\b([^`\n|#]*)")
for page in pages:
    text = page.read_text()
    blocks = re.findall(r"```[^\n]*\n(.*?)```", text, re.S) + re.findall(r"`([^`\n]+)`", text)
    for block in blocks:
        for line in block.replace("\\\n", " ").splitlines():
            for name, rest in script_call.findall(line):
                checks += 1
                own = re.split(r"\s--\s", rest + " ", maxsplit=1)[0]  # not the a2a part after --
                used = set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", own))
                unknown = sorted(used - scripts[name][0])
                if unknown:
                    failures.append(f"{page.relative_to(root)}: `scripts/{name}{rest.rstrip()}` "
                                    f"passes {', '.join(unknown)}, which its --help does not name")
cli = (root / "docs" / "cli.md").read_text()
for name, (_, synopsis_options, targets) in scripts.items():
    lines = re.findall(rf"^    scripts/{name} .*(?:\n {{10,}}.*)*", cli, re.M)
    shown = " ".join(lines)
    for option in sorted(synopsis_options | targets):
        checks += 1
        if not re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", shown):
            failures.append(f"docs/cli.md: the synopsis of scripts/{name} lacks {option}")

for f in failures:
    print("FAILED:", f, file=sys.stderr)
print(f"docs_commands: {checks - len(failures)} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
