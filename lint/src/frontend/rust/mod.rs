//! The Rust front end: a lexical scan (comments and string literals, never fails) plus a syn
//! pass that gives each occurrence its context and resolves consts, statics, associated
//! consts, typed events, serde-renamed variants and aliases across files.

mod declaration;
mod facts;
mod fixes;
mod leftover;
mod lex;
mod locals;
mod shapes;
mod subscription;
mod syntax;
mod typed;

use super::depth;
use super::{CommentText, Context, Declarations, FileAnalysis, FrontEnd};
use crate::hash::HashMap;
use crate::model::{Occurrence, Role};
use lex::TokenKind;
use proc_macro2::{LexError, TokenStream};
use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use syn::visit::Visit;
use syntax::Ctx;

/// Larger files are scanned lexically: syn's tree takes up to ~150 bytes per byte of dense
/// source, and generated files this large rarely hold hand-written subscriptions.
const MAX_PARSE_BYTES: usize = 4 << 20;

/// The Rust front end (`*.rs`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Rust;

/// syn strips a BOM and a shebang line before parsing, which would shift every byte offset;
/// blank them out instead so offsets stay those of the file.
fn parse_text(src: &str) -> Cow<'_, str> {
    let body = src.strip_prefix('\u{feff}').unwrap_or(src);
    let bom = src.len() - body.len();
    let shebang = body.starts_with("#!") && !body[2..].trim_start().starts_with('[');
    if bom == 0 && !shebang {
        return Cow::Borrowed(src);
    }
    let blank_to = if shebang {
        bom + body.find('\n').unwrap_or(body.len())
    } else {
        bom
    };
    // Spaces, one per byte, keep every later byte offset unchanged.
    Cow::Owned(" ".repeat(blank_to) + &src[blank_to..])
}

/// syn's `parse_file` of [`parse_text`]'s text, from the tokens proc-macro2 read from it
/// ([`depth::bounded_rust_parse`]): with the BOM and shebang blanked, `parse_file` is
/// `parse_str`, which is that lexer and `parse2` of its tokens.
fn parse(tokens: Result<TokenStream, LexError>) -> Result<syn::File, syn::Error> {
    syn::parse2(tokens?)
}

/// [`depth::bounded_rust_parse`] of `src` as syn reads it ([`parse_text`]), parsed by
/// [`parse`] and handed to `then`.
fn bounded<R: Send>(
    src: &str,
    then: impl FnOnce(Result<syn::File, syn::Error>) -> Result<R, (usize, String)> + Send,
) -> Result<R, (usize, String)> {
    depth::bounded_rust_parse(&parse_text(src), MAX_PARSE_BYTES, |tokens| {
        let result = then(parse(tokens));
        release_spans();
        result
    })
}

/// The names a path may use to reach items of the file at `path`: its directory names and
/// file stem (dashes as underscores) and the package name of the nearest `Cargo.toml`.
fn module_words(path: &str) -> Vec<String> {
    let p = Path::new(path);
    let mut words: Vec<String> = p
        .components()
        .filter_map(|c| match c {
            std::path::Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
            _ => None,
        })
        .map(|s| {
            s.strip_suffix(".rs")
                .map(str::to_owned)
                .unwrap_or(s)
                .replace('-', "_")
        })
        .collect();
    if let Some(name) = package_name(p) {
        words.push(name.replace('-', "_"));
    }
    words.sort();
    words.dedup();
    words
}

/// The `[package] name` of the nearest `Cargo.toml` above `file`, cached per directory.
fn package_name(file: &Path) -> Option<String> {
    static CACHE: OnceLock<Mutex<HashMap<PathBuf, Option<String>>>> = OnceLock::new();
    let dir = std::path::absolute(file).ok()?.parent()?.to_path_buf();
    let cache = CACHE.get_or_init(Default::default);
    if let Ok(map) = cache.lock()
        && let Some(hit) = map.get(&dir)
    {
        return hit.clone();
    }
    let found = dir.ancestors().find_map(|d| {
        let text = std::fs::read_to_string(d.join("Cargo.toml")).ok()?;
        let value: toml::Table = toml::from_str(&text).ok()?;
        Some(
            value
                .get("package")
                .and_then(|p| p.get("name"))
                .and_then(|n| n.as_str())
                .map(str::to_owned),
        )
    });
    let name = found.flatten();
    if let Ok(mut map) = cache.lock() {
        map.insert(dir, name.clone());
    }
    name
}

