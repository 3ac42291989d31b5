#!/usr/bin/env bash
# Benchmark: how `mirrorless lint`, `--diff` and `--fix` scale with the fixes of one file, what
# the JSON report of many findings on one long line costs, and `--diff` against `lint` on a
# tree of many files (targets, issue 18 item 7: linear; `--diff` at most 1.5x lint).
# Results: docs/benchmarks/fix.md.
#
#   benches/fix_scaling.sh [DIR]   # SIZES="1000 4000 16000 120000" RUNS=3 FILES=524
#                                  # TREE=/some/checkout also times that tree
#
# Generates in DIR:
#   emits-N/one.ts   N functions, each appending `step/end` and emitting the removed
#                    `agent/step-end` beside it: N machine-applicable fixes in one file
#                    (85 bytes each: 120 000 make 10 MB);
#   line-4000/one.ts one 76 KB line holding 4000 mentions of `agent/turn-start` (4000
#                    suggestions on one line);
#   tree/            FILES TypeScript modules, one in four with a listener, an emit beside its
#                    append and a mention (fixes of both kinds), the rest plain code.
# Builds target/release/mirrorless and times each command RUNS times after one warm-up, with
# /usr/bin/time (wall, CPU = user + sys, peak RSS); `--fix` runs on a fresh copy made outside
# the timing. Each command is given TIMEOUT seconds (default 300).
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=${1:-target/bench/fix-scaling}
SIZES=${SIZES:-"1000 4000 16000 120000"}
RUNS=${RUNS:-3}
FILES=${FILES:-524}
TIMEOUT=${TIMEOUT:-300}
BIN=$PWD/target/release/mirrorless

cargo build --release --quiet
mkdir -p "$DIR"
python3 - "$DIR" "$FILES" $SIZES <<'PY'
import os, sys
root, files, sizes = sys.argv[1], int(sys.argv[2]), [int(n) for n in sys.argv[3:]]
# Short, so that 120 000 of them (10 MB) stay under the parser's 16 MiB file limit; the `;`
# after each keeps the nesting estimate (frontend/depth.rs) from adding up the declarations.
emit = '''function s{i}(c: C, s: S) {{
  s.append('step/end', c);
  c.emit('agent/step-end', s);
}};
'''
def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if not os.path.exists(path) or open(path).read() != text:
        with open(path, 'w') as f:
            f.write(text)
for n in sizes:
    write(os.path.join(root, f'emits-{n}', 'one.ts'), ''.join(emit.format(i=i) for i in range(n)))
write(os.path.join(root, 'line-4000', 'one.ts'),
      "export const s = '" + ' '.join(['agent/turn-start'] * 4000) + "';\n")
plain = '''import {{ helper{i} }} from './helpers';

/** Module {i}: ordinary plugin code that names no removed event. */
export function run{i}(ctx: Context, input: string[]): number {{
  let total = 0;
  for (const item of input) {{
    if (item.startsWith('status/idle')) total += helper{i}(item.length);
    else total -= item.length % 7;
  }}
  ctx.on('session/event', (session, event) => {{
    if (event.type === 'turn/start') total += 1;
  }});
  return total * {i};
}}
'''
hit = '''
export function apply{i}(ctx: Context, ui: Ui) {{
  ctx.on('agent/turn-start', (agent, turn) => {{
    ui.spinnerOn(agent.session.id, turn);
  }});
}}

export function step{i}(ctx: Ctx, session: Session, agent: Agent, turn: number, step: number) {{
  session.append('step/end', {{ turn, step }});
  ctx.emit('agent/step-end', agent, turn, step);
  log.debug('emitted agent/step-end for step ' + step);
}}
'''
for i in range(files):
    text = plain.format(i=i) + (hit.format(i=i) if i % 4 == 0 else '')
    write(os.path.join(root, 'tree', 'packages', f'p{i // 100}', 'src', f'm{i}.ts'), text)
PY

TIMES=$DIR/times
: > "$TIMES"
# label, command… → appends "label wall cpu rss_kb out_bytes" (a timeout is recorded as such)
measure() {
  local label=$1; shift
  local out=$DIR/out
  if /usr/bin/time -f "%e %U %S %M" -o "$DIR/t" timeout "$TIMEOUT" "$@" >"$out" 2>/dev/null \
     || [ "$?" -eq 1 ]; then
    read -r wall user sys rss < <(tail -1 "$DIR/t")
    echo "$label $wall $(echo "$user + $sys" | bc) $rss $(stat -c %s "$out")" >>"$TIMES"
  else
    echo "$label timeout - - -" >>"$TIMES"
  fi
}
fresh_copy() { rm -rf "$DIR/work"; cp -r "$1" "$DIR/work"; }
bench() { # label prefix, directory, extra flags…
  local label=$1 dir=$2; shift 2
  "$BIN" lint --no-config --format json "$@" "$dir" >/dev/null 2>&1 || true
  for _ in $(seq "$RUNS"); do
    measure "$label lint" "$BIN" lint --no-config --format json "$@" "$dir"
    measure "$label diff" "$BIN" lint --no-config --diff "$@" "$dir"
    fresh_copy "$dir"
    measure "$label fix" "$BIN" lint --no-config --fix --format json "$@" "$DIR/work"
  done
}
for n in $SIZES; do bench "emits-$n" "$DIR/emits-$n"; done
bench "line-4000 --unsafe-fixes" "$DIR/line-4000" --unsafe-fixes
bench "tree-$FILES" "$DIR/tree"
bench "tree-$FILES --unsafe-fixes" "$DIR/tree" --unsafe-fixes
if [ -n "${TREE:-}" ]; then
  bench "TREE" "$TREE"
  bench "TREE --unsafe-fixes" "$TREE" --unsafe-fixes
fi

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | xargs); load average $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$TIMES" <<'PY'
import sys, statistics
rows = {}
for line in open(sys.argv[1]):
    *label, cmd, wall, cpu, rss, out = line.split()
    rows.setdefault((' '.join(label), cmd), []).append((wall, cpu, rss, out))
def med(xs):
    xs = [float(x) for x in xs if x != '-']
    return statistics.median(xs) if xs else None
print(f"| input | command | runs | median wall (s) | median CPU (s) | peak RSS (MB) | stdout (MB) |")
print("|---|---|---|---|---|---|---|")
lint = {}
for (label, cmd), rs in rows.items():
    wall, cpu = med([r[0] for r in rs]), med([r[1] for r in rs])
    rss, out = med([r[2] for r in rs]), med([r[3] for r in rs])
    if cmd == 'lint':
        lint[label] = (wall, cpu)
    fmt = lambda x, d=2: '-' if x is None else f"{x:.{d}f}"
    timeouts = sum(r[0] == '-' for r in rs)
    note = f" ({timeouts} timed out)" if timeouts else ''
    ratio = ''
    if cmd != 'lint' and label in lint and cpu is not None and lint[label][1]:
        ratio = f" ({cpu / lint[label][1]:.2f}x lint CPU, {wall / lint[label][0]:.2f}x wall)"
    print(f"| {label} | {cmd}{note} | {len(rs)} | {fmt(wall)} | {fmt(cpu)}{ratio} | {fmt(rss and rss / 1024, 1)} | {fmt(out and out / 1e6, 2)} |")
PY
