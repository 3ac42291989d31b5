//! `mirrorless lsp`: the language server, for editors.

use clap::Args;
use std::process::ExitCode;

/// Arguments of `mirrorless lsp`.
#[derive(Debug, Args)]
#[command(after_help = "\
The server speaks the Language Server Protocol on standard input and output; an editor starts
it. For every open TypeScript, JavaScript, Rust or Markdown document it publishes what
`mirrorless lint` run in the workspace root would report for that file, computed from the
unsaved text as you type; offers each finding's fix, and a suppression comment, as quick fixes;
and shows the rule on hover. It reads mirrorless.toml (or Cargo.toml metadata) from the
workspace root, and again when you save it.

Examples:
  Neovim 0.11+ (init.lua):
    vim.lsp.config('mirrorless', {
      cmd = { 'mirrorless', 'lsp' },
      filetypes = { 'typescript', 'javascript', 'rust', 'markdown' },
      root_markers = { 'mirrorless.toml', '.git' },
    })
    vim.lsp.enable('mirrorless')
  Neovim 0.8-0.10, nvim-lspconfig, VS Code, Helix: see docs/guides/editor.md.

Messages are framed by `Content-Length`; one that is not JSON (-32700), not an LSP message or a
request with an unusable `id` (-32600, batches too) is answered with an error and skipped, as
is a frame without a usable `Content-Length` (the frames after it are framed again). A lone
surrogate escape in a message is read as U+FFFD. A message over 64 MiB is answered and ends
the session (exit 1, the reason on stderr): it cannot be skipped without reading it.

Exit status: 0 after the client's `shutdown` and `exit`, 1 after `exit` (or the end of input)
without `shutdown` (as LSP specifies) or after a message over 64 MiB, 2 when the connection
fails.")]
pub struct LspArgs {
    /// Speak LSP on standard input/output (the default and only transport; accepted because
    /// many editor configurations pass it).
    #[arg(long)]
    pub stdio: bool,
}

/// Runs `mirrorless lsp`.
pub fn run(_args: LspArgs) -> ExitCode {
    match mirrorless_lsp::run_stdio() {
        Ok(mirrorless_lsp::Exit::Clean) => ExitCode::SUCCESS,
        Ok(mirrorless_lsp::Exit::WithoutShutdown) => ExitCode::from(1),
        Err(e) => super::fail(format!("mirrorless lsp: {e}")),
    }
}
