#!/usr/bin/env python3
"""A small AST mutator for Python sources (standard library only).

    python3 benches/mutation/py_mutate.py SOURCE OUT_DIR

writes one mutant per file, `OUT_DIR/m0001.py` …, each differing from SOURCE by exactly one
mutation, and `OUT_DIR/mutants.tsv` (id, line, operator, description). Mutation operators:

- `binop`: arithmetic operator swaps (`+`↔`-`, `*`→`/`, `%`→`+`)
- `augassign`: `+=`↔`-=`
- `compare`: comparison flips (`==`↔`!=`, `<`↔`>=`, `>`↔`<=`, `in`↔`not in`, `is`↔`is not`)
- `boolop`: `and`↔`or`
- `not`: `not x` → `x`
- `bool`: `True`↔`False`
- `int`: integer constants `n` → `n + 1`, and `n` → `n - 1` when `n > 0` (off by one)
- `str`: a string constant `s` → `s + "_"` (docstrings are left alone)
- `if`: an `if`/`while` condition negated
- `return`: `return x` → `return None`
- `delete`: a statement replaced by `pass` (drops `append`/`emit`/`send` calls, assignments,
  guards …); docstrings, `pass`, and the only statement of a block are left alone

Mutants are produced with `ast.unparse`, so comments and formatting are not preserved; the
unmutated source is unparsed too, as `OUT_DIR/m0000.py`, to check that the round trip itself
is harmless.
"""

import ast
import copy
import os
import sys

BINOP_SWAPS = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Mod: ast.Add}
CMP_SWAPS = {
    ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Lt: ast.GtE, ast.GtE: ast.Lt,
    ast.Gt: ast.LtE, ast.LtE: ast.Gt, ast.In: ast.NotIn, ast.NotIn: ast.In,
    ast.Is: ast.IsNot, ast.IsNot: ast.Is,
}
SYMBOL = {
    ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Mod: "%", ast.Eq: "==",
    ast.NotEq: "!=", ast.Lt: "<", ast.GtE: ">=", ast.Gt: ">", ast.LtE: "<=", ast.In: "in",
    ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not", ast.And: "and", ast.Or: "or",
}


def is_docstring(node, parent_body):
    return (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str) and parent_body and parent_body[0] is node)


