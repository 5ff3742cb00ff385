#!/usr/bin/env python3
"""Every isosynth subcommand with --json is validated by at least one CLI test.

    json_coverage.py ISOSYNTH TESTS_DIR

Lists the subcommands whose help offers --json, then the cli_test() calls of
TESTS_DIR's *.cmake files that run ${BIN} SUBCOMMAND ... --json with an
expected exit code other than 2 (tests/cli/expect.sh validates their stdout
against the schema). Exits 1 naming each subcommand no such test covers.
"""
import pathlib
import re
import subprocess
import sys


def subcommands(binary):
    text = subprocess.run([binary, "--help"], capture_output=True, text=True, check=True).stdout
    section = text.split("Subcommands:", 1)[1].split("\n\n", 1)[0]
    names = [m.group(1) for m in re.finditer(r"^\s{2}(\S+)\s", section, re.M)]
    with_json = []
    for name in names:
        help_text = subprocess.run([binary, name, "--help"], capture_output=True, text=True, check=True).stdout
        if re.search(r"(^|\s)--json\b", help_text):
            with_json.append(name)
    return names, with_json


def arguments(text, start):
    """The arguments of the CMake call whose '(' is at text[start - 1]."""
    args, i, depth, cur, quoted = [], start, 1, None, False
    while i < len(text):
        c = text[i]
        if quoted:
            if c == "\\":
                cur += text[i:i + 2]
                i += 2
                continue
            if c == '"':
                quoted = False
            else:
                cur += c
        elif c == '"':
            quoted, cur = True, cur if cur is not None else ""
        elif c == "#":
            i = text.find("\n", i)
            if i < 0:
                break
            continue
        elif c in " \t\n" or (c == ")" and depth == 1):
            if cur is not None:
                args.append(cur)
                cur = None
            if c == ")":
                return args
        else:
            depth += c == "("
            depth -= c == ")"
            cur = (cur or "") + c
        i += 1
    return args


def main():
    binary, tests = sys.argv[1], pathlib.Path(sys.argv[2])
    names, with_json = subcommands(binary)
    covered = {}
    for f in sorted(tests.rglob("*.cmake")):
        text = f.read_text(encoding="utf-8")
        for m in re.finditer(r"(?<![\w.])cli_test\(", text):
            args = arguments(text, m.end())
            if len(args) < 5 or args[1] == "2" or args[4] != "${BIN}" or "--json" not in args[5:]:
                continue
            command = next((a for a in args[5:] if a in names), None)
            if command:
                covered.setdefault(command, []).append(args[0])
    missing = [c for c in with_json if c not in covered]
    for c in with_json:
        print(f"{c}: {', '.join(covered.get(c, [])) or 'NOT COVERED'}")
    if missing:
        print(f"no CLI test validates the --json output of: {', '.join(missing)}", file=sys.stderr)
        return 1
    if not with_json:
        print("no subcommand offers --json: the help changed?", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
