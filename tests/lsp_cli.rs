//! `mirrorless lsp` end to end: the binary is spawned and spoken to in JSON-RPC over stdio, as
//! an editor does. Diagnostics from unsaved text (full and incremental sync), UTF-16 columns,
//! the workspace's configuration, cross-file resolution, code actions, hover, bad input, and
//! the same findings as `mirrorless lint` on every lint fixture.

use crate::lsp_wire;

use lsp_wire::{
    Shown, language, shown_of_diagnostic, shown_of_finding, spawn_server, uri_of, utf16,
    write_message,
};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::Receiver;
use std::time::Duration;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A minimal LSP client around a spawned `mirrorless lsp`.
struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Value>,
    /// Notifications received and not yet looked at.
    inbox: Vec<Value>,
    next_id: i64,
}

impl Client {
    /// Starts the server and initializes it with `root` as the workspace folder.
    fn start(root: &Path) -> Client {
        Client::start_with(root, json!({}))
    }

    /// [`Client::start`] with these client capabilities.
    fn start_with(root: &Path, capabilities: Value) -> Client {
        let (child, stdin, rx) = spawn_server(root, Stdio::inherit());
        let mut c = Client {
            child,
            stdin,
            rx,
            inbox: Vec::new(),
            next_id: 0,
        };
        let init = c.request(
            "initialize",
            json!({
                "processId": null,
                "rootUri": uri_of(root),
                "workspaceFolders": [{ "uri": uri_of(root), "name": "root" }],
                "capabilities": capabilities
            }),
        );
        assert_eq!(
            init["result"]["capabilities"]["positionEncoding"], "utf-16",
            "{init}"
        );
        c.notify("initialized", json!({}));
        c
    }

    fn send(&mut self, msg: Value) {
        let stdin = self.stdin.as_mut().expect("the server's stdin is open");
        write_message(stdin, &msg);
    }

    fn recv(&mut self) -> Value {
        self.rx
            .recv_timeout(Duration::from_secs(120))
            .expect("the server answers within 120 s")
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        loop {
            let m = self.recv();
            if m["id"] == id && m.get("method").is_none() {
                return m;
            }
            self.inbox.push(m);
        }
    }

    fn open(&mut self, path: &Path, language: &str, text: &str) -> String {
        let uri = uri_of(path);
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri, "languageId": language, "version": 1, "text": text } }),
        );
        uri
    }

    /// Everything the server published up to now: a request is answered only after the
    /// diagnostics of every change before it were published.
    fn sync(&mut self) {
        self.request(
            "textDocument/hover",
            json!({ "textDocument": { "uri": "file:///nowhere.ts" }, "position": { "line": 0, "character": 0 } }),
        );
    }

    /// The last diagnostics published for `uri` (after a [`Client::sync`]).
    fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        self.sync();
        let last = self
            .inbox
            .iter()
            .rev()
            .find(|m| m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri)
            .unwrap_or_else(|| panic!("no diagnostics published for {uri}: {:?}", self.inbox));
        last["params"]["diagnostics"].as_array().unwrap().clone()
    }

    fn notifications(&self, method: &str) -> Vec<&Value> {
        self.inbox
            .iter()
            .filter(|m| m["method"] == method)
            .collect()
    }

    fn shutdown(mut self) -> Option<i32> {
        let r = self.request("shutdown", Value::Null);
        assert!(r.get("error").is_none(), "{r}");
        self.notify("exit", Value::Null);
        self.stdin.take();
        self.child.wait().unwrap().code()
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        // A failed assertion must not leave the server running.
        if matches!(self.child.try_wait(), Ok(None)) {
            std::thread::sleep(Duration::from_millis(200));
            if matches!(self.child.try_wait(), Ok(None)) {
                let _ = self.child.kill();
                let _ = self.child.wait();
            }
        }
    }
}

fn range(d: &Value) -> (u64, u64, u64, u64) {
    let r = &d["range"];
    let n = |v: &Value| v.as_u64().unwrap();
    (
        n(&r["start"]["line"]),
        n(&r["start"]["character"]),
        n(&r["end"]["line"]),
        n(&r["end"]["character"]),
    )
}

fn change(uri: &str, version: i64, changes: Value) -> Value {
    json!({ "textDocument": { "uri": uri, "version": version }, "contentChanges": changes })
}

