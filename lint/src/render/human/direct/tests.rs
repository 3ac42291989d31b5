//! The direct writer against annotate-snippets, the renderer it stands in for.

use super::super::{annotated, layout};
use crate::model::{Applicability, Finding, Fix, Severity};
use crate::test_rng::Rng;
use annotate_snippets::Renderer;

/// Pieces of generated source lines and messages: the ASCII most code is, characters one
/// column wide (an arrow, a dash, an accent, an ellipsis), and what the writer must leave to
/// annotate-snippets: a tab, a wide character, an emoji, a combining accent, a zero-width
/// joiner, a bidirectional control, C0 and C1 controls, DEL, a line break.
const PIECES: &[&str] = &[
    "a",
    "emit",
    "agent/turn-start",
    " ",
    "  ",
    "    ",
    "(",
    "'",
    "`",
    ";",
    "→",
    "—",
    "é",
    "…",
    "\t",
    "漢",
    "😀",
    "e\u{301}",
    "\u{200d}",
    "\u{202e}",
    "\u{1b}",
    "\u{9b}",
    "\u{7f}",
    "\n",
];

/// Pieces that keep a text in the writer's shape (the first thirteen of [`PIECES`]).
const PLAIN: usize = 13;

/// A text of `least` to `most - 1` pieces.
fn text(g: &mut Rng, least: usize, most: usize, plain: bool) -> String {
    let kinds = if plain { PLAIN } else { PIECES.len() };
    let pieces = least + g.below(most - least);
    (0..pieces).map(|_| PIECES[g.below(kinds)]).collect()
}

fn finding(g: &mut Rng) -> Finding {
    // Most texts in the writer's shape, so that both writers are compared often; the rest
    // anything.
    let plain = g.below(4) != 0;
    // An indentation of any depth around the one annotate-snippets starts to cut (26), a body
    // of pieces, and often a run of letters taking the line to around the terminal's width
    // (140 columns, less the gutter).
    let indent = if g.below(3) == 0 {
        18 + g.below(16)
    } else {
        g.below(12)
    };
    let mut line_text = " ".repeat(indent);
    line_text.push_str(&text(g, 0, 20, plain));
    if g.below(3) == 0 {
        let target = 120 + g.below(40);
        let now = line_text.chars().count();
        line_text.push_str(&"x".repeat(target.saturating_sub(now)));
        line_text.push_str(&text(g, 0, 3, plain));
    }
    let chars = line_text.chars().count();
    let line = [1, 9, 10, 99, 100, 999, 1000, 12_345, 100_000][g.below(9)];
    let column = match g.below(4) {
        0 => 1 + g.below(indent + 4),
        _ => 1 + g.below(chars + 3),
    };
    let (rule, rule_name) = [
        ("ML001", "subscribe"),
        ("ML006", "mention"),
        ("ML009", "unparsed"),
    ][g.below(3)];
    let fix = match g.below(3) {
        0 => None,
        k => Some(Fix::new(
            if k == 1 {
                Applicability::MachineApplicable
            } else {
                Applicability::Suggestion
            },
            text(g, 1, 8, plain),
            Vec::new(),
        )),
    };
    Finding {
        rule,
        rule_name,
        severity: [Severity::Error, Severity::Warning, Severity::Note][g.below(3)],
        event: (g.below(4) != 0).then(|| {
            g.pick(&["agent/turn-end", "agent/steering", "é→x"])
                .to_owned()
        }),
        path: g
            .pick(&["src/x.ts", "docs/é → guide.md", "a b/c.rs"])
            .to_owned(),
        line,
        column,
        end_line: line + usize::from(g.below(8) == 0),
        end_column: column + g.below(20),
        message: text(g, 1, 12, plain),
        help: text(g, 1, 30, plain),
        note: (g.below(2) == 0).then(|| text(g, 1, 40, plain)),
        fingerprint: String::new(),
        line_text,
        line_text_column: if g.below(10) == 0 { 1 + g.below(50) } else { 1 },
        fix,
        human: false,
    }
}

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
