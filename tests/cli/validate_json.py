#!/usr/bin/env python3
"""Validates one command's --json output against docs/schema/isosynth-output.schema.json.

    validate_json.py SCHEMA COMMAND [FILE]     (FILE absent: standard input)
    validate_json.py SCHEMA --self             (the schema against draft 2020-12)

COMMAND names the schema's definition the document must satisfy ($defs/COMMAND:
check, synth, compare, ...). Prints every violation, with its JSON path, on
stderr and exits 1; exits 0 when the document is valid. A missing jsonschema
module (Debian: python3-jsonschema) is a failure, never a skip.
"""
import json
import sys


def main():
    if len(sys.argv) not in (3, 4):
        print("usage: validate_json.py SCHEMA COMMAND [FILE]", file=sys.stderr)
        return 2
    try:
        import jsonschema
    except ImportError:
        print("validate_json.py: the python3 module jsonschema is missing (Debian: python3-jsonschema; "
              "scripts/setup installs it)", file=sys.stderr)
        return 1
    schema_path, command = sys.argv[1], sys.argv[2]
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    if command == "--self":
        try:
            jsonschema.Draft202012Validator.check_schema(schema)
        except jsonschema.exceptions.SchemaError as e:
            print(f"validate_json.py: {schema_path} is not a draft 2020-12 schema: {e.message}", file=sys.stderr)
            return 1
        return 0
    if command not in schema.get("$defs", {}):
        print(f"validate_json.py: the schema has no definition for the command {command!r}", file=sys.stderr)
        return 1
    try:
        if len(sys.argv) == 4:
            with open(sys.argv[3], encoding="utf-8") as f:
                doc = json.load(f)
        else:
            doc = json.load(sys.stdin)
    except ValueError as e:
        print(f"validate_json.py: not JSON: {e}", file=sys.stderr)
        return 1
    # The command's definition, with the shared ones it refers to.
    one = {k: v for k, v in schema.items() if k not in ("anyOf", "$id", "title", "description")}
    one["$ref"] = f"#/$defs/{command}"
    validator = jsonschema.Draft202012Validator(one)
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
    for e in errors[:20]:
        # An anyOf failure says little: show each alternative's deepest reason.
        shown = [e]
        if e.context:
            branches = {}
            for c in e.context:
                branches.setdefault(c.relative_schema_path[0], []).append(c)
            shown = [max(b, key=lambda c: len(c.absolute_path)) for b in branches.values()]
        for one in shown:
            path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in one.absolute_path) or "(top)"
            print(f"{command} --json: {path}: {one.message}", file=sys.stderr)
    if len(errors) > 20:
        print(f"... and {len(errors) - 20} more", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