/// A suppression is a plain comment (not a doc comment, which may well describe the syntax)
/// that starts with `mirrorless:`.
fn is_suppression(src: &str, t: &lex::Token) -> bool {
    let whole = &src[t.start..t.end];
    let doc = (whole.starts_with("///") && !whole.starts_with("////"))
        || whole.starts_with("//!")
        || (whole.starts_with("/**") && !whole.starts_with("/**/"))
        || whole.starts_with("/*!");
    !doc && src[t.content_start..t.content_end]
        .trim_start()
        .starts_with("mirrorless:")
}

/// Whether every prefilter hit (removed name or namespace prefix) lies inside a comment.
fn names_only_in_comments(src: &str, tokens: &[lex::Token], cx: Context<'_>) -> bool {
    // No automaton (never, for a catalogue of names): not known to be in comments.
    let Some(hits) = cx.catalog.prefilter_hits(src.as_bytes()) else {
        return false;
    };
    hits.into_iter().all(|at| {
        let i = tokens.partition_point(|t| t.end <= at);
        tokens
            .get(i)
            .is_some_and(|t| t.start <= at && t.kind == TokenKind::Comment)
    })
}

/// Frees proc-macro2's per-thread source map; spans of earlier parses become invalid.
fn release_spans() {
    proc_macro2::extra::invalidate_current_thread_spans();
}

impl FrontEnd for Rust {
    fn name(&self) -> &'static str {
        "rust"
    }

    fn handles_extension(&self, extension: &std::ffi::OsStr) -> bool {
        extension == "rs"
    }

    /// A name, or a namespace hit that can begin one assembled from pieces
    /// ([`crate::catalog::Catalog::may_assemble_name`]): `"agent/pre-step"` alone is not worth
    /// syn's parse.
    fn may_hold_name(&self, src: &[u8], catalog: &crate::catalog::Catalog) -> bool {
        catalog.may_assemble_name(src)
    }

    fn declarations(&self, path: &str, src: &str, cx: Context<'_>) -> Declarations {
        if !cx.mentions_declared && names_only_in_comments(src, &lex::tokens(src), cx) {
            return Declarations::default();
        }
        bounded(src, |file| {
            Ok(file.map(|f| collect(&f, path, cx)).unwrap_or_default())
        })
        .unwrap_or_default()
    }

    fn declarations_and_analysis(
        &self,
        path: &str,
        src: &str,
        cx: Context<'_>,
    ) -> (Declarations, FileAnalysis) {
        let tokens = lex::tokens(src);
        // Both skip the parse of a file whose only mentions are comments.
        if !cx.mentions_declared && names_only_in_comments(src, &tokens, cx) {
            return (
                Declarations::default(),
                analysis_of(src, &tokens, Ok(Parsed::default()), cx),
            );
        }
        let parsed = bounded(src, |file| match file {
            Ok(file) => Ok((classify(&file, path, src, cx), collect(&file, path, cx))),
            Err(e) => Err((e.span().byte_range().start, e.to_string())),
        });
        let (parsed, declarations) = match parsed {
            Ok((parsed, declarations)) => (Ok(parsed), declarations),
            Err(e) => (Err(e), Declarations::default()),
        };
        (declarations, analysis_of(src, &tokens, parsed, cx))
    }

    fn syntax_errors(&self, _path: &str, src: &str) -> usize {
        let parsed = bounded(src, |file| file.map(|_| ()).map_err(|e| (0, e.to_string())));
        usize::from(parsed.is_err())
    }

    fn analyze(&self, path: &str, src: &str, cx: Context<'_>) -> FileAnalysis {
        let tokens = lex::tokens(src);
        // Files whose only mentions are comments (the usual state after a migration) need
        // no syntax tree.
        let lexical_only = !cx.mentions_declared && names_only_in_comments(src, &tokens, cx);
        let parsed = if lexical_only {
            Ok(Parsed::default())
        } else {
            bounded(src, |file| match file {
                Ok(file) => Ok(classify(&file, path, src, cx)),
                Err(e) => Err((e.span().byte_range().start, e.to_string())),
            })
        };
        analysis_of(src, &tokens, parsed, cx)
    }
}

