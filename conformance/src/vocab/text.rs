//! What counts as whitespace in message text.
//!
//! Upstream decides whether a cancelled stream's block is kept (`interruptedBlocks()`, 2026-08)
//! with JavaScript's `String.prototype.trim`, so the protocol's "whitespace-only" is
//! JavaScript's, not Rust's `char::is_whitespace` nor Python's `str.isspace`: U+FEFF (BOM) is
//! whitespace, while U+0085 (NEL) and the information separators U+001C–U+001F are not.

/// Whether `c` is removed by JavaScript's `String.prototype.trim`: the ECMAScript
/// *WhiteSpace* (TAB, VT, FF, ZWNBSP U+FEFF and every `Zs` space separator) and
/// *LineTerminator* (LF, CR, U+2028, U+2029) code points.
pub const fn is_js_whitespace(c: char) -> bool {
    matches!(
        c,
        '\u{0009}'..='\u{000D}'
            | '\u{0020}'
            | '\u{00A0}'
            | '\u{1680}'
            | '\u{2000}'..='\u{200A}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{202F}'
            | '\u{205F}'
            | '\u{3000}'
            | '\u{FEFF}'
    )
}

/// Whether `text` is empty after JavaScript's `String.prototype.trim` (empty or whitespace
/// only, in [`is_js_whitespace`]'s sense).
pub fn is_blank(text: &str) -> bool {
    text.chars().all(is_js_whitespace)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whitespace_is_javascripts() {
        for blank in [
            "",
            " ",
            "\n\t",
            "\u{FEFF}",
            "\u{00A0}",
            "\u{2028}",
            "\u{3000} \u{202F}",
        ] {
            assert!(is_blank(blank), "{blank:?} is blank in JavaScript");
        }
        // Rust and Python call these whitespace; JavaScript's trim keeps them.
        for text in ["\u{001C}", "\u{001F}", "\u{0085}", "\u{180E}", "a", " a "] {
            assert!(!is_blank(text), "{text:?} is not blank in JavaScript");
        }
    }
}
