//! Issue #31, item 10: a `hello` listing a known profile next to one this version does not
//! know (a typo, a later release's) names the dropped one: a warning, and an error (exit 2,
//! nothing run) under `--ci`. The implementation is the Python reference adapter with its
//! profile list replaced.

use std::path::Path;

fn adapter_with_profiles(dir: &Path, profiles: &[&str]) -> String {
    let adapters = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/adapters/reference-py");
    let script = dir.join("impl.py");
    let list = dir.join("profiles.json");
    std::fs::write(&list, serde_json::to_string(profiles).expect("JSON")).expect("write");
    std::fs::write(
        &script,
        format!(
            "import json, sys\nsys.path.insert(0, {adapters:?})\nimport adapter\nadapter.PROFILES = json.load(open({list:?}, encoding='utf-8'))\nsys.exit(adapter.main())\n",
            adapters = adapters.to_str().expect("utf-8"),
            list = list.to_str().expect("utf-8"),
        ),
    )
    .expect("write");
    script.to_str().expect("utf-8").to_owned()
}

#[test]
fn an_unknown_profile_in_the_hello_is_named_and_fails_ci() {
    let shapes: &[(&[&str], &str)] = &[
        (&["2026-08", "2026-8"], "`2026-8`"),
        (&["2026-07", "2026-09"], "`2026-09`"),
        (&["2026-08", "\u{202e}x"], "`\\u{202e}x`"),
    ];
    for &(profiles, named) in shapes {
        let dir = tempfile::tempdir().expect("tempdir");
        let script = adapter_with_profiles(dir.path(), profiles);
        for ci in [false, true] {
            let mut args = vec!["run", "--cases", "2", "--no-corpus"];
            if ci {
                args.push("--ci");
            }
            args.extend(["--", "python3", &script]);
            let o = crate::common::mirrorless_command()
                .args(&args)
                .env_remove("CI")
                .output()
                .expect("run mirrorless");
            let stderr = String::from_utf8_lossy(&o.stderr);
            let what = format!("{profiles:?} ci={ci}: {stderr}");
            assert!(stderr.contains(named), "{what}");
            assert!(stderr.contains("does not know"), "{what}");
            assert!(!stderr.contains('\u{202e}'), "{what}");
            if ci {
                assert_eq!(o.status.code(), Some(2), "{what}");
            } else {
                assert!(stderr.contains("warning:"), "{what}");
                assert_ne!(o.status.code(), Some(2), "{what}");
            }
        }
    }
}
