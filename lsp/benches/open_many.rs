//! Benchmark: how long the server takes to settle after an editor opens many documents at
//! once (issue 19: 2,000 took 26–70 s, one whole-workspace lint per document). Run with
//!
//! ```console
//! cargo bench -p mirrorless-lsp --bench open_many           # 2000 documents
//! cargo bench -p mirrorless-lsp --bench open_many -- 5000   # documents
//! ```
//!
//! The server runs in-process over `lsp_server::Connection::memory()` (the loop `mirrorless
//! lsp` runs) in a workspace of N TypeScript files, each a removed subscription; all N are
//! opened in one burst, then a `hover` request is sent, which the server answers only after
//! publishing the diagnostics of every document opened before it. Timed from the first
//! `didOpen` to that answer; the bench asserts every document's diagnostics were published.
//! Results are recorded in `docs/benchmarks/lsp.md`.

use lsp_server::{Connection, Message, Notification, Request, RequestId};
use mirrorless_lsp::server::Server;
use serde_json::json;
use std::collections::HashSet;
use std::time::{Duration, Instant};

fn main() {
    let n: usize = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .and_then(|a| a.parse().ok())
        .unwrap_or(2_000);
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().canonicalize().expect("canonical root");
    let text = "bus.on('agent/turn-start', h);\n";
    let mut uris = Vec::new();
    for i in 0..n {
        let p = root.join(format!("d{}/f{i}.ts", i % 20));
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(&p, text).expect("write");
        uris.push(format!("file://{}", p.display()));
    }
    let (server_side, client) = Connection::memory();
    let server_root = root.clone();
    let server = std::thread::spawn(move || Server::new(server_side, Some(server_root)).run());
    let started = Instant::now();
    for uri in &uris {
        let params = json!({ "textDocument": { "uri": uri, "languageId": "typescript", "version": 1, "text": text } });
        client
            .sender
            .send(Notification::new("textDocument/didOpen".to_owned(), params).into())
            .expect("server alive");
    }
    let hover = json!({ "textDocument": { "uri": "file:///nowhere.ts" }, "position": { "line": 0, "character": 0 } });
    client
        .sender
        .send(Request::new(RequestId::from(1), "textDocument/hover".to_owned(), hover).into())
        .expect("server alive");
    let mut published = HashSet::new();
    let mut publications = 0usize;
    loop {
        match client.receiver.recv_timeout(Duration::from_secs(600)) {
            Ok(Message::Response(r)) if r.id == RequestId::from(1) => break,
            Ok(Message::Notification(n)) if n.method == "textDocument/publishDiagnostics" => {
                publications += 1;
                if let Some(uri) = n.params.get("uri").and_then(|u| u.as_str()) {
                    published.insert(uri.to_owned());
                }
            }
            Ok(_) => {}
            Err(e) => panic!("no answer: {e}"),
        }
    }
    let settled = started.elapsed();
    assert_eq!(
        published.len(),
        n,
        "every document's diagnostics are published"
    );
    println!(
        "{n} documents opened in one burst: settled in {:.0} ms ({publications} publications)",
        settled.as_secs_f64() * 1e3
    );
    drop(client);
    let _ = server.join();
}
