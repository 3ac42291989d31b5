//! Running cases: one on a driver, or a batch on the forked drivers in parallel.

use crate::driver::{Driver, HarnessError, Observation};
use crate::oracle::{Verdict, evaluate};
use crate::scenario::Case;
use crate::stop::Stop;

/// What running one case came to.
pub(super) enum Ran {
    /// It ran: its verdict and what the implementation did (its stderr included).
    Verdict(Verdict, Box<Observation>),
    /// A harness fault the driver recovers from: recorded, and the run goes on.
    Fault(HarnessError),
    /// The run cannot go on: it was stopped, or the driver does not recover from the fault.
    Halt(HarnessError),
}

/// Runs one case on `driver`, unless the run was stopped.
pub(super) fn run_one(driver: &mut dyn Driver, case: &Case, stop: &Stop) -> Ran {
    if let Some(reason) = stop.reason() {
        return Ran::Halt(HarnessError(format!(
            "case {} was not run: {reason}",
            case.id()
        )));
    }
    match driver.run_case(case) {
        Ok(obs) => Ran::Verdict(evaluate(case, &obs), Box::new(obs)),
        Err(e) if stop.reason().is_none() && driver.recovers() => Ran::Fault(e),
        Err(e) => Ran::Halt(e),
    }
}

/// Runs a batch of cases, results in order: on the forked drivers in parallel when there are
/// any, else one after the other on `driver`. Either way the results end at a [`Ran::Halt`].
pub(super) fn run_batch(
    driver: &mut dyn Driver,
    forks: &mut [Box<dyn Driver + Send>],
    cases: &[Case],
    stop: &Stop,
) -> Vec<Ran> {
    if forks.is_empty() {
        run_in_order(driver, cases, stop)
    } else {
        run_parallel(forks, cases, stop)
    }
}

/// Runs `cases` one after the other on `driver`, up to and including a [`Ran::Halt`].
fn run_in_order(driver: &mut dyn Driver, cases: &[Case], stop: &Stop) -> Vec<Ran> {
    let mut results = Vec::with_capacity(cases.len());
    for c in cases {
        let ran = run_one(driver, c, stop);
        let end = matches!(ran, Ran::Halt(_));
        results.push(ran);
        if end {
            break;
        }
    }
    results
}

/// Runs `cases` on the forked drivers, one contiguous slice per thread, results in order. A
/// thread ends its slice at a [`Ran::Halt`]; the results then end with it, so what follows the
/// halt is not reported even if another thread ran it.
fn run_parallel(forks: &mut [Box<dyn Driver + Send>], cases: &[Case], stop: &Stop) -> Vec<Ran> {
    let per = cases.len().div_ceil(forks.len()).max(1);
    let parts: Vec<Vec<Ran>> = std::thread::scope(|scope| {
        let handles: Vec<_> = forks
            .iter_mut()
            .zip(cases.chunks(per))
            .map(|(d, slice)| scope.spawn(move || run_in_order(d.as_mut(), slice, stop)))
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join().unwrap_or_else(|_| {
                    vec![Ran::Halt(HarnessError("a driver thread panicked".into()))]
                })
            })
            .collect()
    });
    let mut out = Vec::with_capacity(cases.len());
    for part in parts {
        let halted = part.iter().any(|r| matches!(r, Ran::Halt(_)));
        out.extend(part);
        if halted {
            break;
        }
    }
    out
}
