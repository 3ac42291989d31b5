#!/usr/bin/env python3
"""A small token-level mutator for JavaScript sources (Python standard library only).

    python3 benches/mutation/js_mutate.py SOURCE OUT_DIR

writes one mutant per file, `OUT_DIR/m0001.mjs` …, each differing from SOURCE by exactly one
mutation, `OUT_DIR/m0000.mjs` (the unmodified source) and `OUT_DIR/mutants.tsv` (id, line,
operator, description). The source is split into tokens (comments, quoted strings, template
literals, numbers, names, punctuators; the reference adapter uses no regular-expression
literals, and a source with one is refused); mutations act on tokens, so comments and strings
are never mistaken for code. Operators, as in py_mutate.py:

- `binop`: `+`↔`-`, `*`→`/`, `%`→`+`; `augassign`: `+=`↔`-=`, `++`↔`--`
- `compare`: `===`↔`!==`, `==`↔`!=`, `<`↔`>=`, `>`↔`<=`
- `boolop`: `&&`↔`||`, `??`→`||`
- `not`: a unary `!` dropped
- `bool`: `true`↔`false`; `int`: `n`→`n+1` and `n`→`n-1` (off by one)
- `str`: a quoted string `'s'` → `'s_'`
- `if`: an `if (…)` / `while (…)` condition negated
- `return`: `return x;` → `return undefined;`
- `delete`: a whole-line statement (ends in `;`, balanced brackets) removed

Each mutant is checked with `node --check` when `node` is on the PATH; mutants that do not
parse are dropped and counted.
"""

import os
import re
import shutil
import subprocess
import sys

TOKEN = re.compile(r"""
    (?P<comment>\#![^\n]*|//[^\n]*|/\*.*?\*/)
  | (?P<string>'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")
  | (?P<template>`(?:[^`\\]|\\.)*`)
  | (?P<number>0[xX][0-9a-fA-F]+|\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)
  | (?P<name>[A-Za-z_$][A-Za-z0-9_$]*)
  | (?P<space>\s+)
  | (?P<punct>>>>=|===|!==|\*\*=|<<=|>>=|>>>|\.\.\.|\?\?=|&&=|\|\|=|=>|==|!=|<=|>=|&&|\|\||\?\?|\?\.
              |\+\+|--|\+=|-=|\*=|/=|%=|<<|>>|\*\*|[{}()\[\];,<>+\-*/%&|^!~?:=.@#])
""", re.S | re.X)

SWAPS = {
    "+": ("binop", "-"), "-": ("binop", "+"), "*": ("binop", "/"), "%": ("binop", "+"),
    "+=": ("augassign", "-="), "-=": ("augassign", "+="), "++": ("augassign", "--"),
    "--": ("augassign", "++"), "===": ("compare", "!=="), "!==": ("compare", "==="),
    "==": ("compare", "!="), "!=": ("compare", "=="), "<": ("compare", ">="),
    ">=": ("compare", "<"), ">": ("compare", "<="), "<=": ("compare", ">"),
    "&&": ("boolop", "||"), "||": ("boolop", "&&"), "??": ("boolop", "||"),
    "true": ("bool", "false"), "false": ("bool", "true"),
}
OPEN, CLOSE = "([{", ")]}"


def tokenize(text):
    tokens, pos = [], 0
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m:
            raise SystemExit("cannot tokenize at offset %d: %r" % (pos, text[pos:pos + 30]))
        tokens.append((m.lastgroup, m.group(), m.start()))
        pos = m.end()
    return tokens


def code_indices(tokens):
    return [i for i, t in enumerate(tokens) if t[0] not in ("comment", "space")]


def matching(tokens, code, k):
    """Index into `code` of the bracket closing the one at code[k]."""
    depth = 0
    for j in range(k, len(code)):
        v = tokens[code[j]][1]
        if v in OPEN:
            depth += 1
        elif v in CLOSE:
            depth -= 1
            if depth == 0:
                return j
    return None


