//! Issue #31, item 13: `include` globs that match none of the lintable files of a tree (only
//! paths outside it, a typo) are an error naming them, exit 2, as for a tree whose every file
//! is ignored; globs that match a file lint it as before.

#[test]
fn include_globs_matching_nothing_are_an_error_not_a_silent_pass() {
    let globs: &[(&str, bool)] = &[
        ("\"../elsewhere/**\"", false),
        ("\"/nowhere/**/*.ts\"", false),
        ("\"scr/**\"", false),
        ("\"**/*.rs\"", false),
        ("\"../elsewhere/**\", \"scr/*.ts\"", false),
        ("\"src/**\"", true),
        ("\"**/*.ts\"", true),
        ("\"../elsewhere/**\", \"src/*.ts\"", true),
    ];
    for &(list, matches) in globs {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(dir.path().join("src")).expect("mkdir");
        std::fs::write(
            dir.path().join("src/a.ts"),
            "bus.emit(\"agent/turn-start\", {});\n",
        )
        .expect("write");
        std::fs::write(
            dir.path().join("mirrorless.toml"),
            format!("[lint]\ninclude = [{list}]\n"),
        )
        .expect("write");
        let o = crate::common::mirrorless_command()
            .arg("lint")
            .current_dir(dir.path())
            .output()
            .expect("run mirrorless");
        let out = format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        if matches {
            assert_eq!(o.status.code(), Some(1), "{list}: {out}");
            assert!(out.contains("src/a.ts"), "{list}: {out}");
        } else {
            assert_eq!(o.status.code(), Some(2), "{list}: {out}");
            assert!(
                out.contains("`include` globs") && out.contains("match none"),
                "{list}: {out}"
            );
        }
    }
}
