//! Running one profile: the corpus replayed, then the generated cases drawn, run, counted
//! and shrunk, then the profile's report.

use super::execute::{Ran, run_one, run_parallel};
use super::faults::{case_fault, record_fault};
use super::shrink::{NoShrink, as_found, redraw, shrink};
use super::tally::Tally;
use super::{
    CaseFile, CaseIds, Config, Failure, LabelResult, PartitionKind, ProfileReport, Progress,
    RequirementResult, Status, leak, rng_for,
};
use crate::driver::{Driver, HarnessError};
use crate::oracle;
use crate::registry::{Enforcement, REQUIREMENTS};
use crate::scenario::Case;
use crate::scenario::coverage::{LABELS, labels_of, minimum};
use crate::scenario::generate::cases;
use crate::stop::Stop;
use crate::vocab::Profile;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config as PtConfig, TestRng, TestRunner};
use std::collections::BTreeSet;
use std::time::{Duration, Instant};

/// One generated case of a batch that this run executes: the tree it shrinks from, the RNG
/// state it was drawn from (to draw the same tree again when a second requirement needs its
/// own shrink) and its id.
struct Drawn<T> {
    tree: T,
    rng: TestRng,
    id: String,
    /// Its position among the profile's generated cases.
    index: u64,
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
    // The case id is only computed where it is needed: to list it, or to shard by it.
    let need_id = config.case_ids
        || config
            .partition
            .is_some_and(|p| p.kind == PartitionKind::Hash);
    let in_shard =
        |position: u64, id: &str| config.partition.is_none_or(|p| p.includes(position, id));
    let replay: Vec<(&(String, CaseFile), bool)> = corpus
        .iter()
        .filter(|(_, f)| f.case.profile == profile)
        .enumerate()
        .map(|(i, entry)| {
            let id = if need_id {
                entry.1.case.id()
            } else {
                String::new()
            };
            (entry, in_shard(i as u64, &id))
        })
        .collect();
    let replay_mine = replay.iter().filter(|(_, mine)| *mine).count() as u64;
    let strategy = cases(profile);
    let generated_mine = match config.partition {
        None => config.cases,
        // Positions i < cases with i % total == shard - 1 (no overflow near u64::MAX).
        Some(p) if p.kind == PartitionKind::Count => {
            config.cases / p.total + u64::from(config.cases % p.total >= p.shard)
        }
        Some(_) => {
            // Hash shards: draw the cases once more to know how many are this shard's.
            let mut runner =
                TestRunner::new_with_rng(PtConfig::default(), rng_for(config.seed, profile));
            let mut n = 0;
            for i in 0..config.cases {
                if stop.reason().is_some() {
                    break;
                }
                let tree = strategy
                    .new_tree(&mut runner)
                    .map_err(|e| HarnessError(format!("the case generator failed: {e}")))?;
                n += u64::from(in_shard(i, &tree.current().id()));
            }
            n
        }
    };
    on(Progress::Started {
        profile,
        replay: replay_mine,
        cases: generated_mine,
    });
    let start = Instant::now();
    let mut shrinking = Duration::ZERO;
    let total = replay_mine.saturating_add(generated_mine);
    let mut tally = Tally::default();
    let mut failures: Vec<Failure> = Vec::new();
    let mut warnings: Vec<Failure> = Vec::new();
    let mut case_ids = CaseIds::default();
    let mut done = 0;
    let mut halted = false;
    // Corpus cases drawn (coverage) and replayed to a verdict by this shard.
    let mut replay_drawn: u64 = 0;
    let mut replayed: u64 = 0;
    // Cases run to a harness fault instead of a verdict.
    let mut faulted: u64 = 0;

    for ((path, file), mine) in &replay {
        let case = &file.case;
        if stop.reason().is_some() {
            halted = true;
            break;
        }
        replay_drawn += 1;
        // Coverage is of the whole run, whichever shard executes the case.
        for r in oracle::exercised(case) {
            *tally.exercised.entry(r).or_default() += 1;
        }
        if !mine {
            continue;
        }
        let (verdict, stderr) = match run_one(driver, case, stop) {
            Ran::Verdict(v, stderr) => (v, stderr),
            Ran::Fault(e) => {
                // No verdict: the case is not counted, the fault is a problem of the run.
                faulted += 1;
                record_fault(case_fault(e, problems), stop, problems, on);
                continue;
            }
            Ran::Halt(e) => {
                faulted += u64::from(stop.reason().is_none());
                record_fault(case_fault(e, problems), stop, problems, on);
                halted = true;
                break;
            }
        };
        replayed += 1;
        if config.case_ids {
            case_ids.push(&case.id());
        }
        done += 1;
        for target in tally.record(&verdict, &failures, &warnings) {
            let Some(finding) = target.find(&verdict) else {
                continue;
            };
            let replay = driver.replay_command(path);
            let failure = as_found(
                case,
                finding,
                &verdict,
                Some(path.clone()),
                replay,
                stderr.clone(),
            );
            on(Progress::Shrunk(&failure));
            if target.error() {
                failures.push(failure);
            } else {
                warnings.push(failure);
            }
        }
        on(Progress::Case {
            profile,
            done,
            total,
            failures: tally.failed_cases,
            elapsed: start.elapsed(),
        });
    }

