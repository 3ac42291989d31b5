//! Renders the requirement registry as the spec pages under `docs/spec/` and as the text of
//! `mirrorless explain`. The pages are generated, never edited by hand: a test regenerates them
//! and fails when `docs/spec/` differs (`MIRRORLESS_BLESS=1` rewrites them).
//!
//! A page is the text of `mirrorless explain` (statement, rationale, migration, where it is
//! enforced, the upstream evidence of [`crate::citations`]) followed by what only the
//! repository holds: the terms it uses ([`glossary`]), the stdio statements that name it
//! ([`audit`]), its examples ([`examples`]) and its fixtures.

pub mod audit;
pub mod examples;
pub mod glossary;
pub mod history;
pub mod site;

use crate::citations::{self, Citation};
use crate::registry::{Area, Enforcement, REQUIREMENTS, Requirement};
use crate::upstream_history;
use crate::vocab::Profile;
use crate::vocab::mirrors::{RemovedMirror, removed_mirror};
use std::fmt::Write as _;

fn tiers(req: &Requirement) -> String {
    Profile::ALL
        .into_iter()
        .map(|p| match req.tier(p) {
            Some(t) => format!("{p}: {t}"),
            None => format!("{p}: does not apply"),
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

fn enforcement_line(how: Enforcement) -> &'static str {
    match how {
        Enforcement::Log => "`mirrorless check` on a durable session log",
        Enforcement::LiveTrace => "`mirrorless check --live` on a live-event trace",
        Enforcement::Driver => "`mirrorless run`, against the oracle of a generated model script",
    }
}

fn mirror_of(req: &Requirement) -> Option<&'static RemovedMirror> {
    crate::vocab::mirrors::REMOVED_MIRRORS
        .iter()
        .find(|m| m.requirement == req.id)
        .and_then(|m| removed_mirror(m.name))
}

/// One citation as a list item: the profile, the permalink, the commit, what it shows.
fn evidence_item(c: &Citation) -> String {
    let lines = match c.lines {
        Some((a, b)) if a == b => format!("#L{a}"),
        Some((a, b)) => format!("#L{a}-L{b}"),
        None => String::new(),
    };
    format!(
        "- {}: [`{}{lines}`]({}) at `{}` — {}",
        c.profile,
        c.path,
        c.url(),
        &c.commit[..10],
        c.shows
    )
}

/// The body shared by a spec page and `mirrorless explain`: everything but what only the
/// repository holds (terms, stdio statements, examples, fixtures), which [`page`] appends.
pub fn explain(req: &Requirement) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# {} — {}\n", req.id, req.title);
    let _ = writeln!(out, "**{}** · spec {}\n", tiers(req), crate::SPEC_VERSION);
    let _ = writeln!(out, "{}\n", req.statement);
    let _ = writeln!(out, "## Rationale\n\n{}\n", req.rationale);
    if let Some(m) = mirror_of(req) {
        let _ = writeln!(out, "## Migration\n");
        let commit = match citations::commit_url(m.removed_by) {
            Some(url) => format!("[`{}`]({url})", m.removed_by),
            None => format!("`{}`", m.removed_by),
        };
        let _ = writeln!(
            out,
            "- Removed on {} by `deepseek-ai/deepseek-harness` commit {commit} ({}).",
            m.removed_on, m.decision
        );
        let _ = writeln!(
            out,
            "- Former signature: `{}{}`.",
            m.name, m.former_signature
        );
        let _ = writeln!(
            out,
            "- Durable twin: `{}` (2026-08: `{}`).",
            m.durable_twin, m.durable_twin_2026_08
        );
        let _ = writeln!(out, "- Instead: {}.", m.replacement);
        let _ = writeln!(out, "- {}", m.migration);
        let _ = writeln!(out, "- {}\n", RemovedMirror::AGENT_HANDLE_ADVICE);
    }
    let _ = writeln!(out, "## Enforced by\n");
    for how in req.enforcement {
        let _ = writeln!(out, "- {}", enforcement_line(*how));
        // What `check` cannot see goes with its line, so that "enforced by" is never read
        // as "all of it".
        if let (Enforcement::Log, Some(blind)) = (how, req.check_blind_spot) {
            let _ = writeln!(out, "  - on a recorded log alone, not all of it: {blind}");
        }
    }
    let _ = writeln!(
        out,
        "\n## Upstream evidence\n\nWhat upstream's code, tests and decision notes show, at the commit \
         of each profile (`deepseek-ai/deepseek-harness`):\n"
    );
    for c in citations::of(req.id) {
        let _ = writeln!(out, "{}", evidence_item(c));
    }
    let mut notes = upstream_history::of(req.id).peekable();
    if notes.peek().is_some() {
        let _ = writeln!(
            out,
            "\n## Upstream history\n\nWhat a loop ported from upstream inherits, by when it was ported:\n"
        );
        for note in notes {
            let _ = writeln!(out, "{}", note.markdown());
        }
    }
    out
}

/// What a page shows beyond [`explain`], read from the repository by the test that writes
/// the pages.
#[derive(Debug, Clone, Copy, Default)]
pub struct PageContext<'a> {
    /// The fixtures named after the requirement, relative to the repository root, sorted.
    pub fixtures: &'a [String],
    /// The example, when the fixtures hold one.
    pub example: Option<&'a examples::Example>,
    /// The rows of `docs/protocol/audit.md` that name the requirement.
    pub stdio: &'a [&'a audit::Row],
}

