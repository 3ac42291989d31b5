//! The client side shared by the tests that speak to `mirrorless lsp` as an editor does (each
//! says `mod lsp_wire;`): the message framing, URIs and language ids, and a diagnostic in the
//! form both the server and `mirrorless lint --format json` can be compared in.

use serde_json::Value;
use std::io::{BufRead, Write};
use std::path::Path;

/// The `file://` URI an editor sends for `path` (canonical, percent-encoded).
pub fn uri_of(path: &Path) -> String {
    let path = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    let mut out = String::from("file://");
    for b in path.to_string_lossy().bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// Reads one `Content-Length`-framed JSON-RPC message; `None` at the end of the stream.
pub fn read_message(r: &mut impl BufRead) -> Option<Value> {
    let mut len = None;
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(v) = line.strip_prefix("Content-Length: ") {
            len = v.parse().ok();
        }
    }
    let mut buf = vec![0; len?];
    r.read_exact(&mut buf).ok()?;
    serde_json::from_slice(&buf).ok()
}

/// Writes one `Content-Length`-framed JSON-RPC message and flushes it.
pub fn write_message(w: &mut impl Write, msg: &Value) {
    let body = msg.to_string();
    write!(w, "Content-Length: {}\r\n\r\n{body}", body.len()).expect("write to the server");
    w.flush().expect("flush to the server");
}

/// The language id an editor sends for `path`, for the files the linter reads.
pub fn language(path: &Path) -> Option<&'static str> {
    match path.extension()?.to_str()? {
        "ts" | "mts" | "cts" => Some("typescript"),
        "tsx" => Some("typescriptreact"),
        "js" | "mjs" | "cjs" => Some("javascript"),
        "jsx" => Some("javascriptreact"),
        "rs" => Some("rust"),
        "md" | "markdown" | "mdx" => Some("markdown"),
        _ => None,
    }
}

/// A diagnostic as the editor shows it: rule, start, end (LSP positions), severity, message.
pub type Shown = (String, (u64, u64), (u64, u64), i64, String);

/// The linter's 1-based line and character column as an LSP (UTF-16) position in `text`.
pub fn utf16(text: &str, line: u64, column: u64) -> (u64, u64) {
    let l = text.split('\n').nth(line as usize - 1).unwrap_or("");
    let units: usize = l
        .chars()
        .take(column as usize - 1)
        .map(char::len_utf16)
        .sum();
    (line - 1, units as u64)
}

/// The diagnostic the server must publish for one finding of `mirrorless lint --format json`
/// in `text` (a field the finding lacks reads as empty, so the comparison fails visibly).
pub fn shown_of_finding(f: &Value, text: &str) -> Shown {
    let n = |k: &str| f[k].as_u64().unwrap_or(1);
    let severity = match f["severity"].as_str() {
        Some("error") => 1,
        Some("warning") => 2,
        _ => 3,
    };
    let mut message = format!(
        "{}\nhelp: {}",
        f["message"].as_str().unwrap_or_default(),
        f["help"].as_str().unwrap_or_default()
    );
    if let Some(note) = f["note"].as_str() {
        message.push_str(&format!("\nnote: {note}"));
    }
    (
        f["rule"].as_str().unwrap_or_default().to_owned(),
        utf16(text, n("line"), n("column")),
        utf16(text, n("end_line"), n("end_column")),
        severity,
        message,
    )
}

/// A published LSP diagnostic in the same form.
pub fn shown_of_diagnostic(d: &Value) -> Shown {
    let n = |v: &Value| v.as_u64().unwrap_or(u64::MAX);
    let r = &d["range"];
    (
        d["code"].as_str().unwrap_or_default().to_owned(),
        (n(&r["start"]["line"]), n(&r["start"]["character"])),
        (n(&r["end"]["line"]), n(&r["end"]["character"])),
        d["severity"].as_i64().unwrap_or_default(),
        d["message"].as_str().unwrap_or_default().to_owned(),
    )
}

/// A spawned `mirrorless lsp` in `root`: the process, its stdin, and the messages it writes,
/// read on a thread as they come (stderr as given: piped to be read, or inherited).
pub fn spawn_server(
    root: &Path,
    stderr: std::process::Stdio,
) -> (
    std::process::Child,
    Option<std::process::ChildStdin>,
    std::sync::mpsc::Receiver<Value>,
) {
    use std::process::Stdio;
    let mut child = crate::common::mirrorless_command()
        .arg("lsp")
        .current_dir(root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("spawn mirrorless lsp");
    let stdout = child.stdout.take().expect("piped stdout");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut r = std::io::BufReader::new(stdout);
        while let Some(m) = read_message(&mut r) {
            if tx.send(m).is_err() {
                break;
            }
        }
    });
    let stdin = child.stdin.take();
    (child, stdin, rx)
}
