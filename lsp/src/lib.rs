//! `mirrorless-lsp`: the language server of `mirrorless lint` (`mirrorless lsp`).
//!
//! It lints the documents open in an editor from their unsaved text, with the workspace's
//! `mirrorless.toml`, and reports what `mirrorless lint` run in the workspace root would report
//! for those files: diagnostics as the user types, the findings' fixes as code actions, and the
//! rule text on hover. It speaks LSP over stdio with `lsp-server`'s types and its own framing
//! ([`transport`]: a bounded, incremental reader that answers bad frames and goes on).
//!
//! - [`server`]: the loop, document sync and publication, shutdown;
//! - [`transport`]: `Content-Length` framing over stdio, within bounds;
//! - [`workspace`]: the files linted together (disk, overlaid with open documents);
//! - [`documents`]: open documents and incremental changes;
//! - [`diagnostics`], [`actions`], [`hover`]: findings as LSP values;
//! - [`position`], [`uri`]: UTF-16 positions and `file:` URIs.

#![warn(missing_docs)]

pub mod actions;
pub mod diagnostics;
pub mod documents;
pub mod hover;
pub mod position;
pub mod server;
pub mod transport;
pub mod uri;
pub mod workspace;

use lsp_server::{ErrorCode, Message, Response};

/// How the client ended the session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// `exit` after `shutdown`, or the input closed after `shutdown`: exit status 0.
    Clean,
    /// `exit` without `shutdown`, or the input closed without either: exit status 1 (LSP).
    WithoutShutdown,
}

/// Serves the language server on standard input and output until the client exits.
pub fn run_stdio() -> Result<Exit, String> {
    let (conn, io) = transport::stdio().map_err(|e| format!("starting the transport: {e}"))?;
    let exit = serve(conn)?;
    io.join()?;
    Ok(exit)
}

/// Serves one connection: waits for `initialize` (answering other requests
/// `ServerNotInitialized`), then runs the [`server::Server`] until `exit`.
pub fn serve(conn: lsp_server::Connection) -> Result<Exit, String> {
    let (id, params) = loop {
        match conn.receiver.recv() {
            Ok(Message::Request(req)) if req.method == "initialize" => break (req.id, req.params),
            Ok(Message::Request(req)) => {
                let _ = conn.sender.send(
                    Response::new_err(
                        req.id,
                        ErrorCode::ServerNotInitialized as i32,
                        format!("`{}` before `initialize`", req.method),
                    )
                    .into(),
                );
            }
            Ok(Message::Notification(n)) if n.method == "exit" => return Ok(Exit::WithoutShutdown),
            Ok(_) => {}
            Err(_) => return Ok(Exit::WithoutShutdown),
        }
    };
    let root = server::root_of(&params);
    let result = serde_json::json!({
        "capabilities": server::capabilities(),
        "serverInfo": { "name": "mirrorless", "version": env!("CARGO_PKG_VERSION") },
    });
    let _ = conn.sender.send(Response::new_ok(id, result).into());
    let server = server::Server::new(conn, root);
    if server::can_watch_files(&params) {
        server.watch_files();
    }
    Ok(server.run())
}
