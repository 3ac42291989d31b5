//! Shrinking a counterexample for one requirement, bounded in time and steps, and saving it.

use super::tally::Target;
use super::{Config, Failure, UNSAVED_CASE_FILE, save_case};
use crate::driver::{Driver, HarnessError, Observation};
use crate::oracle::{Finding, Masking, Verdict, evaluate};
use crate::scenario::Case;
use crate::stop::Stop;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config as PtConfig, TestRng, TestRunner};
use std::time::Instant;

/// Draws the tree of `case` again from the RNG state it was first drawn from; `None` if the
/// generator does not give the same case (then that counterexample is reported unshrunk).
pub(super) fn redraw<S: Strategy<Value = Case>>(
    strategy: &S,
    rng: &TestRng,
    case: &Case,
) -> Option<S::Tree> {
    let mut runner = TestRunner::new_with_rng(PtConfig::default(), rng.clone());
    let tree = strategy.new_tree(&mut runner).ok()?;
    (tree.current() == *case).then_some(tree)
}

/// A value tree that cannot shrink.
pub(super) struct NoShrink(pub(super) Case);

impl ValueTree for NoShrink {
    type Value = Case;
    fn current(&self) -> Case {
        self.0.clone()
    }
    fn simplify(&mut self) -> bool {
        false
    }
    fn complicate(&mut self) -> bool {
        false
    }
}

/// The size shrinking minimises: a case's chunks and actions.
fn chunks_of(case: &Case) -> usize {
    case.script.chunk_count() + case.script.actions.len()
}

/// The other findings of the verdict, and which of them are masked (indexing that list).
fn others(verdict: &Verdict, finding: &Finding) -> (Vec<Finding>, Vec<Masking>) {
    let mut also = Vec::new();
    let mut masked = Vec::new();
    for (k, f) in verdict.findings.iter().enumerate() {
        if f == finding {
            continue;
        }
        if let Some(by) = verdict.masked_by(k) {
            masked.push(Masking {
                finding: also.len(),
                by,
            });
        }
        also.push(f.clone());
    }
    (also, masked)
}

/// The requirement the case is attributed to, when that is not `finding`'s.
fn attributed_elsewhere(verdict: &Verdict, finding: &Finding) -> Option<&'static str> {
    verdict
        .primary()
        .filter(|p| *p != finding)
        .map(|p| p.requirement)
}

/// A failure reported as found, unshrunk: a corpus case (`case_file` is its file), or one
/// whose shrinking could not finish.
pub(super) fn as_found(
    case: &Case,
    finding: &Finding,
    verdict: &Verdict,
    case_file: Option<String>,
    replay: String,
    obs: &Observation,
) -> Failure {
    let (also, masked) = others(verdict, finding);
    Failure {
        requirement: finding.requirement,
        attributed_to: attributed_elsewhere(verdict, finding),
        case: case.clone(),
        case_id: case.id(),
        finding: finding.clone(),
        also,
        masked,
        original: case.clone(),
        original_chunks: chunks_of(case),
        shrunk_chunks: chunks_of(case),
        shrink_steps: 0,
        shrink_bounded: case_file.is_none(),
        from_corpus: case_file.is_some(),
        case_file,
        replay,
        stderr: obs.stderr.clone(),
        leak: None,
        observed: obs.clone(),
    }
}

/// Shrinks a failing case to a minimal one that keeps `target`, then saves it. A stop ends
/// shrinking like its time bound; a fault the driver recovers from counts the candidate as
/// not keeping the target (and is recorded in `problems`).
pub(super) fn shrink(
    driver: &mut dyn Driver,
    config: &Config,
    stop: &Stop,
    tree: &mut dyn ValueTree<Value = Case>,
    original: Case,
    target: Target,
    problems: &mut Vec<String>,
) -> Result<Failure, HarnessError> {
    let requirement = target.requirement();
    // A bound too far away to represent is no bound.
    let deadline = Instant::now().checked_add(config.shrink_time);
    let mut best = original.clone();
    let mut steps = 0;
    let mut bounded = false;
    let mut fails = |case: &Case| -> Result<bool, HarnessError> {
        match driver.run_case(case) {
            Ok(obs) => Ok(target.find(&evaluate(case, &obs)).is_some()),
            Err(e) if stop.reason().is_none() && driver.recovers() => {
                problems.push(e.0);
                Ok(false)
            }
            Err(e) => Err(e),
        }
    };
    if tree.simplify() {
        loop {
            if steps >= config.shrink_steps
                || deadline.is_some_and(|d| Instant::now() >= d)
                || stop.reason().is_some()
            {
                bounded = true;
                break;
            }
            steps += 1;
            let candidate = tree.current();
            let more = if fails(&candidate)? {
                // proptest's simplification can occasionally grow the built script; keep the
                // smallest failing case seen.
                if chunks_of(&candidate) <= chunks_of(&best) {
                    best = candidate;
                }
                tree.simplify()
            } else {
                tree.complicate()
            };
            if !more {
                break;
            }
        }
    }
    let obs = driver.run_case(&best)?;
    let verdict = evaluate(&best, &obs);
    let finding = target.find(&verdict).cloned().ok_or_else(|| {
        HarnessError(format!(
            "the minimal case for {requirement} no longer fails it: the implementation is not deterministic"
        ))
    })?;
    let case_id = best.id();
    let mut case_file = None;
    if let (Some(dir), true) = (&config.corpus, config.save) {
        match save_case(dir, &best, requirement, &driver.name()) {
            Ok(path) => case_file = Some(path),
            Err(e) => problems.push(e),
        }
    }
    let replay = driver.replay_command(case_file.as_deref().unwrap_or(UNSAVED_CASE_FILE));
    let (also, masked) = others(&verdict, &finding);
    Ok(Failure {
        requirement,
        also,
        masked,
        attributed_to: attributed_elsewhere(&verdict, &finding),
        finding,
        case_id,
        original_chunks: chunks_of(&original),
        shrunk_chunks: chunks_of(&best),
        case: best,
        original,
        shrink_steps: steps,
        shrink_bounded: bounded,
        from_corpus: false,
        case_file,
        replay,
        stderr: obs.stderr.clone(),
        leak: None,
        observed: obs,
    })
}
