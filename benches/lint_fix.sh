#!/usr/bin/env bash
# Benchmark: `mirrorless lint --fix` against plain `mirrorless lint` on a large TypeScript tree
# with few hits (target: --fix costs at most 1.5x lint). Results: docs/benchmarks/fix.md.
#
#   benches/lint_fix.sh [DIR]     # RUNS=7 FILES=20000 HITS=20 to change the defaults
#
# Generates DIR/corpus (FILES plain TypeScript modules, HITS of them with a fixable
# subscription and an emit beside its durable append, plus a Markdown cookbook), builds
# target/release/mirrorless, and times, alternating, after one warm-up run each:
#   lint: mirrorless lint --no-config --format json DIR/corpus
#   fix:  mirrorless lint --no-config --fix --format json DIR/work   (a fresh copy each run;
#         the copy is made outside the timing)
# Wall and CPU (user + sys) time come from /usr/bin/time; on a shared machine CPU time is the
# number to compare.
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=${1:-target/bench/lint-fix}
RUNS=${RUNS:-7}
FILES=${FILES:-20000}
HITS=${HITS:-20}
BIN=target/release/mirrorless

cargo build --release --quiet
mkdir -p "$DIR"
if [ ! -f "$DIR/corpus/.complete-v2-$FILES-$HITS" ]; then
  rm -rf "$DIR/corpus"
  python3 - "$DIR/corpus" "$FILES" "$HITS" <<'PY'
import os, sys
root, files, hits = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
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
hit = '''export function apply{i}(ctx: Context, ui: Ui) {{
  ctx.on('agent/turn-start', (agent, turn) => {{
    ui.spinnerOn(agent.session.id, turn);
  }});
}}

export function step{i}(ctx: Ctx, session: Session, agent: Agent, turn: number, step: number) {{
  session.append('step/end', {{ turn, step }});
  ctx.emit('agent/step-end', agent, turn, step);
}}
'''
every = max(1, files // max(1, hits))
for i in range(files):
    d = os.path.join(root, 'packages', f'p{i // 500}', 'src')
    os.makedirs(d, exist_ok=True)
    text = plain.format(i=i)
    if hits and i % every == 0 and i // every < hits:
        text += hit.format(i=i)
    with open(os.path.join(d, f'm{i}.ts'), 'w') as f:
        f.write(text)
with open(os.path.join(root, 'COOKBOOK.md'), 'w') as f:
    f.write("# Cookbook\n\n```ts\nctx.on('agent/step-start', (agent, turn, step) => {\n  trace.open(turn, step);\n});\n```\n")
open(os.path.join(root, f'.complete-v2-{files}-{hits}'), 'w').close()
PY
fi

# A hard-linked copy: --fix replaces a file by renaming a new one over it, so the corpus's
# files are never changed through the links.
fresh_copy() { rm -rf "$DIR/work"; cp -al "$DIR/corpus" "$DIR/work"; }
measure() { # label, command…  → appends "label wall cpu" to $DIR/times
  local label=$1; shift
  /usr/bin/time -f "$label %e %U %S" -a -o "$DIR/times" "$@" >/dev/null 2>&1 || true
}

: > "$DIR/times"
fresh_copy
"$BIN" lint --no-config --format json "$DIR/corpus" >/dev/null || true
"$BIN" lint --no-config --fix --format json "$DIR/work" >/dev/null 2>&1 || true
for _ in $(seq "$RUNS"); do
  measure lint "$BIN" lint --no-config --format json "$DIR/corpus"
  fresh_copy
  measure fix "$BIN" lint --no-config --fix --format json "$DIR/work"
done
fresh_copy
echo "corpus: $(find "$DIR/corpus" -type f -name '*.ts' | wc -l) TypeScript files, $(du -sh "$DIR/corpus" | cut -f1)"
"$BIN" lint --no-config "$DIR/corpus" 2>&1 | tail -1 || true
"$BIN" lint --no-config --fix "$DIR/work" 2>&1 >/dev/null | tail -1 || true
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"
python3 - "$DIR/times" <<'PY'
import sys, statistics
# /usr/bin/time also writes "Command exited with non-zero status 1" (findings exit 1).
rows = [l.split() for l in open(sys.argv[1]) if l.split()[:1] in (['lint'], ['fix'])]
res = {}
for label, wall, user, sys_ in rows:
    res.setdefault(label, []).append((float(wall), float(user) + float(sys_)))
print(f"{'command':<6} {'runs':>4} {'best wall':>10} {'median wall':>12} {'median CPU':>11}")
med = {}
for label in ('lint', 'fix'):
    walls = [w for w, _ in res[label]]; cpus = [c for _, c in res[label]]
    med[label] = (statistics.median(walls), statistics.median(cpus))
    print(f"{label:<6} {len(walls):>4} {min(walls):>10.2f} {med[label][0]:>12.2f} {med[label][1]:>11.2f}")
print(f"ratio fix/lint: wall {med['fix'][0] / med['lint'][0]:.2f}, CPU {med['fix'][1] / med['lint'][1]:.2f} (target: at most 1.5)")
PY
