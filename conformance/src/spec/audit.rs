//! Reads `docs/protocol/audit.md`: each statement of the stdio protocol (`stdio.md` §5) with
//! the requirements that check it. A requirement page lists the statements that name it, so
//! that the protocol, the audit and the page say one thing; `tests/spec_docs.rs` cross-checks
//! the rows against the registry.

use crate::registry::REQUIREMENTS;

/// One row of an audit table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// The section heading the row is under, e.g. `5.3 A turn, 2026-08`.
    pub section: String,
    /// The heading's anchor on the audit page.
    pub anchor: String,
    /// The first column: the protocol statement (Markdown).
    pub statement: String,
    /// The second column: the requirements and what of the statement each checks.
    pub checked_by: String,
    /// The third column: the fixtures that show the check failing.
    pub shown_by: String,
    /// The requirement IDs the second column names (ranges such as `MIRROR-1 … MIRROR-6`
    /// expanded), in registry order.
    pub requirements: Vec<&'static str>,
}

/// The slug a heading gets as an anchor (GitHub and mdBook agree on these headings).
pub fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// Splits a table row into its cells (a `\|` inside a cell is not a separator).
fn cells(line: &str) -> Vec<String> {
    let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
    let mut out = vec![String::new()];
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '|' {
            out.push(String::new());
            continue;
        }
        let Some(cell) = out.last_mut() else { break };
        cell.push(c);
        if c == '\\' && chars.peek() == Some(&'|') {
            cell.push('|');
            chars.next();
        }
    }
    out.into_iter().map(|s| s.trim().to_owned()).collect()
}

/// Whether `text` names `id` as a word (`TURN-1` is not named by `TURN-10`).
pub fn names(text: &str, id: &str) -> bool {
    text.match_indices(id).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + id.len()..].chars().next();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '-')
            && !after.is_some_and(|c| c.is_ascii_digit() || c == '-')
    })
}

/// The IDs `text` names, with `A-1 … A-6` ranges expanded.
fn named_ids(text: &str) -> Vec<&'static str> {
    let mut ids: Vec<&'static str> = REQUIREMENTS
        .iter()
        .filter(|r| names(text, r.id))
        .map(|r| r.id)
        .collect();
    for req in REQUIREMENTS {
        for (at, _) in text.match_indices(" … ") {
            let (left, right) = (&text[..at], &text[at + " … ".len()..]);
            let first = left.rsplit(|c: char| c.is_whitespace() || c == '(').next();
            let last = right.split(|c: char| c.is_whitespace() || c == ')').next();
            if let (Some(first), Some(last)) = (first, last)
                && let (Some((area, a)), Some((area2, b))) =
                    (first.rsplit_once('-'), last.rsplit_once('-'))
                && area == area2
                && let (Ok(a), Ok(b)) = (a.parse::<u32>(), b.parse::<u32>())
                && let Some((ra, rn)) = req.id.rsplit_once('-')
                && ra == area
                && rn.parse::<u32>().is_ok_and(|n| a <= n && n <= b)
                && !ids.contains(&req.id)
            {
                ids.push(req.id);
            }
        }
    }
    ids.sort_by_key(|id| REQUIREMENTS.iter().position(|r| r.id == *id));
    ids
}

/// Every three-column table row of the audit whose header is `statement | requirement | …`.
pub fn rows(audit: &str) -> Vec<Row> {
    let mut out = Vec::new();
    let mut section = String::new();
    let mut in_table = false;
    for line in audit.lines() {
        if let Some(h) = line.strip_prefix("## ") {
            section = h.trim().to_owned();
            in_table = false;
            continue;
        }
        if !line.starts_with('|') {
            in_table = false;
            continue;
        }
        let c = cells(line);
        if c.first().is_some_and(|h| h == "statement")
            && c.get(1).is_some_and(|h| h == "requirement")
        {
            in_table = true;
            continue;
        }
        if !in_table || c.iter().all(|x| x.chars().all(|ch| ch == '-' || ch == ':')) || c.len() < 3
        {
            continue;
        }
        out.push(Row {
            anchor: slug(&section),
            section: section.clone(),
            requirements: named_ids(&c[1]),
            statement: c[0].clone(),
            checked_by: c[1].clone(),
            shown_by: c[2].clone(),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const AUDIT: &str = "# A\n\n## 5.2 Lifecycle and live events\n\n| statement | requirement | shown failing by |\n|---|---|---|\n| never the removed mirrors | MIRROR-1 … MIRROR-6 | `x.py` |\n| turn `t` \\| 1 | TURN-1; TURN-10 (not TURN-2-x) | — |\n\n| variant | now | shown |\n|---|---|---|\n| a | TURN-3 | b |\n";

    /// Rows are read under their section, ranges expanded, other tables skipped, and an ID is
    /// not named by a longer one.
    #[test]
    fn rows_name_their_requirements_and_section() {
        let rows = rows(AUDIT);
        assert_eq!(rows.len(), 2, "{rows:#?}");
        assert_eq!(rows[0].anchor, "52-lifecycle-and-live-events");
        assert_eq!(
            rows[0].requirements,
            [
                "MIRROR-1", "MIRROR-2", "MIRROR-3", "MIRROR-4", "MIRROR-5", "MIRROR-6"
            ]
        );
        assert_eq!(rows[1].requirements, ["TURN-1", "TURN-10"]);
        assert_eq!(rows[1].statement, "turn `t` \\| 1");
    }
}
