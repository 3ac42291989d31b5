//! Running one case on a driver.

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
