#!/usr/bin/env python3
"""Checks the stack allowance of lint/src/frontend/depth.rs: generates 36 deeply nested
constructs (Rust and TypeScript), each just under the depth limit by the same estimate the
linter uses, lints each with BIN and reports any crash. Every one must parse (ML001, no ML009).

Usage: benches/lint_depth_limit.py [BIN] [LIMIT]
  BIN    default target/release/mirrorless (also run it with target/debug/mirrorless)
  LIMIT  default 19900 (depth.rs MAX_DEPTH is 20,000)
Results: docs/benchmarks/lint.md. Not part of `cargo test` (minutes in a debug build).
"""
import os, subprocess, sys, tempfile
def estimate(src):
    counters=[0]; total=1; mx=1; in_word=False
    for ch in src.encode():
        word = (48<=ch<=57) or (65<=ch<=90) or (97<=ch<=122) or ch in (95,36) or ch>=0x80
        if word:
            if not in_word:
                in_word=True; counters[-1]+=1; total+=1
            mx=max(mx,total); continue
        in_word=False
        if ch in b'([{': counters.append(0); total+=1
        elif ch in b')]}':
            if len(counters)>1:
                total-=1+counters.pop(); counters[-1]+=1; total+=1
        elif ch in b',;':
            total-=counters[-1]; counters[-1]=0
        elif ch in b' \t\n\r': pass
        else: counters[-1]+=1; total+=1
        mx=max(mx,total)
    return mx
R = '"agent/turn-start"'
rs_pre = f'fn g() {{ bus.on({R}, h); }}\n'
ts_pre = "bus.on('agent/turn-start', h);\n"
def rs(n): return {
 'parens': 'fn f() { let x = ' + '('*n + '1' + ')'*n + '; }',
 'generics': 'type T = ' + 'A<'*n + 'u8' + '>'*n + ';',
 'ifs': 'fn f() {' + 'if a {'*n + '}'*n + '}',
 'elseif': 'fn f() { if a {}' + ' else if a {}'*n + ' }',
 'chain': 'fn f() { a' + '.b()'*n + '; }',
 'closures': 'fn f() { let x = ' + '|a| '*n + '1; }',
 'unary': 'fn f() { let x = ' + '!'*n + 'a; }',
 'refs': 'fn f() { let x = ' + '& '*n + 'a; }',
 'arrays': 'fn f() { let x = ' + '['*n + ']'*n + '; }',
 'binary': 'fn f() { let x = 1' + ' + 1'*n + '; }',
 'blocks': 'fn f() ' + '{'*n + '}'*n,
 'macros': 'fn f() { ' + 'm!('*n + ')'*n + '; }',
 'mods': 'mod a {'*n + '}'*n,
 'tuples': 'type T = ' + '('*n + 'u8' + ',)'*n + ';',
 'fields': 'fn f() { let x = a' + '.b'*n + '; }',
 'index': 'fn f() { let x = a' + '[0]'*n + '; }',
 'try': 'fn f() { let x = a' + '?'*n + '; }',
 'calls': 'fn f() { let x = f' + '()'*n + '; }',
}
def ts(n): return {
 'parens': 'const x = ' + '('*n + '1' + ')'*n + ';',
 'arrays': 'const x = ' + '['*n + ']'*n + ';',
 'objects': 'const x = ' + '{a:'*n + '1' + '}'*n + ';',
 'arrows': 'const x = ' + 'a => '*n + '1;',
 'ternary': 'const x = ' + 'a ? b : '*n + 'c;',
 'typeof': 'const x = ' + 'typeof '*n + 'a;',
 'unary': 'const x = ' + '!'*n + 'a;',
 'chain': 'a' + '.b()'*n + ';',
 'binary': 'const x = 1' + ' + 1'*n + ';',
 'assign': 'a' + ' = a'*n + ';',
 'template': 'const x = ' + '`${'*n + '1' + '}`'*n + ';',
 'generics': 'type T = ' + 'A<'*n + 'number' + '>'*n + ';',
 'elseif': 'if (a) {}' + ' else if (a) {}'*n,
 'funcs': 'function f() {'*n + '}'*n,
 'calls': 'f('*n + ')'*n + ';',
 'new': 'const x = ' + 'new '*n + 'A;',
 'await': 'async function f() { ' + 'await '*n + 'a; }',
 'blocks': '{'*n + '}'*n,
 'fields': 'a' + '.b'*n + ';',
}
binary = sys.argv[1] if len(sys.argv) > 1 else "target/release/mirrorless"
target = int(sys.argv[2]) if len(sys.argv) > 2 else 19900
out = tempfile.mkdtemp()
failed = 0
for lang, gen, pre, ext in (('rs', rs, rs_pre, 'rs'), ('ts', ts, ts_pre, 'ts')):
    for k in gen(1):
        lo, hi = 1, 200000
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if estimate(pre + gen(mid)[k]) <= target: lo = mid
            else: hi = mid - 1
        text = pre + gen(lo)[k] + '\n'
        path = f'{out}/{lang}_{k}.{ext}'
        open(path, 'w').write(text)
        run = subprocess.run([binary, "lint", "--no-config", "--format", "json", path],
                             capture_output=True, text=True)
        ok = run.returncode == 1 and '"ML001"' in run.stdout and '"ML009"' not in run.stdout
        failed += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {lang} {k}: n={lo} estimate={estimate(text)} exit={run.returncode}")
        os.remove(path)
sys.exit(1 if failed else 0)