/// What the syntax tree tells about a file's names: the contexts of its tokens, the
/// identifiers that stand for removed names, and the fixes.
#[derive(Default)]
struct Parsed {
    contexts: Vec<(std::ops::Range<usize>, Ctx)>,
    idents: Vec<(std::ops::Range<usize>, String, Option<String>)>,
    fixes: Vec<super::OccurrenceFix>,
}

/// Pass 1's declarations in `file`.
fn collect(file: &syn::File, path: &str, cx: Context<'_>) -> Declarations {
    let mut c = syntax::Collector {
        cx,
        path,
        found: Vec::new(),
        impl_self: Vec::new(),
        modules: module_words(path),
        mod_stack: Vec::new(),
        locals: syntax::local_strings(file, cx.symbols),
        pending: Default::default(),
        shapes: shapes::struct_shapes(file),
    };
    c.visit_file(file);
    let mut pending: Vec<String> = c.pending.into_iter().collect();
    pending.sort();
    Declarations {
        found: c.found,
        pending,
        pending_later: false,
    }
}

/// Pass 2's reading of `file`: the classifier's contexts and identifiers, and the fixes.
fn classify(file: &syn::File, path: &str, src: &str, cx: Context<'_>) -> Parsed {
    let mut c = syntax::Classifier::new(cx, path, file);
    c.visit_file(file);
    // A fix is looked up by its occurrence ([`analysis_of`]'s names and identifiers): a file
    // with none (one that only holds the namespace, `agent/pre-step`) needs no fix facts.
    let fixes = match c.occurrences.is_empty() && cx.catalog.find_names(src).is_empty() {
        true => Vec::new(),
        false => fixes::collect(file, path, src, cx),
    };
    Parsed {
        contexts: c.contexts,
        idents: c.occurrences,
        fixes,
    }
}

