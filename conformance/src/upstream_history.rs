//! What upstream's history says about a requirement beyond its evidence: since when upstream's
//! loop meets it (a loop ported from an older upstream commit fails it), and which of
//! upstream's known bugs break it (a loop ported from upstream may copy them). The spec page and
//! `mirrorless explain` print these notes, so that the maintainer of a port who reads a failure
//! learns whether upstream's own loop shares it, and what to port or fix.
//!
//! Like [`crate::citations`], this table keeps facts about upstream apart from the registry's
//! wording. `conformance/tests/spec_citations.rs` checks each note: its requirement applies to
//! its profile, its commit is a full SHA, the upstream lines it names exist at that commit
//! (against `conformance/data/upstream-files.tsv`), and the repository page it points to exists
//! with the heading it names.

use crate::citations::UPSTREAM;
use crate::vocab::Profile;

/// What a note says about upstream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// Upstream's loop meets the requirement since a pull request: a loop ported from before
    /// its merge fails it.
    Since {
        /// The pull request's number in the upstream repository.
        pull_request: u32,
        /// The merge commit's full SHA.
        merged_as: &'static str,
        /// The merge's date, `YYYY-MM-DD`.
        merged_on: &'static str,
    },
    /// Upstream's loop breaks the requirement at a commit (a known bug, not fixed there).
    KnownBug {
        /// The full SHA of the commit at which the bug is shown.
        at: &'static str,
        /// The upstream file holding the faulty line, relative to its root.
        path: &'static str,
        /// The faulty line (1-based).
        line: u32,
    },
}

/// One note about upstream's history for one requirement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UpstreamNote {
    /// The requirement it is about, e.g. `MSG-5`.
    pub requirement: &'static str,
    /// The profile whose behaviour it is about.
    pub profile: Profile,
    /// Since when upstream meets it, or where upstream breaks it.
    pub change: Change,
    /// What changed or what goes wrong, and what a port should do, in a sentence or two.
    pub text: &'static str,
    /// A page of this repository that tells the whole story, relative to its root, with the
    /// heading's anchor (`docs/upstream/dsh.md#…`); `None` when `text` is all of it.
    pub details: Option<&'static str>,
}

impl UpstreamNote {
    /// The one Markdown list item of this note on a spec page (`docs/spec/`) and in
    /// `mirrorless explain`.
    pub fn markdown(&self) -> String {
        let head = match self.change {
            Change::Since {
                pull_request,
                merged_as,
                merged_on,
            } => format!(
                "since upstream's [pull request #{pull_request}]({UPSTREAM}/pull/{pull_request}) \
                 (merged as [`{}`]({UPSTREAM}/commit/{merged_as}) on {merged_on})",
                &merged_as[..10]
            ),
            Change::KnownBug { at, path, line } => format!(
                "a known bug of upstream's loop at [`{}`]({UPSTREAM}/commit/{at}) \
                 ([`{path}#L{line}`]({UPSTREAM}/blob/{at}/{path}#L{line}))",
                &at[..10]
            ),
        };
        let details = match self.details {
            // Spec pages live in docs/spec/: a repository page is one level up from there.
            Some(page) => match page.strip_prefix("docs/") {
                Some(in_docs) => format!(" The whole story: [`{page}`](../{in_docs})."),
                None => format!(" The whole story: `{page}`."),
            },
            None => String::new(),
        };
        format!("- {}: {head}: {}{details}", self.profile, self.text)
    }
}

/// Every note, grouped by requirement in registry order.
pub const NOTES: &[UpstreamNote] = &[
    UpstreamNote {
        requirement: "TURN-8",
        profile: Profile::V2026_08,
        change: Change::KnownBug {
            at: crate::citations::HEAD,
            path: "packages/core/agent-loop/src/agent.ts",
            line: 290,
        },
        text: "after a `max-tokens` step, a later step that dispatches tool calls ends the turn \
               right after its tool results, because the sticky `max-tokens` reason and the \
               signal to go on share one variable. The npm package `@deepseek-ai/dsh-agent-loop` \
               has it, and a loop ported from upstream copies it (the Rust port \
               `trevorprater/seekdeep-harness` does): `mirrorless run` reports it as TURN-8 \
               whenever a case steers into a `max-tokens` call. Fix it in the port: keep the \
               turn's end reason apart from whether the step lets the turn go on.",
        details: Some(
            "docs/upstream/dsh.md#upstream-bug-a-max-tokens-step-stops-a-later-tool-step-from-continuing",
        ),
    },
    UpstreamNote {
        requirement: "MSG-5",
        profile: Profile::V2026_08,
        change: Change::Since {
            pull_request: 2134,
            merged_as: "24ef32c7b8257ee7a74bb3a5545d0709ff1ba2a1",
            merged_on: "2026-08-19",
        },
        text: "a cancelled call that streamed text or reasoning is finalized by an \
               `interrupted` message (the decision note \
               `2026-08-10-cancelled-stream-prefix-finalize.md`). A loop ported from upstream \
               before that merge records no message for a cancelled call and fails MSG-5 under \
               2026-08 (the Rust port `trevorprater/seekdeep-harness`, from upstream `37200a93` \
               of 2026-08-15, does); `mirrorless check` cannot tell, only `mirrorless run` can. \
               Port that change.",
        details: None,
    },
];

/// The notes about `requirement`, in table order.
pub fn of(requirement: &str) -> impl Iterator<Item = &'static UpstreamNote> + '_ {
    NOTES.iter().filter(move |n| n.requirement == requirement)
}
