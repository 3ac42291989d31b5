//! The depth estimate over TypeScript and JavaScript. oxc's lexer is private, so this scanner
//! reads the tokens that matter the way oxc reads them: strings, comments, regular expressions
//! (told from division by the token before, as a lexer does: after `)` of `if`/`while`/`for`/
//! `with` and after a block's `}` a `/` starts one), template literals with their `${…}`
//! nesting, and JSX (tags, attribute strings, children text and `{…}` containers), so that no
//! bracket, `,` or `;` inside any of them is taken for the code's.

use super::Nesting;
use super::tally::Tally;

/// Words after which an expression starts (a `/` begins a regular expression, `<` a JSX
/// element, `{` an object literal).
const PREFIX_WORDS: &[&str] = &[
    "return",
    "typeof",
    "instanceof",
    "in",
    "of",
    "new",
    "delete",
    "void",
    "throw",
    "case",
    "do",
    "else",
    "yield",
    "await",
    "extends",
    "if",
    "while",
    "for",
    "with",
    "try",
    "finally",
];

/// What a level of the scanner is inside.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Frame {
    /// `(…)`; `keyword` when it follows `if`, `while`, `for` or `with` (a statement follows).
    Paren {
        keyword: bool,
    },
    Bracket,
    /// `{…}`; `expr` for an object literal, else a block.
    Brace {
        expr: bool,
    },
    /// The text of a template literal.
    Template,
    /// `${…}` inside a template literal.
    Interp,
    /// A JSX tag, from `<` to `>` or `/>`.
    JsxTag,
    /// A JSX element's children, up to its closing tag.
    JsxChildren,
    /// `{…}` in a JSX tag or among children.
    JsxExpr,
}

struct Scanner<'a> {
    b: &'a [u8],
    i: usize,
    jsx: bool,
    tally: Tally,
    frames: Vec<Frame>,
    /// An expression may start here: `/` is a regular expression, `<` may open JSX.
    expr_start: bool,
    /// A statement may start here: `{` is a block.
    stmt_start: bool,
    /// The last token was `if`, `while`, `for` or `with`.
    keyword_paren: bool,
    /// The last token closed a block (`}` of a function body, an `if`, a class …).
    after_block: bool,
}

/// Words that begin a statement or declaration and can never continue an expression: after a
/// block, one of them starts a new statement, which ends what the level held as a `;` does
/// (a file of thousands of functions without semicolons is flat, not deep). Words that can
/// continue an expression (`as`, `in`, `instanceof`, `satisfies`, `of`, `from`, `else`,
/// `catch`, `finally`, `while` of a `do`) are not here.
const STATEMENT_WORDS: &[&str] = &[
    "function",
    "class",
    "const",
    "let",
    "var",
    "if",
    "for",
    "switch",
    "try",
    "return",
    "throw",
    "import",
    "export",
    "interface",
    "type",
    "enum",
    "declare",
    "namespace",
    "module",
    "abstract",
    "async",
    "break",
    "continue",
    "debugger",
];

/// The estimate over `src` (see [`super::estimate`]).
pub(super) fn estimate(src: &str, jsx: bool) -> Nesting {
    let mut s = Scanner {
        b: src.as_bytes(),
        i: 0,
        jsx,
        tally: Tally::new(),
        frames: Vec::new(),
        expr_start: true,
        stmt_start: true,
        keyword_paren: false,
        after_block: false,
    };
    while s.i < s.b.len() {
        match s.frames.last() {
            Some(Frame::Template) => s.template(),
            Some(Frame::JsxTag) => s.jsx_tag(),
            Some(Frame::JsxChildren) => s.jsx_children(),
            _ => s.code(),
        }
    }
    s.tally.finish()
}

fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c >= 0x80
}

