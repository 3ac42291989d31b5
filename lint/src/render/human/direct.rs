//! The plain (uncoloured) human diagnostic of the one shape `lint` nearly always renders,
//! written straight into a string (issue 32 item 1): one source line of characters one column
//! wide, which annotate-snippets shows whole (neither cut to the terminal's width nor stripped
//! of a long indentation), one annotation on it, and one-line messages. annotate-snippets lays
//! such a finding out in about 8 µs, placing every character in a grid and comparing styles;
//! this writes the same bytes in well under one. Any other shape (a coloured report, a clipped
//! or long line, a deep indentation, a tab, a wide or invisible character, a message of several
//! lines) is left to annotate-snippets: [`finding`] answers `None`. The tests below hold the two
//! writers to the same bytes on generated findings.

use super::Layout;
use crate::model::Severity;
use unicode_width::UnicodeWidthChar;

/// annotate-snippets' terminal width (`DEFAULT_TERM_WIDTH`): a line wider than this less its
/// gutter is cut to fit, around the annotation, with `...`.
const TERM_WIDTH: usize = 140;

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

fn level_name(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    }
}

/// The finding's diagnostic, followed by a blank line, as annotate-snippets' plain renderer
/// writes it; `None` when the finding is not of the shape this writer knows.
pub(super) fn finding(l: &Layout) -> Option<String> {
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

    let mut out =
        String::with_capacity(256 + l.title.len() + l.path.len() + 2 * l.text.len() + l.help.len());
    let margin = " ".repeat(gutter + 1);
    out.push_str(level_name(l.severity));
    out.push('[');
    out.push_str(l.rule);
    out.push_str("]: ");
    out.push_str(&l.title);
    out.push('\n');
    out.push_str(&margin[1..]);
    out.push_str("--> ");
    out.push_str(&l.path);
    out.push(':');
    out.push_str(&number);
    out.push(':');
    out.push_str(&(before + 1).to_string());
    out.push('\n');
    out.push_str(&margin);
    out.push_str("|\n");
    out.push_str(&number);
    out.push_str(" | ");
    out.push_str(&l.text);
    out.push('\n');
    out.push_str(&margin);
    out.push_str("| ");
    out.extend(std::iter::repeat_n(' ', before));
    out.extend(std::iter::repeat_n('^', under));
    if !l.label.is_empty() {
        out.push(' ');
        out.push_str(&l.label);
    }
    out.push('\n');
    out.push_str(&margin);
    out.push('|');
    let mut message = |name: &str, text: &str| {
        out.push('\n');
        out.push_str(&margin);
        out.push_str("= ");
        out.push_str(name);
        out.push_str(": ");
        out.push_str(text);
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
