#!/usr/bin/env python3
"""locale_free.py SRC_DIR - every number the library prints or parses goes through the locale-free functions of
src/core (c_snprintf, c_vsnprintf, c_strtod): the C library's own ones follow the host program's LC_NUMERIC (a
comma-decimal locale would print "1,5" into JSON). Flags, outside src/core/:
  - a printf-family call whose format (its string literals) has a floating-point conversion (%f %e %g %a);
  - a v*printf call (its format is not visible here);
  - strtod, strtof, strtold, atof, or a scanf-family call.
Integers (%d, strtoll) do not depend on the locale and are allowed."""
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else "src"
CALL = re.compile(r"\b(snprintf|sprintf|fprintf|printf|vsnprintf|vsprintf|vfprintf|vprintf|strtod|strtof|strtold|"
                  r"atof|sscanf|fscanf|scanf|vsscanf)\s*\(")
CONV = re.compile(r"%[-+ #0']*(?:\*|\d+)?(?:\.(?:\*|\d+))?(?:hh|h|ll|l|L|z|j|t)?([a-zA-Z%])")


def strip_comments(src):
    """Blanks out comments, keeping string literals and line numbers."""
    out, i, n = [], 0, len(src)
    while i < n:
        c = src[i]
        if src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", src[i:j]))
            i = j
        elif src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and src[j] != c:
                j += 2 if src[j] == "\\" else 1
            out.append(src[i:j + 1])
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def call_args(src, start):
    """The text of the call's arguments from the '(' at start to its matching ')'."""
    depth, i = 0, start
    while i < len(src):
        c = src[i]
        if c in "\"'":
            j = i + 1
            while j < len(src) and src[j] != c:
                j += 2 if src[j] == "\\" else 1
            i = j
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return src[start:i + 1]
        i += 1
    return src[start:]


bad = []
for dirpath, _, files in os.walk(root):
    if os.path.normpath(dirpath).endswith(os.path.join("src", "core")):
        continue
    for f in sorted(files):
        if not f.endswith((".c", ".h")):
            continue
        path = os.path.join(dirpath, f)
        src = strip_comments(open(path, encoding="utf-8").read())
        for m in CALL.finditer(src):
            name = m.group(1)
            line = src.count("\n", 0, m.start()) + 1
            if name.startswith("v") or not name.endswith("printf"):
                bad.append(f"{path}:{line}: {name}: use the locale-free c_* function of src/core/core.h")
                continue
            args = call_args(src, m.end() - 1)
            lits = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', args))
            if any(k in "fFeEgGaA" for k in CONV.findall(lits)):
                bad.append(f"{path}:{line}: {name} with a floating-point conversion: use c_snprintf")
if bad:
    print("\n".join(bad))
    print(f"{len(bad)} locale-dependent number conversions in {root}")
    sys.exit(1)
print(f"no locale-dependent number conversions in {root}")