def sites(tree):
    """Every mutation site: (node path, operator, description, apply) where `apply(node)`
    mutates the node found at that path in a copy of the tree, returning a replacement or None."""
    found = []
    docstrings = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and is_docstring(body[0], body):
            docstrings.add(id(body[0].value))

    def visit(node, path):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.BinOp) and type(node.op) in BINOP_SWAPS:
            new = BINOP_SWAPS[type(node.op)]
            found.append((path, line, "binop", "%s -> %s" % (SYMBOL[type(node.op)], SYMBOL[new]),
                          lambda n, new=new: setattr(n, "op", new()) or n))
        if isinstance(node, ast.AugAssign) and type(node.op) in (ast.Add, ast.Sub):
            new = ast.Sub if isinstance(node.op, ast.Add) else ast.Add
            found.append((path, line, "augassign", "%s= -> %s=" % (SYMBOL[type(node.op)], SYMBOL[new]),
                          lambda n, new=new: setattr(n, "op", new()) or n))
        if isinstance(node, ast.Compare):
            for i, op in enumerate(node.ops):
                new = CMP_SWAPS[type(op)]
                def flip(n, i=i, new=new):
                    n.ops[i] = new()
                    return n
                found.append((path, line, "compare", "%s -> %s" % (SYMBOL[type(op)], SYMBOL[new]), flip))
        if isinstance(node, ast.BoolOp):
            new = ast.Or if isinstance(node.op, ast.And) else ast.And
            found.append((path, line, "boolop", "%s -> %s" % (SYMBOL[type(node.op)], SYMBOL[new]),
                          lambda n, new=new: setattr(n, "op", new()) or n))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            found.append((path, line, "not", "not x -> x", lambda n: n.operand))
        if isinstance(node, ast.Constant) and id(node) not in docstrings:
            v = node.value
            if isinstance(v, bool):
                found.append((path, line, "bool", "%s -> %s" % (v, not v),
                              lambda n: ast.Constant(not n.value)))
            elif isinstance(v, int):
                found.append((path, line, "int", "%d -> %d" % (v, v + 1), lambda n: ast.Constant(n.value + 1)))
                if v > 0:
                    found.append((path, line, "int", "%d -> %d" % (v, v - 1),
                                  lambda n: ast.Constant(n.value - 1)))
            elif isinstance(v, str):
                found.append((path, line, "str", "%r -> %r" % (v, v + "_"),
                              lambda n: ast.Constant(n.value + "_")))
        if isinstance(node, (ast.If, ast.While)):
            found.append((path + ("test",), line, "if", "condition negated",
                          lambda n: ast.UnaryOp(ast.Not(), n)))
        if isinstance(node, ast.Return) and node.value is not None and not (
                isinstance(node.value, ast.Constant) and node.value.value is None):
            found.append((path, line, "return", "return x -> return None",
                          lambda n: setattr(n, "value", ast.Constant(None)) or n))
        for field, value in ast.iter_fields(node):
            if isinstance(value, list):
                stmts = [v for v in value if isinstance(v, ast.stmt)]
                for i, child in enumerate(value):
                    if not isinstance(child, ast.AST):
                        continue
                    if (isinstance(child, ast.stmt) and len(stmts) > 1
                            and not isinstance(child, (ast.Pass, ast.FunctionDef, ast.ClassDef))
                            and not is_docstring(child, value)
                            and not isinstance(child, (ast.Import, ast.ImportFrom))):
                        found.append((path + ((field, i),), child.lineno, "delete",
                                      "delete `%s`" % ast.unparse(child).splitlines()[0][:70],
                                      lambda n: ast.Pass()))
                    visit(child, path + ((field, i),))
            elif isinstance(value, ast.AST):
                visit(value, path + (field,))

    visit(tree, ())
    return found


def locate(tree, path):
    """The parent object and the key under which the node at `path` hangs."""
    parent, key = None, None
    node = tree
    for step in path:
        parent = node
        if isinstance(step, tuple):
            field, i = step
            node = getattr(node, field)[i]
            key = (field, i)
        else:
            node = getattr(node, step)
            key = step
    return parent, key, node


def mutate(tree, path, apply):
    tree = copy.deepcopy(tree)
    parent, key, node = locate(tree, path)
    new = apply(node)
    if isinstance(key, tuple):
        getattr(parent, key[0])[key[1]] = new
    else:
        setattr(parent, key, new)
    return ast.unparse(ast.fix_missing_locations(tree))


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: py_mutate.py SOURCE OUT_DIR\n")
        return 2
    source, out_dir = argv[1], argv[2]
    with open(source, encoding="utf-8") as f:
        tree = ast.parse(f.read(), filename=source)
    os.makedirs(out_dir, exist_ok=True)
    original = ast.unparse(tree)
    with open(os.path.join(out_dir, "m0000.py"), "w", encoding="utf-8") as f:
        f.write(original + "\n")
    rows = []
    seen = {original}
    for path, line, op, desc, apply in sites(tree):
        text = mutate(tree, path, apply)
        if text in seen:  # a mutation that unparses to the same program as another
            continue
        seen.add(text)
        name = "m%04d" % (len(rows) + 1)
        with open(os.path.join(out_dir, name + ".py"), "w", encoding="utf-8") as f:
            f.write(text + "\n")
        rows.append("%s\t%d\t%s\t%s" % (name, line, op, desc.replace("\t", " ").replace("\n", " ")))
    with open(os.path.join(out_dir, "mutants.tsv"), "w", encoding="utf-8") as f:
        f.write("id\tline\toperator\tdescription\n" + "\n".join(rows) + "\n")
    print("%d mutants of %s in %s" % (len(rows), source, out_dir))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
