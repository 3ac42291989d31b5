//! The linter's fixture files, read for the unit tests that compare two ways of computing one
//! thing on every fixture of a kind.

use std::path::Path;

/// Every file under `fixtures/lint/<sub>` (recursively) that `keep` accepts: its path, as a
/// string, and its text.
pub(crate) fn fixture_texts(sub: &str, keep: impl Fn(&Path) -> bool) -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures/lint")
        .join(sub);
    let mut texts = Vec::new();
    let mut stack = vec![root];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("the fixtures").flatten() {
            let p = entry.path();
            if p.is_dir() {
                stack.push(p);
            } else if keep(&p) {
                let text = std::fs::read_to_string(&p).expect("a fixture");
                texts.push((p.to_string_lossy().into_owned(), text));
            }
        }
    }
    texts
}
