//! Renders the requirement registry as the spec pages under `docs/spec/` and as the text of
//! `mirrorless explain`. The pages are generated, never edited by hand: a test regenerates them
//! and fails when `docs/spec/` differs (`MIRRORLESS_BLESS=1` rewrites them).

use crate::registry::{Area, Enforcement, REQUIREMENTS, Requirement};
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

/// The body shared by a spec page and `mirrorless explain`: everything but the list of
/// enforcing fixtures.
pub fn explain(req: &Requirement) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# {} — {}\n", req.id, req.title);
    let _ = writeln!(out, "**{}**\n", tiers(req));
    let _ = writeln!(out, "{}\n", req.statement);
    let _ = writeln!(out, "## Rationale\n\n{}\n", req.rationale);
    if let Some(m) = mirror_of(req) {
        let _ = writeln!(out, "## Migration\n");
        let _ = writeln!(
            out,
            "- Removed on {} by upstream commit `{}` ({}).",
            m.removed_on, m.removed_by, m.decision
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
    let _ = writeln!(out, "\nProtocol facts: {}.", req.source);
    out
}

/// The full spec page of `req`: [`explain`] plus the fixtures that exercise it (paths relative
/// to the repository root, sorted).
pub fn page(req: &Requirement, fixtures: &[String]) -> String {
    let mut out = explain(req);
    let _ = writeln!(out, "\n## Fixtures\n");
    if fixtures.is_empty() {
        let _ = writeln!(out, "None yet.");
    } else {
        for f in fixtures {
            let _ = writeln!(out, "- [`{f}`](../../{f})");
        }
    }
    out
}

/// The index page `docs/spec/README.md`: every requirement by area, with its tiers.
pub fn index() -> String {
    let mut out = String::from(
        "# The mirrorless spec\n\n\
         Generated from the requirement registry (`conformance/src/registry.rs`); do not edit by hand.\n\
         Each ID is stable and never changes meaning. `mirrorless explain ID` prints a page in the terminal.\n\n\
         **How a run judges them.** `mirrorless run` judges every requirement on every case, on its own: a\n\
         requirement fails when any case violates it, whatever else went wrong first in that case. A finding\n\
         that is a known consequence of another finding in the same turn (a dropped chunk also breaks the\n\
         message's provenance) leaves its requirement *not judged* in that case; a requirement no case could\n\
         judge is never `pass`, and a MUST never judged fails the run like one never exercised\n\
         ([docs/run](../run/README.md#attribution-and-counting)).\n",
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
    out
}
