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

use super::Nesting;
use super::tally::{Ended, Tally};

#[cfg(test)]
mod reference;

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

/// What a word is to the scanner: a set of the flags below, found once per word by
/// [`kind`] (a match on its length, then its bytes) rather than by searching word lists.
type Kind = u8;

/// An expression starts after it (a `/` begins a regular expression, `<` a JSX element, `{`
/// an object literal): `return`, `typeof`, `instanceof`, `in`, `of`, `new`, `delete`, `void`,
/// `throw`, `case`, `do`, `else`, `yield`, `await`, `extends`, `if`, `while`, `for`, `with`,
/// `try`, `finally`.
const PREFIX: Kind = 1;

/// It begins a statement or declaration and can never continue an expression: after a block,
/// it starts a new statement, which ends what the level held as a `;` does (a file of
/// thousands of functions without semicolons is flat, not deep): `function`, `class`,
/// `const`, `let`, `var`, `if`, `for`, `switch`, `try`, `return`, `throw`, `import`, `export`,
/// `interface`, `type`, `enum`, `declare`, `namespace`, `module`, `abstract`, `async`,
/// `break`, `continue`, `debugger`. Words that can continue an expression (`as`, `in`,
/// `instanceof`, `satisfies`, `of`, `from`, `else`, `catch`, `finally`, `while` of a `do`)
/// are not.
const STATEMENT: Kind = 2;

/// After a token that can end an expression, it may still continue it (or the statement) on
/// the next line: a line break before it never ends the statement. `in`, `instanceof`, `of`,
/// `as`, `satisfies`, `extends`, `implements`, `is`, `else`, `catch`, `finally`, `while`. (`as`
/// and `satisfies` may not follow a line break in TypeScript; counting on is the safe side.)
const CONTINUING: Kind = 4;

/// It may precede a declaration without ending the position where one starts: `export`,
/// `default`, `declare`, `abstract`, `async`.
const MODIFIER: Kind = 8;

/// Read as an operand, it cannot end an expression: TypeScript's type operators, the keywords
/// of a header still to come (`keyof\nkeyof\n…` nests; `function\nf() {}` is one
/// declaration), and modifiers a lenient parser may join across a line break (`async\na =>`,
/// `abstract\nnew () => T`): counting on is the safe side. `as`, `satisfies`, `keyof`,
/// `readonly`, `infer`, `unique`, `is`, `asserts`, `implements`, `function`, `class`, `async`,
/// `abstract`.
const OPEN: Kind = 16;

/// The flags of `word` (0 for an identifier that is none of the words above).
fn kind(word: &[u8]) -> Kind {
    match word.len() {
        2 => match word {
            b"in" | b"of" => PREFIX | CONTINUING,
            b"do" => PREFIX,
            b"if" => PREFIX | STATEMENT,
            b"as" | b"is" => CONTINUING | OPEN,
            _ => 0,
        },
        3 => match word {
            b"new" => PREFIX,
            b"for" | b"try" => PREFIX | STATEMENT,
            b"let" | b"var" => STATEMENT,
            _ => 0,
        },
        4 => match word {
            b"void" | b"case" | b"with" => PREFIX,
            b"else" => PREFIX | CONTINUING,
            b"type" | b"enum" => STATEMENT,
            _ => 0,
        },
        5 => match word {
            b"yield" | b"await" => PREFIX,
            b"while" => PREFIX | CONTINUING,
            b"throw" => PREFIX | STATEMENT,
            b"class" => STATEMENT | OPEN,
            b"const" | b"break" => STATEMENT,
            b"async" => STATEMENT | MODIFIER | OPEN,
            b"catch" => CONTINUING,
            b"keyof" | b"infer" => OPEN,
            _ => 0,
        },
        6 => match word {
            b"return" => PREFIX | STATEMENT,
            b"typeof" | b"delete" => PREFIX,
            b"switch" | b"import" | b"module" => STATEMENT,
            b"export" => STATEMENT | MODIFIER,
            b"unique" => OPEN,
            _ => 0,
        },
        7 => match word {
            b"extends" | b"finally" => PREFIX | CONTINUING,
            b"declare" => STATEMENT | MODIFIER,
            b"default" => MODIFIER,
            b"asserts" => OPEN,
            _ => 0,
        },
        8 => match word {
            b"function" => STATEMENT | OPEN,
            b"continue" | b"debugger" => STATEMENT,
            b"abstract" => STATEMENT | MODIFIER | OPEN,
            b"readonly" => OPEN,
            _ => 0,
        },
        9 => match word {
            b"interface" | b"namespace" => STATEMENT,
            b"satisfies" => CONTINUING | OPEN,
            _ => 0,
        },
        10 => match word {
            b"instanceof" => PREFIX | CONTINUING,
            b"implements" => CONTINUING | OPEN,
            _ => 0,
        },
        _ => 0,
    }
}

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

