//! The human diagnostic of the one shape `lint` nearly always renders, plain or coloured,
//! written straight into a string (issue 32 item 1): one source line of characters one column
//! wide, which annotate-snippets shows whole (neither cut to the terminal's width nor stripped
//! of a long indentation), one annotation on it, and one-line messages. annotate-snippets lays
//! such a finding out in about 8 µs, placing every character in a grid and comparing styles;
//! this writes the same bytes in well under one, with annotate-snippets' own default styles.
//! Any other shape (a clipped or long line, a deep indentation, a tab, a wide or invisible
//! character, a message of several lines) is left to annotate-snippets: [`finding`] answers
//! `None`. The tests below hold the two writers to the same bytes on generated findings.

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
/// fit, around the annotation, with `...`.
const TERM_WIDTH: usize = DEFAULT_TERM_WIDTH;

/// annotate-snippets cuts the indentation of a line (and shows `...`) when both it and the
/// annotation's column are past this many columns (its `LONG_WHITESPACE` plus
/// `ELLIPSIS_PASSING`).
const LONG_INDENT: usize = 26;

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
    if l.clipped || l.text.trim_end().len() != l.text.len() || l.text.trim_start().is_empty() {
        return None;
    }
    let text = width(&l.text)?;
    let before = width(l.text.get(..l.span.start)?)?;
    let under = width(l.text.get(l.span.clone())?)?.max(1);
    width(&l.label)?;
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
    if gutter + 3 + text > TERM_WIDTH || indent.min(before) > LONG_INDENT {
        return None;
    }

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
        &(before + 1).to_string(),
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
        &l.text,
        "\n",
        &margin,
        &ln.open,
        "|",
        &ln.close,
        " ",
    ] {
        out.push_str(piece);
    }
    out.extend(std::iter::repeat_n(' ', before));
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
