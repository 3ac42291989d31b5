//! Front ends: one module per language, each turning source text into classified
//! [`Occurrence`]s. Everything downstream (rules, severities, suppressions, baselines,
//! renderers) is language-neutral.
//!
//! A front end takes part in a two-pass run:
//!
//! 1. [`FrontEnd::declarations`] collects identifiers that stand for a removed event in this
//!    file: consts, statics, typed events, enum variants, aliases. The engine repeats this on
//!    every file mentioning an identifier collected so far until nothing new appears.
//! 2. [`FrontEnd::analyze`] reports every occurrence, using the [`Symbols`] of the whole run
//!    to resolve uses of those identifiers across files.

pub mod depth;
pub mod locals;
pub mod markdown;
pub mod migrate;
pub mod rust;
pub mod typescript;

use crate::catalog::Catalog;
use crate::hash::HashSet;
use crate::model::{Fix, Occurrence};
use std::collections::BTreeMap;
use std::ops::Range;
use std::path::Path;

/// What kind of identifier a declaration introduces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DeclKind {
    /// A `const`/`static` (or an alias of one) whose value is a removed name.
    Const,
    /// A type standing for a removed event: a typed event whose name const, name method or
    /// event attribute is a removed name, or an alias of such a type.
    Type,
    /// An enum variant renamed to a removed name; `owner` is the enum.
    Variant,
}

/// One identifier that stands for a removed event.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Declaration {
    /// The identifier (`TURN_START`, `TurnStart`, the variant ident).
    pub ident: String,
    /// What it is.
    pub kind: DeclKind,
    /// For variants, the enum that owns it; for associated consts of an inherent impl, the
    /// type.
    pub owner: Option<String>,
    /// The removed event it stands for.
    pub event: String,
    /// The file it is declared in, as reported.
    pub file: String,
    /// Where it is declared, `path:line`.
    pub location: String,
    /// How it is described in findings, e.g. "const `TURN_START`".
    pub description: String,
    /// Names a path may use to reach it: the declaring file's directories and stem, its
    /// inline modules, and its package name. A qualified path or import through a module
    /// that is none of these (`llm::StreamChunk`) is another item with the same name.
    pub modules: Vec<String>,
    /// For a typed event: its struct, when the file declaring the event declares it too, with
    /// named fields (or none) and no generics. What a fix needs to build a value of it.
    pub shape: Option<TypeShape>,
}

/// The struct of a typed event (see [`Declaration::shape`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TypeShape {
    /// Its named fields, in declaration order (none for a unit struct).
    pub fields: Vec<FieldShape>,
}

/// One named field of a typed event's struct.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FieldShape {
    /// The field's name.
    pub name: String,
    /// Its type, as written in the declaring file.
    pub ty: String,
    /// Whether code outside the declaring module may name it (`pub`, `pub(crate)` …).
    pub visible: bool,
}

/// Every declaration collected in pass 1, by identifier.
#[derive(Debug, Clone, Default)]
pub struct Symbols {
    by_ident: BTreeMap<String, Vec<Declaration>>,
    seen: HashSet<Declaration>,
}

impl Symbols {
    /// Adds a declaration; returns whether it was new. Call [`Symbols::finish`] after a batch
    /// of inserts so lookups see a deterministic order.
    pub fn insert(&mut self, d: Declaration) -> bool {
        if !self.seen.insert(d.clone()) {
            return false;
        }
        self.by_ident.entry(d.ident.clone()).or_default().push(d);
        true
    }

    /// Orders every identifier's declarations (lookups return the first that fits).
    pub fn finish(&mut self) {
        for list in self.by_ident.values_mut() {
            list.sort();
        }
    }

    /// Every declaration, sorted (for the cache, which compares sets of them).
    pub fn sorted(&self) -> Vec<Declaration> {
        self.by_ident.values().flatten().cloned().collect()
    }

    /// Every declaration of `ident`.
    pub fn all_of(&self, ident: &str) -> &[Declaration] {
        self.by_ident.get(ident).map_or(&[], Vec::as_slice)
    }

    /// The declarations of `ident` of `kind`.
    pub fn get(&self, ident: &str, kind: DeclKind) -> Option<&Declaration> {
        self.by_ident
            .get(ident)
            .and_then(|l| l.iter().find(|d| d.kind == kind))
    }

