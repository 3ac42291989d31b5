//! Checks that the places naming the release's files agree with `dist`: the release workflow's
//! target matrix, the npm package's platforms, and the `cargo binstall` templates in the root
//! `Cargo.toml`. They are separate files for separate tools; these tests keep them one list.

use crate::npm;
use crate::platform::Platform;
use crate::tools::workspace_root;
use std::collections::BTreeSet;

fn read(rel: &str) -> String {
    let path = workspace_root().join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The `target`s of the release workflow's build matrix.
fn release_targets() -> Vec<String> {
    let doc: serde_norway::Value =
        serde_norway::from_str(&read(".github/workflows/release.yml")).expect("release.yml parses");
    doc["jobs"]["build"]["strategy"]["matrix"]["include"]
        .as_sequence()
        .expect("release.yml: jobs.build.strategy.matrix.include is a list")
        .iter()
        .map(|row| {
            row["target"]
                .as_str()
                .expect("a matrix row without `target`")
                .to_owned()
        })
        .collect()
}

#[test]
fn the_release_matrix_builds_exactly_the_npm_platforms() {
    let targets = release_targets();
    let built: BTreeSet<String> = targets
        .iter()
        .map(|t| Platform::from_triple(t).unwrap().npm_package())
        .collect();
    assert_eq!(
        built.len(),
        targets.len(),
        "two targets for one platform: {targets:?}"
    );
    let manifest = npm::main_manifest(&workspace_root()).unwrap();
    let declared: BTreeSet<String> = manifest["optionalDependencies"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    assert_eq!(
        built, declared,
        "release.yml targets vs packaging/npm/mirrorless/package.json"
    );
}

#[test]
fn the_installer_detects_every_released_target() {
    // install.sh maps `uname` to a triple; each one it can produce must be released.
    let installer = read(crate::installer::SOURCE);
    let targets = release_targets();
    let produced = [
        ("$arch-unknown-linux-musl", &["x86_64", "aarch64"][..]),
        ("$arch-apple-darwin", &["x86_64", "aarch64"][..]),
        ("x86_64-pc-windows-msvc", &[""][..]),
    ];
    for (pattern, arches) in produced {
        assert!(
            installer.contains(&format!("target=\"{pattern}\"")),
            "install.sh no longer produces {pattern}"
        );
        for arch in arches {
            let triple = pattern.replace("$arch", arch);
            assert!(
                targets.contains(&triple),
                "install.sh can ask for {triple}, which release.yml does not build"
            );
        }
    }
}

/// Expands a `cargo binstall` template (`{ name }`, `{ version }`, …).
fn expand(template: &str, vars: &[(&str, &str)]) -> String {
    let mut out = template.to_owned();
    for (key, value) in vars {
        out = out.replace(&format!("{{ {key} }}"), value);
    }
    assert!(!out.contains('{'), "unexpanded placeholder in {out}");
    out
}

#[test]
fn binstall_metadata_names_the_archives_dist_writes() {
    let cargo: toml::Value = toml::from_str(&read("Cargo.toml")).unwrap();
    let meta = &cargo["package"]["metadata"]["binstall"];
    let repo = cargo["workspace"]["package"]["repository"]
        .as_str()
        .unwrap();
    let version = crate::dist::VERSION;
    for target in release_targets() {
        let platform = Platform::from_triple(&target).unwrap();
        let table = meta
            .get("overrides")
            .and_then(|o| o.get(target.as_str()))
            .unwrap_or(meta);
        let url = table
            .get("pkg-url")
            .unwrap_or(&meta["pkg-url"])
            .as_str()
            .unwrap();
        let fmt = table
            .get("pkg-fmt")
            .unwrap_or(&meta["pkg-fmt"])
            .as_str()
            .unwrap();
        let exe = if platform.is_windows() { ".exe" } else { "" };
        let vars = [
            ("repo", repo),
            ("name", "mirrorless"),
            ("version", version),
            ("target", target.as_str()),
            ("bin", "mirrorless"),
            ("binary-ext", exe),
        ];
        assert_eq!(
            expand(url, &vars),
            format!(
                "{repo}/releases/download/v{version}/{}",
                platform.archive_name(version)
            ),
            "pkg-url for {target}"
        );
        assert_eq!(
            expand(meta["bin-dir"].as_str().unwrap(), &vars),
            format!(
                "{}/{}",
                platform.archive_stem(version),
                platform.binary_name()
            ),
            "bin-dir for {target}"
        );
        assert_eq!(
            fmt,
            if platform.is_windows() { "zip" } else { "tgz" },
            "pkg-fmt for {target}"
        );
    }
}

#[test]
fn the_documented_hooks_file_is_the_published_one() {
    assert_eq!(
        read("docs/examples/pre-commit/.pre-commit-hooks.yaml"),
        read(".pre-commit-hooks.yaml"),
        "docs/examples/pre-commit/.pre-commit-hooks.yaml must be a copy of .pre-commit-hooks.yaml"
    );
}
