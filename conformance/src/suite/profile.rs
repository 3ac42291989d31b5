//! Running one profile: the corpus replayed, then the generated cases drawn, run, counted
//! and shrunk, then the profile's report.

use super::config::rng_for;
use super::execute::{Ran, run_one};
use super::faults::{case_fault, record_fault};
use super::lane::{self, Drawn, Item, Lane, Segment};
use super::pool;
use super::shard::Shard;
use super::shrink::{NoShrink, as_found, redraw, shrink};
use super::summary::{coverage_rows, requirement_rows};
use super::tally::{Tally, Target};
use super::{CaseFile, CaseIds, Config, Failure, ProfileReport, Progress, UNSAVED_CASE_FILE, leak};
use crate::driver::{Driver, HarnessError, Observation};
use crate::oracle::{self, Finding, Verdict};
use crate::scenario::Case;
use crate::scenario::generate::cases;
use crate::stop::Stop;
use crate::vocab::Profile;
use proptest::strategy::{Strategy, ValueTree};
use std::time::{Duration, Instant};

/// A requirement's first failure on a generated case, as found.
struct Found<'a> {
    case: &'a Case,
    finding: &'a Finding,
    verdict: &'a Verdict,
    obs: &'a Observation,
}

/// Runs one profile; the flag says whether the run must end here (see [`run_until`](super::run_until)).
///
/// Coverage (`exercised`, the labels) is counted over every case *drawn* — those of other
/// shards, and executed ones whose run faulted, included: it is a property of the case. The
/// executed counts (`generated`, `replayed`, failures, warnings) are of the cases that ran to
/// a verdict. A run that halts stops drawing too, and the coverage minimums scale with the
/// cases drawn, so cases never drawn cannot fail it.
pub(super) fn run_profile(
    driver: &mut dyn Driver,
    config: &Config,
    stop: &Stop,
    profile: Profile,
    corpus: &[(String, CaseFile)],
    problems: &mut Vec<String>,
    on: &mut dyn FnMut(Progress<'_>),
) -> Result<(ProfileReport, bool), HarnessError> {
    let strategy = cases(profile);
    let shard = Shard::of(config, stop, profile, corpus, &strategy)?;
    on(Progress::Started {
        profile,
        replay: shard.replay_mine,
        cases: shard.generated_mine,
    });
    let mut run = ProfileRun {
        driver,
        config,
        stop,
        profile,
        problems,
        on,
        start: Instant::now(),
        shrinking: Duration::ZERO,
        total: shard.replay_mine.saturating_add(shard.generated_mine),
        tally: Tally::default(),
        failures: Vec::new(),
        warnings: Vec::new(),
        case_ids: CaseIds::default(),
        done: 0,
        halted: false,
        replay_drawn: 0,
        replayed: 0,
        faulted: 0,
        generated: 0,
        generated_run: 0,
    };
    run.replay_corpus(&shard);
    run.run_generated(&strategy, &shard)?;
    Ok(run.finish(&shard))
}

/// The state of one profile's run: what it runs with, and its counts so far.
struct ProfileRun<'r> {
    driver: &'r mut dyn Driver,
    config: &'r Config,
    stop: &'r Stop,
    profile: Profile,
    problems: &'r mut Vec<String>,
    on: &'r mut dyn FnMut(Progress<'_>),
    start: Instant,
    /// Time spent shrinking, which the cases per second leave out.
    shrinking: Duration,
    /// Cases this shard executes.
    total: u64,
    tally: Tally,
    failures: Vec<Failure>,
    warnings: Vec<Failure>,
    case_ids: CaseIds,
    /// Cases run to a verdict, corpus and generated.
    done: u64,
    /// Whether the run must end here.
    halted: bool,
    /// Corpus cases drawn (coverage) and replayed to a verdict by this shard.
    replay_drawn: u64,
    replayed: u64,
    /// Cases run to a harness fault instead of a verdict.
    faulted: u64,
    /// Generated cases drawn (coverage) and run to a verdict by this shard.
    generated: u64,
    generated_run: u64,
}

