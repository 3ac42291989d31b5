//! The problems of a run as the human, Markdown and HTML reports list them: a fault that hit
//! several cases (a deterministic one, such as a debug `print()` on stdout, hits every case
//! in each fresh process) is listed once in full and then as one line with the count and the
//! case ids, not once per case. The JSON report keeps every problem as it was recorded.

use crate::suite::{REPEAT_MARK, fault_class};

/// How many case ids the line of repeats names before "…".
const IDS_SHOWN: usize = 20;

/// `problems` with each fault's repeats folded into one line after its first report.
pub(crate) fn grouped(problems: &[String]) -> Vec<String> {
    // (problem, its class, the case ids of its repeats)
    let mut groups: Vec<(&str, String, Vec<&str>)> = Vec::new();
    for p in problems {
        let headline = p.lines().next().unwrap_or_default();
        let is_repeat = headline.ends_with(REPEAT_MARK);
        let class = fault_class(headline.trim_end_matches(REPEAT_MARK).trim_end());
        match groups
            .iter_mut()
            .find(|(first, c, _)| is_repeat && *c == class && !first.contains(REPEAT_MARK))
        {
            Some((_, _, ids)) => ids.push(case_id(p).unwrap_or("?")),
            None => groups.push((p, class, Vec::new())),
        }
    }
    let mut out = Vec::with_capacity(groups.len());
    for (first, _, ids) in groups {
        out.push(first.to_owned());
        if !ids.is_empty() {
            let shown: Vec<&str> = ids.iter().take(IDS_SHOWN).copied().collect();
            out.push(format!(
                "the same fault in {} more case{}: {}{} (each reported on stderr as it happened)",
                ids.len(),
                if ids.len() == 1 { "" } else { "s" },
                shown.join(", "),
                if ids.len() > shown.len() { ", …" } else { "" }
            ));
        }
    }
    out
}

/// The case id (16 hex digits) a fault's first line names.
fn case_id(problem: &str) -> Option<&str> {
    let headline = problem.lines().next()?;
    headline
        .split(|c: char| !c.is_ascii_hexdigit())
        .find(|w| w.len() == 16)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn fault(kind: &str, id: &str, repeat: bool) -> String {
        let mut s = format!("the implementation `x` failed in case {id} (profile 2026-08): {kind}");
        if repeat {
            s.push_str(" (the same fault as reported above in full)\nThe process was restarted");
        } else {
            s.push_str("\n  last lines exchanged …");
        }
        s
    }

    proptest! {
        /// Issue #31, item 14: whatever the interleaving of faults, each is listed once in
        /// full and its repeats as one line naming every case id, in order.
        #[test]
        fn each_fault_is_listed_once_with_its_repeats_counted(
            order in prop::collection::vec((0usize..3, 0u64..1_000_000), 1..40)
        ) {
            let kinds = ["it wrote a line that is not JSON", "it exited", "it hung"];
            let mut seen = [false; 3];
            let mut problems = Vec::new();
            let mut repeats: [Vec<String>; 3] = Default::default();
            for (k, n) in order {
                let id = format!("{n:016x}");
                problems.push(fault(kinds[k], &id, seen[k]));
                if seen[k] {
                    repeats[k].push(id);
                }
                seen[k] = true;
            }
            let lines = grouped(&problems);
            for k in 0..3 {
                let full: Vec<&String> =
                    lines.iter().filter(|l| l.contains(kinds[k])).collect();
                prop_assert_eq!(full.len(), usize::from(seen[k]));
                if repeats[k].is_empty() {
                    continue;
                }
                // The repeats' line follows the fault's full report (two faults may hit the
                // same case ids, so an id alone does not tell whose line it is).
                let at = lines.iter().position(|l| l.contains(kinds[k]));
                let folded: Vec<&String> = at
                    .and_then(|i| lines.get(i + 1))
                    .filter(|l| l.starts_with("the same fault in"))
                    .into_iter()
                    .collect();
                prop_assert_eq!(folded.len(), 1);
                let n = repeats[k].len();
                prop_assert!(folded[0].contains(&format!("in {n} more case")), "{}", folded[0]);
                for id in repeats[k].iter().take(IDS_SHOWN) {
                    prop_assert!(folded[0].contains(id.as_str()));
                }
            }
            prop_assert!(lines.iter().all(|l| !l.contains(REPEAT_MARK)));
        }
    }
}
