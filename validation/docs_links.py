#!/usr/bin/env python3
"""Every relative link in README.md and docs/*.md points at a file that exists, and every
#anchor at a heading of that file (GitHub's rule: lower case, punctuation dropped, spaces to
hyphens). Usage: docs_links.py REPO_ROOT"""
import glob
import os
import re
import sys


def anchors(path):
    found = set()
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"^#+\s+(.*)", line)
            if m:
                slug = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower()).replace(" ", "-")
                found.add(slug)
    return found


root = sys.argv[1]
pages = [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs", "*.md")))
broken = []
for page in pages:
    with open(page, encoding="utf-8") as f:
        text = f.read()
    for link in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"^[a-z]+:", link):
            continue  # http:, https:, mailto:
        target, _, anchor = link.partition("#")
        path = os.path.normpath(os.path.join(os.path.dirname(page), target)) if target else page
        where = os.path.relpath(page, root)
        if not os.path.exists(path):
            broken.append(f"{where}: {link}: no such file")
        elif anchor and path.endswith(".md") and anchor not in anchors(path):
            broken.append(f"{where}: {link}: no heading '#{anchor}'")
print(f"{len(pages)} pages checked")
for b in broken:
    print(b)
sys.exit(1 if broken else 0)
