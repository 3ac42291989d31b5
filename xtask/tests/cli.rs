//! `cargo xtask dist` refuses bad input at once, before the long build, with exit status 2.

use std::process::Command;

fn xtask(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(args)
        .output()
        .expect("run xtask");
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    (out.status.code(), text)
}

#[test]
fn a_release_tag_that_is_not_the_crate_version_is_refused() {
    let (code, text) = xtask(&["dist", "--expect-version", "v9.9.9"]);
    assert_eq!(code, Some(2), "{text}");
    let version = env!("CARGO_PKG_VERSION");
    assert!(
        text.contains(&format!("the crate version is {version}, not 9.9.9")),
        "{text}"
    );
}

#[test]
fn an_unsupported_target_is_refused() {
    let (code, text) = xtask(&["dist", "--target", "riscv64gc-unknown-linux-gnu"]);
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains("unsupported architecture `riscv64gc`"),
        "{text}"
    );
}

#[test]
fn help_teaches_with_examples() {
    let (code, text) = xtask(&["dist", "--help"]);
    assert_eq!(code, Some(0), "{text}");
    for needle in [
        "target/dist/",
        "--no-wheel",
        "Examples:",
        "packaging/ci-tools/setup.sh",
    ] {
        assert!(
            text.contains(needle),
            "dist --help lacks {needle:?}:\n{text}"
        );
    }
}