/// Pass 2's analysis of `src` (lexed as `tokens`) from what its parse gave, or the error that
/// stopped it.
fn analysis_of(
    src: &str,
    tokens: &[lex::Token],
    parsed: Result<Parsed, (usize, String)>,
    cx: Context<'_>,
) -> FileAnalysis {
    let mut analysis = FileAnalysis::default();
    let Parsed {
        contexts,
        idents,
        fixes,
    } = parsed.unwrap_or_else(|error| {
        analysis.parse_error = Some(error);
        Parsed::default()
    });
    analysis.fixes = fixes;
    let contexts = super::Contexts::new(contexts);
    let context_at = |start: usize, end: usize| -> Option<Ctx> { contexts.at(start, end) };

    for t in tokens {
        if t.kind == TokenKind::Comment {
            let text = &src[t.content_start..t.content_end];
            if is_suppression(src, t) {
                analysis.suppression_comments.push(CommentText {
                    start: t.start,
                    text: text.to_owned(),
                });
            }
        }
    }
    let mut occ = Vec::new();
    for m in cx.catalog.find_names(src) {
        let event = cx.catalog.events()[m.event].name.clone();
        // The token containing the name, if any (tokens are sorted and disjoint).
        let i = tokens.partition_point(|t| t.end <= m.start);
        let token = tokens.get(i).filter(|t| t.start <= m.start);
        let role = match token {
            // A suppression naming the event it allows is not documentation.
            Some(t) if t.kind == TokenKind::Comment && is_suppression(src, t) => {
                continue;
            }
            Some(t) if t.kind == TokenKind::Comment => Role::Comment,
            Some(t) => {
                let content = &src[t.content_start..t.content_end];
                let exact = content == event;
                match context_at(t.start, t.end) {
                    Some(Ctx::Ignore) => continue,
                    Some(Ctx::Role(Role::Comment)) => Role::Comment,
                    Some(Ctx::Role(role)) if exact => role,
                    _ if exact => Role::Reference,
                    _ => {
                        let quote = |b: Option<&u8>| matches!(b, Some(b'"' | b'\'' | b'`'));
                        let bytes = src.as_bytes();
                        // `\"agent/x\"` inside a cooked string is quoted too.
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
            // Outside strings and comments: macro token soup such as `event!(agent/turn-start)`.
            None => match context_at(m.start, m.end) {
                Some(Ctx::Ignore) => continue,
                _ => Role::Reference,
            },
        };
        occ.push(Occurrence {
            role,
            event,
            start: m.start,
            end: m.end,
            via: None,
        });
    }
    for (r, event, via) in idents {
        let role = match context_at(r.start, r.end) {
            Some(Ctx::Ignore) => continue,
            Some(Ctx::Role(Role::Comment)) => continue,
            Some(Ctx::Role(role)) => role,
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
    analysis
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Catalog;
    use crate::frontend::{CallNames, Symbols};
    use crate::test_rng::Rng;
    use std::str::FromStr;

    /// A Rust module made of generated items: removed names in consts, statics, enums and
    /// macros (`concat!`, `format!`), subscriptions through them, the namespace alone
    /// (`agent/pre-step`), comments, a BOM or a shebang, a syntax error, and nesting around the
    /// depth where a parse moves to a thread of its own.
    fn module(r: &mut Rng) -> String {
        const NAMES: &[&str] = &["agent/turn-end", "agent/stream-chunk", "agent/steering"];
        let mut out = match r.below(12) {
            0 => "\u{feff}".to_owned(),
            1 => "#!/usr/bin/env run-cargo-script\n".to_owned(),
            _ => String::new(),
        };
        for i in 0..1 + r.below(8) {
            let name = r.pick(NAMES);
            out.push_str(&match r.below(12) {
                0 => format!("pub const EV{i}: &str = \"{name}\";\n"),
                1 => format!("static ALIAS{i}: &str = EV{};\n", r.below(4)),
                2 => format!("#[derive(Debug)]\nenum E{i} {{ #[serde(rename = \"{name}\")] A }}\n"),
                3 => format!("const C{i}: &str = concat!(\"agent/\", \"turn-end\");\n"),
                4 => format!(
                    "fn f{i}(bus: &Bus) {{ bus.on(EV{}, |e| log(e)); }}\n",
                    r.below(4)
                ),
                5 => format!("fn g{i}(ctx: &Ctx) {{ ctx.on(\"{name}\", move |a| use_it(a)); }}\n"),
                6 => format!("fn h{i}() -> String {{ format!(\"agent/{{}}\", \"steering\") }}\n"),
                7 => format!("// mentions {name} in a comment\n"),
                8 => format!("const P{i}: &str = \"agent/pre-step\";\n"),
                9 => format!("fn broken{i}() {{ let x = (\"{name}\";\n"),
                10 => {
                    let depth = 40 + r.below(60);
                    format!(
                        "fn deep{i}() {{ let _ = {}1{}; }}\n",
                        "(".repeat(depth),
                        ")".repeat(depth)
                    )
                }
                _ => format!("/// Docs for {name}.\nfn doc{i}() {{}}\n"),
            });
        }
        out
    }

    fn texts() -> Vec<(String, String)> {
        let mut texts: Vec<(String, String)> = (1..=300u64)
            .map(|seed| {
                let mut r = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
                (format!("src/gen{seed}.rs"), module(&mut r))
            })
            .collect();
        texts.extend(crate::test_fixtures::fixture_texts("", |p| Rust.handles(p)));
        texts
    }

    /// Issue 32 item 1: syn's `parse_file` of a text reads it with proc-macro2's lexer and
    /// parses the tokens; a Rust candidate's tokens are now read once, for the depth estimate
    /// and the parse. That parse gives the tree `parse_file` gives (printed back as tokens) or
    /// the same error at the same offset, on generated modules and every Rust fixture.
    #[test]
    fn tokens_read_once_parse_as_parse_file_parses() {
        let (mut failed, mut parsed) = (0, 0);
        for (path, src) in texts() {
            let text = parse_text(&src);
            let show = |r: Result<syn::File, syn::Error>| match r {
                Ok(file) => Ok(quote::quote!(#file).to_string()),
                Err(e) => Err((e.span().byte_range(), e.to_string())),
            };
            let once = show(parse(TokenStream::from_str(&text)));
            let file = show(syn::parse_file(&text));
            release_spans();
            failed += usize::from(file.is_err());
            parsed += usize::from(file.is_ok());
            assert_eq!(once, file, "{path}:\n{src}");
        }
        assert!(
            failed >= 50 && parsed >= 100,
            "{failed} failed, {parsed} parsed"
        );
    }

    /// Issue 32 item 1: a candidate analysed while the walk goes on is parsed once for pass 1's
    /// declarations and pass 2's analysis. What that one parse gives is what `declarations`
    /// and `analyze` give, with no identifier declared and with the file's own declarations
    /// known, on generated modules (deep ones parsed on a thread of their own included) and
    /// every Rust fixture.
    #[test]
    fn one_parse_gives_the_declarations_and_analysis_of_two() {
        let catalog = Catalog::new(&[]).expect("the default catalogue");
        let calls = CallNames::default();
        let (mut declaring, mut fixtures) = (0, 0);
        for (path, src) in texts() {
            fixtures += usize::from(!path.starts_with("src/gen"));
            let none = Symbols::default();
            let cx = Context {
                catalog: &catalog,
                symbols: &none,
                calls: &calls,
                mentions_declared: false,
            };
            let mut own = Symbols::default();
            for d in Rust.declarations(&path, &src, cx).found {
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
                let one = Rust.declarations_and_analysis(&path, &src, cx);
                let two = (
                    Rust.declarations(&path, &src, cx),
                    Rust.analyze(&path, &src, cx),
                );
                assert_eq!(format!("{one:?}"), format!("{two:?}"), "{path}:\n{src}");
            }
        }
        assert!(
            declaring >= 100,
            "only {declaring} texts declare an identifier"
        );
        assert!(fixtures >= 60, "only {fixtures} fixtures read");
    }

    /// A parse as the tests compare it: the tree printed back as tokens, or the error's range
    /// and message; or the guard's refusal.
    type Shown = Result<Result<String, (std::ops::Range<usize>, String)>, (usize, String)>;

    /// The depth guard reads the tokens once and parses them on the calling thread, or on a
    /// thread of its own past the shallow limit: the result is `bounded_parse`'s (which reads
    /// the text twice), for nesting on both sides of that limit and past the deepest allowed.
    #[test]
    fn the_guard_reading_tokens_once_answers_as_bounded_parse() {
        for depth in [1, 10, 60, 63, 64, 65, 66, 70, 200, 1_000, 20_001] {
            for open in ["(", "[", "{ "] {
                let close: String = open
                    .trim()
                    .chars()
                    .map(|c| match c {
                        '(' => ')',
                        '[' => ']',
                        _ => '}',
                    })
                    .collect();
                let src = format!(
                    "fn f() {{ let _ = {}1{}; }}",
                    open.repeat(depth),
                    close.repeat(depth)
                );
                let parse_then_show = |file: Result<syn::File, syn::Error>| {
                    Ok(match file {
                        Ok(file) => Ok(quote::quote!(#file).to_string()),
                        Err(e) => Err((e.span().byte_range(), e.to_string())),
                    })
                };
                let once: Shown = depth::bounded_rust_parse(&src, MAX_PARSE_BYTES, |tokens| {
                    let r = parse_then_show(parse(tokens));
                    release_spans();
                    r
                });
                let twice: Shown =
                    depth::bounded_parse(&src, MAX_PARSE_BYTES, depth::Syntax::Rust, || {
                        let r = parse_then_show(syn::parse_file(&src));
                        release_spans();
                        r
                    });
                assert_eq!(once, twice, "{depth} × {open}");
            }
        }
    }
}
