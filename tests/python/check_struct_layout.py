"""The ctypes structures of python/nnperf/_capi.py against the C layout: usage
check_struct_layout.py STRUCT_LAYOUT LIBNNPERF.so PYTHON_DIR. STRUCT_LAYOUT (struct_layout.c) prints each mirrored
struct's sizeof and its fields' offsetof as the C compiler lays them out; every ctypes.Structure of _capi.py must be
one of them (class name -> nnperf_snake_case), with the same fields in the same order at the same offsets and the
same size. A field added to a C struct and not to _capi.py changes its size or its field list; both fail."""
import ctypes
import os
import re
import subprocess
import sys

layout_exe, libpath, pydir = sys.argv[1:4]
os.environ["NNPERF_LIBRARY"] = libpath
sys.path.insert(0, pydir)
from nnperf import _capi  # noqa: E402

c = {}
cur = None
# the sanitizer runtime is preloaded for python (sanitized builds), not for struct_layout: it has its own
env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
for line in subprocess.run([layout_exe], check=True, capture_output=True, text=True, env=env).stdout.splitlines():
    kind, name, value = line.split()
    if kind == "struct":
        cur = c[name] = {"size": int(value), "fields": []}
    else:
        cur["fields"].append((name, int(value)))

problems = []
seen = set()
for cls in vars(_capi).values():
    if not (isinstance(cls, type) and issubclass(cls, ctypes.Structure)) or cls.__module__ != _capi.__name__:
        continue
    cname = "nnperf_" + re.sub(r"(?<!^)([A-Z])", r"_\1", cls.__name__).lower()
    seen.add(cname)
    if cname not in c:
        problems.append(f"_capi.{cls.__name__}: struct {cname} is not in tests/python/struct_layout.c")
        continue
    py = [(f[0], getattr(cls, f[0]).offset) for f in cls._fields_]
    if py != c[cname]["fields"]:
        problems.append(f"_capi.{cls.__name__} fields {py} != struct {cname} {c[cname]['fields']}")
    if ctypes.sizeof(cls) != c[cname]["size"]:
        problems.append(f"_capi.{cls.__name__}: sizeof {ctypes.sizeof(cls)} != struct {cname} {c[cname]['size']}")
for cname in sorted(set(c) - seen):
    problems.append(f"struct {cname} is in struct_layout.c but _capi.py has no structure for it")
if problems:
    print("\n".join(problems))
    sys.exit(1)
print(f"{len(seen)} ctypes structures of _capi.py match the C layout: " +
      ", ".join(f"{n} ({c[n]['size']} bytes)" for n in sorted(seen)))
