//! Benchmark: how long after a change the server publishes the diagnostics of a 5,000-line
//! TypeScript document (target: 50 ms). Run with
//!
//! ```console
//! cargo bench -p mirrorless-lsp --bench publish             # 5000 lines, 60 changes
//! cargo bench -p mirrorless-lsp --bench publish -- 20000 30 # lines, changes
//! cargo build --release && \
//!   cargo bench -p mirrorless-lsp --bench publish -- --stdio target/release/mirrorless
//! cargo bench -p mirrorless-lsp --bench publish -- --workspace DIR FILE [--stdio BIN]
//! ```
//!
//! With `--workspace`, the only scenario is that real workspace (e.g. a checkout of upstream's
//! repository), with its file `FILE` opened and a removed subscription appended to it in the
//! editor (nothing is written to disk).
//!
//! The server runs in-process over `lsp_server::Connection::memory()` (the same loop as
//! `mirrorless lsp`, without the stdio pipe), or with `--stdio BIN` as `BIN lsp`, a child
//! process spoken to over its standard input and output as an editor does. The document is opened once; each change is one
//! incremental edit (a removed event name is made and unmade in turn, so every publication
//! differs), timed from sending `didChange` to receiving its `publishDiagnostics`. Two
//! workspaces: the document alone, and the document among 400 other files of which 40 name
//! removed events (every change re-resolves identifiers across the workspace, as the CLI does),
//! and that workspace with 10 more files that listen to the mirror the document emits (which
//! holds the document's emit deletions back to suggestions, decided over the whole workspace on
//! every change).
//! Results are recorded in `docs/benchmarks/lsp.md`.

