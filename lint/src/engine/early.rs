//! The candidates analysed while the walk goes on (issue 32 item 1: on a small tree the
//! analysis of the few files that name a removed event is most of a run, and waiting for the
//! walk to end before starting it left a core idle).
//!
//! Pass 2 of a file depends on the identifiers the whole run declares, which only the end of
//! the walk tells. Most runs declare none, so the thread of the pool that reads a candidate
//! analyses it at once as if none were declared, beside pass 1's first round (which sees no
//! declarations in any run). When the run ends up declaring none, those analyses are the
//! ones pass 2 would compute, with the same inputs (the text, the catalogue, the call names,
//! the configuration, no symbol and no declared identifier mentioned), and are used as they
//! are; when a file declares one, no further file is analysed early and the early analyses
//! are dropped. `lint/tests/prefilter.rs` compares the reports of [`super::lint`] with those
//! of a run that analyses every file after the walk, on generated trees with and without
//! declarations.

use super::findings::file_findings;
use crate::catalog::Catalog;
use crate::config::Config;
use crate::frontend::{CallNames, Context, Declarations, FrontEnd, Symbols};
use crate::host_events::HostDeclarations;
use crate::model::Finding;
use crate::source::Source;
use std::sync::atomic::{AtomicBool, Ordering};

/// A candidate's pass 2 when the run declares no identifier: its findings, how many
/// suppressions removed, its syntax-error count when the analysis parsed it, what it declares
/// for the host pass.
pub(super) type Analyzed = (Vec<Finding>, usize, Option<usize>, Option<HostDeclarations>);

/// What the thread that read a candidate computed for it at once.
pub(super) struct Early {
    /// Pass 1's first round (no identifier declared yet).
    pub(super) declarations: Declarations,
    /// Pass 2 with no identifier declared; `None` once a file of the run declared one.
    pub(super) analysis: Option<Analyzed>,
}

/// What the threads that read the files share to analyse candidates early.
pub(super) struct Speculation<'a> {
    catalog: &'a Catalog,
    config: &'a Config,
    calls: CallNames,
    none: Symbols,
    /// Whether a file read so far declares an identifier: the early analyses are then of no
    /// use, and no more are made.
    declared: AtomicBool,
}

impl<'a> Speculation<'a> {
    pub(super) fn new(catalog: &'a Catalog, config: &'a Config) -> Self {
        let mut none = Symbols::default();
        none.finish();
        Speculation {
            catalog,
            config,
            calls: super::call_names(config),
            none,
            declared: AtomicBool::new(false),
        }
    }

    /// Pass 1's first round for the candidate `s`, and its pass 2 unless a file declared an
    /// identifier.
    pub(super) fn run(&self, front: &dyn FrontEnd, s: &Source) -> Early {
        let cx = Context {
            catalog: self.catalog,
            symbols: &self.none,
            calls: &self.calls,
            mentions_declared: false,
        };
        // Both from one parse while no file has declared an identifier; once one has, the
        // analysis would be dropped, and only the declarations are made.
        let (declarations, analysis) = match self.declared.load(Ordering::Relaxed) {
            false => {
                let (d, a) = front.declarations_and_analysis(&s.display, &s.text, cx);
                (d, Some(a))
            }
            true => (front.declarations(&s.display, &s.text, cx), None),
        };
        if !declarations.found.is_empty() {
            self.declared.store(true, Ordering::Relaxed);
        }
        let analysis = analysis.filter(|_| declarations.found.is_empty());
        let analysis = analysis.map(|mut analysis| {
            let syntax = analysis.syntax_errors;
            let host = analysis.host.take();
            let (findings, suppressed) = file_findings(s, analysis, self.catalog, self.config);
            (findings, suppressed, syntax, host)
        });
        Early {
            declarations,
            analysis,
        }
    }
}
