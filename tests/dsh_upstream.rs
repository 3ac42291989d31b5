//! The real upstream agent loop (`@deepseek-ai/dsh-agent-loop@0.1.0-rc.8`, npm) under
//! `mirrorless run`, over the stdio protocol (`fixtures/adapters/dsh/stdio-host.mjs`).
//!
//! The verdict is an expectation, as in test262's expectation files: the run must fail exactly
//! the requirements listed in `fixtures/adapters/dsh/expected-verdict.json`, each with exactly
//! the listed number of failing cases, every other requirement must pass, and every reported
//! failure must be the documented cause (replayed here and recognised by its signature). A new
//! failure, an unexpected pass and a changed count all fail the test; a known upstream fault
//! stays visible instead of being skipped.
//!
//! The upstream packages come from npm (`fixtures/adapters/dsh/setup.sh`). Without them the
//! test says `SKIPPED` on the terminal (not only in captured output) and returns, unless
//! `MIRRORLESS_REQUIRE_DSH` is set (CI sets it once setup succeeded), in which case their
//! absence is a failure.

use mirrorless_conformance::driver::Exchange;
use mirrorless_conformance::scenario::{Action, CallEnding, Case};
use mirrorless_conformance::stdio::{StdioConfig, StdioDriver};
use mirrorless_conformance::suite;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

const ADAPTER_DIR: &str = "fixtures/adapters/dsh";
const ADAPTER: &str = "fixtures/adapters/dsh/stdio-host.mjs";
const EXPECTED: &str = "fixtures/adapters/dsh/expected-verdict.json";
/// The one documented cause (see `expected-verdict.json` and docs/upstream/dsh.md).
const MAX_TOKENS_THEN_TOOL_STEP: &str = "max-tokens-then-tool-step";

/// Prints straight to the terminal: libtest captures `eprintln!` of a passing test, and a skip
/// must never look like a silent pass.
fn say(message: &str) {
    let _ = writeln!(std::io::stderr(), "{message}");
}

/// Whether the adapter can run here; otherwise why not.
fn adapter_unavailable() -> Option<String> {
    let installed =
        Path::new(ADAPTER_DIR).join("node_modules/@deepseek-ai/dsh-agent-loop/package.json");
    if !installed.is_file() {
        return Some(format!(
            "the upstream packages are not installed ({} is missing); run {ADAPTER_DIR}/setup.sh (needs Node >= 20 and the npm registry)",
            installed.display()
        ));
    }
    match Command::new("node").arg("--version").output() {
        Ok(o) if o.status.success() => None,
        Ok(o) => Some(format!("`node --version` failed with {}", o.status)),
        Err(e) => Some(format!("`node` cannot be run: {e}")),
    }
}

/// Skips (loudly) or fails when the adapter cannot run; `true` when the test may go on.
fn adapter_ready(test: &str) -> bool {
    match adapter_unavailable() {
        None => true,
        Some(why) if std::env::var_os("MIRRORLESS_REQUIRE_DSH").is_some() => {
            panic!("MIRRORLESS_REQUIRE_DSH is set but the dsh adapter cannot run: {why}")
        }
        Some(why) => {
            say(&format!(
                "SKIPPED: {test}: the real upstream loop was NOT tested: {why}"
            ));
            false
        }
    }
}

fn read_json(path: &str) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn u64_at(v: &Value, key: &str) -> u64 {
    v[key]
        .as_u64()
        .unwrap_or_else(|| panic!("`{key}` must be an unsigned integer in {v}"))
}

/// Where the documented bug shows in a script: the prompt (action index) and the index of
/// the call that dispatches tool calls after an earlier `max-tokens` call of the same turn
/// while a later call is still planned.
fn bug_site(case: &Case) -> Option<(usize, usize)> {
    case.script
        .actions
        .iter()
        .enumerate()
        .find_map(|(a, action)| {
            let Action::Prompt { calls, .. } = action else {
                return None;
            };
            let first_max_tokens = calls
                .iter()
                .position(|c| c.ending() == CallEnding::MaxTokens)?;
            (first_max_tokens + 1..calls.len().saturating_sub(1))
                .find(|&c| !calls[c].dispatched_tool_calls().is_empty())
                .map(|c| (a, c))
        })
}

/// Replays `case` against the real loop and asserts the documented bug: the loop made the
/// tool-dispatching call, recorded its tool results, then ended the turn `max-tokens` without
/// asking for the next planned call.
fn assert_is_max_tokens_then_tool_step(driver: &mut StdioDriver, requirement: &str, case: &Case) {
    let id = case.id();
    let (action, call) = bug_site(case).unwrap_or_else(|| {
        panic!("{requirement} case {id} has no max-tokens call followed by a tool-dispatching call with a call after it: not the documented cause\n{case}")
    });
    let (_, obs) = suite::replay_case(driver, case).expect("no harness fault on replay");
    let mut current = None;
    let mut requested = BTreeSet::new();
    for exchange in &obs.transcript {
        match exchange {
            Exchange::Input { action, .. } => current = Some(*action),
            Exchange::ModelRequest { call: Some(c), .. } => {
                if let Some(a) = current {
                    requested.insert((a, *c));
                }
            }
            _ => {}
        }
    }
    assert!(
        requested.contains(&(action, call)),
        "{requirement} case {id}: the loop never made the tool-dispatching call {call} of action {action}: not the documented cause\n{case}"
    );
    assert!(
        !requested.contains(&(action, call + 1)),
        "{requirement} case {id}: the loop did ask for call {} of action {action}, so the turn did continue: not the documented cause\n{case}",
        call + 1
    );
    // The turn ends right after the tool results: tool/result, step/end, turn/end{max-tokens}.
    // 2026-08 has no idle injection: the n-th prompt opens turn n.
    let turn = case.script.actions[..=action]
        .iter()
        .filter(|a| matches!(a, Action::Prompt { .. }))
        .count() as u64;
    let kinds: Vec<&str> = obs.log.iter().map(|e| e.kind.as_str()).collect();
    let end = obs
        .log
        .iter()
        .position(|e| e.kind == "turn/end" && e.data["turn"] == turn)
        .unwrap_or_else(|| panic!("{requirement} case {id}: turn {turn} never ends\n{case}"));
    assert_eq!(
        &kinds[end.saturating_sub(2)..=end],
        &["tool/result", "step/end", "turn/end"],
        "{requirement} case {id}: the turn does not end right after the tool results\n{case}"
    );
    assert_eq!(
        obs.log[end].data["reason"]["kind"], "max-tokens",
        "{requirement} case {id}: the turn does not end max-tokens\n{case}"
    );
}

