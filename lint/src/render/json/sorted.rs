//! The items of the JSON document as they serialize there: every object's keys in sorted
//! order (the order a `serde_json` map, a `BTreeMap`, writes them in, which the document has
//! always had), whatever order the model's own `Serialize` uses (the baseline file keeps
//! that one). Optional keys are left out as the model leaves them out, and an item whose file
//! name is not UTF-8 also carries its exact bytes (`path_bytes`). `json::tests` compares every
//! view with the model serialized into a `serde_json::Value`.

use crate::baseline::Entry;
use crate::model::FileError;
#[cfg(test)]
use crate::model::{Edit, Finding, Fix, LineReplacement, TextRange};
use crate::render::path_bytes;
use serde::ser::{Serialize, SerializeStruct, Serializer};

/// A finding in the document, as `serde` writes it: the reference `direct::finding` (which
/// the document uses) is checked against.
#[cfg(test)]
pub struct FindingJson<'a>(pub &'a Finding);

#[cfg(test)]
impl Serialize for FindingJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let f = self.0;
        let bytes = path_bytes(&f.path);
        let mut o = s.serialize_struct("Finding", 16)?;
        o.serialize_field("column", &f.column)?;
        o.serialize_field("end_column", &f.end_column)?;
        o.serialize_field("end_line", &f.end_line)?;
        o.serialize_field("event", &f.event)?;
        o.serialize_field("fingerprint", &f.fingerprint)?;
        if let Some(fix) = &f.fix {
            o.serialize_field("fix", &FixJson(fix))?;
        }
        o.serialize_field("help", &f.help)?;
        if f.human {
            o.serialize_field("human", &true)?;
        }
        o.serialize_field("line", &f.line)?;
        o.serialize_field("message", &f.message)?;
        if let Some(note) = &f.note {
            o.serialize_field("note", note)?;
        }
        o.serialize_field("path", &f.path)?;
        if let Some(bytes) = &bytes {
            o.serialize_field("path_bytes", bytes)?;
        }
        o.serialize_field("rule", f.rule)?;
        o.serialize_field("rule_name", f.rule_name)?;
        o.serialize_field("severity", &f.severity)?;
        o.end()
    }
}

/// A finding's fix.
#[cfg(test)]
struct FixJson<'a>(&'a Fix);

#[cfg(test)]
impl Serialize for FixJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let fix = self.0;
        let mut o = s.serialize_struct("Fix", 4)?;
        o.serialize_field("applicability", &fix.applicability)?;
        o.serialize_field("edits", &Edits(&fix.edits))?;
        if let Some(lines) = &fix.lines {
            o.serialize_field("lines", &LinesJson(lines))?;
        }
        o.serialize_field("message", &fix.message)?;
        o.end()
    }
}

/// A fix's edits.
#[cfg(test)]
struct Edits<'a>(&'a [Edit]);

#[cfg(test)]
impl Serialize for Edits<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(EditJson))
    }
}

/// One edit of a fix.
#[cfg(test)]
struct EditJson<'a>(&'a Edit);

#[cfg(test)]
impl Serialize for EditJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let e = self.0;
        let mut o = s.serialize_struct("Edit", 4)?;
        o.serialize_field("end", &e.end)?;
        o.serialize_field("range", &RangeJson(&e.range))?;
        o.serialize_field("replacement", &e.replacement)?;
        o.serialize_field("start", &e.start)?;
        o.end()
    }
}

/// Where an edit is, as lines and columns.
#[cfg(test)]
struct RangeJson<'a>(&'a TextRange);

#[cfg(test)]
impl Serialize for RangeJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let r = self.0;
        let mut o = s.serialize_struct("TextRange", 6)?;
        o.serialize_field("byte_column", &r.byte_column)?;
        o.serialize_field("column", &r.column)?;
        o.serialize_field("end_byte_column", &r.end_byte_column)?;
        o.serialize_field("end_column", &r.end_column)?;
        o.serialize_field("end_line", &r.end_line)?;
        o.serialize_field("line", &r.line)?;
        o.end()
    }
}

/// A fix as whole lines.
#[cfg(test)]
struct LinesJson<'a>(&'a LineReplacement);

#[cfg(test)]
impl Serialize for LinesJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let l = self.0;
        let mut o = s.serialize_struct("LineReplacement", 3)?;
        o.serialize_field("end_line", &l.end_line)?;
        o.serialize_field("line", &l.line)?;
        o.serialize_field("text", &l.text)?;
        o.end()
    }
}

/// A file that could not be read or walked.
pub struct FileErrorJson<'a>(pub &'a FileError);

impl Serialize for FileErrorJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let e = self.0;
        let bytes = path_bytes(&e.path);
        let mut o = s.serialize_struct("FileError", 4)?;
        if let Some(line) = &e.line {
            o.serialize_field("line", line)?;
        }
        o.serialize_field("message", &e.message)?;
        o.serialize_field("path", &e.path)?;
        if let Some(bytes) = &bytes {
            o.serialize_field("path_bytes", bytes)?;
        }
        o.end()
    }
}

/// A baseline entry that matched no finding (no `path_bytes`: the path is the baseline's).
pub struct EntryJson<'a>(pub &'a Entry);

impl Serialize for EntryJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let e = self.0;
        let mut o = s.serialize_struct("Entry", 6)?;
        if let Some(event) = &e.event {
            o.serialize_field("event", event)?;
        }
        o.serialize_field("fingerprint", &e.fingerprint)?;
        o.serialize_field("line", &e.line)?;
        o.serialize_field("message", &e.message)?;
        o.serialize_field("path", &e.path)?;
        o.serialize_field("rule", &e.rule)?;
        o.end()
    }
}

/// The report's `summary` object: its counts, by severity and of the run.
#[derive(serde::Serialize)]
pub struct Summary {
    /// Findings removed by the baseline.
    pub baselined: usize,
    /// Files analysed.
    pub candidates: usize,
    /// Identifiers standing for a removed event.
    pub declarations: usize,
    /// Findings of error severity.
    pub errors: usize,
    /// Files that could not be read or walked.
    pub file_errors: usize,
    /// Files walked and read.
    pub files: usize,
    /// Findings of note severity.
    pub notes: usize,
    /// Findings that existed at the `--new-since` revision.
    pub preexisting: usize,
    /// Findings removed by inline suppressions.
    pub suppressed: usize,
    /// Findings of warning severity.
    pub warnings: usize,
}

/// The report's `tool` object.
#[derive(serde::Serialize)]
pub struct Tool {
    /// `mirrorless`.
    pub name: &'static str,
    /// The specification the tool implements.
    pub spec_version: &'static str,
    /// The tool's version.
    pub version: &'static str,
}
