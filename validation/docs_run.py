"""Every shell command the README and the manuals show runs as written, as a user would run it
after the README's two commands:
    docs_run.py REPOSITORY_ROOT [SECONDS_PER_LINE]
A page's ```sh blocks run in order in one new shell whose environment holds only HOME, PATH
and TERM (nothing of scripts/env.sh), preceded by the README tour's set-up lines (its `export`
and `[ ... ] && export` lines: Open MPI as root), from the repository's root; what the commands
write there (new top-level files such as my-machine.json and compiled programs, new files under
results/) is removed after each page. Each command gets a time limit. Where a command compiles or runs a file the page shows (`pencil_fft.c`, `.f90`, `.py`),
the file is the page's nearest code block above it in that language; `./your_program` and
`./my_program` are a small MPI program of this test's (one MPI_Alltoallv, its result checked),
built with mpicc. Blocks marked ```sh not-run (a cluster, Slurm, a budget of minutes, the
test suite itself, root-only system settings) are not run here: docs_commands.py checks their
options. Prints "docs_run: N passed, M failed"."""
import pathlib
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

root = pathlib.Path(sys.argv[1]).resolve()
limit = int(sys.argv[2]) if len(sys.argv) > 2 else 300
language_of = {".c": "c", ".f90": "fortran", ".py": "python", ".cpp": "cpp"}
your_program = r"""/* A program the docs run under the interposer: one MPI_Alltoallv, its result checked. */
#include <mpi.h>
#include <stdio.h>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int p, r;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  int send[64], recv[64], counts[64], displs[64], bad = 0;
  for (int q = 0; q < p && q < 64; ++q) {
    send[q] = 100 * r + q;
    counts[q] = 1;
    displs[q] = q;
  }
  MPI_Alltoallv(send, counts, displs, MPI_INT, recv, counts, displs, MPI_INT, MPI_COMM_WORLD);
  for (int q = 0; q < p && q < 64; ++q) bad |= recv[q] != 100 * q + r;
  MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
  if (r == 0) printf("your_program: MPI_Alltoallv %s\n", bad ? "WRONG" : "right");
  MPI_Finalize();
  return bad;
}
"""


def blocks_of(page):
    """(first line number, language, info words, text) of every fenced block of PAGE."""
    found, lines, i = [], page.read_text().splitlines(), 0
    while i < len(lines):
        fence = re.match(r"```(\w*)\s*(.*)$", lines[i])
        if fence:
            end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
            found.append((i + 2, fence.group(1), fence.group(2).split(), lines[i + 1:end]))
            i = end
        i += 1
    return found


def commands_of(first_line, lines):
    """(line number, command) of a block: continued lines (ending in \\) joined, a for/while/if
    up to its done/fi kept whole, comment-only and empty lines left out."""
    commands, pending, start, depth = [], "", 0, 0
    for number, line in enumerate(lines, first_line):
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if not pending:
            start = number
        pending += line.rstrip("\\").rstrip() + ("\n" if depth or not line.endswith("\\") else " ")
        if line.endswith("\\"):
            continue
        words = re.findall(r"[\w]+", line.split("#", 1)[0])
        depth += sum(w in ("for", "while", "if") for w in words[:1])
        depth -= sum(w in ("done", "fi") for w in words)
        if depth <= 0:
            commands.append((start, pending.strip()))
            pending, depth = "", 0
    return commands


def tour_setup():
    """The README tour's lines that set the shell up (exports), as the pages assume."""
    for _, language, info, lines in blocks_of(root / "README.md"):
        if language == "sh" and "not-run" not in info and any("a2a list" in l for l in lines):
            return [c for _, c in commands_of(0, lines) if c.startswith(("export", "["))]
    sys.exit("docs_run: the README has no tour (a ```sh block with `a2a list`)")


def script_for(page):
    """The shell script that runs PAGE's ```sh blocks, or None where it has none; the files it
    needs from the page are written into the repository's root."""
    blocks, body = blocks_of(page), []
    for index, (first, language, info, lines) in enumerate(blocks):
        if language != "sh" or "not-run" in info:
            continue
        for number, command in commands_of(first, lines):
            where = f"{page.relative_to(root)}:{number}"
            for name in set(re.findall(r"(?<![\w/.])([\w-]+(\.c|\.f90|\.py|\.cpp))\b", command)):
                file, ext = name
                shown = [b for b in blocks[:index] if b[1] == language_of[ext]]
                if shown and not (root / file).exists():
                    (root / file).write_text("\n".join(shown[-1][3]) + "\n")
            if re.search(r"\./(your|my)_program\b", command):
                (root / "your_program.c").write_text(your_program)
                for program in ("your_program", "my_program"):
                    body.append(f"mpicc -o {program} your_program.c")
            if command.startswith(("export ", "[ ", "cd ")) or re.fullmatch(r"\w+=\S+", command):
                body.append(command)  # sets the shell up for the lines after it
                continue
            body.append(f"echo {shlex.quote('== ' + where + ': ' + command)}")
            body.append(f"if timeout -k 10 {limit} bash -c {shlex.quote(command)}; then "
                        f"passed=$((passed + 1)); else echo \"FAILED (exit $?): \"{shlex.quote(where)}; "
                        f"failed=$((failed + 1)); fi")
    if not any(line.startswith("echo ") for line in body):
        return None
    return "\n".join(["passed=0 failed=0"] + tour_setup() + body +
                     ['echo "page: $passed passed, $failed failed"'])


def present():
    """What the commands may add to: the top-level entries and everything under results/."""
    return set(root.iterdir()) | set((root / "results").rglob("*"))


def made_since(before):
    """The paths the commands made, deepest first."""
    return sorted(present() - before, key=lambda p: len(p.parts), reverse=True)


# The pages assume a2a installed as the README's commands leave it (scripts/main and
# scripts/test install build/release into /usr/local).
clean = {"HOME": "/nonexistent", "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"}
built = subprocess.run([str(root / "build/release/app/a2a"), "--version"], capture_output=True,
                       text=True).stdout
installed = subprocess.run(["bash", "-c", "a2a --version"], capture_output=True, text=True,
                           env=clean).stdout
if not built or installed != built:
    sys.exit(f"docs_run: the a2a on a new shell's PATH ({installed.strip() or 'none'}) is not "
             f"build/release's ({built.strip() or 'none'}): install it first (cmake --install "
             "build/release, as scripts/main and scripts/test do)")
pages = [root / "README.md"] + sorted((root / "docs").glob("*.md"))
passed = failed = 0
for page in pages:
    home = pathlib.Path(tempfile.mkdtemp(prefix="docs_run-"))
    before = present()
    try:
        script = script_for(page)
        if script is None:
            continue
        print(f"=== {page.relative_to(root)}", flush=True)
        done = subprocess.run(["env", "-i", f"HOME={home}", "TERM=dumb",
                               f"PATH={clean['PATH']}",
                               "bash", "-c", script], cwd=root, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
        print(done.stdout, flush=True)
        tally = re.search(r"page: (\d+) passed, (\d+) failed", done.stdout)
        passed += int(tally.group(1)) if tally else 0
        failed += int(tally.group(2)) if tally else 1
    finally:
        for path in made_since(before):
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path, ignore_errors=True)
            else:
                path.unlink(missing_ok=True)
        shutil.rmtree(home, ignore_errors=True)
print(f"docs_run: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
