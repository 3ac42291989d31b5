//! `mirrorless-lsp`: the language server of `mirrorless lint` (`mirrorless lsp`).
//!
//! It lints the documents open in an editor from their unsaved text, with the workspace's
//! `mirrorless.toml`, and reports what `mirrorless lint` run in the workspace root would report
//! for those files: diagnostics as the user types, the findings' fixes as code actions, and the
//! rule text on hover. It speaks LSP over stdio through `lsp-server` (rust-analyzer's
//! transport).
//!
//! - [`server`]: the loop, document sync and publication;
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
pub mod uri;
pub mod workspace;

use lsp_server::Connection;

/// Serves the language server on standard input and output until the client exits.
pub fn run_stdio() -> Result<(), String> {
    let (conn, io) = Connection::stdio();
    let (id, params) = conn
        .initialize_start()
        .map_err(|e| format!("waiting for `initialize`: {e}"))?;
    let root = server::root_of(&params);
    let result = serde_json::json!({
        "capabilities": server::capabilities(),
        "serverInfo": { "name": "mirrorless", "version": env!("CARGO_PKG_VERSION") },
    });
    conn.initialize_finish(id, result)
        .map_err(|e| format!("answering `initialize`: {e}"))?;
    let server = server::Server::new(conn, root);
    if server::can_watch_files(&params) {
        server.watch_files();
    }
    server.run()?;
    io.join()
        .map_err(|e| format!("closing standard input/output: {e}"))
}
