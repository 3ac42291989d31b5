//! The TypeScript/JavaScript front end, on oxc (`.ts .tsx .mts .cts .js .jsx .mjs .cjs`).
//!
//! Like the Rust front end, the ground truth is the text: every exact, delimited removed name
//! in the file is an occurrence. The oxc pass only decides what each one is doing (the
//! innermost syntactic context wins) and adds the uses of identifiers that stand for a
//! removed event (consts, const objects, enums, static class members, across files). A file
//! oxc cannot parse is scanned lexically, and says so.

mod fixes;
mod imports;
pub mod lex;
mod listeners;
mod references;
mod syntax;

use super::depth::{self, Syntax};
use super::{CommentText, Context, Declarations, FileAnalysis, FrontEnd, OccurrenceFix};
use crate::model::{Occurrence, Role};
use crate::source::LineIndex;
use lex::{Token, TokenKind};
use oxc_allocator::Allocator;
use oxc_ast::ast::Program;
use oxc_ast_visit::Visit;
use oxc_parser::{ParseOptions, Parser};
use oxc_span::SourceType;
use std::cell::RefCell;

/// The extensions this front end reads.
pub const EXTENSIONS: &[&str] = &["ts", "tsx", "mts", "cts", "js", "jsx", "mjs", "cjs"];

/// The TypeScript/JavaScript front end.
#[derive(Debug, Clone, Copy, Default)]
pub struct TypeScript;

thread_local! {
    // One arena per worker thread, reset between files (oxc allocates the AST in it).
    static ARENA: RefCell<Allocator> = RefCell::new(Allocator::default());
}

fn source_type(path: &str) -> SourceType {
    SourceType::from_path(path).unwrap_or_else(|_| SourceType::tsx())
}