    let mut runner = TestRunner::new_with_rng(PtConfig::default(), rng_for(config.seed, profile));
    let mut forks: Vec<Box<dyn Driver + Send>> = if config.jobs > 1 {
        (0..config.jobs).map_while(|_| driver.fork()).collect()
    } else {
        Vec::new()
    };
    if forks.len() < 2 {
        forks.clear();
    }
    // Cases are generated in order from one RNG, run in batches (in parallel when the driver
    // forks), and their results processed in order: a run does not depend on `jobs`. A shard
    // draws every case (so the RNG stays in step with the unsharded run) and runs its own.
    let batch = if forks.is_empty() {
        1
    } else {
        64 * forks.len() as u64
    };
    // Generated cases drawn (coverage) and run to a verdict by this shard.
    let mut generated: u64 = 0;
    let mut generated_run: u64 = 0;
    while generated < config.cases && !halted {
        if stop.reason().is_some() {
            halted = true;
            break;
        }
        let n = batch.min(config.cases - generated);
        let mut drawn = Vec::with_capacity(n as usize);
        let mut batch_cases: Vec<Case> = Vec::with_capacity(n as usize);
        for i in generated..generated + n {
            let rng = runner.rng().clone();
            let tree = strategy
                .new_tree(&mut runner)
                .map_err(|e| HarnessError(format!("the case generator failed: {e}")))?;
            let case = tree.current();
            let id = if need_id { case.id() } else { String::new() };
            for l in labels_of(&case) {
                *tally.labels.entry(l).or_default() += 1;
            }
            for r in oracle::exercised(&case) {
                *tally.exercised.entry(r).or_default() += 1;
            }
            if in_shard(i, &id) {
                drawn.push(Drawn {
                    tree,
                    rng,
                    id,
                    index: i,
                });
                batch_cases.push(case);
            }
        }
        generated += n;
        let results = if forks.is_empty() {
            let mut results = Vec::with_capacity(batch_cases.len());
            for c in &batch_cases {
                let ran = run_one(driver, c, stop);
                let end = matches!(ran, Ran::Halt(_));
                results.push(ran);
                if end {
                    break;
                }
            }
            results
        } else {
            run_parallel(&mut forks, &batch_cases, stop)
        };
        for ((d, case), ran) in drawn.into_iter().zip(batch_cases).zip(results) {
            let Drawn {
                mut tree,
                rng,
                id,
                index,
            } = d;
            let (verdict, stderr) = match ran {
                Ran::Verdict(v, stderr) => (v, stderr),
                Ran::Fault(e) => {
                    // No verdict: not executed, though drawn (its coverage is counted above).
                    faulted += 1;
                    record_fault(case_fault(e, problems), stop, problems, on);
                    continue;
                }
                Ran::Halt(e) => {
                    // A fault it does not recover from (not the run being stopped): this
                    // case, too, has no verdict.
                    faulted += u64::from(stop.reason().is_none());
                    record_fault(case_fault(e, problems), stop, problems, on);
                    halted = true;
                    break;
                }
            };
            generated_run += 1;
            if config.case_ids {
                case_ids.push(&id);
            }
            done += 1;
            let targets = tally.record(&verdict, &failures, &warnings);
            for (k, target) in targets.into_iter().enumerate() {
                let Some(finding) = target.find(&verdict) else {
                    continue;
                };
                on(Progress::Found {
                    profile,
                    case: &case,
                    finding,
                });
                // Reported as found, unshrunk: when the run is ending (no more driver calls)
                // or when shrinking could not finish.
                let unshrunk = |driver: &dyn Driver| {
                    let replay = driver.replay_command(&format!("{}.json", case.id()));
                    as_found(&case, finding, &verdict, None, replay, stderr.clone())
                };
                let failure = if halted {
                    unshrunk(driver)
                } else {
                    let t = Instant::now();
                    // The first target shrinks the drawn tree; each further one shrinks its
                    // own copy, drawn again from the same RNG state.
                    let mut fresh = (k > 0).then(|| redraw(&strategy, &rng, &case)).flatten();
                    let shrink_tree: &mut dyn ValueTree<Value = Case> = match fresh.as_mut() {
                        Some(t) => t,
                        None if k == 0 => &mut tree,
                        None => &mut NoShrink(case.clone()),
                    };
                    let shrunk = shrink(
                        driver,
                        config,
                        stop,
                        shrink_tree,
                        case.clone(),
                        target,
                        problems,
                    );
                    shrinking += t.elapsed();
                    match shrunk {
                        Ok(mut failure) => {
                            // A case that fails only after others leaks state: say so, with
                            // a sequence that reproduces it.
                            failure.leak =
                                leak::check(driver, config, stop, profile, &failure, target, index);
                            failure
                        }
                        Err(e) => {
                            // The failure stands as found; the fault is a problem of its own.
                            if stop.reason().is_some() || !driver.recovers() {
                                halted = true;
                            }
                            record_fault(e, stop, problems, on);
                            unshrunk(driver)
                        }
                    }
                };
                on(Progress::Shrunk(&failure));
                if target.error() {
                    failures.push(failure);
                } else {
                    warnings.push(failure);
                }
            }
            on(Progress::Case {
                profile,
                done,
                total,
                failures: tally.failed_cases,
                elapsed: start.elapsed(),
            });
        }
    }

