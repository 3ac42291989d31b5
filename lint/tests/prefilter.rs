//! The byte prefilter is a floor, never a filter of findings: on generated trees (removed
//! names, their namespace alone, names assembled from it, near misses, identifiers declared in
//! one file and used, aliased or re-exported in files that name no event, in TypeScript, Rust
//! and Markdown), `lint` — which keeps in memory only the files that pass the prefilter and
//! reads the others again when a declared identifier must be looked for — reports exactly what
//! a run that analyses every file reports, fixes included.

use mirrorless_lint::config::Config;
use mirrorless_lint::engine::{lint_sources_unfiltered, read_sources};
use mirrorless_lint::{Options, lint};
use std::path::Path;

use crate::test_rng::Rng;

pub(crate) const NAMES: &[&str] = &[
    "agent/stream-chunk",
    "agent/steering",
    "agent/turn-start",
    "agent/turn-end",
    "agent/step-start",
    "agent/step-end",
];

/// One TypeScript line: `k` names the identifiers it declares, `t` those it uses from `f{j}`,
/// another file of the tree.
fn ts_line(r: &mut Rng, k: &str, j: usize, t: &str) -> String {
    let name = r.pick(NAMES);
    match r.below(14) {
        0 => format!("export const EV{k} = '{name}';"),
        1 => format!("import {{ EV{t} }} from './f{j}';\nbus.on(EV{t}, handler{k});"),
        2 => format!("import {{ EV{t} as A{k} }} from './f{j}';\nexport const B{k} = A{k};"),
        3 => format!("ctx.on(B{t}, (agent, turn) => use(agent, turn));"),
        4 => format!("const proxy{k} = require('https-proxy-agent/dist/{k}');"),
        5 => format!("// {name} was removed"),
        6 => "ctx.emit('agent/' + 'turn-end', a);".to_owned(),
        7 => format!("bus.on('sub{name}', f{k});"),
        8 => format!("const t{k} = `agent/${{kind}}`;"),
        9 => format!("ctx.on('{name}', (agent, turn) => close(agent, turn));"),
        10 => format!("export enum E{k} {{ A = '{name}', B = 'other/{k}' }}"),
        11 => format!("bus.emit(E{t}.A, x);"),
        12 => format!("export {{ EV{t} as R{k} }} from './f{j}';"),
        _ => format!("function g{k}(x: number) {{ return x + {k}; }}"),
    }
}

/// One Rust line.
fn rust_line(r: &mut Rng, k: &str, j: usize, t: &str) -> String {
    let name = r.pick(NAMES);
    let rest = &name["agent/".len()..];
    let cut = 1 + r.below(rest.len() - 1);
    let (head, tail) = rest.split_at(cut);
    match r.below(22) {
        // Names assembled from pieces, cut anywhere: the piece holding the namespace ends
        // where the name's start does, or a placeholder or an escape stands for the rest.
        10 => format!(
            "pub fn c{k}(bus: &Bus) {{ bus.on(concat!(\"agent/{head}\", \"{tail}\"), h); }}"
        ),
        11 => format!(
            "pub fn p{k}(bus: &Bus) {{ bus.emit(format!(\"agent/{head}{{}}\", \"{tail}\")); }}"
        ),
        12 => format!(
            "const NS{k}: &str = \"agent/\";\npub fn n{k}(bus: &Bus) {{ bus.on(format!(\"{{NS{k}}}{rest}\"), h); }}"
        ),
        13 => format!(
            "pub fn a{k}(bus: &Bus) {{ bus.on(String::from(\"agent/{head}\") + \"{tail}\", h); }}"
        ),
        14 => format!(
            "pub fn x{k}(bus: &Bus) {{ bus.on(concat!(\"agent/{head}\\x{:02x}\", \"{}\"), h); }}",
            tail.as_bytes()[0],
            &tail[1..]
        ),
        15 => format!(
            "pub fn j{k}(bus: &Bus) {{ bus.on([\"agent/{head}\", \"{tail}\"].concat(), h); }}"
        ),
        16 => {
            let (a, b) = head.split_at(r.below(head.len() + 1));
            format!(
                "pub fn l{k}(bus: &Bus) {{ bus.on(concat!(\"agent/{a}\\\n    {b}\", \"{tail}\"), h); }}"
            )
        }
        17 => format!(
            "pub fn r{k}(bus: &Bus) {{ bus.on(concat!(r\"agent/{head}\", \"{tail}\"), h); }}"
        ),
        // The namespace alone, in names that are not removed ones: no finding, no parse.
        18 => format!("pub const PRE{k}: &str = \"agent/pre-step\";"),
        19 => format!("pub fn d{k}(bus: &Bus) {{ bus.on(\"agent/{head}x{tail}\", h); }}"),
        20 => format!("/// Emits `agent/{head}` events.\npub fn doc{k}() {{}}"),
        0 => format!("pub const EV{k}: &str = \"{name}\";"),
        1 => format!("use crate::f{j}::EV{t};\npub fn s{k}(bus: &Bus) {{ bus.on(EV{t}, h); }}"),
        2 => format!("pub const B{k}: &str = crate::f{j}::EV{t};"),
        3 => format!("pub fn e{k}(bus: &Bus) {{ bus.emit(concat!(\"agent/\", \"turn-end\")); }}"),
        4 => format!("pub fn f{k}(x: u32) -> String {{ format!(\"agent/{{}}\", x) }}"),
        5 => format!("// {name} is gone"),
        6 => format!("pub fn u{k}(bus: &Bus) {{ bus.on(\"{name}\", |a, t| drop((a, t))); }}"),
        7 => format!("pub const UA{k}: &str = \"user-agent/{k}\";"),
        _ => format!("pub fn g{k}(x: u32) -> u32 {{ x + {k} }}"),
    }
}

