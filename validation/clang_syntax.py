#!/usr/bin/env python3
"""Every C++ source of a build, checked by Clang as it is compiled there (compile_commands.json:
the same defines, include paths, standard and warnings), syntax and semantics only
(-fsyntax-only: no code generated). The builds use GCC; Clang rejects some C++20 that GCC takes
(Clang 14, Debian 12's, cannot capture a structured binding in a lambda), and a user may build
with it. Fails, listing each file's first errors, where Clang rejects one or warns about it.

usage: clang_syntax.py BUILD_DIR [CLANG++]
"""
import json
import os
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor


def clang_command(entry, clang):
    args = entry.get("arguments") or shlex.split(entry["command"])
    out = [clang, "-fsyntax-only", "-Werror"]
    skip = False
    for a in args[1:]:
        if skip:
            skip = False
            continue
        if a == "-o":
            skip = True
            continue
        if a == "-c":
            continue
        out.append(a)
    return out


def main():
    build = sys.argv[1]
    clang = sys.argv[2] if len(sys.argv) > 2 else "clang++"
    with open(os.path.join(build, "compile_commands.json")) as f:
        entries = [e for e in json.load(f) if e["file"].endswith(".cpp")]
    if not entries:
        print("no C++ sources in compile_commands.json")
        return 1

    def check(entry):
        r = subprocess.run(clang_command(entry, clang), cwd=entry["directory"],
                           capture_output=True, text=True)
        return entry["file"], r.returncode, r.stderr

    failed = 0
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for path, code, err in pool.map(check, entries):
            if code != 0:
                failed += 1
                print(f"FAILED: {path}\n" + "\n".join(err.splitlines()[:12]))
    print(f"clang syntax: {len(entries) - failed} of {len(entries)} C++ sources pass")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
