//! Where a fix can be: the fixer visits only the functions whose text holds a place a fix
//! could be keyed by (issue 32 item 1: computing fixes for every function of a file cost more
//! than parsing it, and most functions of a file that names a removed event never do).
//!
//! A fix is keyed by the range of what the fixer resolves to a removed event: a string or
//! template literal whose value is a removed name, an identifier or `A.b` member that pass 1
//! declared to stand for one, or a quoted member key spelled as one. Every such range starts
//! at (or contains) one of the offsets [`Focus::of`] collects:
//!
//! - every exact removed name of the text (a literal spelled as one, a template's quasi);
//! - every textual occurrence of an identifier pass 1 declared (what the resolver reads
//!   through its declarations: consts, enum and class members, namespace members);
//! - every identifier use the classifier resolved (locals included);
//! - every backslash that can start an escape spelling a name's character (`'agent\/x'`: the
//!   value is a removed name that the text does not spell).
//!
//! A function whose span holds none of them has no fix, and nothing in it changes another
//! fix: the fixer's per-file facts (references, imports, calls) are computed for the whole
//! file before the visit. `focus::tests` checks, on generated files, that the fixes are
//! those of a visit of every function.

use crate::frontend::Context;
use oxc_span::Span;
use std::ops::Range;

/// The stretches of [`BLOCK`] bytes holding an offset at which an occurrence a fix can be
/// keyed by may start. Stretches, not offsets: a file of 16 MiB of backslashes (or of an
/// identifier pass 1 declared) holds millions of offsets, and a count per stretch keeps the
/// memory at a quarter of the text's size whatever it holds. A function whose span touches a
/// marked stretch is entered (a superset of those holding an offset).
#[derive(Debug)]
pub(in crate::frontend::typescript) struct Focus {
    /// For each stretch, how many stretches before it are marked (one more entry than
    /// stretches: the total).
    marked_before: Vec<u32>,
}

/// The bytes of a stretch.
const BLOCK: usize = 16;

impl Focus {
    /// The offsets of `src` (see the module documentation); `idents` are the ranges of the
    /// identifier uses the classifier resolved.
    pub(in crate::frontend::typescript) fn of<'r>(
        src: &str,
        cx: Context<'_>,
        idents: impl Iterator<Item = &'r Range<usize>>,
    ) -> Focus {
        let bytes = src.as_bytes();
        let mut marked = vec![false; bytes.len() / BLOCK + 1];
        let mut mark = |at: usize| {
            if let Some(m) = marked.get_mut(at / BLOCK) {
                *m = true;
            }
        };
        for m in cx.catalog.find_names(src) {
            mark(m.start);
        }
        for r in idents {
            mark(r.start);
        }
        for ident in cx.symbols.idents().filter(|i| !i.is_empty()) {
            memchr::memmem::find_iter(bytes, ident.as_bytes()).for_each(&mut mark);
        }
        // `\n`, `\r` and `\t` spell a control character, which no removed name holds; any
        // other escape may spell one of a name's characters (or nothing: a line continuation).
        let controls = cx
            .catalog
            .events()
            .iter()
            .any(|e| e.name.bytes().any(|b| b.is_ascii_control()));
        memchr::memchr_iter(b'\\', bytes)
            .filter(|&i| controls || !matches!(bytes.get(i + 1), Some(b'n' | b'r' | b't')))
            .for_each(&mut mark);
        let mut marked_before = Vec::with_capacity(marked.len() + 1);
        let mut count = 0u32;
        marked_before.push(0);
        for m in marked {
            count += u32::from(m);
            marked_before.push(count);
        }
        Focus { marked_before }
    }

    /// Whether `span` touches a marked stretch (it holds one of the offsets, or lies beside
    /// one in the same stretch).
    pub(in crate::frontend::typescript) fn holds(&self, span: Span) -> bool {
        let (start, end) = (span.start as usize, span.end as usize);
        if start >= end {
            return false;
        }
        let last = self.marked_before.len() - 1;
        let (first, past) = ((start / BLOCK).min(last), ((end - 1) / BLOCK + 1).min(last));
        first < past && self.marked_before[past] > self.marked_before[first]
    }
}

#[cfg(test)]
mod tests {
    use crate::catalog::Catalog;
    use crate::frontend::typescript::{TypeScript, fixes, parse_and_classify_as};
    use crate::frontend::{CallNames, Context, FrontEnd, Symbols};
    use std::path::Path;