#[test]
fn diagnostics_follow_the_unsaved_buffer_in_utf16_columns() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a.ts");
    // On disk the file is clean: the server must lint the buffer, not the file.
    std::fs::write(&file, "export {};\n").unwrap();
    let mut c = Client::start(dir.path());
    // `é` is one UTF-16 unit, `😀` two: the name starts at UTF-16 column 25 (24 characters,
    // 28 bytes).
    let text = "const s = 'é😀'; ctx.on('agent/turn-end', (a, t) => t);\n";
    let uri = c.open(&file, "typescript", text);
    let d = c.diagnostics(&uri);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0]["code"], "ML001");
    assert_eq!(d[0]["source"], "mirrorless");
    assert_eq!(d[0]["severity"], 1);
    assert_eq!(range(&d[0]), (0, 25, 0, 39), "{d:?}");
    assert!(
        d[0]["message"]
            .as_str()
            .unwrap()
            .starts_with("subscribes to removed event `agent/turn-end`\nhelp: "),
        "{d:?}"
    );

    // Incremental: `turn-end` (UTF-16 columns 30..39) becomes `turn-eng`, not a removed name.
    let edit = json!([{ "range": { "start": { "line": 0, "character": 38 }, "end": { "line": 0, "character": 39 } }, "text": "g" }]);
    c.notify("textDocument/didChange", change(&uri, 2, edit));
    assert_eq!(c.diagnostics(&uri), Vec::<Value>::new());
    let published = c.notifications("textDocument/publishDiagnostics");
    assert_eq!(published.last().unwrap()["params"]["version"], 2);

    // Full sync: a new line with an emit, under a non-ASCII line.
    let full = json!([{ "text": "// ü\nbus.emit('agent/step-start', s);\n" }]);
    c.notify("textDocument/didChange", change(&uri, 3, full));
    let d = c.diagnostics(&uri);
    let codes: Vec<_> = d.iter().map(|d| d["code"].as_str().unwrap()).collect();
    assert_eq!(codes, ["ML002"], "{d:?}");
    assert_eq!(range(&d[0]), (1, 10, 1, 26));

    // Closing the document clears its diagnostics (the clean file on disk is what remains).
    c.notify(
        "textDocument/didClose",
        json!({ "textDocument": { "uri": uri } }),
    );
    assert_eq!(c.diagnostics(&uri), Vec::<Value>::new());
    assert_eq!(c.shutdown(), Some(0));
}

#[test]
fn the_workspace_configuration_and_cross_file_consts_apply() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("mirrorless.toml"),
        "[lint]\nexclude = [\"vendor/**\"]\n\n[lint.severity]\nML001 = \"warning\"\n\n[[lint.events]]\nname = \"agent/queued\"\nreplacement = \"filter `queue/enter` on `session/event`\"\n",
    )
    .unwrap();
    std::fs::create_dir_all(dir.path().join("src")).unwrap();
    std::fs::create_dir_all(dir.path().join("vendor")).unwrap();
    // Declared in a file that is not open: found on disk, as `mirrorless lint` finds it.
    std::fs::write(
        dir.path().join("src/events.ts"),
        "export const TURN_END = 'agent/turn-end';\n",
    )
    .unwrap();
    let user = dir.path().join("src/user.ts");
    std::fs::write(&user, "").unwrap();
    let mut c = Client::start(dir.path());
    let uri = c.open(
        &user,
        "typescript",
        "import { TURN_END } from './events';\nctx.on(TURN_END, h);\nctx.on('agent/queued', h);\n",
    );
    let d = c.diagnostics(&uri);
    let got: Vec<_> = d
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap(),
                d["severity"].as_i64().unwrap(),
                range(d).0,
            )
        })
        .collect();
    // The import uses the const (ML004, error); both subscriptions are ML001, made warnings.
    assert_eq!(
        got,
        [("ML004", 1, 0), ("ML001", 2, 1), ("ML001", 2, 2)],
        "{d:?}"
    );
    let through = d[1]["message"].as_str().unwrap();
    assert!(
        through.contains("`agent/turn-end`")
            && through.ends_with("note: through const `TURN_END` declared at src/events.ts:1"),
        "the note names the declaration: {through}"
    );
    assert!(
        d[2]["message"].as_str().unwrap().contains("queue/enter"),
        "{d:?}"
    );

    // Declared in an unsaved buffer: the other open document resolves it at once.
    let events_uri = c.open(
        &dir.path().join("src/events.ts"),
        "typescript",
        "export const TURN_END = 'agent/turn-eng';\n",
    );
    let codes: Vec<_> = c
        .diagnostics(&uri)
        .iter()
        .map(|d| d["code"].clone())
        .collect();
    assert_eq!(codes, ["ML001"], "only the extra event is left");
    assert_eq!(c.diagnostics(&events_uri), Vec::<Value>::new());

    // A file the configuration excludes is not linted, as `mirrorless lint .` skips it.
    let vendored = dir.path().join("vendor/lib.ts");
    std::fs::write(&vendored, "ctx.on('agent/turn-end', h);\n").unwrap();
    let vendored_uri = c.open(&vendored, "typescript", "ctx.on('agent/turn-end', h);\n");
    assert_eq!(c.diagnostics(&vendored_uri), Vec::<Value>::new());
    assert_eq!(c.shutdown(), Some(0));
}

