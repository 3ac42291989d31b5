//! The counterexample corpus: one language-neutral JSON case file per minimal failing case,
//! named by its content hash, replayed before new cases by every later run.

use crate::scenario::Case;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// A case file: `{"id", "profile", "requirement", "implementation", "script"}`. Only `profile`
/// and `script` are needed to replay it; the rest documents where it came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CaseFile {
    /// The case's content-hash id ([`Case::id`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The requirement the case failed when it was saved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requirement: Option<String>,
    /// The implementation it failed on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub implementation: Option<String>,
    /// The case itself.
    #[serde(flatten)]
    pub case: Case,
}

/// Reads a case file and refuses one that cannot be played
/// ([`validate_case`](crate::scenario::validate::validate_case)); the error names the file,
/// and the line for malformed JSON or the action, call and chunk for an impossible script.
pub fn read_case_file(path: &Path) -> Result<CaseFile, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let file: CaseFile = serde_json::from_str(&text).map_err(|e| {
        format!(
            "{}:{}:{}: not a case file: {e}",
            path.display(),
            e.line(),
            e.column()
        )
    })?;
    crate::scenario::validate::validate_case(&file.case)
        .map_err(|e| format!("{}: the script cannot be played: {e}", path.display()))?;
    Ok(file)
}

/// Loads every `*.json` case file of `dir`, sorted by name. A missing directory is an empty
/// corpus; an unreadable or invalid file is reported in `problems` and skipped.
pub fn load_corpus(dir: &Path, problems: &mut Vec<String>) -> Vec<(String, CaseFile)> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut paths: Vec<_> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .filter_map(|p| match read_case_file(&p) {
            Ok(f) => Some((p.display().to_string(), f)),
            Err(e) => {
                problems.push(e);
                None
            }
        })
        .collect()
}

/// Saves `case` as `dir/<id>.json` (creating `dir`) and returns the path. An existing file
/// with the same id is left alone: it holds the same case.
pub fn save_case(
    dir: &Path,
    case: &Case,
    requirement: &str,
    implementation: &str,
) -> Result<String, String> {
    std::fs::create_dir_all(dir)
        .map_err(|e| format!("{}: cannot create the corpus directory: {e}", dir.display()))?;
    let id = case.id();
    let path = dir.join(format!("{id}.json"));
    if !path.exists() {
        let file = CaseFile {
            id: Some(id),
            requirement: Some(requirement.to_owned()),
            implementation: Some(implementation.to_owned()),
            case: case.clone(),
        };
        let mut text = serde_json::to_string_pretty(&file)
            .map_err(|e| format!("cannot serialize a case: {e}"))?;
        text.push('\n');
        std::fs::write(&path, text)
            .map_err(|e| format!("{}: cannot write: {e}", path.display()))?;
    }
    Ok(path.display().to_string())
}
