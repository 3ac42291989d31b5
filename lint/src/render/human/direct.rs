//! The human diagnostic of the one shape `lint` nearly always renders, plain or coloured,
//! written straight into a string (issue 32 item 1): one source line of characters one column
//! wide, one annotation on it, and one-line messages. A line wider than the terminal (less the
//! gutter) or indented deeply is cut to the window annotate-snippets shows, with `...`
//! ([`Window`]). annotate-snippets lays such a finding out in about 8 µs, placing every
//! character in a grid and comparing styles; this writes the same bytes in about one, with
//! annotate-snippets' own default styles. Any other shape (a span too wide to show whole, a
//! tab, a wide or invisible character, a message of several lines) is left to
//! annotate-snippets: [`finding`] answers `None`. The tests hold the two writers to the same
//! bytes on generated findings.

use super::Layout;
use crate::model::Severity;
use annotate_snippets::renderer::{
    DEFAULT_EMPHASIS_STYLE, DEFAULT_ERROR_STYLE, DEFAULT_LINE_NUM_STYLE, DEFAULT_NOTE_STYLE,
    DEFAULT_TERM_WIDTH, DEFAULT_WARNING_STYLE,
};
use anstyle::Style;
use unicode_width::UnicodeWidthChar;

/// How one style starts and ends in the text: annotate-snippets writes a style's escape
/// sequence where it begins and its reset where it ends (nothing for no style).
struct Pen {
    open: String,
    close: String,
}

impl Pen {
    fn of(style: Style) -> Pen {
        Pen {
            open: format!("{style}"),
            close: format!("{style:#}"),
        }
    }
}

/// The styles of a report: annotate-snippets' defaults for a coloured one, none for a plain
/// one.
pub(super) struct Palette {
    line_number: Pen,
    emphasis: Pen,
    error: Pen,
    warning: Pen,
    note: Pen,
}

impl Palette {
    /// The palette of a report, coloured or not.
    pub(super) fn new(color: bool) -> Palette {
        let pen = |style: Style| Pen::of(if color { style } else { Style::new() });
        Palette {
            line_number: pen(DEFAULT_LINE_NUM_STYLE),
            emphasis: pen(DEFAULT_EMPHASIS_STYLE),
            error: pen(DEFAULT_ERROR_STYLE),
            warning: pen(DEFAULT_WARNING_STYLE),
            note: pen(DEFAULT_NOTE_STYLE),
        }
    }

    fn level(&self, s: Severity) -> &Pen {
        match s {
            Severity::Error => &self.error,
            Severity::Warning => &self.warning,
            Severity::Note => &self.note,
        }
    }
}

/// annotate-snippets' terminal width (140): a line wider than this less its gutter is cut to
/// fit, around the annotation, with `...` ([`Window`]).
const TERM_WIDTH: usize = DEFAULT_TERM_WIDTH;

/// The columns annotate-snippets keeps on either side of an annotation when it cuts a line
/// (its margin's `ELLIPSIS_PASSING`).
const PASSING: usize = 6;

/// An indentation (after [`PASSING`]) past this many columns is cut, down to
/// [`LONG_WHITESPACE_KEPT`] (its margin's `LONG_WHITESPACE`).
const LONG_WHITESPACE: usize = 20;

/// What is kept of an indentation annotate-snippets cuts (its `LONG_WHITESPACE` less
/// `LONG_WHITESPACE_PADDING`).
const LONG_WHITESPACE_KEPT: usize = 16;

/// What annotate-snippets writes where it cut a line, in the line number's style.
const CUT: &str = "...";

/// The part of a source line annotate-snippets shows, in columns: the line's window for one
/// annotation, the way its margin computes it. A line that fits the terminal (less the gutter)
/// and is not indented past 26 columns is shown whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Window {
    /// The first column shown.
    left: usize,
    /// The column after the last one shown.
    right: usize,
    /// Whether the start was cut (`...` is written over the first columns shown).
    cut_left: bool,
}

impl Window {
    /// The window of a line `width` columns wide, indented `indent` columns, with an
    /// annotation from column `start` to `end` whose label ends at `label_end`, in `room`
    /// columns (the terminal's width less the gutter). `None` when the line must be cut and the
    /// span with its margins is wider than the room: annotate-snippets then shows a part of
    /// the span (and elides the middle of one twice the room), a shape left to it.
    fn of(
        width: usize,
        indent: usize,
        start: usize,
        end: usize,
        label_end: usize,
        room: usize,
    ) -> Option<Window> {
        let white = indent.min(start).saturating_sub(PASSING);
        let (span_left, span_right) = (start.saturating_sub(PASSING), end + PASSING);
        let label_right = label_end + PASSING;
        let left = if white > LONG_WHITESPACE {
            white - LONG_WHITESPACE_KEPT
        } else {
            0
        };
        let (left, right) = if width.max(left) - left <= room {
            (left, width.max(left))
        } else if label_right.saturating_sub(white) <= room {
            // Only the indentation cut. (The label ends past the indentation: annotate-snippets
            // checks that too, for labels on other lines.)
            (white, white + room)
        } else if label_right - span_left <= room {
            // The span and its label, centred.
            let left = span_left.saturating_sub((room - (label_right - span_left)) / 2);
            (left, left + room)
        } else if span_right - span_left <= room {
            // The span, with two fifths of the room left over before it.
            let left = span_left.saturating_sub((room - (span_right - span_left)) / 5 * 2);
            (left, left + room)
        } else {
            return None;
        };
        Some(Window {
            left: left.min(width),
            right: if width.saturating_sub(left) <= room {
                width
            } else {
                width.min(right)
            },
            cut_left: left > 0,
        })
    }
}

