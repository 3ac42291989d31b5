//! Code actions: each finding's fix (`Finding.fix`) as a quick fix, and a suppression comment
//! for the line.

use crate::diagnostics;
use crate::position::LineMap;
use lsp_types::{CodeAction, CodeActionKind, TextEdit, Uri, WorkspaceEdit};
use mirrorless_lint::model::{Applicability, Finding};
use mirrorless_lint::rules;
use std::collections::HashMap;
use std::path::Path;

/// The quick fix of a finding's fix: preferred when it is machine-applicable (what
/// `mirrorless lint --fix` applies). `None` when the finding has no fix, or its edits do not
/// fit `text` (out of range, inside a character, overlapping).
pub fn fix_action(uri: &Uri, finding: &Finding, text: &str) -> Option<CodeAction> {
    let fix = finding.fix.as_ref()?;
    let map = LineMap::new(text);
    let mut edits = Vec::with_capacity(fix.edits.len());
    let mut last_end = 0;
    for e in &fix.edits {
        let fits = e.start <= e.end
            && e.end <= text.len()
            && e.start >= last_end
            && text.is_char_boundary(e.start)
            && text.is_char_boundary(e.end);
        if !fits {
            return None;
        }
        last_end = e.end;
        edits.push(TextEdit::new(
            map.range(e.start, e.end),
            e.replacement.clone(),
        ));
    }
    let preferred = fix.applicability == Applicability::MachineApplicable;
    let title = match fix.applicability {
        Applicability::MachineApplicable => fix.message.clone(),
        Applicability::Suggestion => format!("{} (suggestion: check the result)", fix.message),
    };
    Some(action(uri, finding, &map, title, edits, preferred))
}

/// The edit that suppresses `finding` with a comment alone on the line above it
/// (`// mirrorless: allow(ML001) TODO: …`, indented like the line, with its line ending),
/// and the text after it. `None` for files without `//` comments (Markdown) and for the rules
/// a suppression cannot sensibly silence (ML008, ML009).
pub fn suppression(path: &Path, text: &str, finding: &Finding) -> Option<(TextEdit, String)> {
    let slashes = matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("rs" | "ts" | "tsx" | "mts" | "cts" | "js" | "jsx" | "mjs" | "cjs")
    );
    let rule = rules::rule(finding.rule)?;
    if !slashes || matches!(rule.name, "suppression" | "unparsed") {
        return None;
    }
    let map = LineMap::new(text);
    let start = map.offset(lsp_types::Position::new(
        u32::try_from(finding.line.checked_sub(1)?).ok()?,
        0,
    ));
    let line = text[start..].split('\n').next().unwrap_or("");
    let indent: String = line
        .chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .collect();
    let eol = if line.ends_with('\r') { "\r\n" } else { "\n" };
    let comment = format!(
        "{indent}// mirrorless: allow({}) TODO: say why this use of a removed event stays{eol}",
        rule.id
    );
    let mut after = String::with_capacity(text.len() + comment.len());
    after.push_str(&text[..start]);
    after.push_str(&comment);
    after.push_str(&text[start..]);
    let pos = map.position(start);
    Some((
        TextEdit::new(lsp_types::Range::new(pos, pos), comment),
        after,
    ))
}

/// Whether the findings after a suppression edit are exactly those before it, minus the
/// suppressed rule's findings on its line, one line further down: the comment silenced
/// what it should and nothing else (no string was cut, nothing else changed).
pub fn suppression_is_clean(before: &[Finding], after: &[Finding], finding: &Finding) -> bool {
    let key = |f: &Finding, shift: usize| {
        (
            f.rule,
            f.line + shift,
            f.column,
            f.message.clone(),
            f.event.clone(),
        )
    };
    let mut expected: Vec<_> = before
        .iter()
        .filter(|f| !(f.line == finding.line && f.rule == finding.rule))
        .map(|f| key(f, usize::from(f.line >= finding.line)))
        .collect();
    let mut got: Vec<_> = after.iter().map(|f| key(f, 0)).collect();
    expected.sort();
    got.sort();
    expected == got
}

/// The quick fix that inserts a suppression comment.
pub fn suppression_action(uri: &Uri, finding: &Finding, text: &str, edit: TextEdit) -> CodeAction {
    let title = format!(
        "Suppress {} ({}) on this line with a `mirrorless: allow` comment",
        finding.rule, finding.rule_name
    );
    action(uri, finding, &LineMap::new(text), title, vec![edit], false)
}

