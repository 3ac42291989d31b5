//! The stdio transport: LSP's `Content-Length` framing, read by a thread of our own and fed
//! into an `lsp_server::Connection` (whose own transport allocates a body of whatever length a
//! header claims before reading it, and exits on the first message it cannot parse).
//!
//! A frame's body is read incrementally and at most [`MAX_FRAME`] bytes are kept; a larger
//! one is answered with an error and ends the session (skipping it would mean waiting for
//! every byte its header claims). A body that is not JSON is answered `-32700` (parse error),
//! a JSON-RPC batch, a value that is no LSP message or a request with an id LSP cannot keep
//! `-32600` (invalid request); a frame without a usable `Content-Length` is answered `-32700`
//! and the next frame is found again; the connection goes on after each.

use lsp_server::{Connection, Message};
use std::io::{self, BufRead, Read, Write};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// The largest message body the server reads (64 MiB): more than any document an editor
/// sends (the linter's own parse limits are 4 MiB for Rust, 16 MiB for TypeScript).
pub const MAX_FRAME: u64 = 64 << 20;

/// The longest header line kept; a longer one is a framing error.
const MAX_HEADER_LINE: u64 = 8 << 10;

/// JSON-RPC's "parse error".
const PARSE_ERROR: i32 = -32700;
/// JSON-RPC's "invalid request".
const INVALID_REQUEST: i32 = -32600;

/// The threads behind a [`connect`]ed connection.
pub struct Threads {
    writer: JoinHandle<io::Result<()>>,
}

impl Threads {
    /// Waits until everything the server sent is written (call after the server's connection
    /// is dropped).
    pub fn join(self) -> Result<(), String> {
        match self.writer.join() {
            Ok(r) => r.map_err(|e| format!("writing to the client: {e}")),
            Err(_) => Err("the writer thread panicked".to_owned()),
        }
    }
}

/// A connection that reads frames from `input` and writes the server's messages to `output`.
/// The reader thread is detached: it ends when `input` does (the process may exit first).
pub fn connect(
    input: impl BufRead + Send + 'static,
    output: impl Write + Send + 'static,
) -> io::Result<(Connection, Threads)> {
    let (server, client) = Connection::memory();
    let out: Arc<Mutex<Box<dyn Write + Send>>> = Arc::new(Mutex::new(Box::new(output)));
    let to_client = client.receiver;
    let writer_out = Arc::clone(&out);
    let writer = std::thread::Builder::new()
        .name("mirrorless-lsp-writer".to_owned())
        .spawn(move || {
            for msg in to_client {
                let mut w = writer_out
                    .lock()
                    .map_err(|_| io::Error::other("poisoned"))?;
                msg.write(&mut *w)?;
            }
            Ok(())
        })?;
    let to_server = client.sender;
    let _reader = std::thread::Builder::new()
        .name("mirrorless-lsp-reader".to_owned())
        .spawn(move || {
            let mut input = input;
            loop {
                match read_frame(&mut input, &out) {
                    Ok(Some(body)) => {
                        if let Some(msg) = message(&body, &out)
                            && to_server.send(msg).is_err()
                        {
                            return;
                        }
                    }
                    Ok(None) => return,
                    Err(e) => {
                        // Ending the reader ends the session (exit status 1: no
                        // `shutdown`), with the reason where an editor's log shows it.
                        eprintln!("mirrorless lsp: cannot read from the client: {e}");
                        return;
                    }
                }
            }
        })?;
    Ok((server, Threads { writer }))
}

/// The connection over standard input and output.
pub fn stdio() -> io::Result<(Connection, Threads)> {
    connect(io::BufReader::new(io::stdin()), io::stdout())
}

type Out = Arc<Mutex<Box<dyn Write + Send>>>;

/// Writes an error response (`id` JSON, `null` when unknown) straight to the client.
fn reply_error(out: &Out, id: serde_json::Value, code: i32, message: String) {
    let body = serde_json::json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": { "code": code, "message": message },
    })
    .to_string();
    if let Ok(mut w) = out.lock() {
        let _ = write!(w, "Content-Length: {}\r\n\r\n{body}", body.len());
        let _ = w.flush();
    }
}

