#!/usr/bin/env python3
"""The JSON outputs of every nnperf command against the schemas of docs/json-schema.md.

Reads the fenced ```json-schema blocks of docs/json-schema.md (the document people read is the one checked), runs the
commands of CASES, and validates each output against the schema its "schema" field names. Fails when an output
breaks its schema, names a schema the document lacks, or when a schema of the document is checked by no case.

The validator is a small one of our own (Python's standard library only) for the part of JSON Schema draft 2020-12
the document uses: type, properties, required, additionalProperties, items, enum, const, minimum, maximum, minItems,
$ref (to #/$defs/...), anyOf, if/then. A keyword it does not know in a schema is an error, so the document cannot use
more than is checked.

usage: check_json.py NNPERF            (run from anywhere; paths are relative to the repository root)
       check_json.py --selftest        (the checker against crafted instances that must pass or fail)
"""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

# (exit codes accepted, nnperf arguments); every schema of the document must be reached by at least one case
CASES = [
    ((0,), "analyze models/squeezenet1_1.onnx --format json"),
    ((0,), "analyze tests/models/ms_transformer_block.onnx --format json"),
    ((0,), "analyze tests/data/report/comma.onnx --format json"),
    ((0,), "analyze models/squeezenet1_1.onnx --hw jetson-orin-nano --format json"),
    ((0,), "analyze tests/data/predict/fallback.onnx --hw horizon-j5 --format json"),
    ((0,), "analyze tests/data/predict/shortcut.onnx --hw zcu102-dpu --memory-model weights-only --batch 4 --format json"),
    ((0,), "compare models/squeezenet1_1.onnx tests/data/report/comma.onnx --hw zcu102-dpu,jetson-orin-nano "
           "--accuracy squeezenet1_1=58.18 --format json --quiet"),
    ((0,), "compare models/squeezenet1_1.onnx --hw zcu102-dpu,jetson-orin-nano --dtype fp16 --format json --quiet"),
    ((0,), "sweep models/squeezenet1_1.onnx --hw jetson-orin-nano,zcu102-dpu --batch 1,4 --dtype int8,fp16 "
           "--format json --quiet"),
    ((0,), "roofline models/squeezenet1_1.onnx --hw edgetpu-fast --format json"),
    ((0,), "roofline tests/data/predict/fallback.onnx --hw horizon-j5 --format json"),
    ((0,), "validate models/squeezenet1_1.onnx --hw bench/validate/host-cal.yaml "
           "--measured tests/data/ort_profile_small.json --format json"),
    ((0,), "analyze models/squeezenet1_1.onnx --hw horizon-j5 --format trace"),
    ((0,), "analyze tests/data/predict/fallback.onnx --hw horizon-j5 --format trace"),
    ((0,), "validate models/squeezenet1_1.onnx --hw bench/validate/host-cal.yaml "
           "--measured tests/data/ort_profile_small.json --format trace"),
    ((0,), "advise tests/data/advise/fallback_yes.onnx --hw tests/data/advise/adv-npu.yaml --format json"),
    ((0,), "advise tests/data/advise/fallback_no.onnx --hw tests/data/advise/adv-npu.yaml --format json"),
    ((0,), "map models/mcu/cifar10_residual.onnx --target max78000 --format json"),
    ((1,), "map models/mcu/cifar10_large.onnx --target max78000 --format json"),
    ((0,), "llm tests/data/llm/tiny-llama-hf.onnx --hw a100-80gb --prompt 256 --format json"),
    ((0,), "llm tests/data/llm/tiny-opt-hf.onnx --hw jetson-orin-nano --prompt 64,128 --batch 1,2 --format json"),
    ((0,), "llm --config tests/data/llm/configs/llama-3-70b.json --hw 8x-h100-sxm --tp 2 --pp 2 --format json"),
    ((0,), "llm --config tests/data/llm/configs/llama-3.1-8b.json --hw a100-80gb --serve --trace tests/data/llm/trace.csv "
           "--slo-ttft 200 --slo-tpot 40 --format json"),
    ((0,), "llm --config tests/data/llm/configs/llama-3.1-8b.json --hw a100-80gb --serve --concurrency 8 --batch 8 "
           "--generate 128 --format json"),
]

