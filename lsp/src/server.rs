//! The server loop: document sync, linting of the open documents, diagnostics, code actions
//! and hover.

use crate::actions;
use crate::diagnostics;
use crate::documents::{self, Document};
use crate::hover;
use crate::position::LineMap;
use crate::uri;
use crate::workspace::Workspace;
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidChangeWatchedFiles, DidCloseTextDocument, DidOpenTextDocument,
    DidSaveTextDocument, LogMessage, Notification as _, PublishDiagnostics, ShowMessage,
};
use lsp_types::request::{CodeActionRequest, HoverRequest, Request as _};
use lsp_types::{
    CodeActionKind, CodeActionOptions, CodeActionOrCommand, CodeActionParams,
    CodeActionProviderCapability, DidChangeTextDocumentParams, DidChangeWatchedFilesParams,
    DidCloseTextDocumentParams, DidOpenTextDocumentParams, DidSaveTextDocumentParams, HoverParams,
    HoverProviderCapability, LogMessageParams, MessageType, PositionEncodingKind,
    PublishDiagnosticsParams, SaveOptions, ServerCapabilities, ShowMessageParams,
    TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions,
    TextDocumentSyncSaveOptions, Uri,
};
use std::collections::HashMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// What the server tells the client it can do.
pub fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        position_encoding: Some(PositionEncodingKind::UTF16),
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::INCREMENTAL),
                will_save: None,
                will_save_wait_until: None,
                save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions {
                    include_text: Some(false),
                })),
            },
        )),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![CodeActionKind::QUICKFIX]),
            work_done_progress_options: Default::default(),
            resolve_provider: None,
        })),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        ..ServerCapabilities::default()
    }
}

/// The workspace root named by `initialize` parameters: the first workspace folder, else
/// `rootUri`, else `rootPath`.
pub fn root_of(params: &serde_json::Value) -> Option<PathBuf> {
    let folder = params
        .get("workspaceFolders")
        .and_then(|f| f.get(0))
        .and_then(|f| f.get("uri"))
        .and_then(serde_json::Value::as_str);
    let root_uri = params.get("rootUri").and_then(serde_json::Value::as_str);
    folder
        .or(root_uri)
        .and_then(|u| u.parse::<Uri>().ok())
        .and_then(|u| uri::to_path(&u))
        .or_else(|| {
            params
                .get("rootPath")
                .and_then(serde_json::Value::as_str)
                .map(PathBuf::from)
        })
}

/// Whether the client lets the server register file watchers (`initialize` parameters).
pub fn can_watch_files(params: &serde_json::Value) -> bool {
    params
        .pointer("/capabilities/workspace/didChangeWatchedFiles/dynamicRegistration")
        .and_then(serde_json::Value::as_bool)
        .unwrap_or(false)
}

/// The state of one connection.
pub struct Server {
    conn: Connection,
    root: Option<PathBuf>,
    ws: Workspace,
    docs: HashMap<Uri, Document>,
    /// Documents whose diagnostics may be out of date.
    dirty: bool,
    /// The client sent `shutdown`: requests are refused until `exit`.
    shut_down: bool,
}

/// How long the server waits for another message after a document is opened or changed
/// before linting.
const SETTLE: Duration = Duration::from_millis(5);

/// The longest a burst of messages may delay the next lint.
const SETTLE_MAX: Duration = Duration::from_millis(200);

/// Whether `method` opens, changes or closes a document.
fn is_document_sync(method: &str) -> bool {
    matches!(
        method,
        DidOpenTextDocument::METHOD | DidChangeTextDocument::METHOD | DidCloseTextDocument::METHOD
    )
}

impl Server {
    /// A server for `conn` whose workspace is `root`.
    pub fn new(conn: Connection, root: Option<PathBuf>) -> Server {
        let ws = Workspace::load(root.as_deref());
        let server = Server {
            conn,
            root,
            ws,
            docs: HashMap::new(),
            dirty: false,
            shut_down: false,
        };
        server.report_config_error();
        server
    }

