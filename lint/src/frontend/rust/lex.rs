//! A small Rust lexer that finds comments and string literals. It is the ground truth for
//! where names can occur: the syntax pass only adds context to what it finds, and when a
//! file does not parse, this scan alone still reports every name.

pub use crate::frontend::{Token, TokenKind};

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

/// All comments and string literals of `src`, in order. Never fails: an unterminated token
/// extends to the end of the file.
pub fn tokens(src: &str) -> Vec<Token> {
    let b = src.as_bytes();
    let n = b.len();
    let mut out = Vec::new();
    let mut i = 0;
    while i < n {
        let c = b[i];
        if c == b'/' && i + 1 < n && b[i + 1] == b'/' {
            let comment = Token::line_comment(b, i);
            out.push(comment);
            i = comment.end;
        } else if c == b'/' && i + 1 < n && b[i + 1] == b'*' {
            let mut depth = 1;
            let mut j = i + 2;
            while j < n && depth > 0 {
                if b[j] == b'/' && j + 1 < n && b[j + 1] == b'*' {
                    depth += 1;
                    j += 2;
                } else if b[j] == b'*' && j + 1 < n && b[j + 1] == b'/' {
                    depth -= 1;
                    j += 2;
                } else {
                    j += 1;
                }
            }
            out.push(Token {
                kind: TokenKind::Comment,
                start: i,
                end: j,
                content_start: i + 2,
                content_end: if depth == 0 { j - 2 } else { j },
                whole: true,
            });
            i = j;
        } else if c == b'"' {
            let (end, content_end) = cooked_string_end(b, i + 1);
            out.push(Token {
                kind: TokenKind::Str,
                start: i,
                end,
                content_start: i + 1,
                content_end,
                whole: true,
            });
            i = end;
        } else if (c == b'r' || c == b'b' || c == b'c')
            && (i == 0 || !is_ident_byte(b[i - 1]))
            && let Some(tok) = prefixed_string(b, i)
        {
            i = tok.end;
            out.push(tok);
        } else if c == b'\'' {
            i = skip_char_or_lifetime(b, i);
        } else if is_ident_byte(c) {
            // Skip the whole identifier so `br` inside `abr"` is never read as a prefix.
            while i < n && is_ident_byte(b[i]) {
                i += 1;
            }
        } else {
            i += 1;
        }
    }
    out
}

/// From just after the opening quote, the end of a cooked string (exclusive, after the
/// closing quote) and the end of its contents.
fn cooked_string_end(b: &[u8], mut j: usize) -> (usize, usize) {
    while j < b.len() {
        match b[j] {
            b'\\' => j += 2,
            b'"' => return (j + 1, j),
            _ => j += 1,
        }
    }
    (b.len(), b.len())
}

fn prefixed_string(b: &[u8], i: usize) -> Option<Token> {
    let n = b.len();
    let mut j = i;
    if b[j] == b'b' || b[j] == b'c' {
        j += 1;
        if j < n && b[j] == b'"' {
            let (end, content_end) = cooked_string_end(b, j + 1);
            return Some(Token {
                kind: TokenKind::Str,
                start: i,
                end,
                content_start: j + 1,
                content_end,
                whole: true,
            });
        }
    }
    if j < n && b[j] == b'r' {
        j += 1;
        let hashes_start = j;
        while j < n && b[j] == b'#' {
            j += 1;
        }
        let hashes = j - hashes_start;
        if j < n && b[j] == b'"' {
            let content_start = j + 1;
            let mut k = content_start;
            while k < n {
                if b[k] == b'"'
                    && b.len() >= k + 1 + hashes
                    && b[k + 1..k + 1 + hashes].iter().all(|&h| h == b'#')
                {
                    return Some(Token {
                        kind: TokenKind::Str,
                        start: i,
                        end: k + 1 + hashes,
                        content_start,
                        content_end: k,
                        whole: true,
                    });
                }
                k += 1;
            }
            return Some(Token {
                kind: TokenKind::Str,
                start: i,
                end: n,
                content_start,
                content_end: n,
                whole: true,
            });
        }
    }
    None
}

/// Skips a char literal (`'x'`, `'\n'`, `'\u{1F600}'`) or a lifetime (`'a`), returning the
/// index after it.
fn skip_char_or_lifetime(b: &[u8], i: usize) -> usize {
    let n = b.len();
    if i + 1 >= n {
        return n;
    }
    if b[i + 1] == b'\\' {
        let mut j = i + 2;
        while j < n && b[j] != b'\'' && b[j] != b'\n' {
            j += 1;
        }
        return (j + 1).min(n);
    }
    // One character (possibly multi-byte) followed by a quote is a char literal.
    let ch_len = std::str::from_utf8(&b[i + 1..(i + 5).min(n)])
        .ok()
        .or_else(|| {
            (1..4)
                .rev()
                .find_map(|l| std::str::from_utf8(&b[i + 1..(i + 1 + l).min(n)]).ok())
        })
        .and_then(|s| s.chars().next())
        .map_or(1, char::len_utf8);
    if b.get(i + 1 + ch_len) == Some(&b'\'') {
        i + 2 + ch_len
    } else {
        i + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<(TokenKind, &str)> {
        tokens(src)
            .into_iter()
            .map(|t| (t.kind, &src[t.content_start..t.content_end]))
            .collect()
    }

    #[test]
    fn finds_comments_and_every_string_flavour() {
        let src = r####"let a = "x\"y"; // c1
/* outer /* nested */ still */ let b = r#"raw "q" "#; let l: &'static str = b"bytes";
let ch = '"'; let e = '\''; let r = br##"a"#b"##; let id = r#type; foo"####;
        assert_eq!(
            kinds(src),
            vec![
                (TokenKind::Str, r#"x\"y"#),
                (TokenKind::Comment, " c1"),
                (TokenKind::Comment, " outer /* nested */ still "),
                (TokenKind::Str, r#"raw "q" "#),
                (TokenKind::Str, "bytes"),
                (TokenKind::Str, "a\"#b"),
            ]
        );
    }

    #[test]
    fn unterminated_tokens_end_at_eof() {
        assert_eq!(kinds("\"abc"), vec![(TokenKind::Str, "abc")]);
        assert_eq!(kinds("/* abc"), vec![(TokenKind::Comment, " abc")]);
    }
}