#[test]
fn files_changed_on_disk_are_seen_through_the_watchers_the_server_registers() {
    let dir = tempfile::tempdir().unwrap();
    let events = dir.path().join("events.ts");
    std::fs::write(&events, "export const STEP = 'agent/step-start';\n").unwrap();
    let user = dir.path().join("user.ts");
    let mut c = Client::start_with(
        dir.path(),
        json!({ "workspace": { "didChangeWatchedFiles": { "dynamicRegistration": true } } }),
    );
    let uri = c.open(
        &user,
        "typescript",
        "import { STEP } from './events';\nbus.on(STEP, h);\n",
    );
    let codes = |c: &mut Client| -> Vec<String> {
        c.diagnostics(&uri)
            .iter()
            .map(|d| d["code"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(codes(&mut c), ["ML004", "ML001"]);
    let registration = c
        .inbox
        .iter()
        .find(|m| m["method"] == "client/registerCapability")
        .cloned()
        .expect("the server registers file watchers");
    let watcher = &registration["params"]["registrations"][0];
    assert_eq!(watcher["method"], "workspace/didChangeWatchedFiles");
    assert!(
        watcher["registerOptions"]["watchers"][0]["globPattern"]
            .as_str()
            .unwrap()
            .contains("ts,"),
        "{registration}"
    );
    c.send(json!({ "jsonrpc": "2.0", "id": registration["id"], "result": null }));

    // A `git checkout` changes the declaration: reported by the editor, seen by the server.
    std::fs::write(&events, "export const STEP = 'step/start';\n").unwrap();
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": [{ "uri": uri_of(&events), "type": 2 }] }),
    );
    assert_eq!(codes(&mut c), Vec::<String>::new());
    // A new configuration is read when it appears.
    std::fs::write(
        dir.path().join("mirrorless.toml"),
        "[[lint.events]]\nname = \"step/start\"\nreplacement = \"nothing\"\n",
    )
    .unwrap();
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": [{ "uri": uri_of(&dir.path().join("mirrorless.toml")), "type": 1 }] }),
    );
    let d = c.diagnostics(&uri);
    assert_eq!(d.len(), 2, "{d:?}");
    assert!(
        d[1]["message"]
            .as_str()
            .unwrap()
            .starts_with("subscribes to removed event `step/start`"),
        "{d:?}"
    );
    assert_eq!(c.shutdown(), Some(0));
}

#[test]
fn a_broken_configuration_is_reported_and_the_defaults_apply() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("mirrorless.toml"), "[lint]\nseverity = 3\n").unwrap();
    let file = dir.path().join("a.rs");
    let mut c = Client::start(dir.path());
    let uri = c.open(
        &file,
        "rust",
        "fn f(bus: Bus) { bus.on(\"agent/step-end\", g); }\n",
    );
    let d = c.diagnostics(&uri);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0]["severity"], 1);
    let shown = c.notifications("window/showMessage");
    assert_eq!(shown.len(), 1, "{:?}", c.inbox);
    let message = shown[0]["params"]["message"].as_str().unwrap();
    assert!(message.contains("mirrorless.toml"), "{message}");
    assert_eq!(shown[0]["params"]["type"], 1);
    assert_eq!(c.shutdown(), Some(0));
}

