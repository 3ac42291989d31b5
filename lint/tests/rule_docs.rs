//! `docs/rules/` is generated from the rule table: one page per rule plus an index. This test
//! fails when a page is missing, stale or orphaned; `MIRRORLESS_BLESS=1` rewrites them.

use mirrorless_lint::rules::{self, RULES};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/rules")
}

#[test]
fn rule_pages_match_the_rule_table() {
    let mut expected: BTreeMap<String, String> = RULES
        .iter()
        .map(|r| (format!("{}.md", r.id), r.doc_file()))
        .collect();
    expected.insert("README.md".into(), rules::index());
    let dir = dir();
    if std::env::var_os("MIRRORLESS_BLESS").is_some() {
        std::fs::create_dir_all(&dir).unwrap();
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            if !expected.contains_key(&*entry.file_name().to_string_lossy()) {
                std::fs::remove_file(entry.path()).unwrap();
            }
        }
        for (name, text) in &expected {
            std::fs::write(dir.join(name), text).unwrap();
        }
        return;
    }
    let mut problems = Vec::new();
    for (name, text) in &expected {
        match std::fs::read_to_string(dir.join(name)) {
            Ok(on_disk) if on_disk == *text => {}
            Ok(_) => problems.push(format!("docs/rules/{name} is stale")),
            Err(_) => problems.push(format!("docs/rules/{name} is missing")),
        }
    }
    for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !expected.contains_key(&name) {
            problems.push(format!("docs/rules/{name} belongs to no rule"));
        }
    }
    assert!(
        problems.is_empty(),
        "{}\nregenerate with: MIRRORLESS_BLESS=1 cargo test -p mirrorless-lint --test it rule_docs::",
        problems.join("\n")
    );
}

#[test]
fn ids_and_names_are_unique_and_explain_finds_both() {
    for (i, r) in RULES.iter().enumerate() {
        assert_eq!(r.id, format!("ML{:03}", i + 1), "IDs are dense and ordered");
        assert_eq!(rules::rule(r.name).map(|x| x.id), Some(r.id));
        let page = mirrorless_lint::explain(&r.id.to_lowercase()).unwrap();
        assert!(page.starts_with(&format!("# {} `{}`", r.id, r.name)));
    }
    assert!(mirrorless_lint::explain("ML999").is_none());
}