    // Each parallel process ends with the profile (the next one forks anew) and must exit 0.
    for fork in &mut forks {
        if let Err(e) = fork.shutdown() {
            record_fault(e, stop, problems, on);
        }
    }

    if total == 0 {
        let whole_run = config.cases.saturating_add(replay.len() as u64);
        let why = match config.partition {
            Some(p) if whole_run > 0 => format!(
                "shard {p} holds none of the {whole_run} case(s); use fewer shards or more --cases"
            ),
            _ => "--cases 0 and no corpus case for this profile".to_owned(),
        };
        let p = format!(
            "{profile}: no case was executed ({why}): a run that executes no case proves nothing"
        );
        on(Progress::Problem(&p));
        problems.push(p);
    }
    let seconds = start.elapsed().as_secs_f64();
    let running = (seconds - shrinking.as_secs_f64()).max(1e-9);
    let required: BTreeSet<&str> = oracle::required(profile).collect();
    // Cases drawn: the whole run's, unless the run halted early.
    let drawn = replay_drawn + generated;
    // A requirement passes (or goes unexercised) only in a profile that executed a case.
    let executed = replayed + generated_run > 0;
    // Every requirement the driver enforces has a row, and so does every other one a case
    // was counted against (a log rule such as LOG-2 the checker reports on a case's log):
    // a requirement that fails is never missing from the table.
    let requirements = REQUIREMENTS
        .iter()
        .filter(|r| {
            r.enforced_by(Enforcement::Driver)
                || tally.failures.contains_key(r.id)
                || tally.warnings.contains_key(r.id)
        })
        .map(|r| {
            let tier = r.tier(profile);
            let exercised = tally.exercised.get(r.id).copied().unwrap_or(0);
            let failed = tally.failures.get(r.id).copied().unwrap_or(0);
            let warned = tally.warnings.get(r.id).copied().unwrap_or(0);
            let status = match tier {
                None => Status::NotApplicable,
                Some(_) if failed > 0 => Status::Fail,
                Some(_) if warned > 0 => Status::Warn,
                Some(_) if exercised > 0 && executed => Status::Pass,
                Some(_) if required.contains(r.id) && drawn > 0 && executed => Status::NotExercised,
                Some(_) => Status::Untested,
            };
            RequirementResult {
                id: r.id,
                tier,
                status,
                exercised,
                failures: failed,
                warnings: warned,
            }
        })
        .collect();
    let coverage = LABELS
        .iter()
        .filter(|l| l.profiles.contains(profile))
        .map(|l| LabelResult {
            name: l.name,
            count: tally.labels.get(l.name).copied().unwrap_or(0),
            // Minimums scale with the generated cases drawn (fewer when the run halted).
            minimum: minimum(l, profile, generated),
        })
        .collect();
    let report = ProfileReport {
        profile,
        generated: generated_run,
        replayed,
        failed_cases: tally.failed_cases,
        warned_cases: tally.warned_cases,
        faulted_cases: faulted,
        seconds,
        cases_per_second: done as f64 / running,
        requirements,
        coverage,
        failures,
        warnings,
        deny_warnings: config.deny_warnings,
        partition: config.partition,
        whole_run_generated: config.cases,
        whole_run_replayed: replay.len() as u64,
        case_ids,
    };
    Ok((report, halted))
}