    /// The const `ident` as reached by a path whose previous segment is `prev`: a free const
    /// matches any path but one through a type (`Other::IDENT` is an associated const of
    /// `Other`), an associated const only `Owner::IDENT` or `Self::IDENT`.
    pub fn get_const(&self, ident: &str, prev: Option<&str>) -> Option<&Declaration> {
        self.by_ident.get(ident).and_then(|l| {
            l.iter().find(|d| {
                d.kind == DeclKind::Const
                    && match d.owner.as_deref() {
                        None => prev.is_none_or(|p| !p.starts_with(char::is_uppercase)),
                        Some(owner) => prev.is_some_and(|p| p == owner || p == "Self"),
                    }
            })
        })
    }

    /// Every declaration made at the same site as `d` (a const array of several removed names
    /// declares one entry per event).
    pub fn same_site(&self, d: &Declaration) -> Vec<&Declaration> {
        self.by_ident.get(&d.ident).map_or_else(Vec::new, |l| {
            l.iter()
                .filter(|x| x.kind == d.kind && x.owner == d.owner && x.location == d.location)
                .collect()
        })
    }

    /// The variant `ident` of enum `owner`.
    pub fn variant(&self, owner: &str, ident: &str) -> Option<&Declaration> {
        self.by_ident.get(ident).and_then(|l| {
            l.iter()
                .find(|d| d.kind == DeclKind::Variant && d.owner.as_deref() == Some(owner))
        })
    }

    /// Whether `ident` is declared with any kind.
    pub fn contains(&self, ident: &str) -> bool {
        self.by_ident.contains_key(ident)
    }

    /// Every declared identifier.
    pub fn idents(&self) -> impl Iterator<Item = &str> {
        self.by_ident.keys().map(String::as_str)
    }

    /// Number of declarations.
    pub fn len(&self) -> usize {
        self.by_ident.values().map(Vec::len).sum()
    }

    /// Whether nothing was declared.
    pub fn is_empty(&self) -> bool {
        self.by_ident.is_empty()
    }

    /// Every declaration, ordered by identifier.
    pub fn all(&self) -> impl Iterator<Item = &Declaration> {
        self.by_ident.values().flatten()
    }
}

/// Call names that decide whether a name is subscribed to or emitted, plus receivers that
/// belong to a foreign bus. Built from the defaults and the configuration.
#[derive(Debug, Clone)]
pub struct CallNames {
    /// Methods/functions/macros/attributes that subscribe.
    pub subscribe: Vec<String>,
    /// Methods/functions/macros/attributes that emit.
    pub emit: Vec<String>,
    /// Receivers (last identifier of the receiver expression) whose events are not ours.
    pub ignore_receivers: Vec<String>,
}

/// Verbs that make a call a subscription also as a word of a longer name
/// (`subscribe_typed`, `try_listen`).
pub const SUBSCRIBE_VERBS: &[&str] = &["subscribe", "unsubscribe", "listen", "unlisten"];

/// Verbs that make a call an emit also as a word of a longer name (`emit_typed`,
/// `publish_event`, `try_emit`).
pub const EMIT_VERBS: &[&str] = &[
    "emit",
    "publish",
    "dispatch",
    "fire",
    "trigger",
    "broadcast",
];

impl CallNames {
    /// Whether a call, macro or attribute named `name` subscribes or emits.
    pub fn role_of(&self, name: &str) -> Option<crate::model::Role> {
        use crate::model::Role;
        // A verb is a word of a longer name only beside a `_`: without one, no verb is.
        let underscore = name.contains('_');
        let word = |verbs: &[&str]| {
            underscore
                && verbs.iter().any(|v| {
                    name.strip_prefix(v).is_some_and(|r| r.starts_with('_'))
                        || name.strip_suffix(v).is_some_and(|r| r.ends_with('_'))
                })
        };
        if self.subscribe.iter().any(|n| n == name) {
            Some(Role::Subscribe)
        } else if self.emit.iter().any(|n| n == name) {
            Some(Role::Emit)
        } else if word(SUBSCRIBE_VERBS) {
            Some(Role::Subscribe)
        } else if word(EMIT_VERBS) {
            Some(Role::Emit)
        } else {
            None
        }
    }
}

/// Default subscription call names.
pub const DEFAULT_SUBSCRIBE: &[&str] = &[
    "on",
    "once",
    "off",
    "subscribe",
    "subscribe_to",
    "unsubscribe",
    "listen",
    "listen_once",
    "unlisten",
    "add_listener",
    "remove_listener",
    "add_event_listener",
    "remove_event_listener",
    "add_handler",
    "on_event",
    "handler",
    "event_handler",
    "listener",
    "subscriber",
];