KNOWN = {"$schema", "$id", "$defs", "title", "description", "type", "properties", "required",
         "additionalProperties", "items", "enum", "const", "minimum", "maximum", "minItems", "$ref", "anyOf", "if",
         "then"}


def schemas_of(doc_path):
    text = open(doc_path, encoding="utf-8").read()
    out = {}
    for m in re.finditer(r"^```json-schema\n(.*?)^```", text, re.S | re.M):
        s = json.loads(m.group(1))
        sid = s.get("$id")
        if not sid:
            raise SystemExit("%s: a json-schema block without $id" % doc_path)
        if sid in out:
            raise SystemExit("%s: two json-schema blocks named %s" % (doc_path, sid))
        out[sid] = s
    return out


def type_ok(v, t):
    if t == "null":
        return v is None
    if t == "boolean":
        return isinstance(v, bool)
    if t == "integer":
        return isinstance(v, int) and not isinstance(v, bool)
    if t == "number":
        return isinstance(v, (int, float)) and not isinstance(v, bool)
    if t == "string":
        return isinstance(v, str)
    if t == "array":
        return isinstance(v, list)
    if t == "object":
        return isinstance(v, dict)
    raise ValueError("unknown type %r in a schema" % t)


def check(v, s, root, path, errors):
    """Appends to errors every way v breaks schema s (root: the schema whose $defs $ref reads)."""
    unknown = set(s) - KNOWN
    if unknown:
        raise ValueError("%s: schema keyword(s) %s are not supported by this checker" % (path, sorted(unknown)))
    if "$ref" in s:
        ref = s["$ref"]
        if not ref.startswith("#/$defs/"):
            raise ValueError("%s: $ref %s: only #/$defs/NAME is supported" % (path, ref))
        check(v, root["$defs"][ref[len("#/$defs/"):]], root, path, errors)
    if "type" in s:
        ts = s["type"] if isinstance(s["type"], list) else [s["type"]]
        if not any(type_ok(v, t) for t in ts):
            errors.append("%s: %s is not of type %s" % (path, json.dumps(v)[:80], "/".join(ts)))
            return
    if "const" in s and v != s["const"]:
        errors.append("%s: %s is not %s" % (path, json.dumps(v)[:80], json.dumps(s["const"])))
    if "enum" in s and v not in s["enum"]:
        errors.append("%s: %s is not one of %s" % (path, json.dumps(v)[:80], s["enum"]))
    num = isinstance(v, (int, float)) and not isinstance(v, bool)
    if num and "minimum" in s and v < s["minimum"]:
        errors.append("%s: %s is below %s" % (path, v, s["minimum"]))
    if num and "maximum" in s and v > s["maximum"]:
        errors.append("%s: %s is above %s" % (path, v, s["maximum"]))
    if isinstance(v, list):
        if "minItems" in s and len(v) < s["minItems"]:
            errors.append("%s: %d items, at least %d expected" % (path, len(v), s["minItems"]))
        if "items" in s:
            for i, x in enumerate(v):
                check(x, s["items"], root, "%s[%d]" % (path, i), errors)
    if isinstance(v, dict):
        props = s.get("properties", {})
        for k in s.get("required", []):
            if k not in v:
                errors.append("%s: '%s' is missing" % (path, k))
        for k, x in v.items():
            if k in props:
                check(x, props[k], root, "%s.%s" % (path, k), errors)
            elif "additionalProperties" in s:
                ap = s["additionalProperties"]
                if ap is False:
                    errors.append("%s: '%s' is not in the schema (document it in docs/json-schema.md)" % (path, k))
                elif isinstance(ap, dict):
                    check(x, ap, root, "%s.%s" % (path, k), errors)
    if "anyOf" in s:
        tries = []
        for alt in s["anyOf"]:
            e = []
            check(v, alt, root, path, e)
            if not e:
                break
            tries.append(e)
        else:
            errors.append("%s: matches none of anyOf: %s" % (path, "; ".join(t[0] for t in tries)))
    if "if" in s:
        e = []
        check(v, s["if"], root, path, e)
        if not e and "then" in s:
            check(v, s["then"], root, path, errors)


