//! Open documents: their unsaved text, kept in sync with the editor (full or incremental
//! changes), and the findings last published for them.

use crate::position::LineMap;
use crate::uri;
use lsp_types::{TextDocumentContentChangeEvent, Uri};
use mirrorless_lint::model::Finding;
use std::path::{Path, PathBuf};

/// One document open in the editor.
#[derive(Debug)]
pub struct Document {
    /// The text as the editor has it, saved or not.
    pub text: String,
    /// The editor's version of that text.
    pub version: i32,
    /// The path the linter sees: the file's, or for a document that is not a local file
    /// (`untitled:`) a name whose extension follows its language (`untitled.ts`).
    pub lint_path: PathBuf,
    file: Option<PathBuf>,
    /// The findings last published.
    pub findings: Vec<Finding>,
    /// The text changed since the last publication.
    pub stale: bool,
}

impl Document {
    /// A document the editor just opened.
    pub fn open(uri: &Uri, language_id: &str, version: i32, text: String) -> Document {
        let file = uri::to_path(uri);
        let lint_path = file.clone().unwrap_or_else(|| {
            let ext = match language_id {
                "typescript" => "ts",
                "typescriptreact" => "tsx",
                "javascript" => "js",
                "javascriptreact" => "jsx",
                "rust" => "rs",
                "markdown" => "md",
                _ => "txt",
            };
            PathBuf::from(format!("untitled.{ext}"))
        });
        Document {
            text,
            version,
            lint_path,
            file,
            findings: Vec::new(),
            stale: true,
        }
    }

    /// The local file of this document, if it is one.
    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }
}

/// Applies the editor's changes in order: a change without a range replaces the whole text;
/// a ranged change replaces that range (UTF-16 positions, clamped to the text).
pub fn apply_changes(text: &mut String, changes: Vec<TextDocumentContentChangeEvent>) {
    for change in changes {
        match change.range {
            None => *text = change.text,
            Some(range) => {
                let map = LineMap::new(text);
                let start = map.offset(range.start);
                let end = map.offset(range.end).max(start);
                text.replace_range(start..end, &change.text);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsp_types::{Position, Range};

    fn change(
        range: Option<((u32, u32), (u32, u32))>,
        text: &str,
    ) -> TextDocumentContentChangeEvent {
        TextDocumentContentChangeEvent {
            range: range
                .map(|((a, b), (c, d))| Range::new(Position::new(a, b), Position::new(c, d))),
            range_length: None,
            text: text.to_owned(),
        }
    }

    #[test]
    fn incremental_changes_use_utf16_positions_in_order() {
        let mut text = "é😀x\nline two\n".to_owned();
        apply_changes(
            &mut text,
            vec![
                // `x` is at UTF-16 column 3 (é = 1 unit, 😀 = 2).
                change(Some(((0, 3), (0, 4))), "y"),
                change(Some(((1, 5), (1, 8))), "2"),
                change(Some(((2, 0), (2, 0))), "end"),
            ],
        );
        assert_eq!(text, "é😀y\nline 2\nend");
        apply_changes(&mut text, vec![change(None, "whole")]);
        assert_eq!(text, "whole");
        // A range past the end is clamped, never a panic.
        apply_changes(&mut text, vec![change(Some(((7, 0), (9, 9))), "!")]);
        assert_eq!(text, "whole!");
    }
}