    /// Asks the client to report changes to the files the workspace reads (sources and
    /// configuration), for clients that allow it (`workspace.didChangeWatchedFiles.
    /// dynamicRegistration`); the others report what they like, or nothing.
    pub fn watch_files(&self) {
        let glob = "**/*.{rs,ts,tsx,mts,cts,js,jsx,mjs,cjs,md,markdown,mdx,toml}";
        let params = lsp_types::RegistrationParams {
            registrations: vec![lsp_types::Registration {
                id: "mirrorless-watched-files".to_owned(),
                method: DidChangeWatchedFiles::METHOD.to_owned(),
                register_options: serde_json::to_value(
                    lsp_types::DidChangeWatchedFilesRegistrationOptions {
                        watchers: vec![lsp_types::FileSystemWatcher {
                            glob_pattern: lsp_types::GlobPattern::String(glob.to_owned()),
                            kind: None,
                        }],
                    },
                )
                .ok(),
            }],
        };
        let _ = self.conn.sender.send(
            Request::new(
                RequestId::from("mirrorless-watch".to_owned()),
                lsp_types::request::RegisterCapability::METHOD.to_owned(),
                params,
            )
            .into(),
        );
    }

    fn report_config_error(&self) {
        if let Some(e) = &self.ws.config_error {
            self.notify::<ShowMessage>(ShowMessageParams {
                typ: MessageType::ERROR,
                message: format!("mirrorless: {e} (the default configuration applies)"),
            });
        }
    }

    fn notify<N: lsp_types::notification::Notification>(&self, params: N::Params) {
        let _ = self
            .conn
            .sender
            .send(Notification::new(N::METHOD.to_owned(), params).into());
    }

    fn log(&self, message: String) {
        self.notify::<LogMessage>(LogMessageParams {
            typ: MessageType::WARNING,
            message: format!("mirrorless: {message}"),
        });
    }

    fn respond(&self, response: Response) {
        let _ = self.conn.sender.send(response.into());
    }

    /// Serves until the client says `exit` or goes away. Messages already waiting are handled
    /// before the documents are linted again, and after a document is opened or changed the
    /// server waits briefly ([`SETTLE`]) for more, so a burst of keystrokes or an editor
    /// opening 2,000 files costs one lint, not one per message (at most [`SETTLE_MAX`] late).
    pub fn run(mut self) -> crate::Exit {
        while let Ok(msg) = self.conn.receiver.recv() {
            let started = Instant::now();
            let mut next = Some(msg);
            while let Some(msg) = next.take() {
                let synced =
                    matches!(&msg, Message::Notification(n) if is_document_sync(&n.method));
                if let Some(exit) = self.handle(msg) {
                    return exit;
                }
                next = match self.conn.receiver.try_recv() {
                    Ok(msg) => Some(msg),
                    Err(_) if synced && started.elapsed() < SETTLE_MAX => {
                        self.conn.receiver.recv_timeout(SETTLE).ok()
                    }
                    Err(_) => None,
                };
            }
            self.publish();
        }
        if self.shut_down {
            crate::Exit::Clean
        } else {
            crate::Exit::WithoutShutdown
        }
    }

    /// Handles one message; `Some` when the server must stop.
    fn handle(&mut self, msg: Message) -> Option<crate::Exit> {
        match msg {
            Message::Request(req) if self.shut_down => {
                // LSP: after `shutdown`, every request is an error; only `exit` ends.
                self.respond(Response::new_err(
                    req.id,
                    ErrorCode::InvalidRequest as i32,
                    format!("`{}` after `shutdown`", req.method),
                ));
            }
            Message::Request(req) if req.method == "shutdown" => {
                self.shut_down = true;
                self.respond(Response::new_ok(req.id, ()));
            }
            Message::Request(req) => self.request(req),
            Message::Notification(n) if n.method == "exit" => {
                return Some(if self.shut_down {
                    crate::Exit::Clean
                } else {
                    crate::Exit::WithoutShutdown
                });
            }
            Message::Notification(_) if self.shut_down => {}
            Message::Notification(n) => self.notification(n),
            Message::Response(_) => {}
        }
        None
    }

