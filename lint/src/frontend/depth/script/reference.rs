//! The scanner of `script.rs` as it was before it was made faster (issue 32 item 1, the fifth
//! round), kept verbatim but for this paragraph, its `use` paths and its unit tests (which
//! `script.rs` keeps): the reference the faster scanner must agree with on every text, in both
//! JSX readings (`script::tests::the_scanner_agrees_with_its_reference`). The estimate guards
//! the parse against stack overflows (issues 11 and 19), so a faster scanner may change no
//! result. Compiled for tests only.
//!
//! The depth estimate over TypeScript and JavaScript. oxc's lexer is private, so this scanner
//! reads the tokens that matter the way oxc reads them: strings, comments, regular expressions
//! (told from division by the token before, as a lexer does: after `)` of `if`/`while`/`for`/
//! `with` and after the `}` of a statement a `/` starts one), template literals with their
//! `${…}` nesting, and JSX (tags, attribute strings, children text and `{…}` containers), so
//! that no bracket, `,` or `;` inside any of them is taken for the code's.
//!
//! Whether a `}` ends a statement or an operand decides what a `/` after it is, so every `{`
//! records which it opens: a block (of a statement, a declaration, an arrow's body: a `/` after
//! it starts a regular expression) or an operand (an object literal, the body of a `class` or
//! `function` *expression*: a `/` after it divides). A misreading still never hides nesting:
//! the brackets inside what is read as a regular expression count at their peak, and those it
//! leaves open when it is no regular expression a parser would accept stay counted until the
//! statement or the enclosing bracket ends (see [`Scanner::regex`]).
//!
//! Code without semicolons (upstream's style) ends its statements at line breaks: a line break
//! after a token that can end an expression, before one that cannot continue it, ends the
//! statement's estimate as a `;` does (see [`Scanner::asi`]); one before an operator, `.`, `(`,
//! `[` or a template continues it, so an expression spread over lines counts every level.

use crate::frontend::depth::Nesting;
use crate::frontend::depth::tally::{Ended, Tally};

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
    /// `{…}`: `block` when statements (or class members) are inside, `operand` when its `}`
    /// ends an operand (an object literal, a class or function expression's body).
    Brace {
        block: bool,
        operand: bool,
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
    /// The last token was `=>`: a `{` is the arrow's body, a `function` or `class` an
    /// expression.
    arrow: bool,
    /// The last token was a modifier of a declaration (`export`, `default`, `declare`,
    /// `abstract`, `async` where a declaration may start): a `function` or `class` is one.
    modifier: bool,
    /// The last token was `.` or `?.`: a word is a property name, never a keyword.
    dot: bool,
    /// The headers of `class` and `function` not yet at their body, innermost last.
    headers: Vec<Header>,
    /// The frame depth of a `case` whose `:` is still to come.
    case_at: Option<usize>,
    /// The last token can end an expression (an identifier, a literal, `)`, `]`, `}`, a
    /// postfix `++`): a line break after it may end the statement ([`Scanner::asi`]).
    ends: bool,
    /// The last token was `return`: a line break after it ends the statement, whatever follows.
    restricted: bool,
    /// A line break since the last token (in white space or a comment).
    newline: bool,
    /// What the last token, a `;`, ended: an `else` after it resumes the statement.
    ended: Option<Ended>,
}

/// A `class` or `function` header, from its keyword to its body's `{`.
#[derive(Debug, Clone, Copy)]
struct Header {
    /// `frames.len()` at the keyword: its body's `{` is opened at the same depth.
    depth: usize,
    class: bool,
    /// An expression (its body's `}` ends an operand), not a declaration.
    operand: bool,
    /// `<` of type parameters and arguments not yet closed (a `{` inside is a type).
    angles: usize,
    /// A function's parameter list is closed (a class has none).
    params: bool,
}

/// Words that may precede a declaration without ending the position where one starts.
const MODIFIERS: &[&[u8]] = &[b"export", b"default", b"declare", b"abstract", b"async"];

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