fn action(
    uri: &Uri,
    finding: &Finding,
    map: &LineMap<'_>,
    title: String,
    edits: Vec<TextEdit>,
    preferred: bool,
) -> CodeAction {
    // `Uri` hashes by its text; clippy cannot see that its interior never changes.
    #[allow(clippy::mutable_key_type)]
    let changes = HashMap::from([(uri.clone(), edits)]);
    CodeAction {
        title,
        kind: Some(CodeActionKind::QUICKFIX),
        diagnostics: Some(vec![diagnostics::diagnostic(finding, map)]),
        edit: Some(WorkspaceEdit {
            changes: Some(changes),
            ..WorkspaceEdit::default()
        }),
        command: None,
        is_preferred: preferred.then_some(true),
        disabled: None,
        data: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mirrorless_lint::model::{Edit, Fix};
    use std::str::FromStr;

    fn finding_at(text: &str, path: &str, rule: &str) -> Finding {
        let report = mirrorless_lint::lint_document(
            Path::new(path),
            text,
            &mirrorless_lint::config::Config::default(),
        );
        report
            .findings
            .into_iter()
            .find(|f| f.rule == rule)
            .expect("the text has a finding of the rule")
    }

    #[test]
    fn a_machine_applicable_fix_is_a_preferred_quick_fix_in_utf16_columns() {
        // Non-ASCII before the edit: the range must count UTF-16 units, not bytes or chars.
        let text = "const s = 'é😀'; bus.emit('agent/turn-start', t);\n";
        let mut f = finding_at(text, "a.ts", "ML002");
        let start = text.find("bus.emit").unwrap();
        let end = text.find(";\n").unwrap() + 1;
        f.fix = Some(Fix::new(
            Applicability::MachineApplicable,
            "delete the removed mirror's emit",
            vec![Edit::new(start, end, "")],
        ));
        let uri = Uri::from_str("file:///w/a.ts").unwrap();
        let action = fix_action(&uri, &f, text).unwrap();
        assert_eq!(action.kind, Some(CodeActionKind::QUICKFIX));
        assert_eq!(action.is_preferred, Some(true));
        assert_eq!(action.title, "delete the removed mirror's emit");
        let edits = &action.edit.unwrap().changes.unwrap()[&uri];
        // `const s = 'é😀'; ` is 16 characters (20 bytes) but 17 UTF-16 units.
        assert_eq!(edits[0].range.start, lsp_types::Position::new(0, 17));
        let len = u32::try_from(end - start).unwrap();
        assert_eq!(edits[0].range.end, lsp_types::Position::new(0, 17 + len));
        assert_eq!(edits[0].new_text, "");

        f.fix.as_mut().unwrap().applicability = Applicability::Suggestion;
        let action = fix_action(&uri, &f, text).unwrap();
        assert_eq!(action.is_preferred, None);
        assert!(action.title.contains("suggestion"));
    }

    #[test]
    fn edits_that_do_not_fit_the_text_offer_no_action() {
        let text = "bus.emit('agent/turn-start', 'é');\n";
        let mut f = finding_at(text, "a.ts", "ML002");
        let inside_e = text.find('é').unwrap() + 1;
        for (start, end) in [(0, text.len() + 1), (inside_e, inside_e), (5, 2)] {
            f.fix = Some(Fix::new(
                Applicability::MachineApplicable,
                "x",
                vec![Edit::new(start, end, "")],
            ));
            let uri = Uri::from_str("file:///w/a.ts").unwrap();
            assert!(fix_action(&uri, &f, text).is_none(), "{start}..{end}");
        }
        f.fix = None;
        let uri = Uri::from_str("file:///w/a.ts").unwrap();
        assert!(fix_action(&uri, &f, text).is_none());
    }

    #[test]
    fn a_suppression_silences_its_line_only_and_keeps_indent_and_line_endings() {
        let text = "function f() {\r\n  bus.on('agent/turn-end', g);\r\n  bus.on('agent/step-end', g);\r\n}\r\n";
        let config = mirrorless_lint::config::Config::default();
        let before = mirrorless_lint::lint_document(Path::new("a.ts"), text, &config).findings;
        let f = before.iter().find(|f| f.line == 2).unwrap();
        let (edit, after_text) = suppression(Path::new("a.ts"), text, f).unwrap();
        assert!(edit.new_text.starts_with("  // mirrorless: allow(ML001) "));
        assert!(edit.new_text.ends_with("\r\n"));
        assert_eq!(edit.range.start, lsp_types::Position::new(1, 0));
        let after =
            mirrorless_lint::lint_document(Path::new("a.ts"), &after_text, &config).findings;
        assert_eq!(after.len(), 1);
        assert!(suppression_is_clean(&before, &after, f));
        // Reporting the other line as suppressed too would not be clean.
        assert!(!suppression_is_clean(&before, &[], f));
        assert!(suppression(Path::new("a.md"), text, f).is_none());
    }
}
