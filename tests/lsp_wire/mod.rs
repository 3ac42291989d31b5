//! The wire side of an LSP client, shared by the tests that speak to `mirrorless lsp` as an
//! editor does (each says `mod lsp_wire;`).

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
