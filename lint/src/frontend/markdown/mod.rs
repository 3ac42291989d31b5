//! The Markdown front end (`.md`, `.markdown`, `.mdx`), on pulldown-cmark.
//!
//! - A fenced block tagged `ts`/`tsx`/`js`/`jsx`/`mjs`/`cjs`/`mts`/`cts`/`typescript`/
//!   `javascript` is linted by the TypeScript front end, and one tagged `rust`/`rs` by the
//!   Rust front end, so `ctx.on('agent/turn-end', …)` in a cookbook is an error exactly as in
//!   a `.ts` file; positions are those of the `.md` file. A block that does not parse on its
//!   own is retried wrapped (TypeScript: in an interface, for signature lists such as
//!   generated catalog entries; Rust: in a function, for statements), then scanned lexically.
//! - A fence whose info string contains `ignore-check` (a quotation of old code) is skipped.
//! - Every other mention — prose, inline code, headings, tables, untagged or other-language
//!   blocks — is a warning (`mention`); a mention inside an HTML comment is a note
//!   (`comment`). Words without the `agent/` prefix never match.
//! - `<!-- mirrorless: allow(ML006) reason -->` suppresses like a code comment.

mod code_ranges;
mod entries;
mod tables;

pub use entries::ENTRY_FIX;

use super::rust::Rust;
use super::typescript;
use super::{CommentText, Context, Declarations, FileAnalysis, FrontEnd, OccurrenceFix};
use crate::model::{Applicability, Edit, Fix, Occurrence, Role};
use code_ranges::CodeRanges;
use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};
use std::ops::Range;

/// The Markdown front end.
#[derive(Debug, Clone, Copy, Default)]
pub struct Markdown;

/// Which front end lints a fenced block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FenceLang {
    /// TypeScript/JavaScript, with the synthetic file name that picks the dialect.
    Script(&'static str),
    /// Rust.
    Rust,
    /// Anything else (or no tag): prose-like, every name is a mention.
    Other,
}

fn fence_lang(info: &str) -> FenceLang {
    let tag = info
        .split(|c: char| c.is_whitespace() || c == ',' || c == '{')
        .find(|s| !s.is_empty())
        .unwrap_or("")
        .to_ascii_lowercase();
    match tag.as_str() {
        "ts" | "typescript" | "mts" | "cts" => FenceLang::Script("fence.ts"),
        "tsx" => FenceLang::Script("fence.tsx"),
        "js" | "javascript" | "mjs" | "cjs" | "node" => FenceLang::Script("fence.js"),
        "jsx" => FenceLang::Script("fence.jsx"),
        "rust" | "rs" => FenceLang::Rust,
        _ => FenceLang::Other,
    }
}

/// One code block of the document.
#[derive(Debug, Clone)]
struct Block {
    /// The whole block, fences included.
    range: Range<usize>,
    lang: FenceLang,
    /// The info string says `ignore-check`.
    ignored: bool,
    /// The content, as source ranges (one per line or run of lines).
    pieces: Vec<Range<usize>>,
}

/// The block's content and a map from content offsets back to source offsets.
struct Content {
    text: String,
    /// `(content offset, source offset, length)` of each piece.
    segments: Vec<(usize, usize, usize)>,
}

impl Content {
    fn of(src: &str, pieces: &[Range<usize>]) -> Content {
        let mut text = String::new();
        let mut segments = Vec::new();
        for p in pieces {
            if let Some(s) = src.get(p.clone()) {
                segments.push((text.len(), p.start, s.len()));
                text.push_str(s);
            }
        }
        Content { text, segments }
    }

    fn to_source(&self, offset: usize) -> usize {
        let i = self
            .segments
            .partition_point(|&(c, _, len)| c + len < offset)
            .min(self.segments.len().saturating_sub(1));
        match self.segments.get(i) {
            Some(&(c, s, len)) => s + offset.saturating_sub(c).min(len),
            None => 0,
        }
    }
}

