"""The library's name lists against their copies: usage check_names.py LIBNNPERF.so REPO_DIR.
The library's tables (nnperf_memory_model_name, nnperf_compute_model_name, nnperf_mcu_target_name,
nnperf_format_name: each the only list of its names) against python/nnperf/_capi.py's constants (MEMORY_MODELS,
FORMAT_*) and against every enum of the JSON schemas in docs/json-schema.md under the keys memory_model,
compute_model and target. The CLI's choices are checked against the same tables by tests/cli/test_cli_table.c.
A name added to a table and not to a copy (or the other way round) fails here."""
import ctypes
import json
import os
import re
import sys

libpath, repo = sys.argv[1:3]
os.environ["NNPERF_LIBRARY"] = libpath
sys.path.insert(0, os.path.join(repo, "python"))
from nnperf import _capi  # noqa: E402

lib = ctypes.CDLL(libpath)


def names(what):
    count = getattr(lib, "nnperf_%s_count" % what)
    name = getattr(lib, "nnperf_%s_name" % what)
    name.restype = ctypes.c_char_p
    name.argtypes = [ctypes.c_int]
    out = [name(i).decode() for i in range(count())]
    if name(count()) is not None or name(-1) is not None:
        raise SystemExit("nnperf_%s_name: a name out of range" % what)
    return out


tables = {w: names(w) for w in ("memory_model", "compute_model", "mcu_target", "format")}
problems = []

# Python's constants
mm = tables["memory_model"]
want = {None: 0, **{n: i for i, n in enumerate(mm) if i}}
if _capi.MEMORY_MODELS != want:
    problems.append("_capi.MEMORY_MODELS %r, the library's %r" % (_capi.MEMORY_MODELS, want))
fmts = {k: v for k, v in vars(_capi).items() if k.startswith("FORMAT_")}
for k, v in fmts.items():
    lib_name = tables["format"][v] if 0 <= v < len(tables["format"]) else None
    if lib_name != k[len("FORMAT_"):].lower():
        problems.append("_capi.%s = %d, the library's format %d is %r" % (k, v, v, lib_name))
for n in tables["format"]:
    if "FORMAT_" + n.upper() not in fmts:
        problems.append("_capi has no FORMAT_%s (the library's format %r)" % (n.upper(), n))

# the JSON schemas' enums
schema_keys = {"memory_model": mm[1:], "compute_model": tables["compute_model"], "target": tables["mcu_target"]}
seen = {k: 0 for k in schema_keys}


def walk(node, path):
    if isinstance(node, dict):
        for k, v in node.items():
            if k in schema_keys and isinstance(v, dict) and "enum" in v:
                seen[k] += 1
                if v["enum"] != schema_keys[k]:
                    problems.append("%s.%s: enum %r, the library's %r" % (path, k, v["enum"], schema_keys[k]))
            walk(v, path + "." + k)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            walk(v, "%s[%d]" % (path, i))


text = open(os.path.join(repo, "docs", "json-schema.md"), encoding="utf-8").read()
for m in re.finditer(r"^```json-schema\n(.*?)^```", text, re.S | re.M):
    s = json.loads(m.group(1))
    walk(s, s.get("$id", "?"))
for k, n in seen.items():
    if not n:
        problems.append("docs/json-schema.md: no enum under '%s' (the test would check nothing)" % k)

for p in problems:
    print("FAIL", p)
print("%s; %d schema enums checked" % (", ".join("%s: %s" % (k, ",".join(v)) for k, v in tables.items()),
                                       sum(seen.values())))
sys.exit(1 if problems else 0)