#[test]
fn a_suppression_quick_fix_makes_the_buffer_lint_clean_and_hover_shows_the_rule() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("plugin.ts");
    let text = "export function activate(ctx) {\n  ctx.on('agent/turn-start', (a, t: number) => log(t));\n}\n";
    let mut c = Client::start(dir.path());
    let uri = c.open(&file, "typescript", text);
    let d = c.diagnostics(&uri);
    assert_eq!(d.len(), 1, "{d:?}");

    let hover = c.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": uri }, "position": { "line": 1, "character": 12 } }),
    );
    let value = hover["result"]["contents"]["value"].as_str().unwrap();
    assert!(value.contains("# ML001 `subscribe`"), "{value}");
    // The docs file's "generated" note is for the repository, not for the reader of a hover.
    assert!(!value.contains("<!--"), "{value}");
    assert!(
        value.contains("Subscribe to `session/event` instead"),
        "{value}"
    );
    let nothing = c.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": uri }, "position": { "line": 0, "character": 3 } }),
    );
    assert_eq!(nothing["result"], Value::Null);

    // The cursor at the start of the line, the diagnostic named in the context.
    let actions = c.request(
        "textDocument/codeAction",
        json!({
            "textDocument": { "uri": uri },
            "range": { "start": { "line": 1, "character": 0 }, "end": { "line": 1, "character": 0 } },
            "context": { "diagnostics": d }
        }),
    );
    let actions = actions["result"].as_array().unwrap().clone();
    let titles: Vec<_> = actions
        .iter()
        .map(|a| a["title"].as_str().unwrap())
        .collect();
    assert_eq!(
        actions.len(),
        2,
        "the fix, then the suppression: {titles:?}"
    );
    assert_eq!(actions[0]["isPreferred"], true, "{titles:?}");
    assert!(
        titles[1].starts_with("Suppress ML001 (subscribe)"),
        "{titles:?}"
    );
    assert_eq!(actions[1]["kind"], "quickfix");
    assert!(
        actions[1].get("isPreferred").is_none(),
        "a suppression is never preferred"
    );
    let edits = actions[1]["edit"]["changes"][&uri].as_array().unwrap();
    assert_eq!(edits.len(), 1);
    assert_eq!(range(&edits[0]), (1, 0, 1, 0));
    let inserted = edits[0]["newText"].as_str().unwrap();
    assert!(
        inserted.starts_with("  // mirrorless: allow(ML001) "),
        "{inserted}"
    );
    // Apply it as the editor would: an incremental change.
    c.notify(
        "textDocument/didChange",
        change(
            &uri,
            2,
            json!([{ "range": edits[0]["range"], "text": inserted }]),
        ),
    );
    assert_eq!(c.diagnostics(&uri), Vec::<Value>::new());

    // `only` without quick fixes asks for nothing we offer.
    let refactors = c.request(
        "textDocument/codeAction",
        json!({
            "textDocument": { "uri": uri },
            "range": { "start": { "line": 2, "character": 0 }, "end": { "line": 2, "character": 0 } },
            "context": { "diagnostics": [], "only": ["refactor"] }
        }),
    );
    assert_eq!(refactors["result"], json!([]));
    assert_eq!(c.shutdown(), Some(0));
}

/// A suppression comment is offered only where it silences its finding and nothing else: the
/// server lints the workspace with the comment in place (without settling fixes across files,
/// which moves no finding) and compares. Above a line inside a template literal, the comment
/// would be text of the literal: the finding stays, and no suppression is offered; on a line
/// of code beside it, one is. The file is on disk, so the check lints the workspace.
#[test]
fn a_suppression_is_offered_only_where_it_silences_its_finding() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("help.ts");
    let text = "export const help = `\n  wait for agent/turn-end before you answer\n`;\nexport const name = 'agent/turn-end';\n";
    std::fs::write(&file, text).unwrap();
    std::fs::write(
        dir.path().join("other.ts"),
        "import { name } from './help';\nexport const again = name;\n",
    )
    .unwrap();
    let mut c = Client::start(dir.path());
    let uri = c.open(&file, "typescript", text);
    let d = c.diagnostics(&uri);
    let suppressions_at = |c: &mut Client, line: u64| -> Vec<String> {
        let here: Vec<Value> = d.iter().filter(|x| range(x).0 == line).cloned().collect();
        assert!(!here.is_empty(), "no diagnostic on line {line}: {d:?}");
        let actions = c.request(
            "textDocument/codeAction",
            json!({
                "textDocument": { "uri": uri },
                "range": here[0]["range"],
                "context": { "diagnostics": here }
            }),
        );
        actions["result"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["title"].as_str().unwrap().to_owned())
            .filter(|t| t.starts_with("Suppress "))
            .collect()
    };
    assert_eq!(suppressions_at(&mut c, 1), Vec::<String>::new());
    let offered = suppressions_at(&mut c, 3);
    assert_eq!(offered.len(), 1, "{offered:?}");
    assert_eq!(c.shutdown(), Some(0));
}

/// `text` with LSP `edits` applied (UTF-16 positions), as an editor applies them.
fn apply(text: &str, edits: &[Value]) -> String {
    let offset = |p: &Value| -> usize {
        let line = p["line"].as_u64().unwrap() as usize;
        let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
        let mut units = 0;
        for (i, ch) in text[start..].char_indices() {
            if units >= p["character"].as_u64().unwrap() as usize || ch == '\n' {
                return start + i;
            }
            units += ch.len_utf16();
        }
        text.len()
    };
    let mut spans: Vec<(usize, usize, &str)> = edits
        .iter()
        .map(|e| {
            (
                offset(&e["range"]["start"]),
                offset(&e["range"]["end"]),
                e["newText"].as_str().unwrap(),
            )
        })
        .collect();
    spans.sort_by_key(|s| std::cmp::Reverse(s.0));
    let mut out = text.to_owned();
    for (a, b, new) in spans {
        out.replace_range(a..b, new);
    }
    out
}