/// What the page says about an implementation over `mirrorless-stdio/1` when no audit row
/// names the requirement: it is about a recorded file, which over stdio the driver writes.
fn stdio_without_rows(req: &Requirement) -> &'static str {
    if req.enforced_by(Enforcement::Driver) {
        "No statement of `stdio.md` §5 names this requirement; `mirrorless run` checks it on the \
         events the implementation sends in its `append` and `emit` messages."
    } else {
        "No statement of `stdio.md` §5 names this requirement: over `mirrorless-stdio/1` the \
         implementation sends each durable event in an `append` message and the driver keeps the \
         log (header, storage rows, crash repair are not the implementation's to write there), so \
         `mirrorless run` does not judge it. It holds for the log files an implementation writes \
         itself, which `mirrorless check` reads."
    }
}

/// The full spec page of `req`: [`explain`] and then the terms it uses, the stdio statements
/// that name it, its examples and its fixtures (paths relative to the repository root).
pub fn page(req: &Requirement, ctx: &PageContext<'_>) -> String {
    let mut out = explain(req);
    let text = format!("{} {} {}", req.title, req.statement, req.rationale);
    let terms: Vec<String> = glossary::used_in(&text)
        .map(|t| format!("[{}](README.md#{})", t.term, t.anchor))
        .collect();
    let _ = writeln!(out, "\n## Terms\n\n{}.", terms.join(" · "));
    let _ = writeln!(out, "\n## Over `mirrorless-stdio/1`\n");
    if ctx.stdio.is_empty() {
        let _ = writeln!(out, "{}", stdio_without_rows(req));
    } else {
        let _ = writeln!(
            out,
            "The statements of [`stdio.md` §5](../protocol/stdio.md#5-what-the-agent-records) \
             this requirement checks, as [the audit](../protocol/audit.md) maps them:\n"
        );
        for row in ctx.stdio {
            let _ = writeln!(
                out,
                "- [{}](../protocol/audit.md#{}): {}",
                row.section, row.anchor, row.statement
            );
        }
    }
    out.push('\n');
    match ctx.example {
        Some(example) => out.push_str(&examples::render(example)),
        None => out.push_str("## Examples\n\nNone yet.\n"),
    }
    let _ = writeln!(out, "\n## Fixtures\n");
    if ctx.fixtures.is_empty() {
        let _ = writeln!(out, "None yet.");
    } else {
        for f in ctx.fixtures {
            let _ = writeln!(out, "- [`{f}`](../../{f})");
        }
    }
    out
}

/// The index page `docs/spec/README.md`: how to read the spec, every requirement by area with
/// its tiers, and the glossary.
pub fn index() -> String {
    let mut out = format!(
        "# The mirrorless spec\n\n\
         **Spec {version}** · [changelog](CHANGELOG.md) · by profile: [2026-07](profile-2026-07.md), \
         [2026-08](profile-2026-08.md) · [glossary](#glossary)\n\n\
         Generated from the requirement registry (`conformance/src/registry.rs`) and the upstream \
         evidence (`conformance/src/citations.rs`); do not edit by hand. Each ID is stable and never \
         changes meaning. `mirrorless explain ID` prints a page in the terminal.\n\n\
         Each page gives the requirement's statement and tier per [profile](#profile), why it \
         exists, which command enforces it, the upstream code, tests and decision notes it rests \
         on (permalinks at a commit of `deepseek-ai/deepseek-harness`), the statements of the \
         [stdio protocol](../protocol/stdio.md) it checks, a conforming and a violating example \
         taken from the fixtures, and the fixtures themselves. The words the pages rely on are \
         defined in the [glossary](#glossary); MUST, MUST NOT, SHOULD and MAY are used as \
         [RFC 2119](#rfc-2119-keywords) means them.\n\n\
         The evidence is checked: `conformance/tests/spec_citations.rs` requires at least one \
         citation per requirement and profile and checks every cited path and line range against \
         the line counts recorded in `conformance/data/upstream-files.tsv` (offline, in CI), and \
         against the upstream repository itself when `MIRRORLESS_UPSTREAM_GIT` names a clone of \
         it. The examples are the fixtures: the test that writes these pages reads them, runs \
         the checker on them, and fails when a page no longer matches.\n\n\
         **How a run judges them.** `mirrorless run` judges every requirement on every case, on its own: a \
         requirement fails when any case violates it, whatever else went wrong first in that case. A finding \
         that is a known consequence of another finding in the same turn (a dropped chunk also breaks the \
         message's provenance) leaves its requirement *not judged* in that case; a requirement no case could \
         judge is never `pass`, and a MUST never judged fails the run like one never exercised \
         ([docs/run](../run/README.md#attribution-and-counting)).\n",
        version = crate::SPEC_VERSION
    );
    let mut area: Option<Area> = None;
    for req in REQUIREMENTS {
        if area != Some(req.area) {
            area = Some(req.area);
            let _ = writeln!(out, "\n## {}\n", req.area.title());
            let _ = writeln!(
                out,
                "| ID | Requirement | 2026-07 | 2026-08 |\n|---|---|---|---|"
            );
        }
        let t = |p| req.tier(p).map_or("—".to_owned(), |t| t.to_string());
        let _ = writeln!(
            out,
            "| [{id}]({id}.md) | {title} | {m} | {h} |",
            id = req.id,
            title = req.title,
            m = t(Profile::V2026_07),
            h = t(Profile::V2026_08)
        );
    }
    out.push('\n');
    out.push_str(&glossary::section());
    out
}