/// Parses `src` and runs `f` on the program, or returns the offset and message of the error
/// that stopped the parser. A `.js`/`.ts` file that only parses as JSX/TSX is retried so.
/// Each parse is bounded for its own reading of the text (JSX or not): deeply nested files are
/// parsed on a stack sized for them; too deep or too large ones are refused ([`depth`]).
pub(crate) fn with_program<R: Send>(
    path: &str,
    src: &str,
    f: impl FnOnce(&Program<'_>) -> R + Send,
) -> Result<R, (usize, String)> {
    depth::too_large(src, MAX_PARSE_BYTES)?;
    let primary = source_type(path);
    let mut candidates = vec![primary];
    if !primary.is_jsx() {
        candidates.push(primary.with_jsx(true));
    }
    let mut f = Some(f);
    let mut first_error = None;
    for st in candidates {
        let nesting = depth::estimate(src, Syntax::Script { jsx: st.is_jsx() });
        match depth::guarded(nesting.depth, || parse_program(src, st, &mut f)) {
            Ok(Some(Ok(r))) => return Ok(r),
            Ok(Some(Err(e))) => {
                first_error.get_or_insert(e);
            }
            // `f` already ran: cannot happen, as a parse that succeeds returns.
            Ok(None) => break,
            Err(depth::TooDeep(message)) => {
                // Refused for this reading: the other would be as deep or fail.
                return Err(first_error.unwrap_or((nesting.at, message)));
            }
        }
    }
    Err(first_error.unwrap_or((0, "syntax error".to_owned())))
}

/// Larger files are scanned lexically: oxc's arena takes ~10–20 bytes per byte of source.
const MAX_PARSE_BYTES: usize = 16 << 20;

/// One parse of `src` as `st`; on success runs `f` (taken from its option) on the program.
/// `None` when `f` was already taken.
fn parse_program<R>(
    src: &str,
    st: SourceType,
    f: &mut Option<impl FnOnce(&Program<'_>) -> R>,
) -> Option<Result<R, (usize, String)>> {
    ARENA.with(|arena| {
        let mut arena = arena.borrow_mut();
        arena.reset();
        let ret = Parser::new(&arena, src, st)
            .with_options(ParseOptions::default())
            .parse();
        if !ret.panicked {
            return f.take().map(|f| Ok(f(&ret.program)));
        }
        let d = ret.diagnostics.iter().next();
        let mut offset = d
            .and_then(|d| d.labels.first().map(|l| l.offset() as usize))
            .unwrap_or(0)
            .min(src.len());
        while !src.is_char_boundary(offset) {
            offset -= 1;
        }
        let message = d.map_or_else(|| "syntax error".to_owned(), |d| d.message.to_string());
        Some(Err((offset, message)))
    })
}

impl FrontEnd for TypeScript {
    fn name(&self) -> &'static str {
        "typescript"
    }

    fn handles_extension(&self, extension: &std::ffi::OsStr) -> bool {
        extension.to_str().is_some_and(|e| EXTENSIONS.contains(&e))
    }

    /// Neither pass parses a file without an exact removed name or a declared identifier
    /// ([`worth_parsing`], [`may_declare`]), so the namespace prefix alone is not enough.
    fn may_hold_name(&self, src: &[u8], catalog: &crate::catalog::Catalog) -> bool {
        catalog.may_contain_name(src)
    }

    fn declarations(&self, path: &str, src: &str, cx: Context<'_>) -> Declarations {
        if !may_declare(src, cx) {
            // Not parsed; aliases that may become resolvable later still need a second look.
            return unparsed_declarations(src);
        }
        let lines = LineIndex::new(src);
        with_program(path, src, |program| {
            let scope = syntax::Scope::of(program);
            collect_declarations(program, &scope, path, cx, &lines)
        })
        .unwrap_or_else(|_| unparsed_declarations(src))
    }

    fn analyze(&self, path: &str, src: &str, cx: Context<'_>) -> FileAnalysis {
        analyze_with(path, src, cx, true)
    }

    fn declarations_and_analysis(
        &self,
        path: &str,
        src: &str,
        cx: Context<'_>,
    ) -> (Declarations, FileAnalysis) {
        declarations_and_analysis(path, src, cx)
    }

    fn pending_words(&self, src: &str) -> Vec<String> {
        lexical_pending(src)
    }

    fn syntax_errors(&self, path: &str, src: &str) -> usize {
        usize::from(parses(path, src).is_err())
    }
}

/// Pass 1's declarations in a parsed program: what [`syntax::Collector`] finds.
fn collect_declarations(
    program: &Program<'_>,
    scope: &syntax::Scope,
    path: &str,
    cx: Context<'_>,
    lines: &LineIndex<'_>,
) -> Declarations {
    let resolver = syntax::Resolver {
        symbols: cx.symbols,
        scope,
        path,
    };
    let mut c = syntax::Collector::new(cx, resolver, lines);
    c.visit_program(program);
    Declarations {
        found: c.found,
        pending: c.pending.into_iter().collect(),
        pending_later: false,
    }
}

/// Pass 1's declarations in a file that is not parsed: none, and the words that could make it
/// declare one once known ([`lexical_pending`]).
fn unparsed_declarations(src: &str) -> Declarations {
    Declarations {
        found: Vec::new(),
        pending: lexical_pending(src),
        pending_later: false,
    }
}

/// Whether `src` parses as the TypeScript/JavaScript file `path` (`Err`: offset and message).
pub fn parses(path: &str, src: &str) -> Result<(), (usize, String)> {
    with_program(path, src, |_| ())
}

/// Whether `src` can hold anything to report: an exact removed name, or an identifier that
/// stands for one. The engine's byte prefilter also admits files that only contain a
/// namespace prefix such as `agent/` (common in dependency trees: `https-proxy-agent/…`);
/// those are not worth an oxc parse.
fn worth_parsing(src: &str, cx: Context<'_>) -> bool {
    !cx.catalog.find_names(src).is_empty()
        || (!cx.symbols.is_empty() && cx.symbols.idents().any(|i| src.contains(i)))
}

/// Without a syntax tree, `ctx.on('agent/x'` is still recognisable: the string is the first
/// argument of a call whose name subscribes or emits.
fn lexical_call_role(src: &str, string_start: usize, cx: Context<'_>) -> Option<Role> {
    let before = src[..string_start].trim_end();
    let before = before.strip_suffix('(')?.trim_end();
    let name_start = before
        .char_indices()
        .rev()
        .find(|(_, c)| !(c.is_alphanumeric() || *c == '_' || *c == '$'))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let name = &before[name_start..];
    if name.is_empty() {
        return None;
    }
    syntax::call_role(cx.calls, name)
}

/// Whether pass 1 can find a declaration in `src`: a removed name assigned or given as a
/// property value (`X = 'agent/…'`, `key: 'agent/…'`, `static X = …`, `Member = …`), or an
/// identifier already known to stand for one (aliases, re-exports). Most files that mention a
/// name only use it, and skip this parse.
fn may_declare(src: &str, cx: Context<'_>) -> bool {
    if !cx.symbols.is_empty() && cx.symbols.idents().any(|i| src.contains(i)) {
        return true;
    }
    cx.catalog.find_names(src).iter().any(|m| {
        let before = src[..m.start]
            .trim_end_matches(['"', '\'', '`'])
            .trim_end_matches(|c: char| c.is_whitespace() || c == '(');
        before.ends_with('=') || before.ends_with(':')
    })
}

/// Identifiers that could make an unparsed file declare something once they are known:
/// the word before ` as ` (renamed imports and exports) and the words after `=` or `:`
/// (`const B = A`, `key: A`, `K = ns.A`). A superset is harmless: it only decides whether
/// the file is collected again.
fn lexical_pending(src: &str) -> Vec<String> {
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    // Slices of `src`, deduplicated as they come and sorted at the end: one allocation per
    // word kept, not one per word seen (a file has a `:` or `=` every few bytes), and only the
    // distinct words sorted (issue 32 item 1: sorting every word seen cost more than finding
    // them).
    let mut out: crate::hash::HashSet<&str> = crate::hash::HashSet::default();
    let bytes = src.as_bytes();
    for i in memchr::memmem::find_iter(bytes, b" as ") {
        let start = (src[..i].char_indices().rev())
            .take_while(|(_, c)| word(*c))
            .last()
            .map_or(i, |(at, _)| at);
        if start < i {
            out.insert(&src[start..i]);
        }
    }
    for i in memchr::memchr2_iter(b'=', b':', bytes) {
        if matches!(bytes.get(i + 1), Some(b'=' | b'>')) {
            continue;
        }
        let rest = src[i + 1..].trim_start();
        let end = rest
            .find(|c: char| !(word(c) || c == '.'))
            .unwrap_or(rest.len());
        for part in rest[..end].split('.') {
            if part.starts_with(|c: char| c.is_alphabetic() || c == '_' || c == '$') {
                out.insert(part);
            }
        }
    }
    let mut out: Vec<&str> = out.into_iter().collect();
    out.sort_unstable();
    out.into_iter().map(str::to_owned).collect()
}

/// What the oxc pass found: contexts, identifier uses, strings and comments.
struct Parsed {
    contexts: Vec<(std::ops::Range<usize>, Option<Role>)>,
    idents: Vec<(std::ops::Range<usize>, String, Option<String>)>,
    /// Names a loop hands to a subscribe or emit call (see [`syntax::Classifier::looped`]).
    looped: Vec<std::ops::Range<usize>>,
    /// Names subscribed with `once` (see [`syntax::Classifier::once`]).
    once: Vec<std::ops::Range<usize>>,
    tokens: Vec<Token>,
    fixes: Vec<OccurrenceFix>,
    /// The body of every function, outer before inner (see [`fixes::enclosing`]).
    bodies: Vec<std::ops::Range<usize>>,
    /// What the file declares for the host pass, when asked for.
    host: Option<crate::host_events::HostDeclarations>,
    /// Pass 1's declarations of the file, when asked for ([`TypeScript::declarations`]
    /// computes the same from a parse of its own).
    declarations: Option<Declarations>,
}

fn parse_and_classify(
    path: &str,
    src: &str,
    cx: Context<'_>,
    host: bool,
) -> Result<Parsed, (usize, String)> {
    parse_and_classify_as(path, src, cx, true, host)
}

/// [`parse_and_classify`]; with `focused`, the fixer visits only the functions that can hold
/// a fix ([`fixes::Focus`]), else every function (what the focused visit must agree with).
fn parse_and_classify_as(
    path: &str,
    src: &str,
    cx: Context<'_>,
    focused: bool,
    host: bool,
) -> Result<Parsed, (usize, String)> {
    parse_and_classify_in(path, src, cx, focused, host, None)
}

/// [`parse_and_classify_as`], and with `collect`, pass 1's declarations as
/// [`TypeScript::declarations`] collects them.
fn parse_and_classify_in(
    path: &str,
    src: &str,
    cx: Context<'_>,
    focused: bool,
    host: bool,
    collect: Option<&LineIndex<'_>>,
) -> Result<Parsed, (usize, String)> {
    with_program(path, src, |program| {
        let scope = syntax::Scope::of(program);
        let declarations =
            collect.map(|lines| collect_declarations(program, &scope, path, cx, lines));
        let resolver = syntax::Resolver {
            symbols: cx.symbols,
            scope: &scope,
            path,
        };
        let mut c = syntax::Classifier::new(cx, resolver);
        c.visit_program(program);
        let resolver = syntax::Resolver {
            symbols: cx.symbols,
            scope: &scope,
            path,
        };
        let focus =
            focused.then(|| fixes::Focus::of(src, cx, c.occurrences.iter().map(|(r, ..)| r)));
        let mut fixer = fixes::Fixer::new(src, cx, resolver, program, focus);
        fixer.visit_program(program);
        let mut tokens = std::mem::take(&mut c.strings);
        for com in &program.comments {
            let (s, e) = (com.span.start as usize, com.span.end as usize);
            let content = com.content_span();
            tokens.push(Token {
                kind: TokenKind::Comment,
                start: s,
                end: e,
                content_start: content.start as usize,
                content_end: content.end as usize,
                whole: true,
            });
        }
        tokens.sort_by_key(|t| (t.start, std::cmp::Reverse(t.end)));
        let fixes::Found { fixes, bodies } = fixer.finish();
        Parsed {
            contexts: c.contexts,
            idents: c.occurrences,
            looped: c.looped,
            once: c.once,
            tokens,
            fixes,
            bodies,
            host: host.then(|| crate::host_events::HostDeclarations::of(program, src)),
            declarations,
        }
    })
}

/// Analyzes `src` as the TypeScript/JavaScript file `path` (the extension picks the dialect;
/// Markdown fences pass a synthetic name such as `fence.ts`).
pub fn analyze_as(path: &str, src: &str, cx: Context<'_>) -> FileAnalysis {
    analyze_with(path, src, cx, false)
}

/// [`analyze_as`]; with `host`, also what the file declares for the host pass
/// ([`FileAnalysis::host`]), from the same parse.
pub(crate) fn analyze_with(path: &str, src: &str, cx: Context<'_>, host: bool) -> FileAnalysis {
    if !worth_parsing(src, cx) {
        return FileAnalysis::default();
    }
    analyze_parsed(path, src, cx, parse_and_classify(path, src, cx, host), host).1
}

/// [`TypeScript::declarations`] and [`TypeScript::analyze`] of `src` from one parse: what the
/// two return, each from a parse of its own.
fn declarations_and_analysis(
    path: &str,
    src: &str,
    cx: Context<'_>,
) -> (Declarations, FileAnalysis) {
    if !may_declare(src, cx) {
        // What `declarations` gives an unparsed file, its pending words read only if a round
        // of resolution asks for them.
        let later = Declarations {
            pending_later: true,
            ..Declarations::default()
        };
        return (later, TypeScript.analyze(path, src, cx));
    }
    if !worth_parsing(src, cx) {
        return (
            TypeScript.declarations(path, src, cx),
            TypeScript.analyze(path, src, cx),
        );
    }
    let lines = LineIndex::new(src);
    let parsed = parse_and_classify_in(path, src, cx, true, true, Some(&lines));
    let (declarations, analysis) = analyze_parsed(path, src, cx, parsed, true);
    (
        declarations.unwrap_or_else(|| unparsed_declarations(src)),
        analysis,
    )
}

/// Pass 2's analysis of `src` from its parse (or the error that stopped it), and the
/// declarations the parse collected.
fn analyze_parsed(
    path: &str,
    src: &str,
    cx: Context<'_>,
    parsed: Result<Parsed, (usize, String)>,
    host: bool,
) -> (Option<Declarations>, FileAnalysis) {
    let mut analysis = FileAnalysis::default();
    let mut parsed = match parsed {
        Ok(p) => p,
        Err(e) => {
            if host {
                analysis.host = Some(crate::host_events::HostDeclarations::unparsed(
                    src,
                    e.0,
                    e.1.clone(),
                ));
            }
            analysis.parse_error = Some(e);
            Parsed {
                contexts: Vec::new(),
                idents: Vec::new(),
                looped: Vec::new(),
                once: Vec::new(),
                tokens: lex::tokens(src),
                fixes: Vec::new(),
                bodies: Vec::new(),
                host: None,
                declarations: None,
            }
        }
    };
    let declarations = parsed.declarations.take();
    if let Some(h) = parsed.host.take() {
        analysis.host = Some(h);
    }
    let lexical = analysis.parse_error.is_some();
    // The same parse as `parses`, so the same count as `syntax_errors`.
    analysis.syntax_errors = Some(usize::from(lexical));
    let contexts = super::Contexts::new(parsed.contexts);
    let context_at = |start: usize, end: usize| -> Option<Option<Role>> { contexts.at(start, end) };
    // A suppression is a plain comment (not JSDoc, which may well describe the syntax) that
    // starts with `mirrorless:`; the names it lists are not comment notes.
    let mut suppressions = Vec::new();
    for t in &parsed.tokens {
        let whole = &src[t.start..t.end];
        let jsdoc = whole.starts_with("/**") && !whole.starts_with("/**/");
        if t.kind == TokenKind::Comment && !jsdoc {
            let text = &src[t.content_start..t.content_end];
            if text.trim_start().starts_with("mirrorless:") {
                analysis.suppression_comments.push(CommentText {
                    start: t.start,
                    text: text.to_owned(),
                });
                suppressions.push(t.start..t.end);
            }
        }
    }
    let mut occ = Vec::new();
    let bytes = src.as_bytes();
    for m in cx.catalog.find_names(src) {
        if suppressions
            .iter()
            .any(|r| r.start <= m.start && m.end <= r.end)
        {
            continue;
        }
        let event = cx.catalog.events()[m.event].name.clone();
        let i = parsed.tokens.partition_point(|t| t.end <= m.start);
        // The innermost token holding the name (a string inside `${…}` sits after the quasi).
        let token = parsed.tokens[i..]
            .iter()
            .take_while(|t| t.start <= m.start)
            .filter(|t| m.end <= t.end)
            .min_by_key(|t| t.end - t.start);
        let role = match token {
            Some(t) if t.kind == TokenKind::Comment => Role::Comment,
            Some(t) => {
                let exact = t.whole && &src[t.content_start..t.content_end] == event.as_str();
                match context_at(t.start, t.end) {
                    _ if lexical && exact => {
                        lexical_call_role(src, t.start, cx).unwrap_or(Role::Reference)
                    }
                    Some(None) => continue,
                    Some(Some(Role::Mention)) => Role::Mention,
                    Some(Some(role)) if exact => role,
                    _ if exact => Role::Reference,
                    _ => {
                        let quote = |b: Option<&u8>| matches!(b, Some(b'"' | b'\'' | b'`'));
                        let after = match bytes.get(m.end) {
                            Some(b'\\') => bytes.get(m.end + 1),
                            other => other,
                        };
                        if quote(m.start.checked_sub(1).and_then(|p| bytes.get(p))) && quote(after)
                        {
                            Role::Embedded
                        } else {
                            Role::Mention
                        }
                    }
                }
            }
            None if lexical => Role::Reference,
            None => match context_at(m.start, m.end) {
                Some(None) => continue,
                Some(Some(role)) => role,
                None => Role::Reference,
            },
        };
        // A name a loop subscribes to (or emits) has no fix: say so, and what to do instead.
        let looped = parsed
            .looped
            .iter()
            .any(|r| r.start <= m.start && m.end <= r.end);
        let once = parsed
            .once
            .iter()
            .any(|r| r.start <= m.start && m.end <= r.end);
        let via = if once {
            Some("no fix: a `session/event` listener registered with `once` would fire on the first durable event of any type; subscribe with `on`, filter the twin, and dispose the listener when it has fired".to_owned())
        } else {
            None
        };
        let via = via.or_else(|| looped.then(|| {
            "no fix: the name reaches the call through a loop over names, which a human rewrites (for a subscription: one `session/event` listener filtering the durable twins)".to_owned()
        }));
        // In a test, a loop subscribing to the names pins what they announced: the human's part.
        if looped && role == Role::Subscribe && super::is_test(path) {
            analysis.human.push(super::HumanPart {
                start: m.start,
                end: m.end,
                scope: fixes::enclosing(&parsed.bodies, &(m.start..m.end), src.len()),
                reason: super::HUMAN_LOOP.to_owned(),
            });
        }
        occ.push(Occurrence {
            role,
            event,
            start: m.start,
            end: m.end,
            via,
        });
    }
    for (r, event, via) in parsed.idents {
        let role = match context_at(r.start, r.end) {
            Some(None) => continue,
            Some(Some(Role::Mention)) => Role::Mention,
            Some(Some(role)) => role,
            None => Role::Reference,
        };
        occ.push(Occurrence {
            role,
            event,
            start: r.start,
            end: r.end,
            via,
        });
    }
    analysis.occurrences = super::in_source_order(occ);
    analysis.fixes = parsed.fixes;
    (declarations, analysis)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Catalog;
    use crate::frontend::{CallNames, Symbols};

    /// Analyzes `src` as `t.ts` with the default catalogue and no declarations.
    fn analyze_plain(src: &str) -> FileAnalysis {
        let catalog = Catalog::new(&[]).unwrap();
        let symbols = Symbols::default();
        let calls = CallNames::default();
        let cx = Context {
            catalog: &catalog,
            symbols: &symbols,
            calls: &calls,
            mentions_declared: false,
        };
        analyze_as("t.ts", src, cx)
    }

    fn roles(src: &str) -> Vec<(Role, String)> {
        let a = analyze_plain(src);
        a.occurrences
            .iter()
            .map(|o| (o.role, src[o.start..o.end].to_owned()))
            .collect()
    }

    #[test]
    fn template_quasis_and_nested_strings_are_classified() {
        let r = roles(
            "ctx.on(`agent/turn-end`, h); log.warn(`x ${'agent/step-end'} y agent/steering`);",
        );
        assert_eq!(
            r,
            vec![
                (Role::Subscribe, "agent/turn-end".to_owned()),
                (Role::Mention, "agent/step-end".to_owned()),
                (Role::Mention, "agent/steering".to_owned()),
            ]
        );
    }

    #[test]
    fn lexical_call_role_reads_past_non_ascii() {
        let src = "中on('agent/turn-end'); é.emit('agent/step-end'";
        let a = analyze_plain(src);
        let r: Vec<Role> = a.occurrences.iter().map(|o| o.role).collect();
        assert_eq!(r, vec![Role::Reference, Role::Emit]);
    }

    /// `lexical_pending` as first written (a set of owned words), the reference the
    /// allocation-free scan must agree with (issue 32 item 1: the pass-1 scan of files not
    /// parsed cost more than their prefilter).
    fn lexical_pending_reference(src: &str) -> Vec<String> {
        let word = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
        let mut out = std::collections::BTreeSet::new();
        let bytes = src.as_bytes();
        for (i, _) in src.match_indices(" as ") {
            let w: String = src[..i]
                .chars()
                .rev()
                .take_while(|c| word(*c))
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            if !w.is_empty() {
                out.insert(w);
            }
        }
        for (i, b) in bytes.iter().enumerate() {
            if !matches!(b, b'=' | b':') || matches!(bytes.get(i + 1), Some(b'=' | b'>')) {
                continue;
            }
            let rest = src[i + 1..].trim_start();
            for part in rest
                .split(|c: char| !(word(c) || c == '.'))
                .next()
                .unwrap_or("")
                .split('.')
            {
                if part.starts_with(|c: char| c.is_alphabetic() || c == '_' || c == '$') {
                    out.insert(part.to_owned());
                }
            }
        }
        out.into_iter().collect()
    }

    #[test]
    fn lexical_pending_agrees_with_its_reference() {
        let pieces = [
            " as ", "=", ":", "==", "=>", ":=", " ", "\n", ".", "A", "b$", "_c", "é", "9", "x.y",
            "{", "}", "'", "ns.A", "$", "  ", "as",
        ];
        let mut rng = crate::test_rng::Rng(0x9E37_79B9_7F4A_7C15);
        let mut next = |n: usize| rng.below(n);
        let mut words = 0;
        for _ in 0..3000 {
            let text: String = (0..1 + next(12))
                .map(|_| pieces[next(pieces.len())])
                .collect();
            let expected = lexical_pending_reference(&text);
            words += expected.len();
            assert_eq!(lexical_pending(&text), expected, "{text:?}");
        }
        assert!(words > 1000, "{words} words found");
    }

    #[test]
    fn broken_file_is_scanned_lexically() {
        let a = analyze_plain("ctx.on('agent/turn-end', (\n // agent/step-end\n");
        assert!(a.parse_error.is_some());
        let r: Vec<Role> = a.occurrences.iter().map(|o| o.role).collect();
        assert_eq!(r, vec![Role::Subscribe, Role::Comment]);
    }

    /// A generated module: declarations of removed names (consts, object keys, enum
    /// members, class statics, aliases and re-exports), their uses and subscriptions, and
    /// now and then a line that does not parse.
    fn declaring_module(r: &mut crate::test_rng::Rng) -> String {
        const NAMES: &[&str] = &["agent/turn-end", "agent/stream-chunk", "agent/steering"];
        let mut out = String::new();
        for i in 0..1 + r.below(8) {
            let name = r.pick(NAMES);
            out.push_str(&match r.below(10) {
                0 => format!("export const EV{i} = '{name}';\n"),
                1 => format!("const ALIAS{i} = EV{};\n", r.below(4)),
                2 => format!("export const Events{i} = {{ TurnEnd: '{name}', other: 'x' }};\n"),
                3 => format!("enum E{i} {{ A = '{name}' }}\n"),
                4 => format!("class C{i} {{ static X = '{name}'; }}\n"),
                5 => format!("bus.on(EV{}, (e) => log(e));\n", r.below(4)),
                6 => format!("ctx.on('{name}', (a, t) => {{ use(a, t) }})\n"),
                7 => format!("export {{ EV{} as Renamed{i} }};\n", r.below(4)),
                8 => format!("// mentions {name} in a comment\n"),
                _ => format!("const broken{i} = ({{ '{name}'\n"),
            });
        }
        out
    }

    /// Issue 32 item 1: a candidate analysed while the walk goes on is parsed once for pass
    /// 1's declarations and pass 2's analysis. What that one parse gives is what the two
    /// parses of `declarations` and `analyze` give, with no identifier declared and with the
    /// file's own declarations known, on generated modules and every TypeScript and JavaScript
    /// fixture of the linter.
    #[test]
    fn one_parse_gives_the_declarations_and_analysis_of_two() {
        let catalog = Catalog::new(&[]).expect("the default catalogue");
        let calls = CallNames::default();
        let mut texts: Vec<(String, String)> = (1..=300u64)
            .map(|seed| {
                let mut r = crate::test_rng::Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
                (format!("gen{seed}.ts"), declaring_module(&mut r))
            })
            .collect();
        texts.extend(crate::test_fixtures::fixture_texts("", |p| {
            TypeScript.handles(p)
        }));
        let (mut declaring, mut fixtures) = (0, 0);
        for (path, src) in &texts {
            fixtures += usize::from(!path.starts_with("gen"));
            let none = Symbols::default();
            let cx = Context {
                catalog: &catalog,
                symbols: &none,
                calls: &calls,
                mentions_declared: false,
            };
            let mut own = Symbols::default();
            for d in TypeScript.declarations(path, src, cx).found {
                own.insert(d);
            }
            own.finish();
            declaring += usize::from(!own.is_empty());
            for symbols in [&none, &own] {
                let cx = Context {
                    symbols,
                    mentions_declared: !symbols.is_empty(),
                    ..cx
                };
                let mut one = TypeScript.declarations_and_analysis(path, src, cx);
                if one.0.pending_later {
                    one.0.pending = TypeScript.pending_words(src);
                    one.0.pending_later = false;
                }
                let two = (
                    TypeScript.declarations(path, src, cx),
                    TypeScript.analyze(path, src, cx),
                );
                assert_eq!(format!("{one:?}"), format!("{two:?}"), "{path}:\n{src}");
            }
        }
        assert!(
            declaring >= 100,
            "only {declaring} texts declare an identifier"
        );
        assert!(fixtures >= 100, "only {fixtures} fixtures read");
    }
}