#[test]
fn the_real_upstream_loop_gets_exactly_the_documented_verdict() {
    if !adapter_ready("dsh_upstream") {
        return;
    }
    let expected = read_json(EXPECTED);
    let seed = u64_at(&expected, "seed");
    let cases = u64_at(&expected, "cases");
    let profile = expected["profile"].as_str().expect("`profile` is a string");
    let output = crate::common::mirrorless_command()
        .args([
            "run",
            "--profile",
            profile,
            "--no-corpus",
            "--format",
            "json",
        ])
        .args(["--seed", &seed.to_string(), "--cases", &cases.to_string()])
        // Long enough that every shrink ends by itself: the minimal cases do not depend on
        // the machine's speed.
        .args([
            "--shrink-time",
            "600",
            "--message-timeout",
            "60",
            "--case-timeout",
            "120",
        ])
        .args(["--", "node", ADAPTER])
        .output()
        .expect("the mirrorless binary runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    let report: Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("the JSON report does not parse ({e}); stderr:\n{stderr}"));
    let report = &report["report"];
    assert_eq!(
        report["problems"],
        Value::Array(Vec::new()),
        "harness problems; stderr:\n{stderr}"
    );
    let profiles = report["profiles"].as_array().expect("`profiles` is a list");
    assert_eq!(profiles.len(), 1, "one profile was run");
    let result = &profiles[0];

    let want: BTreeMap<String, u64> = expected["failing"]
        .as_object()
        .expect("`failing` is an object")
        .iter()
        .map(|(id, v)| (id.clone(), u64_at(v, "cases")))
        .collect();
    let mut got = BTreeMap::new();
    let mut not_passing = Vec::new();
    for r in result["requirements"]
        .as_array()
        .expect("`requirements` is a list")
    {
        let id = r["id"].as_str().expect("`id` is a string").to_owned();
        match r["status"].as_str() {
            Some("fail") => {
                got.insert(id, u64_at(r, "failures"));
            }
            Some("pass" | "untested" | "not-applicable") => {}
            other => not_passing.push(format!("{id}: {other:?}")),
        }
    }
    assert_eq!(
        got, want,
        "the failing requirements (with their failing-case counts) differ from {EXPECTED}; update it and docs/upstream/dsh.md only for a reviewed reason. stderr:\n{stderr}"
    );
    assert!(
        not_passing.is_empty(),
        "requirements neither passing nor expected to fail: {not_passing:?}"
    );
    assert_eq!(
        output.status.code(),
        Some(if want.is_empty() { 0 } else { 1 }),
        "exit status; stderr:\n{stderr}"
    );
    say(&format!(
        "dsh_upstream: real upstream loop, {cases} cases (seed {seed}): verdict as documented ({} failing case(s): {:?}); {:.1} cases/s",
        result["failed_cases"],
        want.keys().collect::<Vec<_>>(),
        result["cases_per_second"].as_f64().unwrap_or_default()
    ));

    // Every reported failure (shrunk and original) is the documented cause.
    let mut driver = StdioDriver::start({
        let mut c = StdioConfig::new(vec!["node".into(), ADAPTER.into()]);
        c.message_timeout = Duration::from_secs(60);
        c.case_timeout = Duration::from_secs(120);
        c
    })
    .expect("the adapter starts");
    let mut pinned = String::new();
    for failure in result["failures"].as_array().expect("`failures` is a list") {
        let requirement = failure["requirement"].as_str().expect("`requirement`");
        let cause = expected["failing"][requirement]["cause"].as_str();
        assert_eq!(
            cause,
            Some(MAX_TOKENS_THEN_TOOL_STEP),
            "{requirement}: no documented cause in {EXPECTED}"
        );
        for key in ["case", "original"] {
            let case: Case = serde_json::from_value(failure[key].clone())
                .unwrap_or_else(|e| panic!("{requirement}: `{key}` is not a case: {e}"));
            assert_is_max_tokens_then_tool_step(&mut driver, requirement, &case);
        }
        let finding = &failure["finding"];
        pinned.push_str(&format!(
            "{requirement} (cause: {MAX_TOKENS_THEN_TOOL_STEP})\n  minimal case {} ({} chunks and actions, from {})\n  {}\n",
            failure["case_id"].as_str().unwrap_or_default(),
            failure["shrunk_chunks"],
            failure["original_chunks"],
            finding["message"].as_str().unwrap_or_default(),
        ));
        for side in ["expected", "observed"] {
            pinned.push_str(&format!("  {side}:\n"));
            for line in finding[side].as_array().into_iter().flatten() {
                pinned.push_str(&format!("    {}\n", line.as_str().unwrap_or_default()));
            }
        }
        pinned.push_str(&format!("  script: {}\n", failure["case"]));
    }
    insta::assert_snapshot!("dsh_upstream_failures", pinned);
}
