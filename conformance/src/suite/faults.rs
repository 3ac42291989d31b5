//! Harness faults as problems of the run: each reported in full once, and a stop not at all
//! (the runner says it once).

use super::Progress;
use crate::driver::HarnessError;
use crate::stop::Stop;

/// What the first line of a fault reported in full before ends with.
pub(crate) const REPEAT_MARK: &str = "(the same fault as reported above in full)";

/// A case's harness fault as the run reports it: in full the first time; when an earlier
/// problem was the same fault ([`fault_class`]: a deterministic one, such as a debug print on
/// stdout, hits every case again in each fresh process), by its first line and its last (what
/// became of the process), so that the run says it once. Decided in case order, so the report
/// does not depend on `-j`.
pub(super) fn case_fault(e: HarnessError, problems: &[String]) -> HarnessError {
    let class = fault_class(&e.0);
    if !problems.iter().any(|p| fault_class(p) == class) {
        return e;
    }
    let mut lines = e.0.lines();
    let headline = lines.next().unwrap_or_default();
    let mut short = format!("{headline} {REPEAT_MARK}");
    if let Some(last) = lines
        .last()
        .filter(|l| l.trim_start().starts_with("The process was"))
    {
        short.push('\n');
        short.push_str(last);
    }
    HarnessError(short)
}

/// What makes two faults the same: the first line of the report without what it quotes
/// (between backticks), numbers and case ids, so that a debug print of other arguments, in
/// another case, is the same fault.
pub(crate) fn fault_class(problem: &str) -> String {
    let headline = problem.lines().next().unwrap_or_default();
    let mut unquoted = String::with_capacity(headline.len());
    for (i, part) in headline.split('`').enumerate() {
        if i % 2 == 0 {
            unquoted.push_str(part);
        }
    }
    unquoted
        .split(' ')
        .filter(|w| !(w.len() == 16 && w.chars().all(|c| c.is_ascii_hexdigit())))
        .flat_map(|w| w.chars().filter(|c| !c.is_ascii_digit()).chain([' ']))
        .collect()
}

/// Records a harness fault as a problem of the run (a stop is reported once, by `run_until`).
pub(super) fn record_fault(
    e: HarnessError,
    stop: &Stop,
    problems: &mut Vec<String>,
    on: &mut dyn FnMut(Progress<'_>),
) {
    if stop.reason().is_none() {
        on(Progress::Problem(&e.0));
        problems.push(e.0);
    }
}
