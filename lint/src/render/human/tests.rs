//! The human report's writers on generated findings: what holds whichever writes a finding.

use crate::model::{Applicability, Finding, Fix, Severity};
use crate::test_rng::Rng;

/// Pieces of generated source lines and messages: the ASCII most code is, characters one
/// column wide (an arrow, a dash, an accent, an ellipsis), and what the writer must leave to
/// annotate-snippets: a tab, a wide character, an emoji, a combining accent, a zero-width
/// joiner, a bidirectional control, C0 and C1 controls, DEL, and a lone carriage return (a
/// line of a file holds no line feed; a `\r` alone ends none).
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
    "\r",
];

/// Pieces that keep a text in the writer's shape (the first thirteen of [`PIECES`]).
const PLAIN: usize = 13;

/// A text of `least` to `most - 1` pieces.
fn text(g: &mut Rng, least: usize, most: usize, plain: bool) -> String {
    let kinds = if plain { PLAIN } else { PIECES.len() };
    let pieces = least + g.below(most - least);
    (0..pieces).map(|_| PIECES[g.below(kinds)]).collect()
}

/// A finding of any shape: see the pieces above.
pub(super) fn finding(g: &mut Rng) -> Finding {
    // Most texts in the writer's shape, so that both writers are compared often; the rest
    // anything.
    let plain = g.below(4) != 0;
    // An indentation of any depth around the one annotate-snippets starts to cut (26), a body
    // of pieces, and often a run of letters taking the line to around the terminal's width
    // (140 columns, less the gutter).
    // Or any indentation up to well past the terminal's width, which annotate-snippets cuts.
    let indent = match g.below(6) {
        0 | 1 => 18 + g.below(16),
        2 => g.below(200),
        _ => g.below(12),
    };
    let mut line_text = " ".repeat(indent);
    line_text.push_str(&text(g, 0, 20, plain));
    // Lines around the terminal's width and far past it, which annotate-snippets cuts to a
    // window around the annotation.
    if g.below(2) == 0 {
        let target = if g.below(2) == 0 {
            120 + g.below(40)
        } else {
            140 + g.below(400)
        };
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
        // Spans of any width: a wide one does not fit the window with its label.
        end_column: column
            + if g.below(8) == 0 {
                g.below(300)
            } else {
                g.below(20)
            },
        message: text(g, 1, 12, plain),
        help: text(g, 1, 30, plain),
        note: (g.below(2) == 0).then(|| text(g, 1, 40, plain)),
        fingerprint: String::new(),
        line_text,
        line_text_column: if g.below(10) == 0 { 1 + g.below(50) } else { 1 },
        // Not shown by the human report.
        line_text_byte_column: 1,
        fix,
        human: false,
    }
}

/// `text` without the escape sequences of its styles.
pub(super) fn unstyled(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find('\u{1b}') {
        out.push_str(&rest[..at]);
        rest = rest[at..].split_once('m').map_or("", |(_, after)| after);
    }
    out.push_str(rest);
    out
}

/// A diagnostic's `-->` line names the finding's path, line and column (the column the JSON
/// report gives), whichever writer writes it, plain or coloured: also when the line shown is a
/// window of a long line (`…` first), where annotate-snippets counts the column within the
/// window.
#[test]
fn the_location_line_names_the_findings_line_and_column() {
    let renderers = [
        annotate_snippets::Renderer::plain(),
        annotate_snippets::Renderer::styled(),
    ];
    let palettes = [
        super::direct::Palette::new(false),
        super::direct::Palette::new(true),
    ];
    let mut g = Rng(0x10c_a7ed);
    let mut clipped = 0;
    for case in 0..20_000 {
        let f = finding(&mut g);
        let coloured = usize::from(g.below(2) == 0);
        let written = super::finding(&renderers[coloured], &palettes[coloured], &f);
        let location = unstyled(written.lines().nth(1).unwrap_or_default());
        let expected = format!("--> {}:{}:{}", f.path, f.line, f.column);
        assert!(
            location.trim_start() == expected,
            "case {case}: {f:?}\n{written}\nexpected {expected}"
        );
        clipped += usize::from(f.line_text_column > 1);
    }
    assert!(clipped > 1_000, "{clipped} clipped lines");
}
