//! The depth estimate over Rust, on the tokens syn parses: proc-macro2's lexer (which syn
//! itself calls, so a string, comment or lifetime is read exactly as syn reads it; it keeps
//! its own stack, and `TokenStream`'s drop is iterative, so deep input costs it no stack).

use super::Nesting;
use super::tally::Tally;
use proc_macro2::{Delimiter, Spacing, TokenStream, TokenTree};
use std::str::FromStr;

/// Words after which a `|` opens a closure rather than being a binary or pattern `|`.
const PREFIX_WORDS: &[&str] = &[
    "move", "return", "in", "if", "else", "while", "match", "let", "break", "yield", "async",
    "static", "box", "for", "loop", "unsafe", "const", "mut", "ref",
];

/// What the last token was, for the tokens whose meaning depends on it.
/// Words that begin an item or a statement and never continue an expression: after a `{…}`
/// group, one of them (or an attribute's `#`) starts a new item, which ends what the level held
/// as a `;` does (a file of thousands of functions is flat, not deep).
const ITEM_WORDS: &[&str] = &[
    "fn",
    "pub",
    "struct",
    "enum",
    "union",
    "impl",
    "mod",
    "use",
    "trait",
    "type",
    "let",
    "extern",
    "macro_rules",
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Prev {
    /// An operand: a name, a literal or a closed `(…)`/`[…]` — a `|` after it is binary.
    Operand,
    /// A `-` or `=` joined to the next character (`->`, `=>`: their `>` closes no `<`).
    Arrow,
    /// Anything else: a `|` after it opens a closure.
    Other,
}

/// The estimate over `text` (see [`super::estimate`]). Text proc-macro2 cannot tokenise, syn
/// cannot either: it fails before parsing anything, so such a file is shallow.
pub(super) fn estimate(text: &str) -> Nesting {
    let nesting = match TokenStream::from_str(text) {
        Ok(stream) => estimate_stream(stream),
        Err(_) => Nesting { depth: 1, at: 0 },
    };
    proc_macro2::extra::invalidate_current_thread_spans();
    nesting
}

/// The estimate over the tokens `stream` (see [`estimate`]), which proc-macro2 read from the
/// text: the text's spans stay valid, for the parse that reads the same tokens.
pub(super) fn estimate_stream(stream: TokenStream) -> Nesting {
    let mut tally = Tally::new();
    // Groups still being read, innermost last, with the delimiter each closes with.
    let mut stack = vec![(stream.into_iter(), Delimiter::None)];
    let mut prev = Prev::Other;
    let mut after_brace = false;
    while let Some((tokens, _)) = stack.last_mut() {
        let Some(token) = tokens.next() else {
            if let Some((_, delimiter)) = stack.pop()
                && !stack.is_empty()
            {
                tally.close(|| 0);
                after_brace = delimiter == Delimiter::Brace;
                prev = if delimiter == Delimiter::Brace {
                    // A block may end a statement: a closure can follow it.
                    Prev::Other
                } else {
                    Prev::Operand
                };
            }
            continue;
        };
        if std::mem::take(&mut after_brace) {
            let starts_item = match &token {
                TokenTree::Ident(ident) => ITEM_WORDS.iter().any(|w| ident == w),
                TokenTree::Punct(punct) => punct.as_char() == '#',
                _ => false,
            };
            if starts_item {
                tally.semicolon();
            }
        }
        let span = token.span();
        let at = || span.byte_range().start;
        match token {
            TokenTree::Group(group) => {
                tally.open(at);
                prev = Prev::Other;
                stack.push((group.stream().into_iter(), group.delimiter()));
            }
            TokenTree::Ident(ident) => {
                tally.piece(at);
                prev = if PREFIX_WORDS.iter().any(|w| ident == w) {
                    Prev::Other
                } else {
                    Prev::Operand
                };
            }
            TokenTree::Literal(_) => {
                tally.piece(at);
                prev = Prev::Operand;
            }
            TokenTree::Punct(punct) => {
                let c = punct.as_char();
                match c {
                    ',' => tally.comma(),
                    ';' => tally.semicolon(),
                    '<' => tally.angle_open(at),
                    '>' if prev != Prev::Arrow => tally.angle_close(),
                    '|' if prev != Prev::Operand => tally.kept(at),
                    _ => tally.piece(at),
                }
                prev = if matches!(c, '-' | '=') && punct.spacing() == Spacing::Joint {
                    Prev::Arrow
                } else {
                    Prev::Other
                };
            }
        }
    }
    tally.finish()
}

#[cfg(test)]
mod tests {
    use super::estimate;

    fn depth(s: &str) -> usize {
        estimate(s).depth
    }

    #[test]
    fn every_shape_of_nesting_counts() {
        let n = 500;
        // `else` continues after a block: an `else if` chain nests in the parser.
        assert!(depth(&format!("fn f() {{ {}0 }}", "if c { 1 } else ".repeat(n))) >= n);
        // Unbalanced: proc-macro2 refuses it, and so would syn, before any recursion.
        assert_eq!(depth(&"(".repeat(n)), 1);
        assert!(depth(&format!("{}1{}", "(".repeat(n), ")".repeat(n))) > n);
        assert!(depth(&format!("a{}", ".b()".repeat(n))) > n);
        assert!(depth(&format!("a{}", "[0]".repeat(n))) > n);
        assert!(depth(&format!("{}0", "|a, b| ".repeat(n))) >= n);
        assert!(depth(&format!("{}0", "move |a, b| ".repeat(n))) >= n);
        assert!(depth(&format!("{}0", "|| ".repeat(n))) >= n);
        assert!(depth(&format!("{}x", "!".repeat(n))) > n);
        assert!(depth(&format!("{}x", "- ".repeat(n))) > n);
        assert!(
            depth(&format!(
                "type T = {}u8{};",
                "A<x, ".repeat(n),
                ">".repeat(n)
            )) > n
        );
        assert!(
            depth(&format!(
                "type T = {}u8{};",
                "A<fn() -> B, ".repeat(n),
                ">".repeat(n)
            )) > n
        );
        assert!(depth(&format!("x = {}0;", "a + \",\" + ".repeat(n))) > n);
        assert!(depth(&format!("x = {}0;", "a + ')' + ".repeat(n))) > n);
    }

    #[test]
    fn flat_code_stays_shallow() {
        // Items one after another: no `;` between them.
        assert!(depth(&"fn f(a: u8) -> u8 { a + 1 }\n".repeat(10_000)) < 20);
        assert!(
            depth(
                &"#[derive(Debug)]\nstruct S { a: u8 }\nimpl S { fn f(&self) {} }\n".repeat(5_000)
            ) < 20
        );
        assert!(
            depth(&format!(
                "fn main() {{ {} }}",
                "if a { b() }\nlet x = 1;\n".repeat(10_000)
            )) < 20
        );
        assert!(depth(&format!("[{}]", "1, ".repeat(10_000))) < 10);
        assert!(depth(&format!("[{}]", "-1, ".repeat(10_000))) < 20);
        assert!(depth(&format!("[{}]", "A | B, ".repeat(10_000))) < 20);
        assert!(
            depth(&format!(
                "fn f() {{ {} }}",
                "let x: Vec<u8> = a < b;".repeat(10_000)
            )) < 30
        );
        // A string's brackets and separators are not the code's.
        assert!(depth("\"(((((((((((\"") < 5);
        assert_eq!(estimate("f(1, (2))").at, 6);
    }
}
