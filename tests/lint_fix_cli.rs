//! `mirrorless lint --fix / --diff / --unsafe-fixes` and the fix-carrying formats (SARIF
//! `fixes[]`, rdjson suggestions) end to end, on the real binary in temporary directories.

use std::path::Path;
use std::process::{Command, Output};

fn lint_in(dir: &Path, args: &[&str]) -> Output {
    crate::common::mirrorless_command()
        .env_remove("GITHUB_STEP_SUMMARY")
        .env("NO_COLOR", "1")
        .arg("lint")
        .arg("--no-config")
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

const PLUGIN: &str = "export function apply(ctx: Context, ui: Ui) {
  ctx.on('agent/turn-start', (agent, turn) => {
    ui.spinnerOn(agent.session.id, turn);
  });
  ctx.on('agent/turn-end', (agent, turn) => agent.wake(turn));
}
// Reads `event.data` uncast: the host types it by event type, so the rewrite above is machine-applicable.
export function turns(ctx: Context, seen: number[]) {
  ctx.on('session/event', (_session, event) => { if (event.type === 'turn/start') seen.push(event.data.turn); });
}
";

const FIXED: &str = "export function apply(ctx: Context, ui: Ui) {
  ctx.on('session/event', (session, event) => {
    if (event.type !== 'turn/start') return;
    const { turn } = event.data;
    ui.spinnerOn(session.id, turn);
  });
  ctx.on('agent/turn-end', (agent, turn) => agent.wake(turn));
}
// Reads `event.data` uncast: the host types it by event type, so the rewrite above is machine-applicable.
export function turns(ctx: Context, seen: number[]) {
  ctx.on('session/event', (_session, event) => { if (event.type === 'turn/start') seen.push(event.data.turn); });
}
";

fn tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("src")).unwrap();
    std::fs::write(dir.path().join("src/plugin.ts"), PLUGIN).unwrap();
    dir
}

#[test]
fn fix_applies_machine_fixes_in_place_and_a_second_run_changes_nothing() {
    let dir = tree();
    let o = lint_in(dir.path(), &["--fix", "src"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("src/plugin.ts")).unwrap(),
        FIXED
    );
    // The report lists what remains: the handler that uses the agent.
    assert!(stdout(&o).contains("subscribes to removed event `agent/turn-end`"));
    assert!(!stdout(&o).contains("agent/turn-start"));
    assert!(
        stderr(&o).contains("fixed 1 finding in 1 file; 1 finding remains (1 with a suggested fix: add --unsafe-fixes to apply them)"),
        "{}",
        stderr(&o)
    );
    let again = lint_in(dir.path(), &["--fix", "src"]);
    assert!(
        stderr(&again).contains("fixed 0 findings in 0 files"),
        "{}",
        stderr(&again)
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("src/plugin.ts")).unwrap(),
        FIXED
    );
    // No temporary file is left behind.
    let names: Vec<String> = std::fs::read_dir(dir.path().join("src"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, vec!["plugin.ts"]);
}

