//! The integration tests of the mirrorless CLI, as ONE test binary (issue #32 item 5: "fewer
//! separate test binaries"): each file of this directory is a module, so the crate's tests link
//! once and libtest runs all of them side by side on every core, instead of one binary after
//! another. `autotests = false` in Cargo.toml, so a new file of this directory must be declared
//! here: `every_test_file_is_a_module` fails until it is. One file's tests: `cargo test --test it
//! <file>::`. The files share this process: no test may change its environment, current directory
//! or other process-wide state.

/// Helpers shared by the CLI tests (`tests/common/`).
mod common;

/// The editor's side of the language-server wire, shared by the LSP tests (`tests/lsp_wire/`).
mod lsp_wire;

/// GitHub's Markdown renderer, `cmark-gfm`, and the tables read back from its HTML
/// (`tests/common/gfm.rs`), for the Markdown summaries and `mirrorless report`.
#[path = "common/gfm.rs"]
mod gfm;

/// Deeply nested code of every shape (`lint/tests/shapes/`, which `lint/tests/robust.rs` lints
/// in-process), fed to the binary by `lint_robust_cli` and `lsp_bad_input`.
#[allow(dead_code)] // the flat shapes are for the in-process test
#[path = "../lint/tests/shapes/mod.rs"]
mod shapes;

mod action_steps;
mod bounded_inputs;
mod browser_report;
mod check_cli;
mod check_live_cli;
mod cli_spec;
mod corpus_entries;
mod doc_costs;
mod docs_examples;
mod docs_outputs;
mod dsh_upstream;
mod editor_nvim;
mod hello_profiles;
mod hook_entries;
mod ignore_files;
mod install_sh;
mod lint_cli;
mod lint_fix_cli;
mod lint_fix_writes;
mod lint_include;
mod lint_properties;
mod lint_robust_cli;
mod lsp_bad_input;
mod lsp_cli;
mod markdown_gfm;
mod no_machine_paths;
mod npm_launcher;
mod odd_paths;
mod rdjson_format;
mod real_trees;
mod replay_limits;
mod report_matrix;
mod run_cli;
mod run_html;
mod run_jobs;
mod run_report_json;
mod rust_examples;
mod stdio_broken;
mod stdio_combined;
mod stdio_exit;
mod stdio_misbehaving;
mod summary_files;

#[path = "support/test_modules.rs"]
mod test_modules;

/// Every `.rs` file beside this one is one of its modules (`tests/support/test_modules.rs`).
#[test]
fn every_test_file_is_a_module() {
    test_modules::assert_every_test_file_is_a_module(
        env!("CARGO_MANIFEST_DIR"),
        include_str!("it.rs"),
    );
}