/// Whether `c` takes one column in annotate-snippets' layout and is printed as it is: not a
/// control, a tab, a bidirectional control or a character it replaces (those it shows
/// otherwise), and one column wide by the `unicode-width` tables it measures with.
fn plain_char(c: char) -> bool {
    if c.is_ascii() {
        return (' '..='~').contains(&c);
    }
    !c.is_control()
        && !matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200d}')
        && c.width() == Some(1)
}

/// The width of `s` in columns, when every character is [`plain_char`].
fn width(s: &str) -> Option<usize> {
    if s.is_ascii() {
        return s
            .bytes()
            .all(|b| (b' '..=b'~').contains(&b))
            .then_some(s.len());
    }
    s.chars().all(plain_char).then(|| s.chars().count())
}

/// The finding's diagnostic, followed by a blank line, as annotate-snippets' renderer of the
/// same styles (`Renderer::plain()` or `Renderer::styled()`) writes it; `None` when the finding
/// is not of the shape this writer knows.
pub(super) fn finding(l: &Layout, paint: &Palette) -> Option<String> {
    if l.text.trim_start().is_empty() {
        return None;
    }
    let text = width(&l.text)?;
    let before = width(l.text.get(..l.span.start)?)?;
    let under = width(l.text.get(l.span.clone())?)?.max(1);
    for message in [Some(&l.title), l.note.as_ref(), Some(&l.help)]
        .into_iter()
        .chain(std::iter::once(l.fix.as_ref().map(|(_, m)| m)))
        .flatten()
    {
        width(message)?;
    }
    if l.path.chars().any(char::is_control) || l.span.start >= l.text.len() {
        return None;
    }
    let number = l.line.to_string();
    let gutter = number.len();
    let indent = l.text.chars().take_while(|c| c.is_whitespace()).count();
    // annotate-snippets counts the space before a label, even an empty one.
    let label_end = before + under + width(&l.label)? + 1;
    let room = TERM_WIDTH.saturating_sub(gutter + 3);
    let window = Window::of(text, indent, before, before + under, label_end, room)?;
    let shown = window.right.checked_sub(window.left)?;
    // The annotation's columns in the window.
    let indent_shown = before.checked_sub(window.left)?;
    let cut_right = text > window.right;
    // A window too narrow for its `...` (none is, at 140 columns) is left to annotate-snippets.
    if shown < 2 * CUT.len() + 1 && (window.cut_left || cut_right) {
        return None;
    }
    // Every character is one column wide: columns are characters. `...` is written over the
    // first and last three columns shown where the line is cut.
    let byte = |column: usize| {
        l.text
            .char_indices()
            .nth(column)
            .map_or(l.text.len(), |(i, _)| i)
    };
    let first = window.left + if window.cut_left { CUT.len() } else { 0 };
    let last = window.right - if cut_right { CUT.len() } else { 0 };
    let code = &l.text[byte(first)..byte(last)];
    let (ln, em, lv) = (&paint.line_number, &paint.emphasis, paint.level(l.severity));
    let mut out =
        String::with_capacity(512 + l.title.len() + l.path.len() + 2 * l.text.len() + l.help.len());
    let margin = " ".repeat(gutter + 1);
    for piece in [
        &lv.open,
        l.severity.as_str(),
        "[",
        l.rule,
        "]",
        &lv.close,
        &em.open,
        ": ",
        &l.title,
        &em.close,
        "\n",
        &margin[1..],
        &ln.open,
        "--> ",
        &ln.close,
        &l.path,
        ":",
        &number,
        ":",
        &l.column.to_string(),
        "\n",
        &margin,
        &ln.open,
        "|",
        &ln.close,
        "\n",
        &ln.open,
        &number,
        &ln.close,
        " ",
        &ln.open,
        "|",
        &ln.close,
        " ",
    ] {
        out.push_str(piece);
    }
    let cut = |out: &mut String, cut: bool| {
        if cut {
            for piece in [&ln.open, CUT, &ln.close] {
                out.push_str(piece);
            }
        }
    };
    cut(&mut out, window.cut_left);
    out.push_str(code);
    cut(&mut out, cut_right);
    for piece in ["\n", &margin, &ln.open, "|", &ln.close, " "] {
        out.push_str(piece);
    }
    out.extend(std::iter::repeat_n(' ', indent_shown));
    out.push_str(&lv.open);
    out.extend(std::iter::repeat_n('^', under));
    out.push_str(&lv.close);
    if !l.label.is_empty() {
        for piece in [" ", &lv.open, &l.label, &lv.close] {
            out.push_str(piece);
        }
    }
    for piece in ["\n", &margin, &ln.open, "|", &ln.close] {
        out.push_str(piece);
    }
    let mut message = |name: &str, text: &str| {
        for piece in [
            "\n", &margin, &ln.open, "= ", &ln.close, &em.open, name, &em.close, ": ", text,
        ] {
            out.push_str(piece);
        }
    };
    if let Some(note) = &l.note {
        message("note", note);
    }
    message("help", &l.help);
    if let Some((name, text)) = &l.fix {
        message(name, text);
    }
    out.push_str("\n\n");
    Some(out)
}

#[cfg(test)]
mod tests;
