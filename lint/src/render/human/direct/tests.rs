//! The direct writer against annotate-snippets, the renderer it stands in for.

use super::super::tests::{finding, unstyled};
use super::super::{annotated, layout};
use crate::model::{Finding, Severity};
use crate::test_rng::Rng;
use annotate_snippets::Renderer;

/// Issue 32 item 1: whatever finding the direct writer takes, it writes the bytes
/// annotate-snippets' renderer of the same styles (plain or coloured) writes for it, and it
/// takes most findings of the shape `lint` renders (so the comparison is made, and the fast
/// path is used). Generated findings: plain and coloured, every severity, fix and note, line
/// numbers of one to six digits, annotations anywhere on the line (and past its end),
/// indentations and line widths on both sides of where annotate-snippets starts to cut a line,
/// lines and messages with characters the writer must refuse.
#[test]
fn the_direct_writer_writes_what_annotate_snippets_writes() {
    let renderers = [Renderer::plain(), Renderer::styled()];
    let palettes = [super::Palette::new(false), super::Palette::new(true)];
    let mut g = Rng(0x5eed_d1ec);
    let (mut taken, mut left) = (0, 0);
    // Findings written with the start, the end or both of their line cut, and whole lines
    // that end in white space.
    let (mut cuts, mut trailing) = ([0; 3], 0);
    let mut shapes = std::collections::BTreeSet::new();
    for case in 0..20_000 {
        let f = finding(&mut g);
        let l = layout(&f);
        let coloured = usize::from(g.below(2) == 0);
        let renderer = &renderers[coloured];
        match super::finding(&l, &palettes[coloured]) {
            Some(direct) => {
                taken += 1;
                shapes.insert((
                    coloured,
                    l.note.is_some(),
                    l.fix.map(|(name, _)| name),
                    l.label.is_empty(),
                ));
                // No piece holds a `.`: a `...` on the source line is a cut.
                let source = unstyled(direct.lines().nth(3).unwrap_or_default());
                let code = source.split_once("| ").map_or("", |(_, code)| code);
                match (code.starts_with("..."), code.ends_with("...")) {
                    (true, false) => cuts[0] += 1,
                    (false, true) => cuts[1] += 1,
                    (true, true) => cuts[2] += 1,
                    (false, false) => trailing += usize::from(code.ends_with(' ')),
                }
                let expected = annotated(renderer, &layout(&f));
                assert_eq!(
                    direct, expected,
                    "case {case}: {f:?}\n--- direct:\n{direct}\n--- annotate-snippets:\n{expected}"
                );
            }
            None => left += 1,
        }
    }
    assert!(
        taken > 5_000,
        "the direct writer took only {taken} of 20,000"
    );
    assert!(
        left > 4_000,
        "only {left} findings were left to annotate-snippets"
    );
    assert!(
        cuts.iter().all(|&n| n > 200),
        "cut at the start, the end, both: {cuts:?}"
    );
    assert!(
        trailing > 200,
        "{trailing} whole lines ending in white space"
    );
    // Every combination of colour, a note, a fix (none, machine-applicable, suggested) and a
    // label.
    assert_eq!(shapes.len(), 24, "{shapes:?}");
}

/// The findings of a real report (upstream's loop tests name the removed events on lines of
/// ASCII) are of the writer's shape, plain or coloured: the fast path is the one `lint` takes.
#[test]
fn an_ascii_finding_is_written_directly() {
    let f = Finding {
        rule: "ML001",
        rule_name: "subscribe",
        severity: Severity::Error,
        event: Some("agent/turn-end".to_owned()),
        path: "tests/loop.spec.ts".to_owned(),
        line: 120,
        column: 15,
        end_line: 120,
        end_column: 31,
        message: "subscribes to removed event `agent/turn-end`".to_owned(),
        help: "subscribe to `session/event` and filter `turn/end`".to_owned(),
        note: None,
        fingerprint: String::new(),
        line_text: "    agent.on('agent/turn-end', () => ends++)".to_owned(),
        line_text_column: 1,
        line_text_byte_column: 1,
        fix: None,
        human: false,
    };
    let direct = super::finding(&layout(&f), &super::Palette::new(false)).expect("plain");
    assert_eq!(direct, annotated(&Renderer::plain(), &layout(&f)));
    assert!(
        direct.starts_with("error[ML001]: subscribes to removed event"),
        "{direct}"
    );
    let coloured = super::finding(&layout(&f), &super::Palette::new(true)).expect("coloured");
    assert_eq!(coloured, annotated(&Renderer::styled(), &layout(&f)));
    assert!(coloured.starts_with("\u{1b}["), "{coloured:?}");
}
