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
    crate::common::mirrorless_command()
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
const LINE: &str = "  /* é😀 */ ctx.on('agent/turn-end', (agent, turn: number) => log(turn));";

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
    let fixed = crate::common::mirrorless_command()
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
    let out = crate::common::mirrorless_command()
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

/// The installed Neovim's (major, minor) version.
fn nvim_version() -> (u32, u32) {
    let out = Command::new("nvim").arg("--version").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let first = text.lines().next().unwrap_or_default();
    let version = first.trim_start_matches("NVIM v");
    let mut parts = version.split('.').map(|p| p.parse::<u32>().unwrap_or(0));
    (parts.next().unwrap_or(0), parts.next().unwrap_or(0))
}

/// A Neovim version range of the guide and its snippet: (from, to — none for "and later", code).
type Snippet = ((u32, u32), Option<(u32, u32)>, String);

/// The editor guide's Neovim snippets: each `<!-- nvim-snippet: FROM[-TO] -->` marker with the
/// `lua` block under it.
fn guide_snippets() -> Vec<Snippet> {
    let guide = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/guides/editor.md"),
    )
    .unwrap();
    let parse = |v: &str| {
        let (major, minor) = v.trim().split_once('.').expect("MAJOR.MINOR");
        (major.parse().unwrap(), minor.parse().unwrap())
    };
    let mut snippets = Vec::new();
    let mut rest = guide.as_str();
    while let Some(at) = rest.find("<!-- nvim-snippet: ") {
        rest = &rest[at + "<!-- nvim-snippet: ".len()..];
        let (range, after) = rest.split_once(" -->").expect("a closed marker");
        let (from, to) = match range.split_once('-') {
            Some((from, to)) => (parse(from), Some(parse(to))),
            None => (parse(range), None),
        };
        let code = after
            .trim_start()
            .strip_prefix("```lua\n")
            .expect("a lua block right under the marker");
        let code = &code[..code.find("```").expect("a closed block")];
        snippets.push((from, to, code.to_owned()));
        rest = after;
    }
    snippets
}

#[test]
fn the_guide_has_a_snippet_for_every_supported_neovim() {
    let snippets = guide_snippets();
    // Supported: 0.7 and later, with no gap between the ranges.
    let mut next = (0, 7);
    for (from, to, _) in &snippets_in_order(snippets) {
        assert_eq!(*from, next, "the snippets leave a gap before {from:?}");
        match to {
            Some((major, minor)) => next = (*major, minor + 1),
            None => return,
        }
    }
    panic!("no snippet covers the newest Neovim");
}

fn snippets_in_order(mut snippets: Vec<Snippet>) -> Vec<Snippet> {
    snippets.sort_by_key(|s| s.0);
    snippets
}

#[test]
fn the_guide_snippet_for_the_installed_neovim_starts_the_server_as_written() {
    if skip_without_nvim() {
        return;
    }
    let version = nvim_version();
    let snippet = guide_snippets()
        .into_iter()
        .find(|(from, to, _)| *from <= version && to.is_none_or(|to| version <= to))
        .unwrap_or_else(|| panic!("the editor guide has no snippet for Neovim {version:?}"));
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    std::fs::create_dir_all(project.join("src")).unwrap();
    std::fs::write(project.join("mirrorless.toml"), "").unwrap();
    let file = project.join("src/plugin.ts");
    std::fs::write(
        &file,
        format!("export function activate(ctx) {{\n{LINE}\n}}\n"),
    )
    .unwrap();
    // The snippet exactly as the guide prints it, as the user's init.lua.
    let init = dir.path().join("init.lua");
    std::fs::write(&init, &snippet.2).unwrap();
    let result = dir.path().join("result");
    let probe = dir.path().join("probe.lua");
    std::fs::write(
        &probe,
        format!(
            r#"local ok = vim.wait(60000, function() return #vim.diagnostic.get(0) > 0 end, 50)
local d = vim.diagnostic.get(0)[1]
local root = ''
for _, c in pairs(vim.lsp.get_active_clients()) do
  if c.name == 'mirrorless' then root = c.config.root_dir end
end
local f = io.open({result:?}, 'w')
f:write(ok and (d.code .. ' ' .. d.lnum .. ' ' .. root) or 'none')
f:close()
vim.cmd('qall!')
"#,
            result = result.display().to_string()
        ),
    )
    .unwrap();
    // `mirrorless` on PATH, as the guide's Install section asks.
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_mirrorless"))
        .parent()
        .unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut child = Command::new("nvim")
        .arg("--headless")
        .arg("-u")
        .arg(&init)
        .args(["-n", "-c"])
        .arg(format!("luafile {}", probe.display()))
        .arg(&file)
        .env("PATH", path)
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("spawn nvim");
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            panic!("nvim did not finish within 120 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let seen = std::fs::read_to_string(&result).unwrap_or_default();
    assert_eq!(
        seen,
        format!("ML001 1 {}", project.display()),
        "Neovim {version:?} with the guide's snippet for {:?}: the server did not start and report the finding at the project root",
        snippet.0
    );
}