fn parse_blocks(src: &str) -> (Vec<Block>, Vec<Range<usize>>) {
    let mut blocks: Vec<Block> = Vec::new();
    let mut inline_code = Vec::new();
    let mut open: Option<Block> = None;
    let opts = Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS;
    for (event, range) in Parser::new_ext(src, opts).into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(kind)) => {
                let (lang, ignored) = match &kind {
                    CodeBlockKind::Fenced(info) => {
                        (fence_lang(info), info.contains("ignore-check"))
                    }
                    CodeBlockKind::Indented => (FenceLang::Other, false),
                };
                open = Some(Block {
                    range,
                    lang,
                    ignored,
                    pieces: Vec::new(),
                });
            }
            Event::End(TagEnd::CodeBlock) => {
                if let Some(b) = open.take() {
                    blocks.push(b);
                }
            }
            Event::Text(_) => {
                if let Some(b) = open.as_mut() {
                    b.pieces.push(range);
                }
            }
            Event::Code(_) => inline_code.push(range),
            _ => {}
        }
    }
    if let Some(b) = open.take() {
        blocks.push(b);
    }
    (blocks, inline_code)
}

/// `<!-- … -->` comments outside code: (whole range, content range).
fn html_comments(src: &str, code: &CodeRanges) -> Vec<(Range<usize>, Range<usize>)> {
    // The two finders are built once: `str::find` set up a two-way search at each call.
    static OPEN: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new("<!--"));
    static CLOSE: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new("-->"));
    let bytes = src.as_bytes();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(p) = OPEN.find(&bytes[from..]) {
        let start = from + p;
        let content_start = start + 4;
        let (end, content_end) = match CLOSE.find(&bytes[content_start..]) {
            Some(q) => (content_start + q + 3, content_start + q),
            None => (src.len(), src.len()),
        };
        if code.holds(start) {
            from = content_start;
            continue;
        }
        out.push((start..end, content_start..content_end));
        from = end.max(content_start);
    }
    out
}

/// Lints one code block with its front end; occurrences and suppression comments come back
/// in source offsets.
fn lint_block(src: &str, block: &Block, cx: Context<'_>, analysis: &mut FileAnalysis) {
    let content = Content::of(src, &block.pieces);
    if !cx.catalog.may_contain(content.text.as_bytes()) && cx.symbols.is_empty() {
        return;
    }
    let run = |text: &str| -> FileAnalysis {
        match block.lang {
            FenceLang::Script(name) => typescript::analyze_as(name, text, cx),
            FenceLang::Rust => Rust.analyze("fence.rs", text, cx),
            FenceLang::Other => FileAnalysis::default(),
        }
    };
    let mut result = run(&content.text);
    let mut shift = 0;
    if result.parse_error.is_some() {
        // Snippets are often fragments: a list of interface members, or statements.
        let prefix = match block.lang {
            FenceLang::Script(_) => "interface MirrorlessSnippet {\n",
            _ => "fn mirrorless_snippet() {\n",
        };
        let wrapped = format!("{prefix}{}\n}}\n", content.text);
        let second = run(&wrapped);
        if second.parse_error.is_none() {
            result = second;
            shift = prefix.len();
        }
    }
    let lexical = result.parse_error.as_ref().map(|(offset, msg)| {
        let line = src[..content.to_source(*offset)].matches('\n').count() + 1;
        format!("found by the lexical scan: the code block does not parse (line {line}: {msg})")
    });
    let len = content.text.len();
    let inside = |o: usize| o >= shift && o - shift <= len;
    let bytes = src.as_bytes();
    for o in result.occurrences {
        if !inside(o.start) || !inside(o.end) {
            continue;
        }
        let (start, end) = (
            content.to_source(o.start - shift),
            content.to_source(o.end - shift),
        );
        // In a block that does not parse, a bare name outside any string is pseudocode
        // (`emit agent/stream-chunk`): prose, not a code reference.
        let quoted = start
            .checked_sub(1)
            .and_then(|p| bytes.get(p))
            .is_some_and(|b| matches!(b, b'"' | b'\'' | b'`'));
        let role = if lexical.is_some() && o.role == Role::Reference && !quoted {
            Role::Mention
        } else {
            o.role
        };
        analysis.occurrences.push(Occurrence {
            role,
            start,
            end,
            via: o.via.or_else(|| lexical.clone()),
            ..o
        });
    }
    // Fixes map back like occurrences; a new line inside an indented block gets the block's
    // indentation.
    // What precedes the block's lines in the document (list indentation, `> `).
    let indent = {
        let first = block.pieces.first().map_or(block.range.start, |p| p.start);
        let line_start = src[..first].rfind('\n').map_or(0, |i| i + 1);
        src[line_start..first].to_owned()
    };
    for f in result.fixes {
        let edits_inside = f.fix.edits.iter().all(|e| inside(e.start) && inside(e.end))
            && f.fix
                .claims
                .iter()
                .all(|c| inside(c.start) && inside(c.end));
        if !inside(f.start) || !inside(f.end) || !edits_inside {
            continue;
        }
        let mut fix = f.fix;
        for e in &mut fix.edits {
            e.start = content.to_source(e.start - shift);
            e.end = content.to_source(e.end - shift);
            if !indent.is_empty() {
                e.replacement = e.replacement.replace('\n', &format!("\n{indent}"));
            }
        }
        for c in &mut fix.claims {
            c.start = content.to_source(c.start - shift);
            c.end = content.to_source(c.end - shift);
        }
        analysis.fixes.push(OccurrenceFix {
            start: content.to_source(f.start - shift),
            end: content.to_source(f.end - shift),
            fix,
        });
    }
    for c in result.suppression_comments {
        if inside(c.start) {
            analysis.suppression_comments.push(CommentText {
                start: content.to_source(c.start - shift),
                text: c.text,
            });
        }
    }
}

