//! Faults combined (issue #28): an implementation carrying the faults of several broken
//! fixtures at once fails exactly the union of their requirements, in one run, and its report
//! agrees with itself. `fixtures/impls/broken-stdio/combine.py` builds the combination (a class
//! over the fixtures' subclasses of the Python reference adapter); fixtures that override the
//! same method do not combine, and `combine.py --check` says why.
//!
//! The pairs and triples are a seeded sample of every combinable one (the sample is the same
//! on every run); `MIRRORLESS_COMBINATIONS=N` draws N of each instead.

use crate::common;

use std::collections::BTreeSet;

const DIR: &str = "fixtures/impls/broken-stdio";

/// Fault pairs that legitimately interact: with both faults, the requirement listed is not
/// violated at all, for the reason given (one fault removes the condition of the other). The
/// combination must then fail exactly the others.
const INTERACTIONS: &[(&str, &str, &str, &str)] = &[(
    "STEER-2-leftover-in-failed-step",
    "TURN-10-extra-turn-without-prompt",
    "TURN-10",
    "the STEER-2 fault records the steering in the failed step, so none is left over: the \
     extra turn the TURN-10 fault opens for leftover steering never opens",
)];

/// The fixtures a combination may draw from: every single-fault fixture (not the protocol
/// faults, not the one that leaks state between cases on purpose).
fn fixtures() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(DIR)
        .expect("the fixture directory")
        .filter_map(|e| {
            let name = e.ok()?.file_name().to_string_lossy().into_owned();
            let stem = name.strip_suffix(".py")?.to_owned();
            (stem != "combine" && !stem.starts_with("FAULT-") && !stem.contains("across-cases"))
                .then_some(stem)
        })
        .collect();
    names.sort();
    names
}

fn paths(names: &[&str]) -> Vec<String> {
    names.iter().map(|n| format!("{DIR}/{n}.py")).collect()
}

/// Whether the fixtures combine, or the reason they do not (`combine.py --check`).
fn combinable(names: &[&str]) -> Result<(), String> {
    let out = common::python::python3()
        .arg(format!("{DIR}/combine.py"))
        .arg("--check")
        .args(paths(names))
        .output()
        .expect("python3 runs");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "combine.py --check {names:?}: {e}: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    if v["combinable"] == true {
        Ok(())
    } else {
        Err(v["why"].as_str().unwrap_or("?").to_owned())
    }
}

/// A small deterministic generator (the sample must not change from run to run).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// `count` combinable combinations of `size` distinct fixtures, drawn with `seed`, each of
/// distinct requirements (two fixtures of one requirement prove nothing more together).
fn sample(size: usize, count: usize, seed: u64) -> Vec<Vec<String>> {
    let all = fixtures();
    let mut rng = Lcg(seed);
    let mut out: Vec<Vec<String>> = Vec::new();
    let mut refused = Vec::new();
    for _ in 0..count * 50 {
        if out.len() == count {
            break;
        }
        let mut pick: Vec<String> = Vec::new();
        while pick.len() < size {
            let n = &all[rng.below(all.len())];
            let r = common::fixture_requirement(n);
            if !pick.iter().any(|p| common::fixture_requirement(p) == r) {
                pick.push(n.clone());
            }
        }
        pick.sort();
        if out.contains(&pick) {
            continue;
        }
        let names: Vec<&str> = pick.iter().map(String::as_str).collect();
        match combinable(&names) {
            Ok(()) => out.push(pick),
            Err(why) => refused.push(format!("{names:?}: {why}")),
        }
    }
    assert_eq!(
        out.len(),
        count,
        "too few combinable draws; refused:\n{}",
        refused.join("\n")
    );
    out
}

fn how_many(default: usize) -> usize {
    std::env::var("MIRRORLESS_COMBINATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Runs one combination (256 cases per profile, the default of `mirrorless run`, the CI seed) and
/// returns what is wrong with its report, if anything.
fn check(names: &[&str]) -> Option<String> {
    let mut command = vec!["python3".to_owned(), format!("{DIR}/combine.py")];
    command.extend(paths(names));
    // Each failing requirement shrinks its own counterexample; a few steps keep the sample
    // within minutes.
    let (report, failed) = common::run_stdio(command, 256, 24);
    let interacting: BTreeSet<&str> = INTERACTIONS
        .iter()
        .filter(|(a, b, _, _)| names.contains(a) && names.contains(b))
        .map(|(_, _, r, _)| *r)
        .collect();
    let want: BTreeSet<&str> = names
        .iter()
        .map(|n| common::fixture_requirement(n))
        .filter(|r| !interacting.contains(r))
        .collect();
    let mut wrong = Vec::new();
    if failed != want {
        let masked: Vec<String> = report
            .profiles
            .iter()
            .flat_map(|p| p.requirements.iter().map(move |r| (p.profile, r)))
            .filter_map(|(p, r)| r.masked_note().map(|n| format!("{p} {} {n}", r.id)))
            .collect();
        wrong.push(format!(
            "failed {failed:?}, want {want:?} (missing {:?}, extra {:?}); {}",
            want.difference(&failed).collect::<Vec<_>>(),
            failed.difference(&want).collect::<Vec<_>>(),
            masked.join("; ")
        ));
    }
    wrong.extend(report.contradictions());
    (!wrong.is_empty()).then(|| format!("{names:?}: {}", wrong.join("\n  ")))
}

fn check_all(combinations: &[Vec<String>]) {
    let wrong: Vec<String> = combinations
        .iter()
        .filter_map(|c| check(&c.iter().map(String::as_str).collect::<Vec<_>>()))
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Issue #28 item 2: pairs of faults, each pair failing exactly both requirements.
#[test]
fn pairs_fail_the_union_of_their_requirements() {
    check_all(&sample(2, how_many(6), 28));
}

/// Issue #28 item 2: triples of faults.
#[test]
fn triples_fail_the_union_of_their_requirements() {
    check_all(&sample(3, how_many(3), 2028));
}

/// Issue #28's real loop: a turn trigger in the wrong shape at log #0 of every 2026-07 case,
/// plus faults further on in the case (SURF-1, TURN-7, TOOL-2, CHUNK-5, STEER-2, MSG-5):
/// every one of them fails, none is hidden behind the first finding of its case.
#[test]
fn a_fault_at_log_0_of_every_case_hides_no_other() {
    let names = [
        "TURN-10-trigger-wrong-shape",
        "SURF-1-user-message-without-surface-op",
        "TURN-7-max-tokens-not-sticky",
        "TOOL-2-result-cites-wrong-event",
        "CHUNK-5-records-after-cancel",
        "STEER-2-steering-never-cleared",
        "MSG-5-interrupted-message-missing",
    ];
    combinable(&names).expect("the faults combine");
    if let Some(wrong) = check(&names) {
        panic!("{wrong}");
    }
}