/// One Markdown block.
fn md_block(r: &mut Rng, k: &str, _j: usize, t: &str) -> String {
    let name = r.pick(NAMES);
    match r.below(6) {
        0 => format!("Listens to `{name}`.\n"),
        1 => format!("```ts\nbus.on(EV{t}, handler{k});\n```\n"),
        2 => format!("See https://example.com/agent/docs/{k}.\n"),
        3 => format!("## `{name}`\n\nFired once per turn.\n"),
        4 => format!("```rust\nbus.on(EV{t}, h{k});\n```\n"),
        _ => format!("Plain text {k}.\n"),
    }
}

/// Writes the generated tree of `seed` (TypeScript, Rust and Markdown files naming removed
/// events, declaring identifiers for them and using those of other files) under `root`.
pub(crate) fn write_tree(root: &Path, seed: u64) {
    let mut r = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let files = 6 + r.below(10);
    std::fs::create_dir_all(root.join("src")).unwrap();
    for f in 0..files {
        let lines = 1 + r.below(6);
        let kind = r.below(3);
        let mut text = Vec::new();
        for l in 0..lines {
            let own = format!("{f}_{l}");
            let other = r.below(files);
            let theirs = format!("{other}_{}", r.below(6));
            text.push(match kind {
                0 => ts_line(&mut r, &own, other, &theirs),
                1 => rust_line(&mut r, &own, other, &theirs),
                _ => md_block(&mut r, &own, other, &theirs),
            });
        }
        let ext = ["ts", "rs", "md"][kind];
        let dir = if ext == "rs" {
            root.join("src")
        } else {
            root.to_path_buf()
        };
        std::fs::write(dir.join(format!("f{f}.{ext}")), text.join("\n") + "\n").unwrap();
    }
}

#[test]
fn the_prefilter_drops_no_finding_on_generated_trees() {
    let mut trees_with_findings = 0;
    let mut dropped_files_with_findings = 0;
    for seed in 1..=120u64 {
        let dir = tempfile::tempdir().unwrap();
        write_tree(dir.path(), seed);
        let opts = Options {
            paths: vec![dir.path().to_path_buf()],
            config: Config::default(),
            ..Options::default()
        };
        let filtered = lint(&opts);
        let (sources, errors) = read_sources(&opts);
        let every = lint_sources_unfiltered(&opts, &sources, &errors);
        assert_eq!(filtered.findings, every.findings, "seed {seed}");
        assert_eq!(filtered.errors, every.errors, "seed {seed}");
        assert_eq!(
            filtered.stats.declarations, every.stats.declarations,
            "seed {seed}"
        );
        trees_with_findings += usize::from(!filtered.findings.is_empty());
        // Files no removed name occurs in, whose findings come from declared identifiers:
        // the prefilter rejected them, and the run read them again.
        dropped_files_with_findings += sources
            .iter()
            .filter(|s| !NAMES.iter().any(|n| s.text.contains(n)))
            .filter(|s| filtered.findings.iter().any(|f| f.path == s.display))
            .count();
    }
    assert!(
        trees_with_findings >= 100,
        "{trees_with_findings} trees with findings"
    );
    assert!(
        dropped_files_with_findings >= 40,
        "{dropped_files_with_findings} files found only through a declared identifier"
    );
}