impl FrontEnd for Markdown {
    fn name(&self) -> &'static str {
        "markdown"
    }

    fn handles_extension(&self, extension: &std::ffi::OsStr) -> bool {
        ["md", "markdown", "mdx"]
            .iter()
            .any(|x| extension.eq_ignore_ascii_case(x))
    }

    fn syntax_errors(&self, _path: &str, src: &str) -> usize {
        // Code blocks that parse neither alone nor wrapped (as `lint_block` tries them).
        let (blocks, _) = parse_blocks(src);
        blocks
            .iter()
            .filter(|b| !b.ignored && b.lang != FenceLang::Other)
            .filter(|b| {
                let text = Content::of(src, &b.pieces).text;
                let (ok, prefix) = match b.lang {
                    FenceLang::Script(name) => (
                        typescript::parses(name, &text).is_ok(),
                        "interface MirrorlessSnippet {\n",
                    ),
                    _ => (
                        Rust.syntax_errors("fence.rs", &text) == 0,
                        "fn mirrorless_snippet() {\n",
                    ),
                };
                let wrapped = || format!("{prefix}{text}\n}}\n");
                let ok_wrapped = || match b.lang {
                    FenceLang::Script(name) => typescript::parses(name, &wrapped()).is_ok(),
                    _ => Rust.syntax_errors("fence.rs", &wrapped()) == 0,
                };
                !ok && !ok_wrapped()
            })
            .count()
    }

    /// [`FrontEnd::analyze`] reports nothing for a file without a removed name or a
    /// declared identifier, so the namespace prefix alone is not enough.
    fn may_hold_name(&self, src: &[u8], catalog: &crate::catalog::Catalog) -> bool {
        catalog.may_contain_name(src)
    }

    fn declarations(&self, _path: &str, _src: &str, _cx: Context<'_>) -> Declarations {
        // A snippet's constants are local to the snippet.
        Declarations::default()
    }

    fn analyze(&self, _path: &str, src: &str, cx: Context<'_>) -> FileAnalysis {
        let mut analysis = FileAnalysis::default();
        // `_agent/turn-end_` is emphasis, not a longer name: blank the underscores (same byte
        // length, so offsets stay valid) before matching.
        let names = if src.contains('_') {
            cx.catalog.find_names(&src.replace('_', " "))
        } else {
            cx.catalog.find_names(src)
        };
        if names.is_empty() && !cx.symbols.idents().any(|i| src.contains(i)) {
            // Only a namespace prefix matched the prefilter: nothing to report.
            return analysis;
        }
        let (blocks, inline_code) = parse_blocks(src);
        let code = CodeRanges::new(
            blocks
                .iter()
                .map(|b| b.range.clone())
                .chain(inline_code.iter().cloned()),
        );
        let comments = html_comments(src, &code);
        let mut suppressions = Vec::new();
        for (whole, content) in &comments {
            let text = &src[content.clone()];
            if text.trim_start().starts_with("mirrorless:") {
                analysis.suppression_comments.push(CommentText {
                    start: whole.start,
                    text: text.to_owned(),
                });
                suppressions.push(whole.clone());
            }
        }
        for b in &blocks {
            if !b.ignored && b.lang != FenceLang::Other {
                lint_block(src, b, cx, &mut analysis);
            }
        }
        for m in names {
            if suppressions
                .iter()
                .any(|r| r.start <= m.start && m.end <= r.end)
            {
                continue;
            }
            let block = blocks
                .iter()
                .find(|b| b.range.start <= m.start && m.end <= b.range.end);
            let role = match block {
                Some(b) if b.ignored || b.lang != FenceLang::Other => continue,
                Some(_) => Role::Mention,
                None if comments
                    .iter()
                    .any(|(r, _)| r.start <= m.start && m.end <= r.end) =>
                {
                    Role::Comment
                }
                None => Role::Mention,
            };
            analysis.occurrences.push(Occurrence {
                role,
                event: cx.catalog.events()[m.event].name.clone(),
                start: m.start,
                end: m.end,
                via: None,
            });
        }
        analysis.occurrences.sort_by_key(|o| (o.start, o.end));
        whole_entries(src, &code, cx, &mut analysis);
        table_rows(src, &code, &mut analysis);
        analysis
    }
}

