//! The integration tests of mirrorless-lint, as ONE test binary (issue #32 item 5: "fewer separate
//! test binaries"): each file of this directory is a module, so the crate's tests link once and
//! libtest runs all of them side by side on every core, instead of one binary after another.
//! `autotests = false` in Cargo.toml, so a new file of this directory must be declared here:
//! `every_test_file_is_a_module` fails until it is. One file's tests: `cargo test -p
//! mirrorless-lint --test it <file>::`. The files share this process: no test may change its
//! environment, current directory or other process-wide state.

/// Generated plugin shapes for `fix_equivalence` (`tests/equivalence/`).
mod equivalence;

/// Deeply nested inputs of every shape, for `robust` (`tests/shapes/`).
mod shapes;

mod agent_compare;
mod fix_equivalence;
mod fix_fixtures;
mod fix_property;
mod fix_typecheck;
mod fixtures;
mod host_declarations;
mod host_layouts;
mod in_memory;
mod positions;
mod prefilter;
mod prose_contrast;
mod read_sizes;
mod render_escapes;
mod robust;
mod rule_docs;
mod run_pool;
mod rust_fix_compiles;
mod rust_typed_fix;
mod unsettled;

/// The crate's one seeded generator, shared by the generated tests (`crate::test_rng::Rng`).
#[path = "../src/test_rng.rs"]
mod test_rng;

#[path = "../../tests/support/test_modules.rs"]
mod test_modules;

/// Every `.rs` file beside this one is one of its modules (`tests/support/test_modules.rs`).
#[test]
fn every_test_file_is_a_module() {
    test_modules::assert_every_test_file_is_a_module(
        env!("CARGO_MANIFEST_DIR"),
        include_str!("it.rs"),
    );
}