/// One header line, without its line end; `None` at the end of input.
fn header_line(input: &mut impl BufRead) -> io::Result<Option<Result<String, String>>> {
    let mut line = Vec::new();
    let n = input
        .by_ref()
        .take(MAX_HEADER_LINE)
        .read_until(b'\n', &mut line)?;
    if n == 0 {
        return Ok(None);
    }
    if line.last() != Some(&b'\n') {
        if n as u64 == MAX_HEADER_LINE {
            // Skip the rest of the line, whatever its length, without keeping it.
            let mut rest = Vec::new();
            loop {
                rest.clear();
                let m = input
                    .by_ref()
                    .take(MAX_HEADER_LINE)
                    .read_until(b'\n', &mut rest)?;
                if m == 0 || rest.last() == Some(&b'\n') {
                    break;
                }
            }
            return Ok(Some(Err(format!(
                "a header line is longer than {MAX_HEADER_LINE} bytes"
            ))));
        }
        return Ok(None);
    }
    while matches!(line.last(), Some(b'\n' | b'\r')) {
        line.pop();
    }
    Ok(Some(Ok(String::from_utf8_lossy(&line).into_owned())))
}

/// Reads one frame and returns its body; a frame that cannot be used is answered and skipped
/// (`Some(empty)` is never returned for it: the loop reads the next). `None` at the end.
fn read_frame(input: &mut impl BufRead, out: &Out) -> io::Result<Option<Vec<u8>>> {
    loop {
        let mut length: Option<Result<u64, String>> = None;
        let mut bad: Option<String> = None;
        let mut any = false;
        loop {
            let Some(line) = header_line(input)? else {
                return Ok(None);
            };
            let line = match line {
                Ok(line) => line,
                Err(e) => {
                    bad.get_or_insert(e);
                    continue;
                }
            };
            if line.is_empty() {
                if any {
                    break;
                }
                // Blank lines between frames.
                continue;
            }
            // The body of a frame refused for its header (no length, so not read) runs into
            // the next frame's first header line when it has no line end of its own: read
            // from the `Content-Length` on, so that the next frame is framed again.
            let line = match find_ascii_ci(&line, "content-length:") {
                Some(at) if at > 0 => line[at..].to_owned(),
                _ => line,
            };
            any = true;
            match line.split_once(':') {
                Some((name, value)) if name.trim().eq_ignore_ascii_case("content-length") => {
                    let value = value.trim();
                    length =
                        Some(value.parse::<u64>().map_err(|_| {
                            format!("`Content-Length: {}` is not a length", clip(value))
                        }));
                }
                Some(_) => {}
                None => {
                    bad.get_or_insert(format!("`{}` is not a header", clip(&line)));
                }
            }
        }
        let length = match (bad, length) {
            (None, Some(Ok(n))) => n,
            (bad, length) => {
                let why = bad
                    .or(length.and_then(Result::err))
                    .unwrap_or_else(|| "a message without `Content-Length`".to_owned());
                reply_error(
                    out,
                    serde_json::Value::Null,
                    PARSE_ERROR,
                    format!("bad frame: {why}"),
                );
                continue;
            }
        };
        if length > MAX_FRAME {
            // Skipping it would mean reading (and waiting for) every byte the header
            // claims, a terabyte as readily as a megabyte; nothing after it can be framed
            // without doing so. Fatal, as a framing error is for rust-analyzer.
            let why = format!(
                "a message of {length} bytes is over the limit of {} MiB: the connection cannot go on without reading it",
                MAX_FRAME >> 20
            );
            reply_error(out, serde_json::Value::Null, INVALID_REQUEST, why.clone());
            return Err(io::Error::new(io::ErrorKind::InvalidData, why));
        }
        // Grown as bytes arrive, never to more than were sent.
        let mut body = Vec::new();
        input.by_ref().take(length).read_to_end(&mut body)?;
        if (body.len() as u64) < length {
            return Ok(None);
        }
        return Ok(Some(body));
    }
}