/// The fixes are the CLI's: applying every preferred quick fix, as an editor's "fix all"
/// does, gives what `mirrorless lint --fix` writes, and the buffer lints clean.
#[test]
fn preferred_quick_fixes_are_what_lint_fix_writes() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("plugin.ts");
    let text = "export function activate(ctx, session) {\n  /* ü😀 */ ctx.on('agent/turn-end', (agent, turn: number) => log(turn));\n  session.append('assistant/chunk', c);\n  ctx.emit('agent/stream-chunk', c);\n}\n";
    std::fs::write(&file, text).unwrap();
    let status = crate::common::mirrorless_command()
        .args(["lint", "--no-config", "--fix"])
        .arg(&file)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(0));
    let by_cli = std::fs::read_to_string(&file).unwrap();
    assert_ne!(by_cli, text);

    let mut c = Client::start(dir.path());
    let uri = c.open(&file, "typescript", text);
    let d = c.diagnostics(&uri);
    assert_eq!(d.len(), 2, "{d:?}");
    let mut buffer = text.to_owned();
    let mut version = 1;
    // One fix at a time, as a user does; each edit is relative to the current buffer.
    for _ in 0..d.len() {
        let d = c.diagnostics(&uri);
        let actions = c.request(
            "textDocument/codeAction",
            json!({
                "textDocument": { "uri": uri },
                "range": d[0]["range"],
                "context": { "diagnostics": [d[0]] }
            }),
        );
        let preferred = actions["result"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["isPreferred"] == true)
            .cloned()
            .unwrap_or_else(|| panic!("a preferred fix for {}: {actions}", d[0]));
        let edits = preferred["edit"]["changes"][&uri]
            .as_array()
            .unwrap()
            .clone();
        buffer = apply(&buffer, &edits);
        version += 1;
        c.notify(
            "textDocument/didChange",
            change(&uri, version, json!([{ "text": buffer }])),
        );
    }
    assert_eq!(c.diagnostics(&uri), Vec::<Value>::new());
    assert_eq!(buffer, by_cli, "the editor's fixes are the CLI's");
    assert_eq!(c.shutdown(), Some(0));
}

#[test]
fn bad_requests_get_errors_and_the_server_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = Client::start(dir.path());
    let bad = c.request("textDocument/codeAction", json!({ "textDocument": 3 }));
    assert_eq!(bad["error"]["code"], -32602, "{bad}");
    let unknown = c.request("textDocument/definition", json!({}));
    assert_eq!(unknown["error"]["code"], -32601, "{unknown}");
    // A change to a document that was never opened is logged, not fatal.
    c.notify(
        "textDocument/didChange",
        change("file:///nowhere/x.ts", 2, json!([{ "text": "x" }])),
    );
    c.notify("textDocument/didOpen", json!({ "textDocument": "garbage" }));
    // Not a local file: linted alone, by its language.
    let uri = "untitled:Untitled-1";
    c.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": uri, "languageId": "javascript", "version": 1, "text": "bus.emit('agent/turn-end')\n" } }),
    );
    let d = c.diagnostics(uri);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0]["code"], "ML002");
    assert_eq!(
        c.notifications("window/logMessage").len(),
        2,
        "{:?}",
        c.inbox
    );
    assert_eq!(c.shutdown(), Some(0));
}

/// A fix as the editor offers it: title, preferred, and its edits (LSP range, new text),
/// sorted.
type OfferedFix = (String, bool, Vec<((u64, u64), (u64, u64), String)>);