/// Default emit call names.
pub const DEFAULT_EMIT: &[&str] = &[
    "emit",
    "emit_to",
    "emit_all",
    "emit_event",
    "fire",
    "trigger",
    "dispatch",
    "publish",
    "broadcast",
    "send_event",
    "notify",
    "parallel",
    "serial",
    "bail",
    "waterfall",
];

impl Default for CallNames {
    fn default() -> Self {
        CallNames {
            subscribe: DEFAULT_SUBSCRIBE.iter().map(|s| (*s).to_owned()).collect(),
            emit: DEFAULT_EMIT.iter().map(|s| (*s).to_owned()).collect(),
            ignore_receivers: Vec::new(),
        }
    }
}

/// Everything a front end may consult.
#[derive(Debug, Clone, Copy)]
pub struct Context<'a> {
    /// The removed events.
    pub catalog: &'a Catalog,
    /// Declarations collected so far (pass 1) or in total (pass 2).
    pub symbols: &'a Symbols,
    /// Subscription/emit call names.
    pub calls: &'a CallNames,
    /// The file mentions an identifier declared in pass 1, so it needs a full parse even if
    /// every removed name in it sits in a comment.
    pub mentions_declared: bool,
}

/// A comment that may carry a suppression, as found by a front end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommentText {
    /// Start byte of the comment token.
    pub start: usize,
    /// The comment's text, without its markers.
    pub text: String,
}

/// What pass 2 found in one file.
#[derive(Debug, Clone, Default)]
pub struct FileAnalysis {
    /// Every classified occurrence.
    pub occurrences: Vec<Occurrence>,
    /// Comments containing `mirrorless:`.
    pub suppression_comments: Vec<CommentText>,
    /// If the file did not parse: the byte offset and the parser's message.
    pub parse_error: Option<(usize, String)>,
    /// Fixes for some of the occurrences, keyed by the occurrence's byte range.
    pub fixes: Vec<OccurrenceFix>,
    /// What [`FrontEnd::syntax_errors`] counts in this text, when the analysis parsed it the
    /// same way (`None`: it did not, or counts otherwise). `--fix` checks the fixed text with
    /// this instead of parsing it once more.
    pub syntax_errors: Option<usize>,
    /// Occurrences that are the human's part (see [`HumanPart`]): their findings get no fix,
    /// whatever fix the front end may also have offered.
    pub human: Vec<HumanPart>,
    /// What a script declares for the run-level host pass, read from this analysis's parse
    /// (`None`: not parsed here, the pass reads it).
    pub(crate) host: Option<crate::host_events::HostDeclarations>,
}

/// Whether `path` is a test file (`*.spec.*`, `*.test.*`, or under `tests/`, `__tests__/`).
pub(crate) fn is_test(path: &str) -> bool {
    let path = path.replace('\\', "/");
    let name = path.rsplit('/').next().unwrap_or(&path);
    name.contains(".spec.")
        || name.contains(".test.")
        || path
            .split('/')
            .any(|seg| seg == "tests" || seg == "__tests__")
}

/// What a finding of the human's part says upstream did with a test subscribing to the removed
/// names in a loop.
pub(crate) const HUMAN_LOOP: &str = "the human's part: this test subscribes in a loop over removed names and pins what they announced, which no rewrite keeps (`session/event` announces the durable twins, under other names, with other payloads): rewrite it by hand as one `session/event` listener filtering the durable twins, with its expected names, as upstream rewrote its like in `05b75abbca` and `140f818a42`; `--fix` leaves it, and the declarations it still needs, to you";

/// An occurrence only a human can migrate: a test that pins a removed mirror's own behaviour
/// (what a loop over the names heard), which upstream rewrote by hand. Its finding says what upstream did with its like.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HumanPart {
    /// Start of the occurrence.
    pub start: usize,
    /// End of the occurrence.
    pub end: usize,
    /// The test it is part of (the function body holding it): every other finding in it is
    /// the human's part too, left without a source edit (a half-rewritten test pins nothing).
    pub scope: std::ops::Range<usize>,
    /// What to do with it, and what upstream did with its like.
    pub reason: String,
}

/// A fix a front end offers for the occurrence at `start..end` (the range of its
/// [`Occurrence`]); the engine attaches it to that occurrence's finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OccurrenceFix {
    /// Start of the occurrence.
    pub start: usize,
    /// End of the occurrence.
    pub end: usize,
    /// The fix, with edits in byte offsets of the analysed text.
    pub fix: Fix,
}