def sites(text, tokens):
    """Every mutation: (offset, line, operator, description, start, end, replacement), replacing
    text[start:end]."""
    line_of = lambda off: text.count("\n", 0, off) + 1
    code = code_indices(tokens)
    out = []
    prev = None
    for k, i in enumerate(code):
        kind, value, start = tokens[i]
        end = start + len(value)
        if kind == "punct" and value == "/" and prev is not None and (
                prev[1] in "=(,:;!&|?{}[" or prev[1] == "return"):
            raise SystemExit("line %d: looks like a regular-expression literal" % line_of(start))
        if value in SWAPS and kind in ("punct", "name"):
            # `-` or `+` after an operator or an opening bracket is unary: swapping it is fine too.
            op, new = SWAPS[value]
            out.append((start, op, "%s -> %s" % (value, new), start, end, new))
        elif kind == "punct" and value == "!":
            out.append((start, "not", "!x -> x", start, end, ""))
        elif kind == "number":
            n = int(value, 0) if not re.search(r"[.eE]", value) or value.lower().startswith("0x") else None
            if n is not None:
                out.append((start, "int", "%s -> %d" % (value, n + 1), start, end, str(n + 1)))
                if n > 0:
                    out.append((start, "int", "%s -> %d" % (value, n - 1), start, end, str(n - 1)))
        elif kind == "string":
            new = value[:-1] + "_" + value[-1]
            out.append((start, "str", "%s -> %s" % (value, new), start, end, new))
        elif kind == "name" and value in ("if", "while") and k + 1 < len(code) and tokens[code[k + 1]][1] == "(":
            close = matching(tokens, code, k + 1)
            if close is not None:
                a = tokens[code[k + 1]][2] + 1
                b = tokens[code[close]][2]
                cond = text[a:b]
                out.append((start, "if", "condition negated", a, b, "!(%s)" % cond))
        elif kind == "name" and value == "return" and k + 1 < len(code) and tokens[code[k + 1]][1] not in (";", "}"):
            depth, j = 0, k + 1
            while j < len(code):
                v = tokens[code[j]][1]
                if v in OPEN:
                    depth += 1
                elif v in CLOSE:
                    if depth == 0:
                        break
                    depth -= 1
                elif v == ";" and depth == 0:
                    break
                j += 1
            if j < len(code):
                a = tokens[code[k + 1]][2]
                b = tokens[code[j]][2]
                if text[a:b].strip() not in ("undefined", "null"):
                    out.append((start, "return", "return x -> return undefined", a, b, "undefined"))
        prev = (kind, value)
    # Whole-line statements.
    offset = 0
    for line in text.split("\n"):
        s = line.strip()
        if s.endswith(";") and not s.startswith(("}", "?", ":", "import ", "//", "*", "/*", "export ")):
            depth, ok = 0, True
            for kind, value, _ in tokenize(s):
                if kind in ("comment", "space"):
                    continue
                if value in OPEN:
                    depth += 1
                elif value in CLOSE:
                    depth -= 1
                    if depth < 0:
                        ok = False
                        break
            if ok and depth == 0:
                a = offset + line.index(s[0])
                out.append((a, "delete", "delete `%s`" % s[:70], a, a + len(s), ""))
        offset += len(line) + 1
    return [(line_of(o), op, d, a, b, r) for (o, op, d, a, b, r) in sorted(out, key=lambda x: x[0])]


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: js_mutate.py SOURCE OUT_DIR\n")
        return 2
    source, out_dir = argv[1], argv[2]
    with open(source, encoding="utf-8") as f:
        text = f.read()
    tokens = tokenize(text)
    os.makedirs(out_dir, exist_ok=True)
    ext = os.path.splitext(source)[1] or ".mjs"
    with open(os.path.join(out_dir, "m0000" + ext), "w", encoding="utf-8") as f:
        f.write(text)
    node = shutil.which("node")
    rows, seen, unparsable = [], {text}, []
    for line, op, desc, a, b, repl in sites(text, tokens):
        mutant = text[:a] + repl + text[b:]
        if mutant in seen:
            continue
        seen.add(mutant)
        name = "m%04d" % (len(rows) + 1)
        path = os.path.join(out_dir, name + ext)
        with open(path, "w", encoding="utf-8") as f:
            f.write(mutant)
        if node and subprocess.run([node, "--check", path], capture_output=True).returncode != 0:
            os.remove(path)
            unparsable.append("%d\t%s\t%s" % (line, op, desc.replace("\t", " ")))
            continue
        rows.append("%s\t%d\t%s\t%s" % (name, line, op, desc.replace("\t", " ")))
    with open(os.path.join(out_dir, "mutants.tsv"), "w", encoding="utf-8") as f:
        f.write("id\tline\toperator\tdescription\n" + "\n".join(rows) + "\n")
    # The unviable mutants (cargo-mutants' term): counted, never run.
    with open(os.path.join(out_dir, "unviable.txt"), "w", encoding="utf-8") as f:
        f.write("".join(u + "\n" for u in unparsable))
    print("%d mutants of %s in %s (%d more did not parse and were dropped: unviable.txt)"
          % (len(rows), source, out_dir, len(unparsable)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
