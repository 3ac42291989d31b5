//! Findings as LSP diagnostics.

use crate::position::LineMap;
use lsp_types::{CodeDescription, Diagnostic, DiagnosticSeverity, NumberOrString, Range, Uri};
use mirrorless_lint::model::{Finding, Severity};
use mirrorless_lint::rules;
use std::str::FromStr;

/// The source name editors show next to each diagnostic.
pub const SOURCE: &str = "mirrorless";

/// The LSP range of a finding in the document it was found in.
pub fn range(finding: &Finding, map: &LineMap<'_>) -> Range {
    Range::new(
        map.from_line_column(finding.line, finding.column),
        map.from_line_column(finding.end_line, finding.end_column),
    )
}

/// The diagnostic of one finding: the rule ID as its code (linking to the rule page), the
/// message with the help and note lines, the fingerprint as its data.
pub fn diagnostic(finding: &Finding, map: &LineMap<'_>) -> Diagnostic {
    let severity = match finding.severity {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
        Severity::Note => DiagnosticSeverity::INFORMATION,
    };
    let mut message = format!("{}\nhelp: {}", finding.message, finding.help);
    if let Some(note) = &finding.note {
        message.push_str(&format!("\nnote: {note}"));
    }
    let code_description = rules::rule(finding.rule)
        .and_then(|r| Uri::from_str(&rules::doc_url(r)).ok())
        .map(|href| CodeDescription { href });
    Diagnostic {
        range: range(finding, map),
        severity: Some(severity),
        code: Some(NumberOrString::String(finding.rule.to_owned())),
        code_description,
        source: Some(SOURCE.to_owned()),
        message,
        related_information: None,
        tags: None,
        data: Some(serde_json::Value::String(finding.fingerprint.clone())),
    }
}