/// The message a body holds, or `None` after answering why it is not one.
fn message(body: &[u8], out: &Out) -> Option<Message> {
    let parsed = serde_json::from_slice(body).or_else(|e| {
        // A lone surrogate escape (`"\ud800"`, what JavaScript's JSON.stringify writes for a
        // half of a pair) is not JSON serde accepts; dropping the message would leave the
        // server's text an edit behind the editor's. Read it as U+FFFD, as other servers do.
        match surrogates_replaced(body) {
            Some(fixed) => serde_json::from_slice(&fixed).map_err(|_| e),
            None => Err(e),
        }
    });
    let value: serde_json::Value = match parsed {
        Ok(v) => v,
        Err(e) => {
            reply_error(
                out,
                serde_json::Value::Null,
                PARSE_ERROR,
                format!("parse error: {e}"),
            );
            return None;
        }
    };
    if value.is_array() {
        reply_error(
            out,
            serde_json::Value::Null,
            INVALID_REQUEST,
            "JSON-RPC batches are not part of LSP; send each message in its own frame".to_owned(),
        );
        return None;
    }
    let id = match value.get("id") {
        Some(id @ (serde_json::Value::Number(_) | serde_json::Value::String(_))) => id.clone(),
        _ => serde_json::Value::Null,
    };
    // A request whose id is no id LSP knows (an object, a float, a bool, null, an integer
    // out of range) would read as a notification and never be answered: JSON-RPC's Invalid
    // Request, with a null id.
    if value.get("method").is_some()
        && let Some(raw) = value.get("id")
        && !usable_id(raw)
    {
        reply_error(
            out,
            serde_json::Value::Null,
            INVALID_REQUEST,
            format!(
                "invalid request: `id` must be an integer or a string, not `{}`",
                clip(&raw.to_string())
            ),
        );
        return None;
    }
    match serde_json::from_value::<Message>(value) {
        Ok(msg) => Some(msg),
        Err(e) => {
            reply_error(out, id, INVALID_REQUEST, format!("not an LSP message: {e}"));
            None
        }
    }
}

/// Whether `id` is an id `lsp-server` keeps: a string, or an integer within `i32`.
fn usable_id(id: &serde_json::Value) -> bool {
    match id {
        serde_json::Value::String(_) => true,
        serde_json::Value::Number(n) => n.as_i64().is_some_and(|n| i32::try_from(n).is_ok()),
        _ => false,
    }
}

/// `body` with every `\u` escape of a lone surrogate (one not in a high-low pair) written as
/// `\ufffd`; `None` when it has none.
fn surrogates_replaced(body: &[u8]) -> Option<Vec<u8>> {
    fn hex4(b: &[u8]) -> Option<u16> {
        let s = std::str::from_utf8(b.get(..4)?).ok()?;
        u16::from_str_radix(s, 16).ok()
    }
    let escape_at = |i: usize| -> Option<u16> {
        (body.get(i) == Some(&b'\\') && body.get(i + 1) == Some(&b'u'))
            .then(|| hex4(&body[i + 2..]))
            .flatten()
    };
    let mut out = Vec::with_capacity(body.len());
    let mut changed = false;
    let mut i = 0;
    while i < body.len() {
        if body[i] != b'\\' {
            out.push(body[i]);
            i += 1;
            continue;
        }
        match escape_at(i) {
            Some(0xD800..=0xDBFF)
                if escape_at(i + 6).is_some_and(|low| (0xDC00..=0xDFFF).contains(&low)) =>
            {
                out.extend_from_slice(&body[i..i + 12]);
                i += 12;
            }
            Some(0xD800..=0xDFFF) => {
                out.extend_from_slice(b"\\ufffd");
                changed = true;
                i += 6;
            }
            _ => {
                // Any other escape: its two bytes as they are (so `\\u…` is not read as one).
                out.extend_from_slice(&body[i..(i + 2).min(body.len())]);
                i += 2;
            }
        }
    }
    changed.then_some(out)
}

/// Where `needle` (lowercase ASCII) starts in `haystack`, ignoring ASCII case.
fn find_ascii_ci(haystack: &str, needle: &str) -> Option<usize> {
    haystack
        .as_bytes()
        .windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
}

/// At most 80 characters of `s`, for an error message.
fn clip(s: &str) -> String {
    let mut c: String = s.chars().take(80).collect();
    if c.len() < s.len() {
        c.push('…');
    }
    c
}