/// What each byte is: [`WORD`], [`BLANK`] (ASCII white space), [`BREAK`] (a line break).
static CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        if b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80 {
            table[c] = WORD;
        }
        if b.is_ascii_whitespace() {
            table[c] = BLANK;
        }
        if b == b'\n' || b == b'\r' {
            table[c] |= BREAK;
        }
        c += 1;
    }
    table
};

/// A byte of a word: an ASCII letter or digit, `_`, `$`, or any byte of a non-ASCII character.
const WORD: u8 = 1;
/// ASCII white space (`u8::is_ascii_whitespace`).
const BLANK: u8 = 2;
/// `\n` or `\r`.
const BREAK: u8 = 4;

fn is_word(c: u8) -> bool {
    CLASS[usize::from(c)] & WORD != 0
}

/// The end of the word that starts at `i` (`i` if none does).
fn word_end(b: &[u8], i: usize) -> usize {
    // Over the slice's iterator: no bounds check per byte.
    let rest = b.get(i..).unwrap_or_default();
    i + rest.iter().position(|&c| !is_word(c)).unwrap_or(rest.len())
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
    fn skip_past(&mut self, from: usize, end: u8) {
        // A SIMD search: comments are most of the bytes of a documented file.
        let from = from.min(self.b.len());
        self.i = memchr::memchr(end, &self.b[from..]).map_or(self.b.len(), |p| from + p + 1);
    }

    /// Skips to just past the first `*/` at or after `from`, or to the end of the text: a
    /// SIMD search for each `/` (rare in a comment), cheaper than building a substring
    /// searcher for every comment.
    fn skip_comment(&mut self, from: usize) {
        let from = from.min(self.b.len());
        let mut p = from;
        while let Some(q) = memchr::memchr(b'/', &self.b[p..]) {
            let slash = p + q;
            if slash > from && self.b[slash - 1] == b'*' {
                self.i = slash + 1;
                return;
            }
            p = slash + 1;
        }
        self.i = self.b.len();
    }

    /// A string literal from its opening quote: ends at the same quote or, unterminated, at
    /// the end of the line.
    fn string(&mut self, quote: u8) {
        self.piece();
        let mut i = self.i + 1;
        // Only the quote, `\` and a line break matter: a SIMD search from one to the next.
        loop {
            let rest = self.b.get(i..).unwrap_or_default();
            let Some(p) = memchr::memchr3(quote, b'\\', b'\n', rest) else {
                // Unterminated at the end of the text.
                i = self.b.len();
                break;
            };
            i += p + 1;
            if self.b[i - 1] != b'\\' {
                break;
            }
            // An escape: the next byte, whatever it is, is part of the string.
            i += 1;
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

    /// The word from `self.i` to `end`, of [`kind`] `kind`.
    fn word(&mut self, end: usize, kind: Kind) {
        self.piece();
        let start = self.i;
        self.i = end;
        let word = &self.b[start..end];
        // A property name, whatever it spells; or an identifier (or number) that is none of
        // the words the scanner knows.
        if std::mem::take(&mut self.dot) || kind == 0 {
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
        let prefix = kind & PREFIX != 0;
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
            self.modifier = declaration && kind & MODIFIER != 0;
            self.ends = kind & OPEN == 0;
        }
    }

    /// A line break before the token at `c`: under automatic semicolon insertion (ECMAScript
    /// 12.10) it ends the statement, as a `;` would, when the token before can end an
    /// expression and this one cannot continue it: an identifier or keyword (but those of
    /// [`CONTINUING`]), a number, a string, a private name, or `++`/`--` (a restricted
    /// production: `a\n++b` is `a; ++b`) — or whatever follows `return`. Every token that may
    /// continue an expression across the break (an operator, `.`, `?.`, `(`, `[`, a template,
    /// `<`, `/`) keeps the statement going, so `a\n+ a\n+ …` and `f\n(1)\n(2)…` count every
    /// level. Only in a block, a brace or at the top level (never inside `(…)` or `[…]`), and
    /// never while brackets of a misread regular expression are open (they stay counted).
    /// `kind` is the [`kind`] of the word at `c`, if one starts there.
    fn asi(&mut self, c: u8, next: Option<u8>, kind: Kind) {
        if !matches!(self.frames.last(), None | Some(Frame::Brace { .. })) || self.tally.ghosted() {
            return;
        }
        let starts = match c {
            b'0'..=b'9' | b'\'' | b'"' => true,
            b'+' | b'-' => next == Some(c),
            b'#' => next.is_some_and(is_word),
            c if is_word(c) => kind & CONTINUING == 0,
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

    /// White space: the whole run at once (it changes nothing but [`Scanner::newline`]).
    fn blanks(&mut self) {
        let rest = self.b.get(self.i..).unwrap_or_default();
        let mut classes = 0;
        // Over the slice's iterator: no bounds check per byte.
        let run = rest
            .iter()
            .position(|&c| {
                let class = CLASS[usize::from(c)];
                classes |= class;
                class & BLANK == 0
            })
            .unwrap_or(rest.len());
        // `classes` has the class of the byte after the run too: only a blank one has BREAK.
        self.newline |= classes & BREAK != 0;
        self.i += run;
    }

    /// Tokens of code, one after the other, as long as the innermost frame stays one of code:
    /// back to [`estimate`]'s loop (which looks at the frame) only after a token that may
    /// change that — a `` ` `` (a template), a `<` (JSX), a `}` (of `${…}` or JSX `{…}`) — or
    /// at the end of the text.
    fn code(&mut self) {
        while self.token() {}
    }

    /// The next token of code, after the white space and comments before it (which change
    /// nothing but [`Scanner::newline`], so they are skipped here rather than one by one from
    /// [`estimate`]'s loop). Whether the tokens after it are still code for [`Scanner::code`]:
    /// `false` after a `` ` ``, `<` or `}` (the frame may have changed) and at the end of the
    /// text.
    fn token(&mut self) -> bool {
        let (c, next) = loop {
            let Some(&c) = self.b.get(self.i) else {
                return false;
            };
            if CLASS[usize::from(c)] & BLANK != 0 {
                self.blanks();
                continue;
            }
            let next = self.at(self.i + 1);
            match (c, next) {
                (b'/', Some(b'/')) => {
                    self.skip_past(self.i + 2, b'\n');
                    self.newline = true;
                }
                (b'/', Some(b'*')) => {
                    let from = self.i + 2;
                    self.skip_comment(from);
                    // A comment with a line break in it is a line break (ECMAScript 12.4).
                    let text = &self.b[from.min(self.i)..self.i];
                    self.newline |= memchr::memchr2(b'\n', b'\r', text).is_some();
                }
                _ => break (c, next),
            }
        };
        // A token: the word it is, if it is one, is read once for all that asks.
        let word = is_word(c);
        let (end, kind) = if word {
            let end = word_end(self.b, self.i);
            (end, kind(&self.b[self.i..end]))
        } else {
            (self.i, 0)
        };
        // (Taken only when set: moving the level out for every token costs.)
        if self.ended.is_some()
            && let Some(ended) = self.ended.take()
            && &self.b[self.i..end] == b"else"
        {
            // `if (a) b; else if (c) d; else …` is one statement, nested once per `else if`.
            self.tally.resume(ended);
        }
        if std::mem::take(&mut self.newline) {
            self.asi(c, next, kind);
        }
        if std::mem::take(&mut self.after_block) && kind & STATEMENT != 0 {
            self.tally.semicolon();
        }
        if word {
            // The most frequent token, before the dispatch on the others' first byte.
            self.word(end, kind);
            return true;
        }
        match c {
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
            _ => {
                // `.` and `?.` before a property name; not the dots of a spread.
                let dot = c == b'.' && next != Some(b'.') && self.b[..self.i].last() != Some(&b'.');
                self.piece();
                self.i += 1;
                self.operator();
                self.dot = dot;
            }
        }
        // A template, JSX or the end of `${…}` or `{…}` may have changed the frame.
        !matches!(c, b'`' | b'<' | b'}')
    }

    fn template(&mut self) {
        // Only `` ` ``, `\` and `$` matter in a template's text: a SIMD search to the next.
        match memchr::memchr3(b'`', b'\\', b'$', &self.b[self.i..]) {
            Some(p) => self.i += p,
            None => {
                self.i = self.b.len();
                return;
            }
        }
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
                self.skip_past(self.i + 1, c);
            }
            c if is_word(c) => {
                self.piece();
                self.i = word_end(self.b, self.i);
            }
            _ => self.i += 1,
        }
    }

    fn jsx_children(&mut self) {
        // Only `<` and `{` matter in children text: a SIMD search to the next.
        match memchr::memchr2(b'<', b'{', &self.b[self.i..]) {
            Some(p) => self.i += p,
            None => {
                self.i = self.b.len();
                return;
            }
        }
        match self.b[self.i] {
            b'<' if self.at(self.i + 1) == Some(b'/') => {
                self.skip_past(self.i + 2, b'>');
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
    use super::{estimate, reference};
    use crate::test_rng::Rng;

    /// The tokens the scanner tells apart, and pieces of them: every word it knows (and near
    /// misses), brackets, strings with escapes, comments, regular expressions, templates and
    /// their `${`, JSX, separators, line breaks and other white space, non-ASCII text.
    const PIECES: &[&str] = &[
        "(",
        ")",
        "[",
        "]",
        "{",
        "}",
        "<",
        ">",
        "</",
        "/>",
        "<>",
        "</>",
        "'",
        "\"",
        "`",
        "${",
        "$",
        "\\",
        "\\\\",
        "/",
        "//",
        "/*",
        "*/",
        "*",
        ",",
        ";",
        ":",
        "?",
        ".",
        "?.",
        "...",
        "=>",
        "=",
        "==",
        "++",
        "--",
        "+",
        "-",
        "!",
        "#",
        "#a",
        "@",
        "&&",
        "|",
        " ",
        "  ",
        "\t",
        "\n",
        "\r",
        "\r\n",
        "\x0c",
        "\x0b",
        "\u{2028}",
        "\u{a0}",
        "é",
        "中",
        "a",
        "b1",
        "$x",
        "_",
        "0",
        "1.5",
        "0x1F",
        "a.b",
        "from",
        "get",
        "Else",
        "iff",
        "classes",
        "defaults",
        "return_",
        "x_if",
        "'a\\'b'",
        "\"(\\\"\"",
        "'\\\n'",
        "'a\n",
        "\"a",
        "// (x\n",
        "/* a\n b */",
        "/* ( */",
        "/**/",
        "/[(]/g",
        "/\\//",
        "/(/",
        "/)/",
        "/[/",
        "/a/.test(b)",
        "`a${",
        "}`",
        "`x`",
        "`\\`",
        "${}",
        "<a>",
        "<a b=\"c\">",
        "<a b='c\n'>",
        "</a>",
        "<a/>",
        "<a {...b}>",
        "<div>text, ;</div>",
        "if (a) ",
        "else ",
        "else if (a) ",
        "function f() ",
        "function (",
        "class A<T> ",
        "class {",
        "default:",
        "default :",
        "case 1:",
        "return\n",
        "export default ",
        "async function* g() {}",
        "x = ",
        "a => ",
        "(a) => {",
        "f()",
        "a\n++b",
        "a\n.b",
        "@dec ",
        // Every word of the scanner's lists.
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
        "export",
        "default",
        "declare",
        "abstract",
        "async",
        "function",
        "class",
        "const",
        "let",
        "var",
        "switch",
        "import",
        "interface",
        "type",
        "enum",
        "namespace",
        "module",
        "break",
        "continue",
        "debugger",
        "as",
        "satisfies",
        "implements",
        "is",
        "catch",
        "keyof",
        "readonly",
        "infer",
        "unique",
        "asserts",
    ];

    /// The bytes the scanner skips in runs (words, white space with and without line
    /// breaks): a run of one of them, of a length around 8, 16, 32 or 64 bytes (issue 32 item
    /// 1, sixth round: a run read in bulk must end exactly where the byte-at-a-time one did).
    const RUNS: &[&str] = &[
        "a", "Z9", "_", "$", "0", "é", " ", "\t", "\n", "\r\n", " \r",
    ];

    /// One of [`RUNS`] repeated about a block's length of times, give or take one.
    fn long_run(rng: &mut Rng) -> String {
        let times = [8, 16, 32, 64][rng.below(4)] + rng.below(3) - 1;
        rng.pick(RUNS).repeat(times)
    }

    /// A text of random pieces, some of its runs repeated (so that it nests deeply).
    fn text(rng: &mut Rng) -> String {
        let mut out = String::new();
        for _ in 0..1 + rng.below(6) {
            let run: Vec<String> = (0..1 + rng.below(8))
                .map(|_| match rng.below(8) {
                    0 => long_run(rng),
                    _ => rng.pick(PIECES).to_string(),
                })
                .collect();
            let times = if rng.below(4) == 0 {
                1 + rng.below(60)
            } else {
                1
            };
            for _ in 0..times {
                for piece in &run {
                    out.push_str(piece);
                    // Now and then a line break or space in an odd place.
                    match rng.below(12) {
                        0 => out.push('\n'),
                        1 => out.push(' '),
                        _ => {}
                    }
                }
            }
        }
        out
    }

    fn agree(text: &str, what: &str) {
        for jsx in [false, true] {
            assert_eq!(
                estimate(text, jsx),
                reference::estimate(text, jsx),
                "{what}, jsx {jsx}: {text:?}"
            );
        }
    }

    /// Issue 32 item 1 (the fifth round): the faster scanner changes no estimate — the same
    /// `Nesting { depth, at }` as the scanner it replaced (`reference`), which guards the parse
    /// against stack overflows (issues 11 and 19), on generated texts and every fixture.
    #[test]
    fn the_scanner_agrees_with_its_reference() {
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        let mut deep = 0;
        for n in 0..30_000 {
            let text = text(&mut rng);
            agree(&text, &format!("generated text {n}"));
            deep += usize::from(reference::estimate(&text, true).depth > 20);
        }
        // The generator reaches deep nesting, where a disagreement would matter most.
        assert!(deep > 1_000, "{deep} deep texts");
        let fixtures = concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures");
        let mut files = 0;
        for entry in walkdir::WalkDir::new(fixtures).sort_by_file_name() {
            let entry = entry.expect("fixtures/ is readable");
            let Ok(text) = std::fs::read_to_string(entry.path()) else {
                continue;
            };
            let what = entry.path().display().to_string();
            agree(&text, &what);
            files += 1;
            // Cut short anywhere: unterminated strings, comments, templates, JSX.
            for _ in 0..3 {
                let mut cut = rng.below(text.len() + 1);
                while !text.is_char_boundary(cut) {
                    cut -= 1;
                }
                agree(&text[..cut], &format!("{what} cut at {cut}"));
                agree(&text[cut..], &format!("{what} from {cut}"));
            }
        }
        assert!(files > 600, "{files} fixture files");
    }

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
        // Class and function expressions, declarations with modifiers, `switch` labels.
        assert!(depth(&"const f = function () { return 1 }\n".repeat(10_000)) < 20);
        assert!(depth(&"const C = class { m() { return /[(]/ } }\n".repeat(10_000)) < 20);
        assert!(depth(&"export default async function f() {}\n/a/.test(b);\n".repeat(10_000)) < 20);
        assert!(
            depth(&format!(
                "switch (a) {{ {} }}",
                "case 1: {} /a/.test(b);\n".repeat(10_000)
            )) < 20
        );
        assert!(depth(&"x = [...function () {}(), a.class, b.function];\n".repeat(10_000)) < 20);
    }

    #[test]
    fn a_line_break_that_ends_a_statement_ends_its_estimate() {
        // Semicolon-free code (automatic semicolon insertion) is as flat as with `;`.
        for line in [
            "a = b",
            "foo(x)",
            "const x = 1",
            "x++",
            "x--",
            "this.a.b = c.d",
            "const f = (a) => a + 1",
            "x = { a: 1, b: [1, 2] }",
            "x = `a${b}c`",
            "x = a / b",
            "x = /ab+c/.test(s)",
            "x = a ? b : c",
            "x = 'a'",
            "let a = b < c",
            "let a: Map<string, number[]> = new Map()",
            "a: string // a member of a type",
            "#a = 1 /* a class field,\n over lines */",
        ] {
            let text = format!("{line}\n").repeat(10_000);
            assert!(depth(&text) < 20, "{line}: {}", depth(&text));
            let block = format!("function f() {{\n{text}}}\nclass C {{\n{text}}}");
            assert!(depth(&block) < 20, "{line} in a block: {}", depth(&block));
        }
        // `return` and a line break end the statement whatever comes next.
        assert!(depth(&"function f() {\n  return\n  (a)\n}\n".repeat(10_000)) < 20);
        assert!(depth(&"x = a\n++b\n".repeat(10_000)) < 20);
    }

    #[test]
    fn a_line_break_inside_an_expression_still_counts() {
        let n = 500;
        // The next line continues the expression: an operator, `.`, `?.`, a call, an index,
        // a tagged template, an infix keyword.
        for (head, repeated) in [
            ("x = a", "\n+ a"),
            ("x = a", " +\na"),
            ("x = a", "\n.b"),
            ("x = a", "\n?.b"),
            ("x = f", "\n(1)"),
            ("x = f", "\n[1]"),
            ("x = f", "\n`a`"),
            ("x = a", "\n? b\n: a"),
            ("x = a", "\nas B"),
            ("x = a", "\nin b"),
            ("x = a", "\ninstanceof B"),
            ("type T = A", "\nextends B ? C : A"),
            ("type T = ", "keyof\n"),
            ("x = ", "typeof\n"),
            ("x = ", "new\n"),
            ("x = ", "await\n"),
            ("x = ", "!\n"),
            ("x = ", "async\na =>\n"),
            ("type T = ", "abstract\nnew () =>\n"),
            ("", "a:\n"),
            ("", "if (a)\n"),
            ("if (a) b", "\nelse if (a) b"),
            ("if (a) b", "; else if (a) b"),
            ("", "if (a) b;\nelse "),
            ("", "if (a) { b }\nelse "),
            ("", "do\n"),
        ] {
            let text = format!("{head}{}\n0\n", repeated.repeat(n));
            assert!(depth(&text) > n, "{head}{repeated:?}: {}", depth(&text));
        }
        // Inside parentheses and brackets a line break ends nothing.
        assert!(depth(&format!("x = ({}0)", "a\nb\n".repeat(n))) > n);
        assert!(depth(&format!("x = [{}0]", "a\n'b'\n".repeat(n))) > n);
    }

    #[test]
    fn a_brace_that_ends_an_operand_is_followed_by_a_division() {
        let n = 500;
        let parens = |operand: &str| format!("x = {operand} / {}0{}", "(".repeat(n), ")".repeat(n));
        for operand in [
            "class {}",
            "class A<T> extends B<T> implements C<{ a: T }> {}",
            "function () {}",
            "function (): { a: T } { return 1 }",
            "function <T>(a: T): Promise<T> { return a }",
            "async function* g() {}",
            "a => class {}",
            "{ m() {}, a: {} }",
            "`${ {} }`",
            "<a b={function () {}}>{}</a>",
        ] {
            assert!(depth(&parens(operand)) > n, "{operand}");
        }
        // `export default` takes an expression; `case …:` and `default:` a statement.
        assert!(
            depth(&format!(
                "export default {{}} / {}0{}",
                "(".repeat(n),
                ")".repeat(n)
            )) > n
        );
    }

    #[test]
    fn what_is_read_as_a_regular_expression_still_counts_its_brackets() {
        let n = 500;
        let (open, close) = ("(".repeat(n), ")".repeat(n));
        // After a statement's block a `/` starts a regular expression: if it is code instead,
        // its nesting counts, on its line and (left open) on the next.
        assert!(depth(&format!("if (a) {{}} / {open}0{close}")) > n);
        assert!(depth(&format!("if (a) {{}} / {open}\n0{close}")) > n);
        assert!(depth(&format!("if (a) {{}} / {open}0 /\n{close}")) > n);
        // The closers of what it left open close those, not the levels around it: the blocks
        // after still count from the outer ones.
        let (blocks, ends) = ("{".repeat(n), "}".repeat(n));
        assert!(
            depth(&format!(
                "{blocks}\nif (a) {{}} / {blocks}\n{ends}\n{blocks}{blocks}0{ends}{ends}{ends}"
            )) > 3 * n
        );
        // A real one costs nothing once it is over.
        assert!(depth(&"if (a) {} /[(]\\(/.test(b);\n".repeat(10_000)) < 20);
    }

    #[test]
    fn a_block_does_not_end_a_chain_that_goes_on() {
        // A ternary chain whose branches are functions nests in the parser: it is counted.
        let n = 500;
        assert!(depth(&format!("x = {}0", "c ? function () {} : ".repeat(n))) > n);
    }
}