    fn request(&mut self, req: Request) {
        match req.method.as_str() {
            CodeActionRequest::METHOD => match serde_json::from_value(req.params) {
                Ok(params) => {
                    self.publish();
                    let result = self.code_actions(params);
                    self.respond(Response::new_ok(req.id, result));
                }
                Err(e) => self.invalid(req.id, &e),
            },
            HoverRequest::METHOD => match serde_json::from_value::<HoverParams>(req.params) {
                Ok(params) => {
                    self.publish();
                    let p = params.text_document_position_params;
                    let result = self.docs.get(&p.text_document.uri).and_then(|d| {
                        hover::hover(&d.findings, &LineMap::new(&d.text), p.position)
                    });
                    self.respond(Response::new_ok(req.id, result));
                }
                Err(e) => self.invalid(req.id, &e),
            },
            _ => self.respond(Response::new_err(
                req.id,
                ErrorCode::MethodNotFound as i32,
                format!("mirrorless lsp does not handle `{}`", req.method),
            )),
        }
    }

    fn invalid(&self, id: RequestId, e: &serde_json::Error) {
        self.respond(Response::new_err(
            id,
            ErrorCode::InvalidParams as i32,
            format!("invalid parameters: {e}"),
        ));
    }

    fn notification(&mut self, n: Notification) {
        let method = n.method.clone();
        let result = match method.as_str() {
            DidOpenTextDocument::METHOD => serde_json::from_value(n.params).map(|p| self.opened(p)),
            DidChangeTextDocument::METHOD => {
                serde_json::from_value(n.params).map(|p| self.changed(p))
            }
            DidCloseTextDocument::METHOD => {
                serde_json::from_value(n.params).map(|p| self.closed(p))
            }
            DidSaveTextDocument::METHOD => serde_json::from_value(n.params).map(|p| self.saved(p)),
            DidChangeWatchedFiles::METHOD => {
                serde_json::from_value(n.params).map(|p| self.watched(p))
            }
            _ => Ok(()),
        };
        if let Err(e) = result {
            self.log(format!("ignored `{method}` with invalid parameters: {e}"));
        }
    }

    fn opened(&mut self, p: DidOpenTextDocumentParams) {
        let d = p.text_document;
        let doc = Document::open(&d.uri, &d.language_id, d.version, d.text);
        if let Some(path) = doc.file() {
            self.ws.set_text(path, doc.text.clone());
        }
        self.docs.insert(d.uri, doc);
        self.dirty = true;
    }

    fn changed(&mut self, p: DidChangeTextDocumentParams) {
        let Some(doc) = self.docs.get_mut(&p.text_document.uri) else {
            self.log(format!(
                "change to a document that is not open: {}",
                p.text_document.uri.as_str()
            ));
            return;
        };
        documents::apply_changes(&mut doc.text, p.content_changes);
        doc.version = p.text_document.version;
        doc.stale = true;
        if let Some(path) = doc.file() {
            self.ws.set_text(path, doc.text.clone());
        }
        self.dirty = true;
    }

    fn closed(&mut self, p: DidCloseTextDocumentParams) {
        let uri = p.text_document.uri;
        if let Some(doc) = self.docs.remove(&uri) {
            if let Some(path) = doc.file() {
                self.ws.reload(path);
            }
            self.notify::<PublishDiagnostics>(PublishDiagnosticsParams::new(uri, Vec::new(), None));
            self.dirty = true;
        }
    }

    fn saved(&mut self, p: DidSaveTextDocumentParams) {
        if let Some(path) = uri::to_path(&p.text_document.uri)
            && self.ws.is_config(&path)
        {
            self.reload_workspace();
        }
    }

    fn watched(&mut self, p: DidChangeWatchedFilesParams) {
        let paths: Vec<PathBuf> = p
            .changes
            .iter()
            .filter_map(|c| uri::to_path(&c.uri))
            .collect();
        // A new or deleted file, or a new configuration, changes what the walk selects: walk
        // again. A changed file is read again.
        let rewalk = p
            .changes
            .iter()
            .any(|c| c.typ != lsp_types::FileChangeType::CHANGED);
        if rewalk || paths.iter().any(|p| self.ws.is_config(p)) {
            self.reload_workspace();
            return;
        }
        for path in paths {
            let open = self.docs.values().any(|d| d.file() == Some(path.as_path()));
            if !open {
                self.ws.reload(&path);
            }
        }
        self.dirty = true;
    }