/// What pass 1 found in one file.
#[derive(Debug, Clone, Default)]
pub struct Declarations {
    /// Identifiers that stand for a removed event.
    pub found: Vec<Declaration>,
    /// Identifiers that items of this file refer to but that could not be resolved yet
    /// (`const B: &str = a::A;` before `A` is known). The file is collected again once one of
    /// them is declared.
    pub pending: Vec<String>,
    /// `pending` is not listed yet: it is what [`FrontEnd::pending_words`] finds in the text,
    /// read only when a round of resolution needs it (a run that declares no identifier never
    /// does; issue 32 item 1).
    pub pending_later: bool,
}

/// The first of `fronts` that handles `path`, its extension read once (issue 32 item 1:
/// asking each front end for the extension again cost more than reading the small files).
pub fn front_for<'f>(fronts: &'f [Box<dyn FrontEnd>], path: &Path) -> Option<&'f dyn FrontEnd> {
    let extension = path.extension()?;
    fronts
        .iter()
        .find(|f| f.handles_extension(extension))
        .map(|f| &**f)
}

/// A language front end.
pub trait FrontEnd: Sync {
    /// Short name, e.g. `rust`.
    fn name(&self) -> &'static str;
    /// Whether a walked file with this extension ([`Path::extension`]) belongs to this front
    /// end: the front ends go by extension alone.
    fn handles_extension(&self, extension: &std::ffi::OsStr) -> bool;
    /// Whether a walked file belongs to this front end.
    fn handles(&self, path: &Path) -> bool {
        path.extension().is_some_and(|e| self.handles_extension(e))
    }
    /// The byte prefilter of a file before any declaration is known: whether `src` can hold
    /// a finding of a removed name, or declare an identifier standing for one. A file that
    /// fails it is analysed only if it mentions an identifier pass 1 declares elsewhere.
    /// Default: a name or its namespace prefix ([`Catalog::may_contain`]), for front ends
    /// that see names assembled from a prefix (`concat!("agent/", …)`).
    fn may_hold_name(&self, src: &[u8], catalog: &Catalog) -> bool {
        catalog.may_contain(src)
    }
    /// Pass 1: identifiers declared in `src` that stand for removed events.
    fn declarations(&self, path: &str, src: &str, cx: Context<'_>) -> Declarations;
    /// Pass 2: every occurrence in `src`.
    fn analyze(&self, path: &str, src: &str, cx: Context<'_>) -> FileAnalysis;
    /// [`FrontEnd::declarations`] and [`FrontEnd::analyze`] under the same context, from one
    /// parse where the front end can share it: a candidate analysed while the walk goes on
    /// needs both before any identifier is declared.
    fn declarations_and_analysis(
        &self,
        path: &str,
        src: &str,
        cx: Context<'_>,
    ) -> (Declarations, FileAnalysis) {
        (
            self.declarations(path, src, cx),
            self.analyze(path, src, cx),
        )
    }
    /// The pending identifiers of a file whose [`Declarations::pending_later`] is set: those
    /// its [`FrontEnd::declarations`] would have listed.
    fn pending_words(&self, _src: &str) -> Vec<String> {
        Vec::new()
    }
    /// How many syntax errors `src` has, as this front end counts them (0 or 1 for a source
    /// file; failing code blocks for Markdown). `--fix` drops a fix that raises the count.
    fn syntax_errors(&self, _path: &str, _src: &str) -> usize {
        0
    }
}

/// What a region of source is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenKind {
    /// A comment (`//…`, `/*…*/`, doc comments and JSDoc included).
    Comment,
    /// A string literal of any flavour (Rust raw/byte/C strings, JS/TS template literals, JSX
    /// text).
    Str,
}

/// A comment or string found by a front end's lexer, as byte ranges.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    /// Comment or string.
    pub kind: TokenKind,
    /// Start of the whole token (quotes or comment markers included).
    pub start: usize,
    /// End of the whole token (exclusive).
    pub end: usize,
    /// Start of the contents.
    pub content_start: usize,
    /// End of the contents (exclusive).
    pub content_end: usize,
    /// Whether the contents are the whole value (false for a template quasi next to a
    /// `${…}` substitution): only then can the value be exactly a removed name.
    pub whole: bool,
}