    /// A small deterministic generator (xorshift), so a failure names its seed.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
        fn pick<'a>(&mut self, list: &[&'a str]) -> &'a str {
            list[self.below(list.len())]
        }
    }

    const NAMES: &[&str] = &[
        "agent/stream-chunk",
        "agent/steering",
        "agent/turn-start",
        "agent/turn-end",
        "agent/step-start",
        "agent/step-end",
    ];

    /// Statements a function body holds: emits, subscriptions (with handlers holding
    /// statements in turn), the twin appended, identifiers declared in this file or
    /// another, escaped names, calls of the file's local functions, nothing at all.
    fn statement(r: &mut Rng, depth: usize, k: &mut usize, out: &mut String) {
        let name = r.pick(NAMES);
        let ind = "  ".repeat(depth + 1);
        *k += 1;
        let k = *k;
        let s = match r.below(if depth < 3 { 24 } else { 19 }) {
            0 => format!("ctx.emit('{name}', turn{k});"),
            1 => format!(
                "appendDurable({{ type: 'turn/end', data: {{ turn }} }});\n{ind}ctx.emit('{name}', turn);"
            ),
            2 => format!("if (flag{k}) bus.emit('{name}', a, b);"),
            3 => format!(
                "try {{\n{ind}  ctx.emit(\"{name}\", x);\n{ind}}} catch (e) {{\n{ind}  log(e);\n{ind}}}"
            ),
            4 => format!("ctx.emit(EV{}, turn);", r.below(3)),
            5 => format!("ctx.emit(TURN_END, turn, x{k});"),
            6 => "bus.emit(Ev.TurnEnd, a);".to_owned(),
            7 => format!("ctx.on('{name}', ({{ turn }}) => log(turn));"),
            8 => format!("ctx.once('{name}', h{k});"),
            9 => format!("for (const n of ['{name}', 'agent/step-end']) ctx.on(n, h);"),
            10 => format!("helper{}(x, y);", r.below(4)),
            11 => "log('nothing here', a + b);".to_owned(),
            12 => format!("const s{k} = 'agent\\u002fturn-end';\n{ind}ctx.emit(s{k});"),
            13 => format!("let m{k}: {{ '{name}': (a: A) => void; other(): void }} = null as any;"),
            14 => format!("const local{k} = '{name}';\n{ind}ctx.emit(local{k}, 1);"),
            15 => format!("events.push(x);\n{ind}expect(events).toEqual([]);"),
            16 => format!("ctx.emit(`{name}`, {{ turn }});"),
            // A listener to merge into that names nothing a fix is keyed by (issue 32 item 1:
            // a statement list's per-statement work skips such statements).
            17 if r.below(2) == 0 => {
                format!("ctx.on('session/event', (s, e) => {{\n{ind}  log(e.type);\n{ind}}});")
            }
            17 => format!(
                "bus.on('session/event', (s, e) => {{ log(e.type, EV{}) }});",
                r.below(3)
            ),
            // Escaped names (a member key the fixer deletes whatever the text spells), and a
            // parameter shadowing an imported identifier (the classifier sees the local).
            18 if r.below(2) == 0 => {
                format!("let q{k}: {{ 'agent\\u002fturn-end': (a: A) => void }} = null as any;")
            }
            18 => {
                format!("function shadow{k}(TURN_END) {{\n{ind}  ctx.emit(TURN_END, 1);\n{ind}}}")
            }
            19 => {
                let mut body = String::new();
                for _ in 0..1 + r.below(3) {
                    statement(r, depth + 1, &mut (k * 7), &mut body);
                }
                format!("ctx.on('{name}', (agent, turn) => {{\n{body}{ind}}});")
            }
            20 => {
                let mut body = String::new();
                for _ in 0..1 + r.below(3) {
                    statement(r, depth + 1, &mut (k * 11), &mut body);
                }
                format!("function inner{k}(a, b) {{\n{body}{ind}}}\n{ind}inner{k}(1, 2);")
            }
            21 => {
                let mut body = String::new();
                for _ in 0..1 + r.below(3) {
                    statement(r, depth + 1, &mut (k * 13), &mut body);
                }
                format!("const f{k} = async (x) => {{\n{body}{ind}}};")
            }
            22 => {
                let mut body = String::new();
                for _ in 0..1 + r.below(2) {
                    statement(r, depth + 1, &mut (k * 17), &mut body);
                }
                format!("items.forEach((item) => {{\n{body}{ind}}});")
            }
            _ => {
                let mut body = String::new();
                for _ in 0..1 + r.below(2) {
                    statement(r, depth + 1, &mut (k * 19), &mut body);
                }
                format!("class C{k} {{\n{ind}  run(a) {{\n{body}{ind}  }}\n{ind}}}")
            }
        };
        out.push_str(&ind);
        out.push_str(&s);
        out.push('\n');
    }

    /// A generated module: imports, consts and an enum holding removed names (used or not),
    /// an event map, then local and exported functions (declarations, arrows, methods).
    fn module(r: &mut Rng) -> String {
        let mut out = String::new();
        if r.below(2) == 0 {
            out.push_str("import { TURN_END, appendDurable } from './events';\n");
        }
        if r.below(2) == 0 {
            out.push_str("import * as ns from './events';\n");
        }
        for i in 0..3 {
            if r.below(2) == 0 {
                out.push_str(&format!("const EV{i} = '{}';\n", r.pick(NAMES)));
            }
        }
        if r.below(2) == 0 {
            out.push_str(&format!(
                "enum Ev {{ TurnEnd = '{}', Other = 'x' }}\n",
                r.pick(NAMES)
            ));
        }
        if r.below(3) == 0 {
            out.push_str(&format!(
                "interface Events {{\n  '{}'(a: A): void;\n  'session/event'(s: S, e: E): void;\n}}\n",
                r.pick(NAMES)
            ));
        }
        let mut k = 0;
        for f in 0..1 + r.below(5) {
            let mut body = String::new();
            for _ in 0..1 + r.below(4) {
                statement(r, 0, &mut k, &mut body);
            }
            out.push_str(&match r.below(4) {
                0 => format!("function helper{f}(x, y) {{\n{body}}}\n"),
                1 => format!("export function run{f}(ctx, bus) {{\n{body}}}\n"),
                2 => format!("export const plugin{f} = (ctx) => {{\n{body}}};\n"),
                _ => format!(
                    "describe('t{f}', () => {{\n  it('runs', async () => {{\n{body}  }});\n}});\n"
                ),
            });
        }
        out
    }

    /// The declarations the file and `events.ts` make, as pass 1 collects them.
    fn symbols(files: &[(&str, &str)], cx: Context<'_>) -> Symbols {
        let mut symbols = Symbols::default();
        for _ in 0..2 {
            let mut found = Vec::new();
            for (path, src) in files {
                let cx = Context {
                    symbols: &symbols,
                    ..cx
                };
                found.extend(TypeScript.declarations(path, src, cx).found);
            }
            for d in found {
                symbols.insert(d);
            }
            symbols.finish();
        }
        symbols
    }

    /// Compares the focused and the whole visit of `src`; returns (fixes, functions skipped).
    fn compare(
        path: &str,
        src: &str,
        others: &[(&str, &str)],
        catalog: &Catalog,
    ) -> (usize, usize) {
        let calls = CallNames::default();
        let empty = Symbols::default();
        let cx = Context {
            catalog,
            symbols: &empty,
            calls: &calls,
            mentions_declared: false,
        };
        let mut files = others.to_vec();
        files.push((path, src));
        let symbols = symbols(&files, cx);
        let cx = Context {
            symbols: &symbols,
            ..cx
        };
        let (Ok(focused), Ok(whole)) = (
            parse_and_classify_as(path, src, cx, true, false),
            parse_and_classify_as(path, src, cx, false, false),
        ) else {
            panic!("{path} does not parse:\n{src}");
        };
        assert_eq!(focused.fixes, whole.fixes, "{path}:\n{src}");
        // The test (or helper) each occurrence is part of: the human's part.
        let places = catalog
            .find_names(src)
            .iter()
            .map(|m| m.start..m.end)
            .chain(whole.idents.iter().map(|(r, ..)| r.clone()))
            .collect::<Vec<_>>();
        for p in &places {
            assert_eq!(
                fixes::enclosing(&focused.bodies, p, src.len()),
                fixes::enclosing(&whole.bodies, p, src.len()),
                "{path} at {p:?}:\n{src}"
            );
        }
        (whole.fixes.len(), whole.bodies.len() - focused.bodies.len())
    }

    /// Issue 32 item 1: "only files that can hold a finding parsed", and in them only the
    /// functions that can hold a fix visited: the fixes (every edit, message and claim, in
    /// order) and the function each occurrence is part of are those of a visit of every
    /// function, on generated modules and tests and on the TypeScript fixtures.
    #[test]
    fn the_focused_fixes_are_those_of_the_whole_file() {
        let catalog = Catalog::new(&[]).expect("the default catalogue");
        let events = "export const TURN_END = 'agent/turn-end';\nexport function appendDurable(e) { return e }\n";
        let others = [("events.ts", events)];
        let (mut fixes, mut skipped) = (0, 0);
        for seed in 1..=400u64 {
            let mut r = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
            let src = module(&mut r);
            let path = ["plugin.ts", "plugin.spec.ts", "plugin.mts", "tests/run.ts"][r.below(4)];
            let (f, s) = compare(path, &src, &others, &catalog);
            fixes += f;
            skipped += s;
        }
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/lint/ts");
        let mut stack = vec![root];
        let mut fixtures = 0;
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).expect("the fixtures").flatten() {
                let p = entry.path();
                if p.is_dir() {
                    stack.push(p);
                } else if TypeScript.handles(&p) {
                    let src = std::fs::read_to_string(&p).expect("a fixture");
                    let name = p.to_string_lossy().into_owned();
                    if parse_and_classify_as(
                        &name,
                        &src,
                        Context {
                            catalog: &catalog,
                            symbols: &Symbols::default(),
                            calls: &CallNames::default(),
                            mentions_declared: false,
                        },
                        false,
                        false,
                    )
                    .is_ok()
                    {
                        let (f, s) = compare(&name, &src, &others, &catalog);
                        fixes += f;
                        skipped += s;
                        fixtures += 1;
                    }
                }
            }
        }
        // The generator must reach fixes, and functions the focus skips.
        assert!(
            fixes > 1000 && skipped > 200 && fixtures > 10,
            "{fixes} fixes, {skipped} skipped, {fixtures} fixtures"
        );
    }
}
