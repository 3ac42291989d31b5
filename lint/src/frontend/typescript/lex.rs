//! A small JavaScript/TypeScript lexer that finds comments and string/template literals. It
//! is used only when oxc cannot parse a file (or a Markdown fence), so that every removed
//! name in a string or comment is still reported, lexically.

pub use crate::frontend::{Token, TokenKind};

/// All comments and string literals of `src`, in order. Never fails: an unterminated token
/// extends to the end of the file. Regular-expression literals are not recognised; a `/` is
/// read as an operator, which is harmless for finding names in strings and comments.
pub fn tokens(src: &str) -> Vec<Token> {
    let b = src.as_bytes();
    let n = b.len();
    let mut out = Vec::new();
    let mut i = 0;
    while i < n {
        let c = b[i];
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            let comment = Token::line_comment(b, i);
            out.push(comment);
            i = comment.end;
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            let close = memchr::memmem::find(&b[i + 2..], b"*/").map(|p| i + 2 + p);
            let (end, content_end) = close.map_or((n, n), |p| (p + 2, p));
            out.push(Token {
                kind: TokenKind::Comment,
                start: i,
                end,
                content_start: i + 2,
                content_end,
                whole: true,
            });
            i = end;
        } else if c == b'"' || c == b'\'' || c == b'`' {
            let mut j = i + 1;
            let mut content_end = n;
            let mut end = n;
            while j < n {
                match b[j] {
                    b'\\' => j += 2,
                    q if q == c => {
                        content_end = j;
                        end = j + 1;
                        break;
                    }
                    // A quote other than a template never spans lines.
                    b'\n' if c != b'`' => {
                        content_end = j;
                        end = j;
                        break;
                    }
                    _ => j += 1,
                }
            }
            let content_end = content_end.min(n);
            let whole = c != b'`' || !src[i + 1..content_end].contains("${");
            out.push(Token {
                kind: TokenKind::Str,
                start: i,
                end: end.min(n),
                content_start: i + 1,
                content_end,
                whole,
            });
            i = end.max(i + 1);
        } else {
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<(TokenKind, &str, bool)> {
        tokens(src)
            .into_iter()
            .map(|t| (t.kind, &src[t.content_start..t.content_end], t.whole))
            .collect()
    }

    #[test]
    fn finds_comments_strings_and_templates() {
        let src = "a('x\\'y'); // c1\n/** doc */ b(\"q\", `t ${v} u`, `w`)";
        assert_eq!(
            kinds(src),
            vec![
                (TokenKind::Str, "x\\'y", true),
                (TokenKind::Comment, " c1", true),
                (TokenKind::Comment, "* doc ", true),
                (TokenKind::Str, "q", true),
                (TokenKind::Str, "t ${v} u", false),
                (TokenKind::Str, "w", true),
            ]
        );
    }

    #[test]
    fn unterminated_tokens_end_at_eof_or_line() {
        assert_eq!(kinds("'abc"), vec![(TokenKind::Str, "abc", true)]);
        assert_eq!(kinds("/* abc"), vec![(TokenKind::Comment, " abc", true)]);
        assert_eq!(
            kinds("'ab\n'cd'"),
            vec![(TokenKind::Str, "ab", true), (TokenKind::Str, "cd", true)]
        );
    }
}