    fn reload_workspace(&mut self) {
        self.ws = Workspace::load(self.root.as_deref());
        self.report_config_error();
        for doc in self.docs.values_mut() {
            if let Some(path) = doc.file() {
                self.ws.set_text(path, doc.text.clone());
            }
            doc.stale = true;
        }
        self.dirty = true;
    }

    /// Lints every open document (a change in one may resolve or unresolve a name in another)
    /// and publishes the diagnostics that changed.
    fn publish(&mut self) {
        if !self.dirty {
            return;
        }
        self.dirty = false;
        let files: Vec<PathBuf> = self
            .docs
            .values()
            .filter_map(|d| d.file().map(PathBuf::from))
            .collect();
        let mut found = self.ws.lint(&files);
        let config = self.ws.config();
        for (uri, doc) in &mut self.docs {
            let findings = match doc.file() {
                Some(path) => found.remove(path).unwrap_or_default(),
                None => mirrorless_lint::lint_document(&doc.lint_path, &doc.text, config).findings,
            };
            if !doc.stale && findings == doc.findings {
                continue;
            }
            doc.stale = false;
            let map = LineMap::new(&doc.text);
            let diagnostics = findings
                .iter()
                .map(|f| diagnostics::diagnostic(f, &map))
                .collect();
            doc.findings = findings;
            let _ = self.conn.sender.send(
                Notification::new(
                    PublishDiagnostics::METHOD.to_owned(),
                    PublishDiagnosticsParams::new(uri.clone(), diagnostics, Some(doc.version)),
                )
                .into(),
            );
        }
    }

    fn code_actions(&mut self, p: CodeActionParams) -> Vec<CodeActionOrCommand> {
        let wants_quickfix = p.context.only.as_ref().is_none_or(|kinds| {
            kinds
                .iter()
                .any(|k| CodeActionKind::QUICKFIX.as_str().starts_with(k.as_str()))
        });
        let Some(doc) = self.docs.get(&p.text_document.uri) else {
            return Vec::new();
        };
        if !wants_quickfix {
            return Vec::new();
        }
        let uri = &p.text_document.uri;
        let map = LineMap::new(&doc.text);
        let here: Vec<_> = doc
            .findings
            .iter()
            .filter(|f| {
                // The findings under the range, and those the client names (a cursor left of a
                // diagnostic on the same line asks for that diagnostic's actions).
                let r = diagnostics::range(f, &map);
                let named = p.context.diagnostics.iter().any(|d| {
                    d.range == r
                        && d.code == Some(lsp_types::NumberOrString::String(f.rule.to_owned()))
                });
                named || (r.start <= p.range.end && p.range.start <= r.end)
            })
            .cloned()
            .collect();
        let mut fixes: Vec<lsp_types::CodeAction> = here
            .iter()
            .filter_map(|f| actions::fix_action(uri, f, &doc.text))
            .collect();
        // Preferred (machine-applicable) fixes first, then suggestions, then suppressions.
        fixes.sort_by_key(|a| a.is_preferred != Some(true));
        let (text, file, lint_path, findings) = (
            doc.text.clone(),
            doc.file().map(PathBuf::from),
            doc.lint_path.clone(),
            doc.findings.clone(),
        );
        let mut suppressed_lines = Vec::new();
        for f in &here {
            if suppressed_lines.contains(&(f.line, f.rule)) {
                continue;
            }
            let Some((edit, after)) = actions::suppression(&lint_path, &text, f) else {
                continue;
            };
            let relinted = match &file {
                Some(path) => self.ws.places_with(path, after),
                None => {
                    mirrorless_lint::lint_document(&lint_path, &after, self.ws.config()).findings
                }
            };
            if actions::suppression_is_clean(&findings, &relinted, f) {
                suppressed_lines.push((f.line, f.rule));
                fixes.push(actions::suppression_action(uri, f, &text, edit));
            }
        }
        fixes
            .into_iter()
            .map(CodeActionOrCommand::CodeAction)
            .collect()
    }
}
