//! The counterexample corpus: one language-neutral JSON case file per minimal failing case,
//! named by its content hash, replayed before new cases by every later run.

use crate::input::{self, Origin};
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

/// The most bytes a case file may hold: the default [`CaseLimits::bytes`] of a whole case's
/// protocol traffic (a script larger than that cannot be played within it).
///
/// [`CaseLimits::bytes`]: crate::driver::CaseLimits::bytes
pub const MAX_CASE_FILE_BYTES: u64 = crate::driver::CaseLimits::DEFAULT.bytes;

/// Reads a case file the user named (`replay FILE`) and refuses one that cannot be played
/// ([`validate_case`](crate::scenario::validate::validate_case)); the error names the file,
/// and the line for malformed JSON or the action, call and chunk for an impossible script.
pub fn read_case_file(path: &Path) -> Result<CaseFile, String> {
    read_case(path, Origin::Named)
}

fn read_case(path: &Path, origin: Origin) -> Result<CaseFile, String> {
    let text = input::read_text(path, origin, MAX_CASE_FILE_BYTES)?;
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
/// corpus; an unreadable or invalid entry is reported in `problems` and skipped, and so is
/// one that is not a regular file (a FIFO, a device, a symbolic link: the corpus is data,
/// often committed, and never followed out of itself or waited on).
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
        .filter_map(|p| match read_case(&p, Origin::Entry) {
            Ok(f) => Some((p.display().to_string(), f)),
            Err(e) => {
                problems.push(format!("{e} (corpus entry skipped)"));
                None
            }
        })
        .collect()
}

/// Saves `case` as `dir/<id>.json` (creating `dir`) and returns the path, only once the file
/// holds the case. An entry already holding it is left alone; anything else under that name
/// (a truncated or foreign file, a symbolic link, a FIFO) is replaced by renaming a
/// temporary file written in `dir`, so nothing outside the corpus is ever written and a
/// reader never sees half a case.
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
    if read_case(&path, Origin::Entry).is_ok_and(|f| f.case == *case) {
        return Ok(path.display().to_string());
    }
    let file = CaseFile {
        id: Some(id.clone()),
        requirement: Some(requirement.to_owned()),
        implementation: Some(implementation.to_owned()),
        case: case.clone(),
    };
    let mut text =
        serde_json::to_string_pretty(&file).map_err(|e| format!("cannot serialize a case: {e}"))?;
    text.push('\n');
    write_by_rename(dir, &id, &path, text.as_bytes())
        .map_err(|e| format!("{}: cannot save the case: {e}", path.display()))?;
    Ok(path.display().to_string())
}

/// Writes `bytes` to a new temporary file in `dir` (created exclusively: never through a
/// link) and renames it over `path`, which replaces the entry itself, never what a link there
/// points to.
fn write_by_rename(dir: &Path, id: &str, path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let temp = dir.join(format!(".{id}.json.{}-{n}.tmp", std::process::id()));
    let written = (|| {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&temp, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    written
}
