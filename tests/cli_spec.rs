//! `mirrorless spec`, `explain` and `completions`: the spec is readable from the terminal and
//! agrees with the registry.

fn mirrorless(args: &[&str]) -> (i32, String, String) {
    let out = crate::common::mirrorless_command()
        .args(args)
        .output()
        .expect("the mirrorless binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn spec_lists_every_requirement_once() {
    let (code, stdout, _) = mirrorless(&["spec"]);
    assert_eq!(code, 0);
    for r in mirrorless_conformance::REQUIREMENTS {
        let rows = stdout
            .lines()
            .filter(|l| l.split_whitespace().next() == Some(r.id))
            .count();
        assert_eq!(rows, 1, "{} listed {rows} times", r.id);
    }
    insta::assert_snapshot!("spec_human", stdout);
}

#[test]
fn spec_filters_by_profile() {
    let (code, stdout, _) = mirrorless(&["spec", "--profile", "2026-07", "--format", "json"]);
    assert_eq!(code, 0);
    let listed: Vec<serde_json::Value> = serde_json::from_str(&stdout).expect("JSON array");
    let ids: Vec<&str> = listed.iter().filter_map(|r| r["id"].as_str()).collect();
    assert!(ids.contains(&"STEER-1"), "STEER-1 applies to 2026-07");
    assert!(!ids.contains(&"LOG-3"), "LOG-3 is 2026-08 only");
}

#[test]
fn explain_prints_a_mirror_requirement_with_its_migration() {
    let (code, stdout, _) = mirrorless(&["explain", "mirror-4"]);
    assert_eq!(code, 0);
    insta::assert_snapshot!("explain_mirror_4", stdout);
}

#[test]
fn explain_unknown_id_is_a_usage_error() {
    let (code, stdout, stderr) = mirrorless(&["explain", "CHUNK-99"]);
    assert_eq!(code, 2);
    assert!(stdout.is_empty());
    assert!(
        stderr.contains("CHUNK-99") && stderr.contains("mirrorless spec"),
        "{stderr}"
    );
}

#[test]
fn unknown_profile_is_a_usage_error() {
    let (code, _, stderr) = mirrorless(&["spec", "--profile", "2026-09"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("2026-07 or 2026-08"), "{stderr}");
}

#[test]
fn completions_are_generated_for_bash() {
    let (code, stdout, _) = mirrorless(&["completions", "bash"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("mirrorless") && stdout.contains("explain"));
}