/// Words that, after a token that can end an expression, may still continue it (or the
/// statement) on the next line: a line break before one of them never ends the statement.
/// (`as` and `satisfies` may not follow a line break in TypeScript; counting on is the safe
/// side.)
const CONTINUING_WORDS: &[&[u8]] = &[
    b"in",
    b"instanceof",
    b"of",
    b"as",
    b"satisfies",
    b"extends",
    b"implements",
    b"is",
    b"else",
    b"catch",
    b"finally",
    b"while",
];

/// Words read as operands that cannot end an expression: TypeScript's type operators, the
/// keywords of a header still to come (`keyof\nkeyof\n…` nests; `function\nf() {}` is one
/// declaration), and modifiers a lenient parser may join across a line break (`async\na =>`,
/// `abstract\nnew () => T`): counting on is the safe side.
const OPEN_WORDS: &[&[u8]] = &[
    b"as",
    b"satisfies",
    b"keyof",
    b"readonly",
    b"infer",
    b"unique",
    b"is",
    b"asserts",
    b"implements",
    b"function",
    b"class",
    b"async",
    b"abstract",
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
        arrow: false,
        modifier: false,
        dot: false,
        headers: Vec::new(),
        case_at: None,
        ends: false,
        restricted: false,
        newline: false,
        ended: None,
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

/// The word that starts at `i` (empty if none does).
fn word_at(b: &[u8], i: usize) -> &[u8] {
    let end = b[i..]
        .iter()
        .position(|&c| !is_word(c))
        .map_or(b.len(), |n| i + n);
    &b[i..end]
}

impl Scanner<'_> {
    fn at(&self, i: usize) -> Option<u8> {
        self.b.get(i).copied()
    }

    fn operand(&mut self) {
        self.ends = true;
        self.restricted = false;
        self.expr_start = false;
        self.stmt_start = false;
        self.keyword_paren = false;
        self.arrow = false;
        self.modifier = false;
        self.dot = false;
    }

    fn operator(&mut self) {
        self.ends = false;
        self.restricted = false;
        self.expr_start = true;
        self.stmt_start = false;
        self.keyword_paren = false;
        self.arrow = false;
        self.modifier = false;
        self.dot = false;
    }

    /// The header being read at the current depth, if any.
    fn header(&mut self) -> Option<&mut Header> {
        let depth = self.frames.len();
        self.headers.last_mut().filter(|h| h.depth == depth)
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
        // A header that never reached its body ends with the bracket around it.
        let depth = self.frames.len();
        while self.headers.last().is_some_and(|h| h.depth > depth) {
            self.headers.pop();
        }
    }

    fn piece(&mut self) {
        let at = self.i;
        self.tally.piece(|| at);
    }

    /// Skips to just past the first `end` at or after `from`, or to the end of the text.
    fn skip_past(&mut self, from: usize, end: &[u8]) {
        // A SIMD search: comments are most of the bytes of a documented file.
        let from = from.min(self.b.len());
        self.i = memchr::memmem::find(&self.b[from..], end)
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

    /// A regular expression from its `/`. If the `/` was a division misread (a `}` taken for
    /// a statement's end), its "body" is code whose nesting a parser recurses on, so the
    /// brackets in it count: their peak for the moment, and when the body is no regular
    /// expression a parser would take (unterminated on its line, or its groups unbalanced —
    /// never so in a valid one), the brackets it leaves open stay counted until the statement
    /// or the enclosing bracket ends, and the next closers close them, not the scanner's own
    /// levels (which would then be under-counted).
    fn regex(&mut self) {
        self.piece();
        let start = self.i;
        let mut i = self.i + 1;
        let mut class = false;
        let mut terminated = false;
        // Every bracket, as code would open and close them.
        let (mut open, mut peak) = (0usize, 0usize);
        // Groups outside a character class: a valid pattern balances them.
        let (mut groups, mut balanced) = (0usize, true);
        while let Some(c) = self.at(i) {
            i += 1;
            match c {
                b'\\' => i += 1,
                b'/' if !class => {
                    terminated = true;
                    break;
                }
                b'\n' => break,
                b'(' | b'[' | b'{' => {
                    open += 1;
                    peak = peak.max(open);
                }
                b')' | b']' | b'}' => open = open.saturating_sub(1),
                _ => {}
            }
            match c {
                b'[' => class = true,
                b']' => class = false,
                b'(' if !class => groups += 1,
                b')' if !class => match groups.checked_sub(1) {
                    Some(g) => groups = g,
                    None => balanced = false,
                },
                _ => {}
            }
        }
        self.tally.peak(peak, || start);
        if !terminated || !balanced || groups > 0 {
            self.tally.ghosts(open, || start);
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
        if std::mem::take(&mut self.dot) {
            // A property name, whatever it spells.
            self.operand();
            return;
        }
        // Where a statement starts (not an arrow's body), `function` and `class` declare.
        let declaration = (self.stmt_start && !self.arrow) || self.modifier;
        if matches!(word, b"function" | b"class") {
            self.headers.push(Header {
                depth: self.frames.len(),
                class: word == b"class",
                operand: !declaration,
                angles: 0,
                params: word == b"class",
            });
        }
        let prefix = PREFIX_WORDS.iter().any(|w| w.as_bytes() == word);
        if word == b"default" && self.next_is(b':') {
            // `default:` of a `switch`: a statement follows.
            self.operand();
            self.case_at = Some(self.frames.len());
        } else if word == b"default" {
            // `export default`: an expression or a declaration follows.
            self.operator();
            self.modifier = true;
        } else if prefix {
            self.operator();
            self.restricted = word == b"return";
            self.keyword_paren = matches!(word, b"if" | b"while" | b"for" | b"with");
            self.stmt_start = matches!(word, b"else" | b"do" | b"try" | b"finally");
            if word == b"case" {
                self.case_at = Some(self.frames.len());
            }
        } else {
            self.operand();
            self.modifier = declaration && MODIFIERS.contains(&word);
            self.ends = !OPEN_WORDS.contains(&word);
        }
    }

    /// A line break before the token at `c`: under automatic semicolon insertion (ECMAScript
    /// 12.10) it ends the statement, as a `;` would, when the token before can end an
    /// expression and this one cannot continue it: an identifier or keyword (but those of
    /// [`CONTINUING_WORDS`]), a number, a string, a private name, or `++`/`--` (a restricted
    /// production: `a\n++b` is `a; ++b`) — or whatever follows `return`. Every token that may
    /// continue an expression across the break (an operator, `.`, `?.`, `(`, `[`, a template,
    /// `<`, `/`) keeps the statement going, so `a\n+ a\n+ …` and `f\n(1)\n(2)…` count every
    /// level. Only in a block, a brace or at the top level (never inside `(…)` or `[…]`), and
    /// never while brackets of a misread regular expression are open (they stay counted).
    fn asi(&mut self, c: u8, next: Option<u8>) {
        if !matches!(self.frames.last(), None | Some(Frame::Brace { .. })) || self.tally.ghosted() {
            return;
        }
        let starts = match c {
            b'0'..=b'9' | b'\'' | b'"' => true,
            b'+' | b'-' => next == Some(c),
            b'#' => next.is_some_and(is_word),
            c if is_word(c) => !CONTINUING_WORDS.contains(&word_at(self.b, self.i)),
            _ => false,
        };
        if self.restricted || (self.ends && starts) {
            self.tally.semicolon();
            let depth = self.frames.len();
            while self.headers.last().is_some_and(|h| h.depth >= depth) {
                self.headers.pop();
            }
            self.operator();
            self.stmt_start = true;
        }
    }

    /// Whether the next character that is not a space is `c`.
    fn next_is(&self, c: u8) -> bool {
        self.b[self.i..]
            .iter()
            .find(|b| !b.is_ascii_whitespace())
            .is_some_and(|&b| b == c)
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
        if !blank
            && let Some(ended) = self.ended.take()
            && word_at(self.b, self.i) == b"else"
        {
            // `if (a) b; else if (c) d; else …` is one statement, nested once per `else if`.
            self.tally.resume(ended);
        }
        if !blank && std::mem::take(&mut self.newline) {
            self.asi(c, next);
        }
        if !blank && std::mem::take(&mut self.after_block) && is_word(c) {
            let word = word_at(self.b, self.i);
            if STATEMENT_WORDS.iter().any(|w| w.as_bytes() == word) {
                self.tally.semicolon();
            }
        }
        match c {
            c if c.is_ascii_whitespace() => {
                self.newline |= matches!(c, b'\n' | b'\r');
                self.i += 1;
            }
            b'/' if next == Some(b'/') => {
                self.skip_past(self.i + 2, b"\n");
                self.newline = true;
            }
            b'/' if next == Some(b'*') => {
                let from = self.i + 2;
                self.skip_past(from, b"*/");
                // A comment with a line break in it is a line break (ECMAScript 12.4).
                let text = &self.b[from.min(self.i)..self.i];
                self.newline |= text.iter().any(|&b| matches!(b, b'\n' | b'\r'));
            }
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
                let expr_start = self.expr_start;
                let frame = match self.header() {
                    // A class's body is its first `{` outside type arguments; a function's
                    // the first after its parameters that does not begin a return type.
                    Some(h) if h.angles == 0 && (h.class || (h.params && !expr_start)) => {
                        let operand = h.operand;
                        self.headers.pop();
                        Frame::Brace {
                            block: true,
                            operand,
                        }
                    }
                    _ => {
                        let expr = self.expr_start && !(self.stmt_start || self.arrow);
                        Frame::Brace {
                            block: !expr,
                            operand: expr,
                        }
                    }
                };
                self.push(frame);
                self.i += 1;
                self.operator();
                self.stmt_start = matches!(frame, Frame::Brace { block: true, .. });
            }
            b')' | b']' | b'}' if self.tally.close_ghost() => {
                // It closes a bracket opened in a misread regular expression.
                self.i += 1;
                self.operand();
            }
            b')' => {
                let keyword = match self.frames.last() {
                    Some(&Frame::Paren { keyword }) => {
                        self.pop();
                        keyword
                    }
                    _ => false,
                };
                if let Some(h) = self.header() {
                    h.params = true;
                }
                self.i += 1;
                self.operand();
                if keyword {
                    // `if (a)\nif (b)\n…` nests: the statement goes on after the line break.
                    self.ends = false;
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
                match frame {
                    Some(Frame::Brace { operand: false, .. }) => {
                        self.expr_start = true;
                        self.stmt_start = true;
                        self.after_block = true;
                    }
                    // A class or function expression: a statement word after it still
                    // starts a new statement.
                    Some(Frame::Brace { block: true, .. }) => self.after_block = true,
                    _ => {}
                }
            }
            b',' => {
                self.tally.comma();
                self.i += 1;
                self.operator();
            }
            b';' => {
                self.ended = Some(self.tally.end_statement());
                let depth = self.frames.len();
                while self.headers.last().is_some_and(|h| h.depth >= depth) {
                    self.headers.pop();
                }
                self.i += 1;
                self.operator();
                self.stmt_start = true;
            }
            b':' if self.case_at == Some(self.frames.len()) => {
                // The end of a `case …:` or `default:` label: a statement follows.
                self.case_at = None;
                self.piece();
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
                if let Some(h) = self.header() {
                    h.angles += 1;
                }
                self.i += 1;
                self.operator();
            }
            b'>' => {
                self.tally.angle_close();
                self.i += 1;
                // In a header, `>` closes type arguments (`Promise<T> {` opens the body).
                match self.header() {
                    Some(h) if h.angles > 0 => {
                        h.angles -= 1;
                        self.operand();
                    }
                    _ => self.operator(),
                }
            }
            b'=' if next == Some(b'>') => {
                self.piece();
                self.i += 2;
                self.operator();
                // An arrow's `{` is its body, a block; its `class` or `function` an
                // expression.
                self.stmt_start = true;
                self.arrow = true;
            }
            b'+' | b'-' if next == Some(c) => {
                self.piece();
                self.i += 2;
                // Postfix after an operand (`a++ / b` divides), prefix otherwise.
                if self.expr_start {
                    self.operator();
                } else {
                    self.ends = true;
                }
            }
            c if is_word(c) => self.word(),
            _ => {
                // `.` and `?.` before a property name; not the dots of a spread.
                let dot = c == b'.' && next != Some(b'.') && self.b[..self.i].last() != Some(&b'.');
                self.piece();
                self.i += 1;
                self.operator();
                self.dot = dot;
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
