#!/usr/bin/env python3
"""Every C++ source of a build, checked by Clang as it is compiled there (compile_commands.json:
the same defines, include paths, standard and warnings), syntax and semantics only
(-fsyntax-only: no code generated). The builds use GCC; Clang rejects some C++20 that GCC takes
(Clang 14, Debian 12's, cannot capture a structured binding in a lambda), and a user may build
with it. Fails, listing each batch's first errors, where Clang rejects a source or warns about
it.

Sources are checked in the batches a unity build compiles (CMAKE_UNITY_BUILD, as the
project's other CI legs build: up to 8 sources of one target in one translation unit, each header
parsed once a batch): about 40 Clang runs for 110 sources, a third of the time of one a source.
The sources must be unity-safe anyway, since those legs build them so.

usage: clang_syntax.py BUILD_DIR [CLANG++]
"""
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

BATCH = 8  # CMake's default CMAKE_UNITY_BUILD_BATCH_SIZE


def flags_and_target(entry):
    """The entry's compiler flags without its source, output and -c, and the target that its
    object belongs to (CMakeFiles/TARGET.dir/ in the output path)."""
    args = entry.get("arguments") or shlex.split(entry["command"])
    flags, output, skip = [], "", False
    for a in args[1:]:
        if skip:
            output, skip = a, False
            continue
        if a == "-o":
            skip = True
        elif a != "-c" and not a.endswith(".cpp"):
            flags.append(a)
    target = re.search(r"CMakeFiles/(.+?)\.dir/", output)
    return flags, target.group(1) if target else output


def batches(entries):
    """Entries grouped as a unity build groups them: one target's sources (same directory and
    flags), in order, BATCH at a time."""
    groups = {}
    for e in entries:
        flags, target = flags_and_target(e)
        groups.setdefault((e["directory"], target, tuple(flags)), []).append(e["file"])
    for (directory, _, flags), files in groups.items():
        for i in range(0, len(files), BATCH):
            yield directory, list(flags), files[i:i + BATCH]


def main():
    build = sys.argv[1]
    clang = sys.argv[2] if len(sys.argv) > 2 else "clang++"
    with open(os.path.join(build, "compile_commands.json")) as f:
        entries = [e for e in json.load(f) if e["file"].endswith(".cpp")]
    if not entries:
        print("no C++ sources in compile_commands.json")
        return 1

    work = tempfile.TemporaryDirectory(prefix="clang_syntax.")

    def check(numbered):
        n, (directory, flags, files) = numbered
        unity = os.path.join(work.name, f"batch{n}.cpp")
        with open(unity, "w") as f:
            f.writelines(f'#include "{os.path.join(directory, p)}"\n' for p in files)
        r = subprocess.run([clang, "-fsyntax-only", "-Werror"] + flags + [unity], cwd=directory,
                           capture_output=True, text=True)
        return files, r.returncode, r.stderr

    failed = 0
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for files, code, err in pool.map(check, enumerate(batches(entries))):
            if code != 0:
                failed += len(files)
                print("FAILED, one of: " + " ".join(files) + "\n" +
                      "\n".join(err.splitlines()[:12]))
    work.cleanup()
    print(f"clang syntax: {len(entries) - failed} of {len(entries)} C++ sources pass")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
