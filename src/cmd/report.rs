//! `mirrorless report`: the matrix of implementations × requirements from several
//! `mirrorless run --format json` reports, in Markdown or HTML.

use clap::{Args, ValueEnum};
use mirrorless_conformance::input::{self, Origin};
use mirrorless_conformance::report::matrix::{self, Column};
use std::path::PathBuf;
use std::process::ExitCode;

/// The largest report file read (a bigger one is refused, naming it, not read into memory).
const MAX_REPORT_BYTES: u64 = 512 * 1024 * 1024;

/// Output format of `mirrorless report`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MatrixFormat {
    /// Markdown (GitHub tables), at most 1 MiB, for a job summary or a README.
    Markdown,
    /// One self-contained HTML file (inline CSS, no script, nothing fetched).
    Html,
}

/// Arguments of `mirrorless report`.
#[derive(Debug, Args)]
#[command(after_help = "\
Each REPORT is the output of `mirrorless run --format json` (format_version 2 or 1,
docs/run/report.schema.json): of different implementations, versions or profiles. Each is one
column, named as the implementation's `hello` names itself (name and version); each row is a
requirement, one table per profile. A cell says pass, FAIL, WARN or skip in words, and a
failing or warning cell links to that implementation's counterexample further down the page
(its headline, the minimal script and the replay command). Requirement IDs link to their spec
pages when MIRRORLESS_DOCS_URL names where the docs are.

A file that is not such a report (not JSON, another tool's, another format_version) is an
error naming the file; the other reports still render, and the exit status is 2.

Examples:
  mirrorless run --ci --format json > ref.json
  mirrorless run --ci --format json -- python3 my_adapter.py > mine.json
  mirrorless report ref.json mine.json --format html > matrix.html
  mirrorless report *.json >> \"$GITHUB_STEP_SUMMARY\"

Exit status: 0 every report rendered, 2 a file could not be read or is not a report (the
others are rendered) or a usage error. The verdicts of the runs do not change it.")]
pub struct ReportArgs {
    /// `mirrorless run --format json` reports, one column each.
    #[arg(required = true, value_name = "REPORT")]
    pub reports: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = MatrixFormat::Markdown)]
    pub format: MatrixFormat,
}

fn read(path: &std::path::Path) -> Result<Column, String> {
    let name = path.display().to_string();
    // Capped by the bytes read, not by a size a device or a pipe does not have.
    let bytes = input::open(path, Origin::Named)
        .and_then(|f| input::read_capped(f, MAX_REPORT_BYTES))
        .map_err(|e| format!("{name}: {e}"))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        format!("{name}: not a `mirrorless run --format json` report: not UTF-8 ({e})")
    })?;
    matrix::read_column(&name, &text)
}

/// Runs `mirrorless report`.
pub fn run(args: ReportArgs) -> ExitCode {
    let mut columns = Vec::new();
    let mut errors = Vec::new();
    for path in &args.reports {
        match read(path) {
            Ok(c) => columns.push(c),
            Err(e) => {
                eprintln!("error: {e}");
                errors.push(e);
            }
        }
    }
    if columns.is_empty() {
        eprintln!("error: no report to render");
        return ExitCode::from(super::EXIT_ERROR);
    }
    let text = match args.format {
        MatrixFormat::Markdown => {
            let options = super::markdown::options();
            matrix::render_markdown(
                &columns,
                &errors,
                options.docs_url.as_deref(),
                options.limit,
            )
        }
        MatrixFormat::Html => matrix::render_html(&columns, &errors),
    };
    if !super::print_out(&text) {
        return ExitCode::from(super::EXIT_ERROR);
    }
    ExitCode::from(if errors.is_empty() {
        super::EXIT_OK
    } else {
        super::EXIT_ERROR
    })
}