#[test]
fn unsafe_fixes_apply_the_suggestions_too_and_nothing_is_left() {
    let dir = tree();
    let o = lint_in(dir.path(), &["--fix", "--unsafe-fixes", "src"]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let text = std::fs::read_to_string(dir.path().join("src/plugin.ts")).unwrap();
    // The agent comes from a map the fix declares (the session id is not the agent id).
    assert!(
        text.contains(
            "const agent = agentBySession.get(session); if (!agent) return; agent.wake(turn);"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "ctx.on('agent/created', (agent) => { agentBySession.set(agent.session, agent) });"
        ),
        "{text}"
    );
    assert!(stderr(&o).contains("fixed 2 findings in 1 file; 0 findings remain"));
}

#[test]
fn diff_prints_a_unified_diff_writes_nothing_and_exits_1() {
    let dir = tree();
    let o = lint_in(dir.path(), &["--diff", "src"]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(
        out.starts_with("--- a/src/plugin.ts\n+++ b/src/plugin.ts\n@@ "),
        "{out}"
    );
    assert!(
        out.contains("\n-  ctx.on('agent/turn-start', (agent, turn) => {\n"),
        "{out}"
    );
    assert!(
        out.contains("\n+  ctx.on('session/event', (session, event) => {\n"),
        "{out}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("src/plugin.ts")).unwrap(),
        PLUGIN
    );
    // The diff applies with `patch -p1` and gives what --fix writes.
    if Command::new("patch").arg("--version").output().is_ok() {
        let mut p = Command::new("patch")
            .args(["-p1", "--quiet"])
            .current_dir(dir.path())
            .stdin(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        p.stdin.take().unwrap().write_all(&o.stdout).unwrap();
        assert!(p.wait().unwrap().success());
        assert_eq!(
            std::fs::read_to_string(dir.path().join("src/plugin.ts")).unwrap(),
            FIXED
        );
    }
    // Nothing to fix: exit 0, no output.
    let clean = tempfile::tempdir().unwrap();
    std::fs::write(clean.path().join("ok.ts"), "ctx.on('session/event', f);\n").unwrap();
    let o = lint_in(clean.path(), &["--diff", "."]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).is_empty());
}

#[cfg(unix)]
#[test]
fn fix_never_writes_through_a_symlink_leaving_the_paths_given() {
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("victim.ts"), PLUGIN).unwrap();
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("src")).unwrap();
    std::os::unix::fs::symlink(
        outside.path().join("victim.ts"),
        dir.path().join("src/link.ts"),
    )
    .unwrap();
    // Named explicitly, so it is linted although it is a symlink.
    let o = lint_in(dir.path(), &["--fix", "src/link.ts"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("outside the paths given"),
        "{}",
        stdout(&o)
    );
    assert_eq!(
        std::fs::read_to_string(outside.path().join("victim.ts")).unwrap(),
        PLUGIN
    );
}

#[test]
fn fix_conflicts_with_diff_and_write_baseline() {
    let dir = tree();
    for args in [
        vec!["--fix", "--diff"],
        vec!["--fix", "--write-baseline", "b.json"],
    ] {
        let o = lint_in(dir.path(), &args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn sarif_and_rdjson_carry_the_fixes() {
    let dir = tree();
    let o = lint_in(dir.path(), &["--format", "sarif", "src"]);
    let sarif: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let result = &sarif["runs"][0]["results"][0];
    let fix = &result["fixes"][0];
    assert_eq!(
        fix["description"]["text"],
        "subscribe to `session/event` and filter `turn/start`"
    );
    assert_eq!(fix["properties"]["applicability"], "machine-applicable");
    let change = &fix["artifactChanges"][0];
    assert_eq!(change["artifactLocation"]["uri"], "src/plugin.ts");
    let first = &change["replacements"][0];
    assert_eq!(first["deletedRegion"]["startLine"], 2);
    assert_eq!(first["deletedRegion"]["startColumn"], 10);
    assert_eq!(first["deletedRegion"]["endColumn"], 28);
    assert_eq!(first["insertedContent"]["text"], "'session/event'");

    let o = lint_in(dir.path(), &["--format", "rdjson", "src"]);
    let rd: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(rd["source"]["name"], "mirrorless");
    let d = &rd["diagnostics"][0];
    assert_eq!(d["code"]["value"], "ML001");
    assert_eq!(d["severity"], "ERROR");
    assert_eq!(d["location"]["path"], "src/plugin.ts");
    assert_eq!(
        d["location"]["range"],
        serde_json::json!({"start": {"line": 2, "column": 11}, "end": {"line": 3}})
    );
    // One line-based suggestion: lines 2-3 as they read after the fix.
    assert_eq!(
        d["suggestions"],
        serde_json::json!([{
            "range": {"start": {"line": 2}, "end": {"line": 3}},
            "text": "  ctx.on('session/event', (session, event) => {\n    if (event.type !== 'turn/start') return;\n    const { turn } = event.data;\n    ui.spinnerOn(session.id, turn);"
        }])
    );

    let o = lint_in(dir.path(), &["--format", "rdjsonl", "src"]);
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[1]["code"]["value"], "ML001");
    assert_eq!(
        lines[1]["suggestions"][0]["range"],
        serde_json::json!({"start": {"line": 5}, "end": {"line": 5}})
    );
}

/// Issue #29 item 4: what `lint`, `--diff`, `--fix` and `--fix --unsafe-fixes` exit with, on
/// trees of each kind (docs/lint/README.md#exit-status): plain `lint` fails on every
/// error-level finding; `--fix` only on one it could have fixed and did not (not the human's
/// part); `--diff` when it shows a fix or `--fix` would fail; the suggestions applied and the
/// human's part are listed on standard error.
#[test]
fn exit_statuses_agree_across_lint_diff_and_fix() {
    // Error findings whose fixes are all suggestions (each handler uses its agent).
    let suggestions: String = ["turn-start", "turn-end", "step-start", "step-end"]
        .iter()
        .map(|e| format!("  ctx.on('agent/{e}', (agent, turn) => agent.wake(turn));\n"))
        .collect();
    let suggestions = format!("export function apply(ctx: Context) {{\n{suggestions}}}\n");
    // A test pinning what the mirrors announced, through a loop over their names: the human's
    // part only.
    let human = "it('announces turns in order', async () => {
  const ctx: Context = harness()
  const seen: string[] = []
  for (const name of ['agent/turn-start'] as const) {
    ctx.on(name, () => void seen.push(name))
  }
  await run(createAgent(ctx), 'hi')
})
";
    let clean = "ctx.on('session/event', f);\n";
    // (file, text, exit of lint, --diff, --fix, --fix --unsafe-fixes)
    let cases: [(&str, &str, [i32; 4]); 3] = [
        ("plugin.ts", &suggestions, [1, 1, 1, 0]),
        ("loop.spec.ts", human, [1, 0, 0, 0]),
        ("ok.ts", clean, [0, 0, 0, 0]),
    ];
    let modes: [&[&str]; 4] = [&[], &["--diff"], &["--fix"], &["--fix", "--unsafe-fixes"]];
    for (file, text, exits) in cases {
        for (mode, want) in modes.iter().zip(exits) {
            let dir = tempfile::tempdir().unwrap();
            std::fs::write(dir.path().join(file), text).unwrap();
            let mut args = mode.to_vec();
            args.push(".");
            let o = lint_in(dir.path(), &args);
            let err = stderr(&o);
            assert_eq!(
                o.status.code(),
                Some(want),
                "{file} {mode:?}: {}{err}",
                stdout(&o)
            );
            let fixing = !mode.is_empty();
            if fixing && file == "loop.spec.ts" {
                assert!(
                    err.contains("1 finding left for a human at loop.spec.ts:4 "),
                    "{err}"
                );
            }
            if mode.contains(&"--unsafe-fixes") && file == "plugin.ts" {
                assert!(
                    err.contains("4 unsafe fixes applied, to review")
                        && err.contains("  plugin.ts:2: ML001 subscribe to `session/event`"),
                    "{err}"
                );
            }
        }
    }
}
