#!/usr/bin/env bash
# Benchmark: `mirrorless lint` (release) on hostile inputs (issue 11): deep nesting, a huge
# one-line file, nested macros, a long method chain, many findings on one line. Not part of
# `cargo test` (the regression tests in lint/tests/robust.rs assert the outcomes; this measures
# time and memory). Results are recorded in docs/benchmarks/lint.md.
#
# Usage: benches/lint_attacks.sh [SCALE]
#   SCALE  default 1: the sizes of the issue (a 50 MB line, 12,800 nested macros, …); 0.1
#          for a quick run. Each input is linted alone; the table gives wall time, user+sys
#          CPU time and peak resident memory (GNU time), the exit code and the findings.
set -euo pipefail
cd "$(dirname "$0")/.."
scale=${1:-1}

cargo build --release -q -p mirrorless
bin=$PWD/target/release/mirrorless
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 - "$work" "$scale" <<'EOF'
import os, sys
out, k = sys.argv[1], float(sys.argv[2])
def w(name, text):
    with open(os.path.join(out, name), "w") as f:
        f.write(text)
def n(x):
    return max(1, int(x * k))
rs_sub = 'fn g() { bus.on("agent/turn-start", h); }\n'
ts_sub = "bus.on('agent/turn-start', h);\n"
nest = lambda o, i, c, m: o * m + i + c * m
# Deep nesting that overflowed the stack before (issue 11 sizes, a little deeper).
w("generics.rs", rs_sub + "type T = " + nest("A<", "u8", ">", n(1200)) + ";\n")
w("ifs.rs", rs_sub + "fn f() { " + nest("if a {", "", "}", n(1400)) + " }\n")
w("parens.rs", rs_sub + "fn f() { let x = " + nest("(", "1", ")", n(2700)) + "; }\n")
w("arrays.ts", ts_sub + "const x = " + nest("[", "", "]", n(6000)) + ";\n")
w("fence.md", "```ts\n" + ts_sub + "const x = " + nest("[", "", "]", n(6000)) + ";\n```\n")
# Beyond the depth limit: reported as unparsed, scanned lexically.
w("deeper.rs", rs_sub + "fn f() { let x = " + nest("(", "1", ")", n(60000)) + "; }\n")
# A 50 MB one-line file (TypeScript and Rust), 12,800 nested macro calls, a 51,200-link chain.
unit = "x = a + b; "
w("oneline.ts", ts_sub.strip() + " " + unit * n(50_000_000 // len(unit)) + "bus.emit('agent/turn-end', x);")
w("oneline.rs", 'fn f() { bus.on("agent/turn-start", h); ' + "let x = a + b; " * n(50_000_000 // 15) + " }")
w("macros.rs", rs_sub + "fn f() { " + nest("m!(", "", ")", n(12800)) + "; }\n")
w("chain.rs", 'fn f() { bus.on("agent/turn-start", h); a' + ".b()" * n(51200) + "; }\n")
w("chain.ts", ts_sub + "a" + ".b()" * n(51200) + ";\n")
# Many findings on one line.
w("mentions.ts", "log(" + " + ".join(["'agent/turn-start'"] * n(4000)) + ");\n")
w("mentions.rs", "fn f() { log(&[" + ", ".join(['"agent/turn-start"'] * n(4000)) + "]); }\n")
cols = n(10000)
w("table.md", "| " + " | ".join(["agent/turn-end"] * cols) + " |\n|" + "---|" * cols + "\n| " + " | ".join(["x"] * cols) + " |\n")
EOF

echo "| input | MB | wall s | user+sys s | peak RSS MB | exit | findings |"
echo "|---|---|---|---|---|---|---|"
for f in "$work"/*; do
    name=$(basename "$f")
    mb=$(awk -v b="$(stat -c %s "$f")" 'BEGIN { printf "%.1f", b / 1e6 }')
    set +e
    /usr/bin/time -f "%e %U %S %M" -o "$work/.time" "$bin" lint --no-config --format json "$f" \
        > "$work/.out" 2> /dev/null
    code=$?
    set -e
    read -r wall user sys rss < <(tail -n 1 "$work/.time")
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
    findings=$(python3 -c 'import json,sys
doc = json.load(open(sys.argv[1]))
rules = {}
for f in doc["findings"]:
    rules[f["rule"]] = rules.get(f["rule"], 0) + 1
print(" ".join(f"{r}×{c}" for r, c in sorted(rules.items())))' "$work/.out")
    echo "| $name | $mb | $wall | $cpu | $((rss / 1024)) | $code | $findings |"
done
