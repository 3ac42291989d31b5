//! `--output FILE`: a report written to one file instead of standard output.

use std::path::Path;

/// Refuses an output path a report cannot be written to, before the run spends its time: a
/// directory, or a file in a directory that does not exist.
pub fn check_path(path: &Path) -> Result<(), String> {
    if path.is_dir() {
        return Err(format!(
            "--output {}: is a directory; give the file to write the report to (e.g. {}/report.html)",
            path.display(),
            path.display()
        ));
    }
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() && !dir.is_dir() => Err(format!(
            "--output {}: the directory {} does not exist",
            path.display(),
            dir.display()
        )),
        _ => Ok(()),
    }
}

/// Writes the report to `path` (that file only), or prints it when there is no path. Returns
/// whether it was written; a failure is printed as an error naming the file.
pub fn write_report(path: Option<&Path>, text: &str) -> bool {
    let Some(path) = path else {
        return super::print_out(text);
    };
    if let Err(e) = check_path(path) {
        eprintln!("error: {e}");
        return false;
    }
    match std::fs::write(path, text) {
        Ok(()) => {
            eprintln!("mirrorless: report written to {}", path.display());
            true
        }
        Err(e) => {
            eprintln!(
                "error: --output {}: cannot write the report: {e}",
                path.display()
            );
            false
        }
    }
}
