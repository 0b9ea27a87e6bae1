#!/usr/bin/env python3
"""validate-report.py SCHEMA.json REPORT.json: check a kpatch-build --report file
against kpatch-build/report-schema.json.

A small JSON Schema validator (python3 standard library only) for the keywords
that schema uses: type, const, enum, required, properties, additionalProperties
(false), items, oneOf, $ref (local "#/..."), pattern, minimum. Any other
validation keyword is an error, so that the schema cannot use one this script
would silently ignore. Prints one line per violation (JSON pointer: problem);
exit 0 when valid, 1 when not, 2 on bad input.
"""
import json
import re
import sys

ANNOTATIONS = {"$schema", "$id", "$defs", "title", "description"}
KEYWORDS = {"type", "const", "enum", "required", "properties", "additionalProperties",
            "items", "oneOf", "$ref", "pattern", "minimum"}
TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


class Validator:
    def __init__(self, root):
        self.root = root

    def resolve(self, ref):
        if not ref.startswith("#/"):
            raise ValueError("only local $ref are supported: " + ref)
        node = self.root
        for part in ref[2:].split("/"):
            node = node[part]
        return node

    def errors(self, schema, value, path):
        unknown = set(schema) - KEYWORDS - ANNOTATIONS
        if unknown:
            raise ValueError("%s: unsupported schema keywords %s" % (path or "/", sorted(unknown)))
        out = []
        if "$ref" in schema:
            out += self.errors(self.resolve(schema["$ref"]), value, path)
        if "type" in schema:
            types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
            if not any(TYPES[t](value) for t in types):
                return out + ["%s: %r is not of type %s" % (path or "/", value, "|".join(types))]
        if "const" in schema and value != schema["const"]:
            out.append("%s: %r is not %r" % (path or "/", value, schema["const"]))
        if "enum" in schema and value not in schema["enum"]:
            out.append("%s: %r is not one of %s" % (path or "/", value, schema["enum"]))
        if "oneOf" in schema:
            n = sum(1 for s in schema["oneOf"] if not self.errors(s, value, path))
            if n != 1:
                out.append("%s: matches %d of the oneOf alternatives, not 1" % (path or "/", n))
        if isinstance(value, str) and "pattern" in schema and not re.search(schema["pattern"], value):
            out.append("%s: %r does not match /%s/" % (path or "/", value, schema["pattern"]))
        if TYPES["number"](value) and "minimum" in schema and value < schema["minimum"]:
            out.append("%s: %r is below %r" % (path or "/", value, schema["minimum"]))
        if isinstance(value, dict):
            out += self.object_errors(schema, value, path)
        if isinstance(value, list) and "items" in schema:
            for i, item in enumerate(value):
                out += self.errors(schema["items"], item, "%s/%d" % (path, i))
        return out

    def object_errors(self, schema, value, path):
        out = []
        props = schema.get("properties", {})
        for key in schema.get("required", []):
            if key not in value:
                out.append("%s: required property %r missing" % (path or "/", key))
        for key, item in value.items():
            if key in props:
                out += self.errors(props[key], item, "%s/%s" % (path, key))
            elif schema.get("additionalProperties", True) is False:
                out.append("%s: property %r is not in the schema" % (path or "/", key))
        return out


def main():
    if len(sys.argv) != 3:
        print("usage: validate-report.py SCHEMA.json REPORT.json", file=sys.stderr)
        return 2
    try:
        with open(sys.argv[1]) as f:
            schema = json.load(f)
        with open(sys.argv[2]) as f:
            report = json.load(f)
        errs = Validator(schema).errors(schema, report, "")
    except (OSError, ValueError, KeyError) as e:
        print("validate-report: %s" % e, file=sys.stderr)
        return 2
    for e in errs:
        print("%s: %s" % (sys.argv[2], e))
    if not errs:
        print("%s: valid (%s)" % (sys.argv[2], schema.get("$id", sys.argv[1])))
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main())