impl ProfileRun<'_> {
    /// Replays the profile's corpus cases: every one counts for coverage, this shard's run;
    /// a failure is reported as found (the case file is already the counterexample).
    fn replay_corpus(&mut self, shard: &Shard<'_>) {
        for ((path, file), mine) in &shard.replay {
            let case = &file.case;
            if self.stop.reason().is_some() {
                self.halted = true;
                break;
            }
            self.replay_drawn += 1;
            // Coverage is of the whole run, whichever shard executes the case.
            for r in oracle::exercised(case) {
                *self.tally.exercised.entry(r).or_default() += 1;
            }
            if !mine {
                continue;
            }
            let ran = run_one(self.driver, case, self.stop);
            let halt = matches!(ran, Ran::Halt(_));
            let Some((verdict, obs)) = self.verdict_of(ran) else {
                if halt {
                    break;
                }
                continue;
            };
            self.replayed += 1;
            if self.config.case_ids {
                self.case_ids.push(&case.id());
            }
            self.done += 1;
            for target in self.tally.record(&verdict, &self.failures, &self.warnings) {
                let Some(finding) = target.find(&verdict) else {
                    continue;
                };
                let replay = self.driver.replay_command(path);
                let failure = as_found(case, finding, &verdict, Some(path.clone()), replay, &obs);
                self.keep(target, failure);
            }
            self.case_done();
        }
    }

    /// Draws, runs and counts the profile's generated cases, shrinking each requirement's
    /// first counterexample. Cases are drawn in order from one RNG and run in chunks by lanes
    /// ([`Lane`]): with one job on this thread, on `self.driver`; with more, on a pool of
    /// worker threads, one per forked driver, for the whole profile ([`pool`]). Either way the
    /// lanes' items are taken in case order, so a run does not depend on `jobs`. A shard draws
    /// every case (so the RNG stays in step with the unsharded run) and runs its own.
    fn run_generated<S: Strategy<Value = Case> + Sync>(
        &mut self,
        strategy: &S,
        shard: &Shard<'_>,
    ) -> Result<(), HarnessError> {
        let config = self.config;
        let (stop, profile) = (self.stop, self.profile);
        let mut forks: Vec<Box<dyn Driver + Send>> = if config.jobs > 1 {
            (0..config.jobs).map_while(|_| self.driver.fork()).collect()
        } else {
            Vec::new()
        };
        if forks.len() < 2 {
            forks.clear();
        }
        let size = lane::chunk_size(config.cases, forks.len());
        let chunks = config.cases.div_ceil(size);
        let rng = rng_for(config.seed, profile);
        let new_lane = || Lane::new(strategy, shard, config, stop, size);
        let result = if forks.is_empty() {
            // The chunks one after the other on this thread, on `self.driver`.
            let mut lane = new_lane();
            let mut chunk = 0;
            let (mut at, mut failed) = match lane.start(chunk, rng) {
                Ok(rng) => (Some(rng), None),
                Err(e) => (None, Some(e)),
            };
            self.consume(strategy, &mut |driver| loop {
                if let Some(e) = failed.take() {
                    return Some(Item::Error(e));
                }
                if let Some(item) = lane.next_item(driver) {
                    return Some(item);
                }
                chunk += 1;
                if lane.ended || chunk >= chunks {
                    return None;
                }
                match lane.start(chunk, at.take()?) {
                    Ok(rng) => at = Some(rng),
                    Err(e) => failed = Some(e),
                }
            })
        } else {
            pool::run(&mut forks, chunks, rng, &new_lane, |next| {
                self.consume(strategy, &mut |_| next())
            })
        };
        // Each parallel process ends with the profile (the next one forks anew) and must exit 0.
        // All at once: a shutdown waits for its process to exit (and, for what its group leaves
        // running, for the SIGTERM grace), so one after the other the jobs' waits would add up.
        // Faults are recorded in the forks' order, as before.
        let shutdowns: Vec<Result<(), HarnessError>> = std::thread::scope(|scope| {
            let running: Vec<_> = forks
                .iter_mut()
                .map(|fork| scope.spawn(move || fork.shutdown()))
                .collect();
            running
                .into_iter()
                .map(|shutdown| {
                    shutdown
                        .join()
                        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
                })
                .collect()
        });
        for e in shutdowns.into_iter().filter_map(Result::err) {
            record_fault(e, self.stop, self.problems, self.on);
        }
        result
    }

    /// Takes the lanes' items in case order (`next` runs the cases of a lane on this thread
    /// on the driver it is given) until they end or the run halts.
    fn consume<S: Strategy<Value = Case>>(
        &mut self,
        strategy: &S,
        next: &mut dyn FnMut(&mut dyn Driver) -> Option<Item>,
    ) -> Result<(), HarnessError> {
        while !self.halted {
            let Some(item) = next(&mut *self.driver) else {
                break;
            };
            match item {
                Item::Segment(segment) => self.segment(segment),
                Item::Case(drawn) => self.generated_case(strategy, *drawn),
                Item::Fault(e) => {
                    let _ = self.verdict_of(Ran::Fault(e));
                }
                Item::Halt(e) => {
                    let _ = self.verdict_of(Ran::Halt(e));
                }
                Item::Stopped => self.halted = true,
                Item::Error(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// Counts a stretch of cases a lane counted.
    fn segment(&mut self, segment: Segment) {
        self.generated += segment.drawn;
        self.generated_run += segment.ran;
        self.done += segment.ran;
        self.tally.merge(segment.tally);
        self.case_ids.0.extend(segment.ids.0);
        if segment.ran > 0 {
            self.case_done();
        }
    }

    /// Counts one generated case's result, shrinking a counterexample for each requirement
    /// it is the first to fail.
    fn generated_case<S: Strategy<Value = Case>>(&mut self, strategy: &S, d: Drawn) {
        let Drawn {
            index,
            rng,
            id,
            case,
            verdict,
            obs,
        } = d;
        let case = &case;
        self.generated_run += 1;
        if self.config.case_ids {
            self.case_ids.push(&id);
        }
        self.done += 1;
        let targets = self.tally.record(&verdict, &self.failures, &self.warnings);
        for target in targets {
            let Some(finding) = target.find(&verdict) else {
                continue;
            };
            (self.on)(Progress::Found {
                profile: self.profile,
                case,
                finding,
            });
            let found = Found {
                case,
                finding,
                verdict: &verdict,
                obs: &obs,
            };
            let failure = if self.halted {
                self.unshrunk(&found)
            } else {
                let t = Instant::now();
                // Each target shrinks its own tree, drawn again from the case's RNG state.
                let mut fresh = redraw(strategy, &rng, case);
                let shrink_tree: &mut dyn ValueTree<Value = Case> = match fresh.as_mut() {
                    Some(t) => t,
                    None => &mut NoShrink(case.clone()),
                };
                let shrunk = shrink(
                    self.driver,
                    self.config,
                    self.stop,
                    shrink_tree,
                    case.clone(),
                    target,
                    self.problems,
                );
                self.shrinking += t.elapsed();
                self.shrunk_or_found(shrunk, target, index, &found)
            };
            self.keep(target, failure);
        }
        self.case_done();
    }

    /// The counterexample once shrinking is over: the shrunk one, checked for state leaking
    /// from the cases before it; or, when shrinking could not finish, the failure as found
    /// (the fault is a problem of its own, which may end the run).
    fn shrunk_or_found(
        &mut self,
        shrunk: Result<Failure, HarnessError>,
        target: Target,
        index: u64,
        found: &Found<'_>,
    ) -> Failure {
        match shrunk {
            Ok(mut failure) => {
                // A case that fails only after others leaks state: say so, with
                // a sequence that reproduces it.
                failure.leak = leak::check(
                    self.driver,
                    self.config,
                    self.stop,
                    self.profile,
                    &failure,
                    target,
                    index,
                );
                failure
            }
            Err(e) => {
                // The failure stands as found; the fault is a problem of its own.
                if self.stop.reason().is_some() || !self.driver.recovers() {
                    self.halted = true;
                }
                record_fault(e, self.stop, self.problems, self.on);
                self.unshrunk(found)
            }
        }
    }

    /// A generated case's failure reported as found, unshrunk: when the run is ending (no
    /// more driver calls) or when shrinking could not finish.
    fn unshrunk(&self, found: &Found<'_>) -> Failure {
        let replay = self.driver.replay_command(UNSAVED_CASE_FILE);
        as_found(
            found.case,
            found.finding,
            found.verdict,
            None,
            replay,
            found.obs,
        )
    }

    /// A case's verdict and observation, or `None` when it ran to a harness fault instead: the
    /// case is not counted, the fault is a problem of the run, and a fault the driver does
    /// not recover from (or a stop) halts the run.
    fn verdict_of(&mut self, ran: Ran) -> Option<(Verdict, Box<Observation>)> {
        match ran {
            Ran::Verdict(v, obs) => Some((v, obs)),
            Ran::Fault(e) => {
                // No verdict: not executed, though drawn (its coverage is counted).
                self.faulted += 1;
                let e = case_fault(e, self.problems);
                record_fault(e, self.stop, self.problems, self.on);
                None
            }
            Ran::Halt(e) => {
                // A fault it does not recover from (not the run being stopped): this
                // case, too, has no verdict.
                self.faulted += u64::from(self.stop.reason().is_none());
                let e = case_fault(e, self.problems);
                record_fault(e, self.stop, self.problems, self.on);
                self.halted = true;
                None
            }
        }
    }

    /// Reports a counterexample and keeps it, with the failures or with the warnings.
    fn keep(&mut self, target: Target, failure: Failure) {
        (self.on)(Progress::Shrunk(&failure));
        if target.error() {
            self.failures.push(failure);
        } else {
            self.warnings.push(failure);
        }
    }

    /// Reports a case done.
    fn case_done(&mut self) {
        (self.on)(Progress::Case {
            profile: self.profile,
            done: self.done,
            total: self.total,
            failures: self.tally.failed_cases,
            elapsed: self.start.elapsed(),
        });
    }

    /// The profile's report, and whether the run must end here. A profile that executed no
    /// case is a problem of the run.
    fn finish(self, shard: &Shard<'_>) -> (ProfileReport, bool) {
        let config = self.config;
        let profile = self.profile;
        if self.total == 0 {
            let whole_run = config.cases.saturating_add(shard.replay.len() as u64);
            let why = match config.partition {
                Some(p) if whole_run > 0 => format!(
                    "shard {p} holds none of the {whole_run} case(s); use fewer shards or more --cases"
                ),
                _ => "--cases 0 and no corpus case for this profile".to_owned(),
            };
            let p = format!(
                "{profile}: no case was executed ({why}): a run that executes no case proves nothing"
            );
            (self.on)(Progress::Problem(&p));
            self.problems.push(p);
        }
        let seconds = self.start.elapsed().as_secs_f64();
        let running = (seconds - self.shrinking.as_secs_f64()).max(1e-9);
        // Cases drawn: the whole run's, unless the run halted early.
        let drawn = self.replay_drawn + self.generated;
        let executed = self.replayed + self.generated_run > 0;
        let report = ProfileReport {
            profile,
            generated: self.generated_run,
            replayed: self.replayed,
            failed_cases: self.tally.failed_cases,
            warned_cases: self.tally.warned_cases,
            faulted_cases: self.faulted,
            seconds,
            cases_per_second: self.done as f64 / running,
            requirements: requirement_rows(profile, &self.tally, drawn, executed),
            coverage: coverage_rows(profile, &self.tally, self.generated),
            failures: self.failures,
            warnings: self.warnings,
            deny_warnings: config.deny_warnings,
            partition: config.partition,
            whole_run_generated: config.cases,
            whole_run_replayed: shard.replay.len() as u64,
            case_ids: self.case_ids,
        };
        (report, self.halted)
    }
}