def selftest():
    """The checker must fail on what it is meant to catch (and pass the rest): each case is (instance, errors?)."""
    root = {"type": "object", "required": ["a"], "additionalProperties": False,
            "properties": {"a": {"type": "integer", "minimum": 0}, "b": {"$ref": "#/$defs/s"},
                           "c": {"anyOf": [{"type": "null"}, {"type": "array", "minItems": 1, "items": {"enum": [1, 2]}}]},
                           "d": {"const": "x"}, "p": {"type": "string"}},
            "if": {"required": ["p"]}, "then": {"required": ["d"]},
            "$defs": {"s": {"type": "number", "maximum": 1}}}
    cases = [({"a": 1}, False), ({"a": 1, "b": 0.5, "c": None}, False), ({"a": 1, "c": [1, 2]}, False),
             ({"a": 1, "p": "q", "d": "x"}, False),
             ({}, True), ({"a": -1}, True), ({"a": 1.5}, True), ({"a": True}, True), ({"a": 1, "z": 0}, True),
             ({"a": 1, "b": 2}, True), ({"a": 1, "b": "s"}, True), ({"a": 1, "c": []}, True),
             ({"a": 1, "c": [3]}, True), ({"a": 1, "d": "y"}, True), ({"a": 1, "p": "q"}, True), ([], True)]
    bad = 0
    for inst, want_errors in cases:
        e = []
        check(inst, root, root, "$", e)
        if bool(e) != want_errors:
            print("FAIL selftest: %s gave %s" % (json.dumps(inst), e or "no error"))
            bad += 1
    try:
        check(1, {"pattern": "x"}, {}, "$", [])
        print("FAIL selftest: an unknown schema keyword was accepted")
        bad += 1
    except ValueError:
        pass
    print("checker selftest: %d cases, %d wrong" % (len(cases) + 1, bad))
    sys.exit(1 if bad else 0)


def main():
    if len(sys.argv) == 2 and sys.argv[1] == "--selftest":
        selftest()
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    nn = os.path.abspath(sys.argv[1])
    os.chdir(ROOT)
    schemas = schemas_of("docs/json-schema.md")
    used = set()
    fail = 0
    for codes, args in CASES:
        p = subprocess.run([nn] + args.split(), capture_output=True, text=True, env=dict(os.environ, LC_ALL="C"))
        if p.returncode not in codes:
            print("FAIL nnperf %s: exit %d (expected %s)\n%s" % (args, p.returncode, codes, p.stderr[-500:]))
            fail += 1
            continue
        try:
            doc = json.loads(p.stdout)
        except ValueError as e:
            print("FAIL nnperf %s: not JSON: %s" % (args, e))
            fail += 1
            continue
        name = doc.get("schema") if isinstance(doc, dict) else None
        if name not in schemas:
            print("FAIL nnperf %s: its schema %r is not in docs/json-schema.md" % (args, name))
            fail += 1
            continue
        used.add(name)
        errors = []
        check(doc, schemas[name], schemas[name], "$", errors)
        if errors:
            print("FAIL nnperf %s (%s), %d error(s):" % (args, name, len(errors)))
            for e in errors[:10]:
                print("  " + e)
            fail += 1
        else:
            print("ok   nnperf %s (%s)" % (args, name))
    for name in sorted(set(schemas) - used):
        print("FAIL schema %s of docs/json-schema.md is checked by no case" % name)
        fail += 1
    print("%d of %d outputs match their schema; %d schemas in docs/json-schema.md" %
          (len(CASES) - fail if fail <= len(CASES) else 0, len(CASES), len(schemas)))
    sys.exit(1 if fail else 0)


if __name__ == "__main__":
    main()
