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

use super::depth::{self, Syntax};
use super::{CommentText, Context, Declarations, FileAnalysis, FrontEnd};
use crate::hash::HashMap;
use crate::model::{Occurrence, Role};
use lex::TokenKind;
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

fn parse(src: &str) -> Result<syn::File, syn::Error> {
    syn::parse_file(&parse_text(src))
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
    cx.catalog
        .prefilter_hits(src.as_bytes())
        .into_iter()
        .all(|at| {
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

    fn handles(&self, path: &Path) -> bool {
        path.extension().is_some_and(|e| e == "rs")
    }

    fn declarations(&self, path: &str, src: &str, cx: Context<'_>) -> Declarations {
        if !cx.mentions_declared && names_only_in_comments(src, &lex::tokens(src), cx) {
            return Declarations::default();
        }
        let modules = module_words(path);
        depth::bounded_parse(&parse_text(src), MAX_PARSE_BYTES, Syntax::Rust, || {
            let found = match parse(src) {
                Ok(file) => {
                    let mut c = syntax::Collector {
                        cx,
                        path,
                        found: Vec::new(),
                        impl_self: Vec::new(),
                        modules,
                        mod_stack: Vec::new(),
                        locals: syntax::local_strings(&file, cx.symbols),
                        pending: Default::default(),
                        shapes: shapes::struct_shapes(&file),
                    };
                    c.visit_file(&file);
                    let mut pending: Vec<String> = c.pending.into_iter().collect();
                    pending.sort();
                    Declarations {
                        found: c.found,
                        pending,
                    }
                }
                Err(_) => Declarations::default(),
            };
            release_spans();
            Ok(found)
        })
        .unwrap_or_default()
    }

    fn syntax_errors(&self, _path: &str, src: &str) -> usize {
        let parsed = depth::bounded_parse(&parse_text(src), MAX_PARSE_BYTES, Syntax::Rust, || {
            let r = parse(src).map(|_| ()).map_err(|e| (0, e.to_string()));
            release_spans();
            r
        });
        usize::from(parsed.is_err())
    }

    fn analyze(&self, path: &str, src: &str, cx: Context<'_>) -> FileAnalysis {
        let mut analysis = FileAnalysis::default();
        let tokens = lex::tokens(src);
        // Files whose only mentions are comments (the usual state after a migration) need
        // no syntax tree.
        let lexical_only = !cx.mentions_declared && names_only_in_comments(src, &tokens, cx);
        let parsed = if lexical_only {
            Ok((Vec::new(), Vec::new(), Vec::new()))
        } else {
            depth::bounded_parse(&parse_text(src), MAX_PARSE_BYTES, Syntax::Rust, || {
                let result = match parse(src) {
                    Ok(file) => {
                        let mut c = syntax::Classifier::new(cx, path, &file);
                        c.visit_file(&file);
                        let fixes = fixes::collect(&file, path, src, cx);
                        Ok((c.contexts, c.occurrences, fixes))
                    }
                    Err(e) => Err((e.span().byte_range().start, e.to_string())),
                };
                release_spans();
                result
            })
        };
        let (contexts, idents, fixes) = parsed.unwrap_or_else(|error| {
            analysis.parse_error = Some(error);
            (Vec::new(), Vec::new(), Vec::new())
        });
        analysis.fixes = fixes;
        let contexts = super::Contexts::new(contexts);
        let context_at = |start: usize, end: usize| -> Option<Ctx> { contexts.at(start, end) };

        for t in &tokens {
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
                            if quote(m.start.checked_sub(1).and_then(|p| bytes.get(p)))
                                && quote(after)
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
}