/// The quick fix `mirrorless lint --format json` implies for a finding in `text`: the fix's
/// message (a suggestion's says so), preferred when machine-applicable, the same edits.
fn expected_fix(finding: &Value, text: &str) -> Option<OfferedFix> {
    let fix = finding.get("fix").filter(|f| !f.is_null())?;
    let preferred = fix["applicability"] == "machine-applicable";
    let message = fix["message"].as_str().unwrap();
    let title = if preferred {
        message.to_owned()
    } else {
        format!("{message} (suggestion: check the result)")
    };
    let mut edits: Vec<_> = fix["edits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let r = &e["range"];
            let n = |k: &str| r[k].as_u64().unwrap();
            (
                utf16(text, n("line"), n("column")),
                utf16(text, n("end_line"), n("end_column")),
                e["replacement"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    edits.sort();
    Some((title, preferred, edits))
}

/// The fixes the server offers for diagnostic `d` of `uri` (every quick fix but the
/// suppression).
fn offered_fixes(c: &mut Client, uri: &str, d: &Value) -> Vec<OfferedFix> {
    let actions = c.request(
        "textDocument/codeAction",
        json!({
            "textDocument": { "uri": uri },
            "range": d["range"],
            "context": { "diagnostics": [d] }
        }),
    );
    let actions = actions["result"]
        .as_array()
        .unwrap_or_else(|| panic!("{actions}"));
    actions
        .iter()
        .filter(|a| {
            a["diagnostics"][0]["range"] == d["range"]
                && a["diagnostics"][0]["code"] == d["code"]
                && a["diagnostics"][0]["message"] == d["message"]
                && !a["title"].as_str().unwrap().starts_with("Suppress ")
        })
        .map(|a| {
            let mut edits: Vec<_> = a["edit"]["changes"][uri]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| {
                    let (a, b, x, y) = range(e);
                    ((a, b), (x, y), e["newText"].as_str().unwrap().to_owned())
                })
                .collect();
            edits.sort();
            (
                a["title"].as_str().unwrap().to_owned(),
                a["isPreferred"] == true,
                edits,
            )
        })
        .collect()
}

/// `mirrorless lint --format json` run in `root`.
fn cli_lint(root: &Path) -> Value {
    let out = crate::common::mirrorless_command()
        .args(["lint", "--format", "json"])
        .current_dir(root)
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{}: {e}: {}",
            root.display(),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// How much [`compare_with_cli`] compared.
#[derive(Default)]
struct Compared {
    findings: usize,
    fixes: usize,
    /// Fixes the CLI holds back because another file still uses the event.
    held_back: usize,
}

/// Asserts that the server shows for `file` (open as `uri`, with `text`) what `cli` (the CLI's
/// JSON report in `root`) reports: the same findings at the same places, and for each the same
/// fix — the same edits, preferred exactly when the CLI says machine-applicable, with its
/// message (which says where a held-back fix's event is still used).
fn compare_with_cli(
    c: &mut Client,
    cli: &Value,
    root: &Path,
    (file, uri, text): (&Path, &str, &str),
    count: &mut Compared,
) {
    let rel = file
        .strip_prefix(root)
        .unwrap()
        .to_str()
        .unwrap()
        .to_owned();
    let mine: Vec<&Value> = cli["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["path"] == rel.as_str())
        .collect();
    let mut expected: Vec<Shown> = mine.iter().map(|f| shown_of_finding(f, text)).collect();
    let diagnostics = c.diagnostics(uri);
    let mut got: Vec<Shown> = diagnostics.iter().map(shown_of_diagnostic).collect();
    expected.sort();
    got.sort();
    assert_eq!(got, expected, "{} in workspace {}", rel, root.display());
    count.findings += expected.len();

    // The fix of each finding, by its diagnostic (same rule, place and message).
    for f in mine {
        let n = |k: &str| f[k].as_u64().unwrap();
        let (start, end) = (
            utf16(text, n("line"), n("column")),
            utf16(text, n("end_line"), n("end_column")),
        );
        let d = diagnostics
            .iter()
            .find(|d| {
                let (a, b, x, y) = range(d);
                d["code"] == f["rule"]
                    && (a, b) == start
                    && (x, y) == end
                    && d["message"]
                        .as_str()
                        .unwrap()
                        .starts_with(f["message"].as_str().unwrap())
            })
            .unwrap_or_else(|| panic!("{rel}: no diagnostic for {f}"));
        let want: Vec<OfferedFix> = expected_fix(f, text).into_iter().collect();
        let offered = offered_fixes(c, uri, d);
        assert_eq!(
            offered,
            want,
            "the fix of {rel}:{}:{} {} in workspace {}",
            n("line"),
            n("column"),
            f["rule"],
            root.display()
        );
        count.fixes += want.len();
        count.held_back += (want.iter())
            .filter(|(title, _, _)| title.contains("(not yet: "))
            .count();
    }
}

/// Which of [`findings_equal_the_cli_under`]'s two passes to run.
#[derive(Clone, Copy, PartialEq)]
enum Opened {
    /// Each file open alone (the others unopened, read from disk).
    Alone,
    /// Every file open at once.
    Together,
}

/// What the editor shows is what `mirrorless lint` prints: for the lint fixture directory of
/// `lang` (and each of its subdirectories, some with their own configuration), the CLI run
/// there and the server with that directory as its workspace report the same findings and
/// fixes for every file ([`compare_with_cli`]) — with each file open alone (the others
/// unopened, read from disk: a fix held back by a use in another file must be held back in the
/// editor too), and with every file open at once. The fix fixtures include workspaces where a
/// file's fix is held back by another file. One test per language (the fix fixtures, the
/// slowest, one per pass), so the test threads share them.
fn findings_equal_the_cli_under(lang: &str, passes: &[Opened]) -> Compared {
    let top = repo().join("fixtures/lint").join(lang);
    let mut roots = vec![top.clone()];
    for e in std::fs::read_dir(&top).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            roots.push(p);
        }
    }
    let mut count = Compared::default();
    for root in roots {
        let cli = cli_lint(&root);
        let mut c = Client::start(&root);
        let files: Vec<(PathBuf, String)> = walkdir::WalkDir::new(&root)
            .sort_by_file_name()
            .into_iter()
            .filter_map(Result::ok)
            .map(|e| e.into_path())
            .filter(|p| p.is_file() && language(p).is_some())
            .filter_map(|p| std::fs::read_to_string(&p).ok().map(|t| (p, t)))
            .collect();
        assert!(!files.is_empty(), "no fixture under {}", root.display());
        if passes.contains(&Opened::Alone) {
            for (file, text) in &files {
                let uri = c.open(file, language(file).unwrap(), text);
                compare_with_cli(&mut c, &cli, &root, (file, &uri, text), &mut count);
                c.notify(
                    "textDocument/didClose",
                    json!({ "textDocument": { "uri": uri } }),
                );
            }
        }
        if passes.contains(&Opened::Together) {
            let uris: Vec<String> = (files.iter())
                .map(|(file, text)| c.open(file, language(file).unwrap(), text))
                .collect();
            c.sync();
            for ((file, text), uri) in files.iter().zip(&uris) {
                compare_with_cli(&mut c, &cli, &root, (file, uri, text), &mut count);
            }
        }
        assert_eq!(c.shutdown(), Some(0));
    }
    count
}

/// Runs [`findings_equal_the_cli_under`] for `lang` and checks it compared at least `findings`
/// findings, `fixes` fixes and `held_back` fixes held back by another file (so a fixture
/// directory found empty, or a server that published nothing, cannot pass).
fn compares_at_least(
    lang: &str,
    passes: &[Opened],
    findings: usize,
    fixes: usize,
    held_back: usize,
) {
    let count = findings_equal_the_cli_under(lang, passes);
    assert!(
        count.findings >= findings,
        "{lang}: only {} findings",
        count.findings
    );
    assert!(count.fixes >= fixes, "{lang}: only {} fixes", count.fixes);
    assert!(
        count.held_back >= held_back,
        "{lang}: only {} fixes held back by another file's use",
        count.held_back
    );
}

const BOTH: &[Opened] = &[Opened::Alone, Opened::Together];

#[test]
fn findings_equal_the_cli_on_every_typescript_fixture() {
    compares_at_least("ts", BOTH, 100, 20, 0);
}

#[test]
fn findings_equal_the_cli_on_every_rust_fixture() {
    compares_at_least("rust", BOTH, 100, 12, 0);
}

#[test]
fn findings_equal_the_cli_on_every_markdown_fixture() {
    compares_at_least("md", BOTH, 20, 10, 0);
}

#[test]
fn findings_equal_the_cli_on_every_fix_fixture_opened_alone() {
    compares_at_least("fix", &[Opened::Alone], 100, 50, 3);
}

#[test]
fn findings_equal_the_cli_on_every_fix_fixture_opened_together() {
    compares_at_least("fix", &[Opened::Together], 100, 50, 3);
}

/// The CLI's fix of the finding of `rule` in `rel`, from `mirrorless lint --format json` in
/// `root` (`text` is the file's text).
fn cli_fix(root: &Path, rel: &str, rule: &str, text: &str) -> OfferedFix {
    let cli = cli_lint(root);
    let f = cli["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"] == rel && f["rule"] == rule)
        .unwrap_or_else(|| panic!("no {rule} in {rel}: {cli}"))
        .clone();
    expected_fix(&f, text).unwrap_or_else(|| panic!("no fix: {f}"))
}

/// The one fix the server offers for the only diagnostic of `rule` in `uri`.
fn server_fix(c: &mut Client, uri: &str, rule: &str) -> OfferedFix {
    let d = c.diagnostics(uri);
    let d: Vec<_> = d.iter().filter(|d| d["code"] == rule).collect();
    assert_eq!(d.len(), 1, "{d:?}");
    let mut offered = offered_fixes(c, uri, d[0]);
    assert_eq!(offered.len(), 1, "{offered:?}");
    offered.remove(0)
}

/// The emit in `host.ts` sits beside its durable append: alone, its deletion is
/// machine-applicable. But `plugin.ts`, never opened, still listens to the mirror (a handler
/// that uses the agent, so its migration is a suggestion): `mirrorless lint` in the root holds
/// the deletion back, and so must the editor — a suggestion, not preferred, with the CLI's
/// message. Once the listener is migrated — on disk (reported by the file watcher) or in an
/// unsaved buffer — the deletion is machine-applicable again, in both.
#[test]
fn a_fix_held_back_by_an_unopened_file_is_a_suggestion_as_for_the_cli() {
    let fixture = repo().join("fixtures/lint/fix/emit_with_listener");
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let host_text = std::fs::read_to_string(fixture.join("host.ts")).unwrap();
    let plugin_text = std::fs::read_to_string(fixture.join("plugin.ts")).unwrap();
    let (host, plugin) = (root.join("host.ts"), root.join("plugin.ts"));
    std::fs::write(&host, &host_text).unwrap();
    std::fs::write(&plugin, &plugin_text).unwrap();
    // The listener, migrated by hand (what its suggestion does, with the agent recovered).
    let migrated = plugin_text.replace(
        "ctx.on('agent/turn-start', (agent, turn) => {",
        "ctx.on('session/event', (session, event) => {\n    if (event.type !== 'turn/start') return;\n    const agent = ctx.agents.get(session.agentId);\n    const turn = event.data.turn;",
    );
    assert_ne!(migrated, plugin_text);

    // Alone, the deletion is machine-applicable …
    let alone = tempfile::tempdir().unwrap();
    std::fs::write(alone.path().join("host.ts"), &host_text).unwrap();
    let (title, preferred, edits) = cli_fix(alone.path(), "host.ts", "ML002", &host_text);
    assert!(preferred, "{title}");
    // … in the workspace, the CLI holds it back, naming the listener.
    let held = cli_fix(root, "host.ts", "ML002", &host_text);
    assert!(!held.1, "{held:?}");
    assert_eq!(held.2, edits, "the same edits, only not applied by --fix");
    assert!(
        held.0
            .contains("(not yet: `agent/turn-start` is still used at plugin.ts:4)"),
        "{held:?}"
    );

    let mut c = Client::start_with(
        root,
        json!({ "workspace": { "didChangeWatchedFiles": { "dynamicRegistration": true } } }),
    );
    let uri = c.open(&host, "typescript", &host_text);
    assert_eq!(server_fix(&mut c, &uri, "ML002"), held, "the editor agrees");

    // The listener migrated on disk (a `git pull`), reported by the watcher.
    std::fs::write(&plugin, &migrated).unwrap();
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": [{ "uri": uri_of(&plugin), "type": 2 }] }),
    );
    let freed = cli_fix(root, "host.ts", "ML002", &host_text);
    assert!(freed.1, "{freed:?}");
    assert_eq!(freed.0, title);
    assert_eq!(server_fix(&mut c, &uri, "ML002"), freed);

    // Back on disk; the editor sees the listener again.
    std::fs::write(&plugin, &plugin_text).unwrap();
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": [{ "uri": uri_of(&plugin), "type": 2 }] }),
    );
    assert_eq!(server_fix(&mut c, &uri, "ML002"), held);

    // Opened and fixed in the editor, not saved: the unsaved text counts. Its own fix is the
    // suggestion the server offers (the handler uses the agent).
    let plugin_uri = c.open(&plugin, "typescript", &plugin_text);
    let (ptitle, ppreferred, _) = server_fix(&mut c, &plugin_uri, "ML001");
    assert!(!ppreferred && ptitle.contains("suggestion"), "{ptitle}");
    c.notify(
        "textDocument/didChange",
        change(&plugin_uri, 2, json!([{ "text": migrated }])),
    );
    assert_eq!(c.diagnostics(&plugin_uri), Vec::<Value>::new());
    assert_eq!(server_fix(&mut c, &uri, "ML002"), freed);
    // Saved, the CLI agrees.
    std::fs::write(&plugin, &migrated).unwrap();
    assert_eq!(cli_fix(root, "host.ts", "ML002", &host_text), freed);
    // Undone in the buffer: held back again.
    c.notify(
        "textDocument/didChange",
        change(&plugin_uri, 3, json!([{ "text": plugin_text }])),
    );
    assert_eq!(server_fix(&mut c, &uri, "ML002"), held);
    assert_eq!(c.shutdown(), Some(0));
}
