//! Positions: the linter counts bytes and characters, LSP counts UTF-16 code units per line.
//! Every conversion between the two goes through [`LineMap`].

use lsp_types::{Position, Range};

/// Line starts of one document, for conversions between byte offsets, the linter's 1-based
/// character columns and LSP positions (0-based line, UTF-16 column).
///
/// Lines end at `\n` (a `\r` before it belongs to the terminator), as in the linter.
#[derive(Debug)]
pub struct LineMap<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> LineMap<'a> {
    /// Indexes `text`.
    pub fn new(text: &'a str) -> Self {
        let mut starts = vec![0];
        starts.extend(
            text.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i + 1),
        );
        LineMap { text, starts }
    }

    /// The text of 0-based line `line`, terminator excluded (empty past the end).
    fn line(&self, line: usize) -> &'a str {
        let Some(&start) = self.starts.get(line) else {
            return "";
        };
        let end = self
            .starts
            .get(line + 1)
            .map_or(self.text.len(), |&next| next - 1);
        let s = self.text.get(start..end).unwrap_or("");
        s.strip_suffix('\r').unwrap_or(s)
    }

    /// The LSP position of byte `offset` (clamped to the text, and back to a character
    /// boundary).
    pub fn position(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let start = self.starts[line];
        let before = self.text.get(start..offset).unwrap_or("");
        Position::new(to_u32(line), to_u32(utf16_len(before)))
    }

    /// The LSP range of bytes `start..end`.
    pub fn range(&self, start: usize, end: usize) -> Range {
        Range::new(self.position(start), self.position(end))
    }

    /// The LSP position of the linter's 1-based `line` and 1-based character `column`.
    pub fn from_line_column(&self, line: usize, column: usize) -> Position {
        let line0 = line.saturating_sub(1);
        let chars = column.saturating_sub(1);
        let prefix: usize = self
            .line(line0)
            .chars()
            .take(chars)
            .map(char::len_utf16)
            .sum();
        Position::new(to_u32(line0), to_u32(prefix))
    }

    /// The byte offset of an LSP position. A column past the end of its line means the end of
    /// the line; a column inside a surrogate pair means the start of that character; a line
    /// past the end means the end of the text.
    pub fn offset(&self, pos: Position) -> usize {
        let line = pos.line as usize;
        let Some(&start) = self.starts.get(line) else {
            return self.text.len();
        };
        let mut units = 0usize;
        for (i, c) in self.line(line).char_indices() {
            let next = units + c.len_utf16();
            if next > pos.character as usize {
                return start + i;
            }
            units = next;
        }
        start + self.line(line).len()
    }
}

fn utf16_len(s: &str) -> usize {
    s.chars().map(char::len_utf16).sum()
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_columns_count_surrogate_pairs_and_wide_characters() {
        // `é` is 2 bytes/1 unit, `😀` 4 bytes/2 units, `中` 3 bytes/1 unit.
        let text = "a\né😀中x\r\nlast";
        let map = LineMap::new(text);
        let x = text.find('x').unwrap();
        assert_eq!(map.position(x), Position::new(1, 4));
        assert_eq!(map.offset(Position::new(1, 4)), x);
        // The linter's column 4 (1-based, characters) is `x`: 3 characters, 4 units before it.
        assert_eq!(map.from_line_column(2, 4), Position::new(1, 4));
        // Inside the surrogate pair: the start of the emoji.
        assert_eq!(map.offset(Position::new(1, 2)), text.find('😀').unwrap());
        // Past the end of the line: its end, before `\r\n`.
        assert_eq!(map.offset(Position::new(1, 99)), x + 1);
        assert_eq!(map.offset(Position::new(2, 0)), text.find("last").unwrap());
        assert_eq!(map.offset(Position::new(9, 0)), text.len());
        assert_eq!(map.position(text.len()), Position::new(2, 4));
    }

    #[test]
    fn offsets_inside_a_character_move_back_to_its_start() {
        let text = "😀";
        assert_eq!(LineMap::new(text).position(2), Position::new(0, 0));
        assert_eq!(LineMap::new(text).position(4), Position::new(0, 2));
    }
}
