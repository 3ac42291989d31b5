//! A real editor against `mirrorless lsp`: headless Neovim (installed by
//! `tests/editor/setup.sh`, from the Debian packages) opens a TypeScript file, receives the
//! diagnostics, applies a code action, and the buffer lints clean — in the editor and for
//! `mirrorless lint` on the saved file.
//!
//! Without `nvim` on `PATH` the test is skipped, loudly; `MIRRORLESS_REQUIRE_NVIM=1` (set by
//! `.ci/run` once the setup succeeded) turns the skip into a failure.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn nvim_available() -> bool {
    Command::new("nvim")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn script() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/editor/nvim_lsp.lua")
}

/// Runs the Lua driver on `file`; returns its `key=value` observations.
fn drive(file: &Path, action: &str) -> HashMap<String, String> {
    let result = file.with_extension("result");
    let mut child = Command::new("nvim")
        .args(["--headless", "--clean", "-n", "-c"])
        .arg(format!("luafile {}", script().display()))
        .env("MIRRORLESS_BIN", env!("CARGO_BIN_EXE_mirrorless"))
        .env("MIRRORLESS_FILE", file)
        .env("MIRRORLESS_RESULT", &result)
        .env("MIRRORLESS_ACTION", action)
        .current_dir(file.parent().unwrap())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("spawn nvim");
    let started = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if started.elapsed() > Duration::from_secs(180) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("nvim did not finish within 180 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let text = std::fs::read_to_string(&result).unwrap_or_default();
    let seen: HashMap<String, String> = text
        .lines()
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
    assert!(
        status.success() && !seen.contains_key("error"),
        "nvim exited with {status}: {text}"
    );
    seen
}

fn lint_exit(file: &Path) -> Option<i32> {
    Command::new(env!("CARGO_BIN_EXE_mirrorless"))
        .args(["lint", "--no-config"])
        .arg(file)
        .stdout(Stdio::null())
        .status()
        .unwrap()
        .code()
}

fn skip_without_nvim() -> bool {
    if nvim_available() {
        return false;
    }
    if std::env::var_os("MIRRORLESS_REQUIRE_NVIM").is_some_and(|v| v == "1") {
        panic!("MIRRORLESS_REQUIRE_NVIM=1 but `nvim` is not on PATH (run tests/editor/setup.sh)");
    }
    eprintln!(
        "SKIPPED: `nvim` is not on PATH; run tests/editor/setup.sh (the editor test did NOT run)"
    );
    true
}

/// A plugin with a removed subscription whose handler does not use the agent (so its fix is
/// machine-applicable), after non-ASCII text on the same line: Neovim maps the server's UTF-16
/// columns to bytes itself, so a wrong column shows up as a wrong byte column or a broken edit.
const LINE: &str = "  /* é😀 */ ctx.on('agent/turn-end', (agent, turn) => log(turn));";

fn plugin(dir: &Path) -> PathBuf {
    let file = dir.join("plugin.ts");
    std::fs::write(
        &file,
        format!("export function activate(ctx) {{\n{LINE}\n}}\n"),
    )
    .unwrap();
    assert_eq!(lint_exit(&file), Some(1), "the file starts with a finding");
    file
}

fn assert_diagnostic_seen(seen: &HashMap<String, String>) {
    let name_at = LINE.find("agent/turn-end").unwrap();
    assert_eq!(seen["diagnostics"], "1", "{seen:?}");
    assert_eq!(seen["first.line"], "1", "{seen:?}");
    assert_eq!(seen["first.col"], name_at.to_string(), "{seen:?}");
    assert_eq!(
        seen["first.end_col"],
        (name_at + "agent/turn-end".len()).to_string(),
        "{seen:?}"
    );
    assert_eq!(seen["first.code"], "ML001", "{seen:?}");
    assert_eq!(seen["hover.has_rule"], "true", "{seen:?}");
    assert_eq!(seen["action.kind"], "quickfix", "{seen:?}");
    assert_eq!(seen["after"], "0", "{seen:?}");
    assert_eq!(seen["saved"], "yes", "{seen:?}");
}

#[test]
fn neovim_applies_the_preferred_fix_and_the_buffer_equals_lint_fix() {
    if skip_without_nvim() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = plugin(dir.path());
    // What `mirrorless lint --fix` makes of the same file.
    let by_cli = dir.path().join("by_cli.ts");
    std::fs::copy(&file, &by_cli).unwrap();
    let fixed = Command::new(env!("CARGO_BIN_EXE_mirrorless"))
        .args(["lint", "--no-config", "--fix"])
        .arg(&by_cli)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert_eq!(fixed.code(), Some(0), "--fix leaves nothing to report");

    let seen = drive(&file, "preferred");
    assert_diagnostic_seen(&seen);
    assert_eq!(seen["action.preferred"], "true", "{seen:?}");
    let saved = std::fs::read_to_string(&file).unwrap();
    assert_eq!(
        saved,
        std::fs::read_to_string(&by_cli).unwrap(),
        "the editor's fix is the CLI's"
    );
    assert!(saved.contains("'session/event'"), "{saved}");
    assert_eq!(lint_exit(&file), Some(0), "{saved}");
}

#[test]
fn neovim_applies_the_suppression_and_the_buffer_lints_clean() {
    if skip_without_nvim() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = plugin(dir.path());
    let seen = drive(&file, "Suppress ML001");
    assert_diagnostic_seen(&seen);
    assert_eq!(seen["action.preferred"], "false", "{seen:?}");
    // What the editor saved lints clean with the CLI too, and the edit is the suppression.
    let saved = std::fs::read_to_string(&file).unwrap();
    assert!(
        saved.contains("\n  // mirrorless: allow(ML001) "),
        "the suppression comment is on its own line, indented: {saved}"
    );
    assert!(
        saved.contains(LINE),
        "the code itself is untouched: {saved}"
    );
    assert_eq!(lint_exit(&file), Some(0), "{saved}");
}

/// The fix `mirrorless lint --format json` in `root` gives the emit of `host.ts`: its
/// applicability and message.
fn cli_emit_fix(root: &Path) -> (String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mirrorless"))
        .args(["lint", "--format", "json"])
        .current_dir(root)
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let emit = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"] == "host.ts" && f["rule"] == "ML002")
        .unwrap_or_else(|| panic!("no emit in host.ts: {report}"));
    let fix = &emit["fix"];
    (
        fix["applicability"].as_str().unwrap().to_owned(),
        fix["message"].as_str().unwrap().to_owned(),
    )
}

/// The emit in `host.ts` sits beside its durable append, but `plugin.ts`, never opened in the
/// editor, still listens to the mirror: Neovim is offered the deletion as the suggestion
/// `mirrorless lint` in the root makes of it (not preferred, the CLI's message); once the
/// listener is migrated on disk, the deletion is preferred, as for `mirrorless lint --fix`.
#[test]
fn neovim_is_offered_a_fix_held_back_by_an_unopened_file_as_the_cli_holds_it_back() {
    if skip_without_nvim() {
        return;
    }
    let fixture =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/lint/fix/emit_with_listener");
    let dir = tempfile::tempdir().unwrap();
    let (host, plugin) = (dir.path().join("host.ts"), dir.path().join("plugin.ts"));
    let host_text = std::fs::read_to_string(fixture.join("host.ts")).unwrap();
    let plugin_text = std::fs::read_to_string(fixture.join("plugin.ts")).unwrap();
    std::fs::write(&host, &host_text).unwrap();
    std::fs::write(&plugin, &plugin_text).unwrap();

    let (applicability, message) = cli_emit_fix(dir.path());
    assert_eq!(applicability, "suggestion", "{message}");
    assert!(message.contains("still used at plugin.ts:4"), "{message}");
    let seen = drive(&host, "delete the emit");
    assert_eq!(seen["diagnostics"], "1", "{seen:?}");
    assert_eq!(seen["first.code"], "ML002", "{seen:?}");
    assert_eq!(seen["action.preferred"], "false", "{seen:?}");
    assert_eq!(
        seen["action.title"],
        format!("{message} (suggestion: check the result)"),
        "the CLI's message"
    );
    // Applied on request, the suggestion deleted the emit (the buffer linted clean).
    assert_eq!(seen["after"], "0", "{seen:?}");
    assert!(!std::fs::read_to_string(&host).unwrap().contains("ctx.emit"));

    // The listener migrated on disk: the deletion is machine-applicable, for both.
    std::fs::write(&host, &host_text).unwrap();
    std::fs::write(
        &plugin,
        plugin_text.replace(
            "ctx.on('agent/turn-start', (agent, turn) => {",
            "ctx.on('session/event', (session, event) => {\n    if (event.type !== 'turn/start') return;\n    const agent = ctx.agents.get(session.agentId);\n    const turn = event.data.turn;",
        ),
    )
    .unwrap();
    let (applicability, message) = cli_emit_fix(dir.path());
    assert_eq!(applicability, "machine-applicable", "{message}");
    let seen = drive(&host, "preferred");
    assert_eq!(seen["action.preferred"], "true", "{seen:?}");
    assert_eq!(seen["action.title"], message, "the CLI's message");
    assert_eq!(seen["after"], "0", "{seen:?}");
}