use lsp_server::{Connection, Message, Notification, Request, RequestId};
use mirrorless_lsp::server::Server;
use serde_json::json;
use std::io::{BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

/// User + system CPU time of a whole process (every thread), in seconds, from its
/// `/proc/PID/stat`.
fn cpu_seconds(stat: &str) -> Option<f64> {
    let stat = std::fs::read_to_string(stat).ok()?;
    let after = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = after.split_whitespace().collect();
    // Fields 14 and 15 of stat(5), counted from the state field (3): utime, stime in ticks.
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// A realistic plugin module: handlers, a few removed subscriptions and emits, strings and
/// comments, repeated to `lines` lines.
fn document(lines: usize) -> String {
    let block = [
        "export function register{i}(ctx: PluginContext, session: Session) {",
        "  // Render the header once per turn; the footer when the step ends.",
        "  ctx.on('session/event', (event) => {",
        "    if (event.type === 'turn/start') renderHeader(event.data.turn, 'é😀');",
        "  });",
        "  const label = `step ${session.id} of ${ctx.name}`;",
        "  ctx.on('agent/turn-end', (agent, turn) => closeTurn(agent, turn, label));",
        "  session.append('assistant/chunk', { text: label });",
        "  ctx.emit('agent/stream-chunk', { text: label });",
        "  return { dispose: () => ctx.off('session/event', noop) };",
        "}",
        "",
    ];
    let mut out = String::new();
    let mut n = 0;
    let mut i = 0;
    while n < lines {
        for l in block {
            out.push_str(&l.replace("{i}", &i.to_string()));
            out.push('\n');
            n += 1;
        }
        i += 1;
    }
    out
}

fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// The client's end: the in-process server, or `mirrorless lsp` as a child process.
enum Transport {
    Memory(Connection, std::thread::JoinHandle<mirrorless_lsp::Exit>),
    Stdio(Child, BufReader<ChildStdout>, ChildStdin),
}

impl Transport {
    fn start(root: &Path, bin: Option<&Path>) -> Transport {
        match bin {
            None => {
                let (server_side, client) = Connection::memory();
                let root = root.to_path_buf();
                let server = std::thread::spawn(move || Server::new(server_side, Some(root)).run());
                Transport::Memory(client, server)
            }
            Some(bin) => {
                let mut child = Command::new(bin)
                    .arg("lsp")
                    .current_dir(root)
                    .stdin(Stdio::piped())
                    .stdout(Stdio::piped())
                    .spawn()
                    .expect("spawn mirrorless lsp");
                let stdout = BufReader::new(child.stdout.take().expect("stdout"));
                let stdin = child.stdin.take().expect("stdin");
                let mut t = Transport::Stdio(child, stdout, stdin);
                t.send(
                    Request::new(
                        RequestId::from(1),
                        "initialize".to_owned(),
                        json!({ "rootUri": uri(root), "capabilities": {} }),
                    )
                    .into(),
                );
                while !matches!(t.recv(), Message::Response(_)) {}
                t.notify("initialized", json!({}));
                t
            }
        }
    }

    fn send(&mut self, msg: Message) {
        match self {
            Transport::Memory(c, _) => c.sender.send(msg).expect("server alive"),
            Transport::Stdio(_, _, stdin) => {
                msg.write(stdin).expect("write to the server");
                stdin.flush().expect("flush");
            }
        }
    }

    fn notify(&mut self, method: &str, params: serde_json::Value) {
        self.send(Notification::new(method.to_owned(), params).into());
    }

    fn recv(&mut self) -> Message {
        match self {
            Transport::Memory(c, _) => c
                .receiver
                .recv_timeout(Duration::from_secs(60))
                .expect("the server answers"),
            Transport::Stdio(_, stdout, _) => Message::read(stdout)
                .expect("read from the server")
                .expect("the server answers"),
        }
    }

    /// CPU seconds of the process doing the server's work.
    fn cpu(&self) -> Option<f64> {
        match self {
            Transport::Memory(..) => cpu_seconds("/proc/self/stat"),
            Transport::Stdio(child, ..) => cpu_seconds(&format!("/proc/{}/stat", child.id())),
        }
    }

    fn stop(mut self) {
        self.send(Request::new(RequestId::from(2), "shutdown".to_owned(), json!(null)).into());
        self.notify("exit", json!(null));
        match self {
            Transport::Memory(c, server) => {
                drop(c);
                let _ = server.join();
            }
            Transport::Stdio(mut child, _, stdin) => {
                drop(stdin);
                let _ = child.wait();
            }
        }
    }

    fn wait_publish(&mut self, version: i32) -> usize {
        loop {
            if let Message::Notification(n) = self.recv()
                && n.method == "textDocument/publishDiagnostics"
                && n.params["version"] == version
            {
                return n.params["diagnostics"].as_array().map_or(0, Vec::len);
            }
        }
    }
}

/// The document a scenario edits: its file, its text when opened, and the line and UTF-16
/// column of the last character of a removed name in it (flipped `d` ↔ `g` by each change).
struct Doc {
    file: PathBuf,
    text: String,
    flip: (usize, usize),
}

impl Doc {
    /// The generated document of `lines` lines, written as `big.ts` in `root`: each change
    /// flips the last character of line 6's `agent/turn-end` (UTF-16 columns 10..24).
    fn generated(root: &Path, lines: usize) -> Doc {
        let file = root.join("big.ts");
        let text = document(lines);
        std::fs::write(&file, &text).expect("write the document");
        Doc {
            file,
            text,
            flip: (6, 23),
        }
    }

    /// An existing file of a real workspace (nothing is written): opened with one removed
    /// subscription appended, whose name each change flips.
    fn existing(file: PathBuf) -> Doc {
        let mut text = std::fs::read_to_string(&file).expect("read the document");
        if !text.ends_with('\n') {
            text.push('\n');
        }
        let line = text.lines().count();
        text.push_str("ctx.on('agent/turn-end', (agent, turn) => close(agent, turn));\n");
        Doc {
            file,
            text,
            flip: (line, 21),
        }
    }
}

fn scenario(name: &str, root: &Path, doc: &Doc, changes: usize, bin: Option<&Path>) {
    let (file, text) = (&doc.file, doc.text.clone());
    let lines = text.lines().count();
    let (line, character) = doc.flip;
    let mut t = Transport::start(root, bin);
    t.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": uri(file), "languageId": "typescript", "version": 0, "text": text } }),
    );
    let first = t.wait_publish(0);
    // Each change flips the last character of a removed name: `agent/turn-eng` is no removed
    // name, so one finding goes and comes back.
    let mut times = Vec::with_capacity(changes);
    let cpu0 = t.cpu();
    for v in 1..=changes {
        let ch = if v % 2 == 1 { "g" } else { "d" };
        let started = Instant::now();
        t.notify(
            "textDocument/didChange",
            json!({
                "textDocument": { "uri": uri(file), "version": v },
                "contentChanges": [{ "range": { "start": { "line": line, "character": character }, "end": { "line": line, "character": character + 1 } }, "text": ch }]
            }),
        );
        let count = t.wait_publish(i32::try_from(v).unwrap_or(i32::MAX));
        times.push(started.elapsed().as_secs_f64() * 1e3);
        assert!(
            if v % 2 == 1 {
                count == first - 1
            } else {
                count == first
            },
            "change {v}: {count} diagnostics, {first} at open"
        );
    }
    let cpu = cpu0
        .zip(t.cpu())
        .map(|(a, b)| (b - a) * 1e3 / changes as f64);
    t.stop();
    times.sort_by(f64::total_cmp);
    let pct = |p: f64| times[((times.len() - 1) as f64 * p).round() as usize];
    let how = if bin.is_some() { "stdio" } else { "in-process" };
    println!(
        "{name} ({how}): {lines} lines, {first} diagnostics, {changes} changes — change → publish: median {:.1} ms, p90 {:.1} ms, p95 {:.1} ms, max {:.1} ms; CPU per change {} (target: 50 ms)",
        pct(0.5),
        pct(0.9),
        pct(0.95),
        pct(1.0),
        cpu.map_or_else(|| "n/a".to_owned(), |c| format!("{c:.1} ms")),
    );
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mut numbers = Vec::new();
    let mut bin: Option<PathBuf> = None;
    let mut workspace: Option<(PathBuf, PathBuf)> = None;
    while let Some(a) = args.next() {
        if a == "--workspace" {
            // A real workspace (a checkout) and one of its files, which is opened and edited
            // in the editor only: nothing is written to the workspace.
            let root = args
                .next()
                .map(PathBuf::from)
                .expect("--workspace DIR FILE");
            let file = args
                .next()
                .map(PathBuf::from)
                .expect("--workspace DIR FILE");
            let root = std::fs::canonicalize(&root).expect("the workspace exists");
            workspace = Some((root.clone(), root.join(file)));
            continue;
        }
        if a == "--stdio" {
            // Relative to the workspace root, where `cargo bench` is typed (it runs the bench
            // in the crate's directory).
            bin = args.next().map(|b| {
                let b = PathBuf::from(b);
                if b.is_absolute() {
                    b
                } else {
                    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(b)
                }
            });
        } else if let Ok(n) = a.parse::<usize>() {
            numbers.push(n);
        }
    }
    let lines = numbers.first().copied().unwrap_or(5000);
    let changes = numbers.get(1).copied().unwrap_or(60);
    let bin = bin.as_deref();

    if let Some((root, file)) = workspace {
        let name = format!("workspace {}", root.display());
        scenario(&name, &root, &Doc::existing(file), changes, bin);
        return;
    }

    let alone = tempfile::tempdir().expect("temp dir");
    let doc = Doc::generated(alone.path(), lines);
    scenario("alone", alone.path(), &doc, changes, bin);

    let tree = tempfile::tempdir().expect("temp dir");
    for i in 0..400 {
        let body = if i % 10 == 0 {
            format!("export const EVENT_{i} = 'agent/step-start';\nbus.on(EVENT_{i}, handler);\n")
        } else {
            format!("export function f{i}(x: number): number {{\n  return x + {i};\n}}\n")
        };
        let dir = tree.path().join(format!("pkg{}", i / 50));
        std::fs::create_dir_all(&dir).expect("dir");
        std::fs::write(dir.join(format!("m{i}.ts")), body).expect("write");
    }
    let doc = Doc::generated(tree.path(), lines);
    scenario("workspace of 400 files", tree.path(), &doc, changes, bin);

    // The same workspace, where 10 more files still listen to the mirror the document emits
    // (handlers that use the agent, so their migration is a suggestion): every change decides
    // again, over the whole workspace, that the document's emit deletions are held back.
    for i in 0..10 {
        let dir = tree.path().join("listeners");
        std::fs::create_dir_all(&dir).expect("dir");
        std::fs::write(
            dir.join(format!("l{i}.ts")),
            "export function watch(ctx) {\n  ctx.on('agent/stream-chunk', (agent, turn, step, chunk) => agent.note(chunk));\n}\n",
        )
        .expect("write");
    }
    scenario(
        "workspace of 410 files, 10 listening to the mirror",
        tree.path(),
        &doc,
        changes,
        bin,
    );
}
