//! Whether a run's report agrees with itself: a requirement a counted finding names is never
//! reported `pass`, a finding that did not count says why (the requirement it is a
//! consequence of, counted on its row as *not judged*), and every failing requirement has
//! its row, its counterexample and its replay.

use super::{ProfileReport, RunReport, Status, UNSAVED_CASE_FILE};

impl RunReport {
    /// Every way this report contradicts itself, one sentence each; empty when it agrees.
    pub fn contradictions(&self) -> Vec<String> {
        self.profiles.iter().flat_map(contradictions).collect()
    }
}

fn contradictions(p: &ProfileReport) -> Vec<String> {
    let mut out = Vec::new();
    let profile = p.profile;
    let row = |id: &str| p.requirements.iter().find(|r| r.id == id);
    for (f, error) in p
        .failures
        .iter()
        .map(|f| (f, true))
        .chain(p.warnings.iter().map(|f| (f, false)))
    {
        let want = if error { Status::Fail } else { Status::Warn };
        match row(f.requirement) {
            Some(r) if r.status == want => {}
            Some(r) => out.push(format!(
                "{profile}: {} has a counterexample but its row says {:?}",
                f.requirement, r.status
            )),
            // A crash with no other finding has no row.
            None if f.requirement == crate::oracle::CRASH => {}
            None => out.push(format!(
                "{profile}: {} has a counterexample but no row",
                f.requirement
            )),
        }
        if f.replay.trim().is_empty() {
            out.push(format!(
                "{profile}: the counterexample of {} has no replay command",
                f.requirement
            ));
        }
        // A replay command names the file the case was saved to, or the placeholder the
        // reader saves it to: never a file the run did not write.
        let named = f.case_file.as_deref().unwrap_or(UNSAVED_CASE_FILE);
        if !f.replay.contains(named) {
            out.push(format!(
                "{profile}: the replay command of {}'s counterexample does not name {named}: {}",
                f.requirement, f.replay
            ));
        }
        for (k, also) in f.also.iter().enumerate() {
            let Some(r) = row(also.requirement) else {
                if also.requirement != crate::oracle::CRASH {
                    out.push(format!(
                        "{profile}: {} is named on the counterexample of {} but has no row",
                        also.requirement, f.requirement
                    ));
                }
                continue;
            };
            let masked = f.masked_also(k);
            match (masked, also.error, r.status) {
                // A consequence: its requirement was not judged in that case.
                (Some(_), _, _) if r.not_judged == 0 => out.push(format!(
                    "{profile}: {} on the counterexample of {} is masked, but its row counts no case it was not judged in",
                    also.requirement, f.requirement
                )),
                (Some(_), _, _) => {}
                (None, true, Status::Fail) | (None, false, Status::Warn | Status::Fail) => {}
                (None, _, status) => out.push(format!(
                    "{profile}: {} is found on the counterexample of {} and counted, but its row says {status:?}",
                    also.requirement, f.requirement
                )),
            }
        }
    }
    for r in &p.requirements {
        let (status, list) = match r.status {
            Status::Fail => ("fails", &p.failures),
            Status::Warn => ("warns", &p.warnings),
            Status::Pass if r.failures > 0 || r.warnings > 0 => {
                out.push(format!(
                    "{profile}: {} passes although {} case(s) count against it",
                    r.id,
                    r.failures + r.warnings
                ));
                continue;
            }
            _ => continue,
        };
        if !list.iter().any(|f| f.requirement == r.id) {
            out.push(format!(
                "{profile}: {} {status} but has no counterexample",
                r.id
            ));
        }
    }
    out
}
