//! The Rust front end: a lexical scan (comments and string literals, never fails) plus a syn
//! pass that gives each occurrence its context and resolves consts, statics, associated
//! consts, typed events, serde-renamed variants and aliases across files.

mod lex;
mod syntax;

use super::{CommentText, Context, Declaration, FileAnalysis, FrontEnd};
use crate::model::{Occurrence, Role};
use lex::TokenKind;
use std::borrow::Cow;
use std::path::Path;
use syn::visit::Visit;
use syntax::Ctx;

/// The Rust front end (`*.rs`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Rust;

/// syn strips a BOM and a shebang line before parsing, which would shift every byte offset;
/// blank them out instead so offsets stay those of the file.
fn parse_text(src: &str) -> Cow<'_, str> {
    let mut text = Cow::Borrowed(src);
    if let Some(rest) = src.strip_prefix('\u{feff}') {
        text = Cow::Owned(format!("   {rest}"));
    }
    if text.starts_with("#!") && !text[2..].trim_start().starts_with('[') {
        let end = text.find('\n').unwrap_or(text.len());
        let blanked = " ".repeat(end) + &text[end..];
        text = Cow::Owned(blanked);
    }
    text
}

fn parse(src: &str) -> Result<syn::File, syn::Error> {
    syn::parse_file(&parse_text(src))
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

    fn declarations(&self, path: &str, src: &str, cx: Context<'_>) -> Vec<Declaration> {
        let found = match parse(src) {
            Ok(file) => {
                let mut c = syntax::Collector {
                    cx,
                    path,
                    found: Vec::new(),
                };
                c.visit_file(&file);
                c.found
            }
            Err(_) => Vec::new(),
        };
        release_spans();
        found
    }

    fn analyze(&self, _path: &str, src: &str, cx: Context<'_>) -> FileAnalysis {
        let mut analysis = FileAnalysis::default();
        let (contexts, idents) = match parse(src) {
            Ok(file) => {
                let mut c = syntax::Classifier::new(cx, &file);
                c.visit_file(&file);
                (c.contexts, c.occurrences)
            }
            Err(e) => {
                analysis.parse_error = Some((e.span().byte_range().start, e.to_string()));
                (Vec::new(), Vec::new())
            }
        };
        release_spans();
        let context_at = |start: usize, end: usize| -> Option<Ctx> {
            contexts
                .iter()
                .filter(|(r, _)| r.start <= start && end <= r.end)
                .min_by_key(|(r, _)| r.end - r.start)
                .map(|(_, c)| *c)
        };

        let tokens = lex::tokens(src);
        for t in &tokens {
            if t.kind == TokenKind::Comment {
                let text = &src[t.content_start..t.content_end];
                if text.contains("mirrorless:") {
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
        occ.sort_by_key(|o| (o.start, o.end));
        occ.dedup_by(|a, b| a.start == b.start && a.end == b.end && a.event == b.event);
        analysis.occurrences = occ;
        analysis
    }
}