impl Scanner<'_> {
    fn at(&self, i: usize) -> Option<u8> {
        self.b.get(i).copied()
    }

    fn operand(&mut self) {
        self.expr_start = false;
        self.stmt_start = false;
        self.keyword_paren = false;
    }

    fn operator(&mut self) {
        self.expr_start = true;
        self.stmt_start = false;
        self.keyword_paren = false;
    }

    fn push(&mut self, frame: Frame) {
        let at = self.i;
        self.frames.push(frame);
        self.tally.open(|| at);
    }

    fn pop(&mut self) {
        let at = self.i;
        self.frames.pop();
        self.tally.close(|| at);
    }

    fn piece(&mut self) {
        let at = self.i;
        self.tally.piece(|| at);
    }

    /// Skips to just past the first `end` at or after `from`, or to the end of the text.
    fn skip_past(&mut self, from: usize, end: &[u8]) {
        self.i = self.b[from.min(self.b.len())..]
            .windows(end.len())
            .position(|w| w == end)
            .map_or(self.b.len(), |p| from + p + end.len());
    }

    /// A string literal from its opening quote: ends at the same quote or, unterminated, at
    /// the end of the line.
    fn string(&mut self, quote: u8) {
        self.piece();
        let mut i = self.i + 1;
        while let Some(c) = self.at(i) {
            i += 1;
            match c {
                b'\\' => i += 1,
                b'\n' => break,
                c if c == quote => break,
                _ => {}
            }
        }
        self.i = i.min(self.b.len());
        self.operand();
    }

    fn regex(&mut self) {
        self.piece();
        let mut i = self.i + 1;
        let mut class = false;
        while let Some(c) = self.at(i) {
            i += 1;
            match c {
                b'\\' => i += 1,
                b'[' => class = true,
                b']' => class = false,
                b'/' if !class => break,
                b'\n' => break,
                _ => {}
            }
        }
        while self.at(i).is_some_and(is_word) {
            i += 1;
        }
        self.i = i.min(self.b.len());
        self.operand();
    }

    fn word(&mut self) {
        self.piece();
        let start = self.i;
        while self.at(self.i).is_some_and(is_word) {
            self.i += 1;
        }
        let word = &self.b[start..self.i];
        let prefix = PREFIX_WORDS.iter().any(|w| w.as_bytes() == word);
        if prefix {
            self.operator();
            self.keyword_paren = matches!(word, b"if" | b"while" | b"for" | b"with");
            self.stmt_start = matches!(word, b"else" | b"do" | b"try" | b"finally");
        } else {
            self.operand();
        }
    }

    /// After a JSX element: in children text, more text; in code, an operand.
    fn element_done(&mut self) {
        if !matches!(self.frames.last(), Some(Frame::JsxChildren | Frame::JsxTag)) {
            self.operand();
        }
    }

    fn code(&mut self) {
        let c = self.b[self.i];
        let next = self.at(self.i + 1);
        let blank = c.is_ascii_whitespace() || (c == b'/' && matches!(next, Some(b'/' | b'*')));
        if !blank && std::mem::take(&mut self.after_block) && is_word(c) {
            let end = self.b[self.i..]
                .iter()
                .position(|&b| !is_word(b))
                .map_or(self.b.len(), |n| self.i + n);
            let word = &self.b[self.i..end];
            if STATEMENT_WORDS.iter().any(|w| w.as_bytes() == word) {
                self.tally.semicolon();
            }
        }
        match c {
            c if c.is_ascii_whitespace() => self.i += 1,
            b'/' if next == Some(b'/') => self.skip_past(self.i + 2, b"\n"),
            b'/' if next == Some(b'*') => self.skip_past(self.i + 2, b"*/"),
            b'/' if self.expr_start => self.regex(),
            b'\'' | b'"' => self.string(c),
            b'`' => {
                self.push(Frame::Template);
                self.i += 1;
            }
            b'(' => {
                let keyword = self.keyword_paren;
                self.push(Frame::Paren { keyword });
                self.i += 1;
                self.operator();
            }
            b'[' => {
                self.push(Frame::Bracket);
                self.i += 1;
                self.operator();
            }
            b'{' => {
                let expr = self.expr_start && !self.stmt_start;
                self.push(Frame::Brace { expr });
                self.i += 1;
                self.operator();
                self.stmt_start = !expr;
            }
            b')' => {
                let keyword = match self.frames.last() {
                    Some(&Frame::Paren { keyword }) => {
                        self.pop();
                        keyword
                    }
                    _ => false,
                };
                self.i += 1;
                self.operand();
                if keyword {
                    self.expr_start = true;
                    self.stmt_start = true;
                }
            }
            b']' => {
                if self.frames.last() == Some(&Frame::Bracket) {
                    self.pop();
                }
                self.i += 1;
                self.operand();
            }
            b'}' => {
                let frame = self.frames.last().copied();
                if matches!(
                    frame,
                    Some(Frame::Brace { .. } | Frame::Interp | Frame::JsxExpr)
                ) {
                    self.pop();
                }
                self.i += 1;
                self.operand();
                if frame == Some(Frame::Brace { expr: false }) {
                    self.expr_start = true;
                    self.stmt_start = true;
                    self.after_block = true;
                }
            }
            b',' => {
                self.tally.comma();
                self.i += 1;
                self.operator();
            }
            b';' => {
                self.tally.semicolon();
                self.i += 1;
                self.operator();
                self.stmt_start = true;
            }
            b'<' if self.jsx
                && self.expr_start
                && next.is_some_and(|n| is_word(n) || n == b'>') =>
            {
                self.push(Frame::JsxTag);
                self.i += 1;
            }
            b'<' => {
                let at = self.i;
                self.tally.angle_open(|| at);
                self.i += 1;
                self.operator();
            }
            b'>' => {
                self.tally.angle_close();
                self.i += 1;
                self.operator();
            }
            b'=' if next == Some(b'>') => {
                self.piece();
                self.i += 2;
                self.operator();
                // An arrow's `{` is its body, a block.
                self.stmt_start = true;
            }
            b'+' | b'-' if next == Some(c) => {
                self.piece();
                self.i += 2;
                // Postfix after an operand (`a++ / b` divides), prefix otherwise.
                if self.expr_start {
                    self.operator();
                }
            }
            c if is_word(c) => self.word(),
            _ => {
                self.piece();
                self.i += 1;
                self.operator();
            }
        }
    }

    fn template(&mut self) {
        match self.b[self.i] {
            b'`' => {
                self.pop();
                self.i += 1;
                self.operand();
            }
            b'\\' => self.i += 2,
            b'$' if self.at(self.i + 1) == Some(b'{') => {
                self.push(Frame::Interp);
                self.i += 2;
                self.operator();
            }
            _ => self.i += 1,
        }
        self.i = self.i.min(self.b.len());
    }

    fn jsx_tag(&mut self) {
        let c = self.b[self.i];
        match c {
            b'>' => {
                self.pop();
                self.push(Frame::JsxChildren);
                self.i += 1;
            }
            b'/' if self.at(self.i + 1) == Some(b'>') => {
                self.pop();
                self.i += 2;
                self.element_done();
            }
            b'{' => {
                self.push(Frame::JsxExpr);
                self.i += 1;
                self.operator();
            }
            b'<' => {
                self.push(Frame::JsxTag);
                self.i += 1;
            }
            b'"' | b'\'' => {
                // Attribute strings have no escapes and may span lines.
                self.piece();
                self.skip_past(self.i + 1, &[c]);
            }
            c if is_word(c) => {
                self.piece();
                while self.at(self.i).is_some_and(is_word) {
                    self.i += 1;
                }
            }
            _ => self.i += 1,
        }
    }

    fn jsx_children(&mut self) {
        match self.b[self.i] {
            b'<' if self.at(self.i + 1) == Some(b'/') => {
                self.skip_past(self.i + 2, b">");
                self.pop();
                self.element_done();
            }
            b'<' => {
                self.push(Frame::JsxTag);
                self.i += 1;
            }
            b'{' => {
                self.push(Frame::JsxExpr);
                self.i += 1;
                self.operator();
            }
            _ => self.i += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::estimate;

    fn depth(s: &str) -> usize {
        estimate(s, true).depth
    }

    #[test]
    fn every_shape_of_nesting_counts() {
        let n = 500;
        assert!(depth(&format!("x = {}1{}", "(".repeat(n), ")".repeat(n))) > n);
        assert!(depth(&format!("a{}", ".b()".repeat(n))) > n);
        assert!(depth(&format!("x = {}0", "(a, b) => ".repeat(n))) > n);
        assert!(depth(&format!("x = {}0", "a => ".repeat(n))) > n);
        assert!(depth(&format!("x = {}0", "!".repeat(n))) > n);
        assert!(depth(&format!("x = {}0", "typeof ".repeat(n))) > n);
        assert!(depth(&format!("x = {}0", "a ? b : ".repeat(n))) > n);
        assert!(depth(&format!("let x: {}u{};", "A<x, ".repeat(n), ">".repeat(n))) > n);
        assert!(
            depth(&format!(
                "let x: {}u{};",
                "A<(a) => b, ".repeat(n),
                ">".repeat(n)
            )) > n
        );
        assert!(depth(&format!("x = {}0{}", "`a, ${".repeat(n), "}`".repeat(n))) > n);
        assert!(depth(&format!("x = {}{}", "<a>, ".repeat(n), "</a>".repeat(n))) > n);
        assert!(
            depth(&format!(
                "x = {}{}",
                "<a b=\")\">)".repeat(n),
                "</a>".repeat(n)
            )) > n
        );
        assert!(depth(&format!("x = {}0;", "a + \",\" + ".repeat(n))) > n);
        assert!(depth(&format!("x = (a) => {}0", "')' + ((a) => ".repeat(n))) > n);
        assert!(depth(&format!("x = {}0;", "a + /)/ + ".repeat(n))) > n);
        assert!(depth(&format!("x = {}0;", "a++ / (".repeat(n))) > n);
        assert!(
            depth(&format!(
                "f() {{ {} }}",
                "if (a) {} /}/; function g() {".repeat(n)
            )) > n
        );
    }

    #[test]
    fn flat_code_stays_shallow() {
        assert!(depth(&format!("x = [{}]", "-1, ".repeat(10_000))) < 10);
        assert!(depth(&format!("x = [{}]", "'a, b', ".repeat(10_000))) < 10);
        assert!(depth(&"let a = b < c;\n".repeat(10_000)) < 10);
        assert!(depth(&"x = <a>{b}, c</a>;\n".repeat(10_000)) < 10);
        assert!(depth(&"y = (a + b) / 2;\n".repeat(10_000)) < 10);
        assert!(depth("// ((((((((((((\nx = '((((((((((((';") < 5);
        // Declarations one after another, with no `;` between them.
        assert!(depth(&"function f(a) { return a + 1 }\n".repeat(10_000)) < 20);
        assert!(depth(&"export class C { m() { return 1 } }\n".repeat(10_000)) < 20);
        assert!(depth(&"if (a) { b() }\nconst x = 1\n".repeat(10_000)) < 20);
    }

    #[test]
    fn a_block_does_not_end_a_chain_that_goes_on() {
        // A ternary chain whose branches are functions nests in the parser: it is counted.
        let n = 500;
        assert!(depth(&format!("x = {}0", "c ? function () {} : ".repeat(n))) > n);
    }
}