/// Every mention in the first cell of a table row listing events ([`tables`]) without a fix of
/// its own gets the fix that takes it out of the table.
fn table_rows(src: &str, code: &CodeRanges, analysis: &mut FileAnalysis) {
    let mut fixes = Vec::new();
    for o in &analysis.occurrences {
        if o.role != Role::Mention
            || analysis
                .fixes
                .iter()
                .any(|f| f.start == o.start && f.end == o.end)
        {
            continue;
        }
        if let Some(r) = tables::row_edit(src, o.start..o.end, code) {
            fixes.push(OccurrenceFix {
                start: o.start,
                end: o.end,
                fix: Fix::new(
                    Applicability::MachineApplicable,
                    format!("{}, `{}`", tables::ROW_FIX, o.event),
                    vec![Edit::new(r.start, r.end, "")],
                ),
            });
        }
    }
    analysis.fixes.extend(fixes);
}

/// Every occurrence inside a catalogue entry of its event, or on an index line linking to one,
/// gets the fix that deletes the entry (or the index line) as a whole, instead of its own.
fn whole_entries(src: &str, code: &CodeRanges, cx: Context<'_>, analysis: &mut FileAnalysis) {
    let found = entries::entries(src, code, cx.catalog);
    if found.is_empty() {
        return;
    }
    let mut fixes = Vec::new();
    for o in &analysis.occurrences {
        let edit = found.iter().find_map(|e| {
            if e.event != o.event {
                return None;
            }
            if e.range.start <= o.start && o.end <= e.range.end {
                return Some(e.range.clone());
            }
            entries::index_line(src, o.start, e)
        });
        if let Some(r) = edit {
            fixes.push(OccurrenceFix {
                start: o.start,
                end: o.end,
                fix: Fix::new(
                    Applicability::MachineApplicable,
                    format!("{}, `{}`", entries::ENTRY_FIX, o.event),
                    vec![Edit::new(r.start, r.end, "")],
                ),
            });
        }
    }
    analysis
        .fixes
        .retain(|f| !fixes.iter().any(|n| n.start == f.start && n.end == f.end));
    analysis.fixes.extend(fixes);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fence_tags_pick_the_front_end() {
        assert_eq!(
            fence_lang("ts cordis-catalog"),
            FenceLang::Script("fence.ts")
        );
        assert_eq!(fence_lang("TypeScript"), FenceLang::Script("fence.ts"));
        assert_eq!(fence_lang("jsx {1,3}"), FenceLang::Script("fence.jsx"));
        assert_eq!(fence_lang("rust,ignore"), FenceLang::Rust);
        assert_eq!(fence_lang(""), FenceLang::Other);
        assert_eq!(fence_lang("json"), FenceLang::Other);
    }

    #[test]
    fn content_offsets_map_back_through_indentation() {
        let src = "- item\n\n  ```ts\n  a('x')\n  b('y')\n  ```\n";
        let (blocks, _) = parse_blocks(src);
        let c = Content::of(src, &blocks[0].pieces);
        assert_eq!(c.text, "a('x')\nb('y')\n");
        let y = c.text.find('y').unwrap();
        assert_eq!(&src[c.to_source(y)..c.to_source(y) + 1], "y");
    }

    /// `<!-- … -->` comments outside code as `str::find` found them before issue #32 item 1:
    /// the oracle of [`html_comments_are_those_of_str_find`].
    fn html_comments_reference(
        src: &str,
        code: &[Range<usize>],
    ) -> Vec<(Range<usize>, Range<usize>)> {
        let mut out = Vec::new();
        let mut from = 0;
        while let Some(p) = src[from..].find("<!--") {
            let start = from + p;
            let content_start = start + 4;
            let (end, content_end) = match src[content_start..].find("-->") {
                Some(q) => (content_start + q + 3, content_start + q),
                None => (src.len(), src.len()),
            };
            if code.iter().any(|r| r.start <= start && start < r.end) {
                from = content_start;
                continue;
            }
            out.push((start..end, content_start..content_end));
            from = end.max(content_start);
        }
        out
    }

    /// Issue #32 item 1: the comments found with the finders built once are those `str::find`
    /// finds, on generated documents (comments open, closed, unclosed, nested, overlapping
    /// `<!-->`, in inline code and fences, beside non-ASCII text).
    #[test]
    fn html_comments_are_those_of_str_find() {
        const PIECES: &[&str] = &[
            "<!--",
            "-->",
            "<!-->",
            "<!---->",
            "<!-- mirrorless: allow(ML006) x -->",
            "--",
            "<!",
            "`",
            "```\n",
            "\n",
            " ",
            "agent/turn-end",
            "é",
            "-",
            ">",
        ];
        let mut rng = crate::test_rng::Rng(0x4c3e_0a11_7f29);
        let mut found = 0;
        for _ in 0..5_000 {
            let src: String = (0..rng.below(14)).map(|_| rng.pick(PIECES)).collect();
            let (blocks, inline) = parse_blocks(&src);
            let code: Vec<Range<usize>> = blocks
                .iter()
                .map(|b| b.range.clone())
                .chain(inline)
                .collect();
            let expected = html_comments_reference(&src, &code);
            found += expected.len();
            assert_eq!(
                html_comments(&src, &CodeRanges::new(code.iter().cloned())),
                expected,
                "{src:?}"
            );
        }
        assert!(found > 2_000, "too few comments generated: {found}");
    }

    #[test]
    fn html_comments_skip_code() {
        let src = "`<!-- no -->` <!-- yes -->\n";
        let code = [Range { start: 0, end: 13 }];
        let found = html_comments(src, &CodeRanges::new(code));
        assert_eq!(found.len(), 1);
        assert_eq!(&src[found[0].1.clone()], " yes ");
    }
}