/// Sorts a file's occurrences by position and drops the duplicates two paths of one front end
/// found for the same name at the same place, keeping the most specific role (the order of
/// [`Role`](crate::model::Role)). Occurrences at different places are all kept, even on one
/// line.
pub fn in_source_order(mut occ: Vec<Occurrence>) -> Vec<Occurrence> {
    occ.sort_by_key(|o| (o.start, o.end, o.role));
    occ.dedup_by(|a, b| a.start == b.start && a.end == b.end && a.event == b.event);
    occ
}

/// The range to delete for a node (a statement, a member) at `r` of `src`: its whole line(s)
/// when nothing else is on them (and one of two blank lines around it), otherwise the node and
/// the blanks after it. Shared by the front ends' fixes.
pub fn line_removal(src: &str, r: Range<usize>) -> Range<usize> {
    let bytes = src.as_bytes();
    let line_start = src[..r.start].rfind('\n').map_or(0, |i| i + 1);
    let alone_before = src[line_start..r.start].trim().is_empty();
    let mut end = r.end;
    while end < bytes.len() && matches!(bytes[end], b' ' | b'\t') {
        end += 1;
    }
    let at_eol = end >= bytes.len() || matches!(bytes[end], b'\n' | b'\r');
    if alone_before && at_eol {
        if bytes.get(end) == Some(&b'\r') {
            end += 1;
        }
        if bytes.get(end) == Some(&b'\n') {
            end += 1;
        }
        // Between two blank lines, take one of them along.
        let blank_before = src[..line_start]
            .strip_suffix('\n')
            .map(|b| b.strip_suffix('\r').unwrap_or(b))
            .is_some_and(|b| b.rsplit('\n').next().is_some_and(|l| l.trim().is_empty()));
        let next_line = src[end..].split('\n').next().unwrap_or("");
        if blank_before && end < bytes.len() && next_line.trim().is_empty() {
            end = (end + next_line.len() + 1).min(bytes.len());
        }
        line_start..end
    } else {
        r.start..end
    }
}

impl Token {
    /// The `//` comment starting at byte `start` of `src`: it runs to the end of the line (the
    /// newline excluded), in every language a front end reads.
    pub fn line_comment(src: &[u8], start: usize) -> Token {
        let end = memchr::memchr(b'\n', &src[start..]).map_or(src.len(), |p| start + p);
        Token {
            kind: TokenKind::Comment,
            start,
            end,
            content_start: start + 2,
            content_end: end,
            whole: true,
        }
    }
}

/// Syntactic contexts of a file (byte ranges, each with what it makes a name inside it), for
/// "the innermost context around this name" in O(nesting depth) per query instead of a scan
/// of every context: a file with 100,000 calls stays linear.
#[derive(Debug, Clone)]
pub struct Contexts<T> {
    /// Sorted by start, then longest first; ties keep the order they were found in.
    ranges: Vec<(std::ops::Range<usize>, T)>,
    /// For each range, the index of the innermost range containing it.
    parent: Vec<Option<usize>>,
}

impl<T: Copy> Contexts<T> {
    /// Indexes the contexts a front end found (syntactic ranges: nested or disjoint).
    pub fn new(mut ranges: Vec<(std::ops::Range<usize>, T)>) -> Self {
        ranges.sort_by_key(|(r, _)| (r.start, std::cmp::Reverse(r.end)));
        let mut parent = Vec::with_capacity(ranges.len());
        let mut open: Vec<usize> = Vec::new();
        for (i, (r, _)) in ranges.iter().enumerate() {
            while let Some(&top) = open.last() {
                if ranges[top].0.end >= r.end && ranges[top].0.start <= r.start {
                    break;
                }
                open.pop();
            }
            parent.push(open.last().copied());
            open.push(i);
        }
        Contexts { ranges, parent }
    }

    /// The innermost context containing `start..end` (of several equal ones, the first found).
    pub fn at(&self, start: usize, end: usize) -> Option<T> {
        let mut i = self
            .ranges
            .partition_point(|(r, _)| r.start <= start)
            .checked_sub(1);
        while let Some(k) = i {
            let r = &self.ranges[k].0;
            if r.start <= start && end <= r.end {
                // Equal ranges sort together; the first one found wins.
                let mut first = k;
                while first > 0 && self.ranges[first - 1].0 == *r {
                    first -= 1;
                }
                return Some(self.ranges[first].1);
            }
            i = self.parent[k];
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::Contexts;

    /// Issue 32 item 1: the walk asks for a path's front end with its extension read once
    /// ([`super::front_for`]); the answer is the first front end whose `handles` takes the
    /// path, on generated paths (every extension the front ends read, in other cases, with
    /// trailing dots, dotfiles, several dots, no extension, non-UTF-8 names and directories).
    #[test]
    #[cfg(unix)] // a non-UTF-8 file name is built from its bytes
    fn the_front_for_a_path_is_the_first_that_handles_it() {
        use std::os::unix::ffi::OsStrExt;
        let stems = ["a", ".md", "", "x.y", "..", ".", "é", "a.rs.bak", "b."];
        let extensions = [
            "", "rs", "RS", "ts", "tsx", "mts", "cts", "js", "jsx", "mjs", "cjs", "TS", "md", "MD",
            "markdown", "mdx", "Mdx", "txt", "d.ts", "rs.", "md/", "NONUTF8",
        ];
        let fronts = crate::engine::front_ends();
        let mut r = crate::test_rng::Rng(0x0e47_e451_0f0a_7e11);
        let mut handled = 0;
        for _ in 0..5_000 {
            let mut path = std::path::PathBuf::from(["", "dir", "./d/e", "/abs"][r.below(4)]);
            let stem = stems[r.below(stems.len())];
            let ext = extensions[r.below(extensions.len())];
            let name = if ext == "NONUTF8" {
                std::ffi::OsStr::from_bytes(b"n.\xff").to_owned()
            } else if ext.is_empty() {
                stem.into()
            } else {
                format!("{stem}.{ext}").into()
            };
            path.push(name);
            let expected = fronts.iter().find(|f| f.handles(&path)).map(|f| f.name());
            handled += usize::from(expected.is_some());
            assert_eq!(
                super::front_for(&fronts, &path).map(|f| f.name()),
                expected,
                "{path:?}"
            );
        }
        assert!(handled > 1_000, "{handled} paths handled");
    }

    /// Issue 32 item 1: `role_of` looks for a verb as a word of a longer name only when the
    /// name has a `_`, and finds what the lookup without that shortcut finds, on 20,000
    /// generated names of verbs, call names, `_` and other letters.
    #[test]
    fn role_of_is_the_lookup_of_every_word() {
        use super::{CallNames, EMIT_VERBS, SUBSCRIBE_VERBS};
        use crate::model::Role;
        let calls = CallNames::default();
        let reference = |name: &str| {
            let word = |verbs: &[&str]| {
                verbs.iter().any(|v| {
                    name.strip_prefix(v).is_some_and(|r| r.starts_with('_'))
                        || name.strip_suffix(v).is_some_and(|r| r.ends_with('_'))
                })
            };
            if calls.subscribe.iter().any(|n| n == name) {
                Some(Role::Subscribe)
            } else if calls.emit.iter().any(|n| n == name) {
                Some(Role::Emit)
            } else if word(SUBSCRIBE_VERBS) {
                Some(Role::Subscribe)
            } else if word(EMIT_VERBS) {
                Some(Role::Emit)
            } else {
                None
            }
        };
        let pieces = [
            "_",
            "_",
            "a",
            "on",
            "emit",
            "listen",
            "subscribe",
            "publish",
            "fire",
            "x",
            "Emit",
            "try",
            "typed",
            "once",
            "é",
        ];
        let mut rng = crate::test_rng::Rng(0x9E37_79B9_7F4A_7C15);
        let mut found = 0;
        for _ in 0..20_000 {
            let name: String = (0..rng.below(5)).map(|_| rng.pick(&pieces)).collect();
            let want = reference(&name);
            found += usize::from(want.is_some() && name.contains('_'));
            assert_eq!(calls.role_of(&name), want, "{name:?}");
        }
        assert!(found > 500, "{found} names with a `_` have a role");
    }

    #[test]
    fn innermost_context_matches_a_full_scan() {
        let ranges = vec![
            (0..100, 'a'),
            (10..20, 'b'),
            (12..18, 'c'),
            (12..18, 'd'),
            (30..40, 'e'),
            (50..90, 'f'),
            (55..60, 'g'),
        ];
        let scan = |s: usize, e: usize| {
            ranges
                .iter()
                .filter(|(r, _)| r.start <= s && e <= r.end)
                .min_by_key(|(r, _)| r.end - r.start)
                .map(|(_, c)| *c)
        };
        let index = Contexts::new(ranges.clone());
        for s in 0..110 {
            for e in s..112 {
                assert_eq!(index.at(s, e), scan(s, e), "{s}..{e}");
            }
        }
    }
}
