//! The JSON format (documented in `docs/lint/json.md`).

mod direct;
mod pretty;
mod sorted;
#[cfg(test)]
mod tests;

use crate::engine::Report;
use pretty::Pretty;
use rayon::prelude::*;
use serde::Serialize;
use sorted::{EntryJson, FileErrorJson, Summary, Tool};

/// Version of the JSON document; bumped only on incompatible changes.
pub const JSON_VERSION: u32 = 1;

/// Renders the report as one pretty-printed JSON document.
///
/// The document is the one `serde_json`'s pretty printer writes for it (two spaces an indent,
/// every object's keys sorted as a `serde_json` map sorts them), written without building
/// `serde_json::Value`s (issue 32 item 1): each item is serialized through a view that writes
/// its keys in that order ([`sorted`]) by a formatter indenting it for its place in the
/// document ([`Pretty`]), straight into the text, the items of a long list on every core; a
/// finding, most of the document, is written in that layout without `serde` ([`direct`]).
/// `json::tests` checks the document against `serde_json`'s serialization of the report's
/// `Value`s.
pub fn render(report: &Report) -> String {
    document(report).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}\n"))
}

/// Items written per task. A list of at most this many is written in line: writing an item
/// costs ~16 k instructions, and on a loaded machine handing 182 findings (upstream's
/// `3f85f522ea`) to the pool in pieces of 64 measured slower than writing them on the calling
/// thread (`docs/benchmarks/lint.md`, fifth round). A longer list is written in pieces on
/// every core.
const PIECE: usize = 512;

/// Items written before their texts are joined: few enough that the texts held at once stay a
/// fraction of the document (a few MB), enough pieces for several cores.
const CHUNK: usize = 8 * PIECE;

/// The report's `summary` object.
fn summary(report: &Report) -> Summary {
    let (errors, warnings, notes) = crate::render::counts(report);
    Summary {
        baselined: report.stats.baselined,
        candidates: report.stats.candidates,
        declarations: report.stats.declarations,
        errors,
        file_errors: report.errors.len(),
        files: report.stats.files,
        notes,
        preexisting: report.stats.preexisting,
        suppressed: report.stats.suppressed,
        warnings,
    }
}

/// The report's `tool` object.
fn tool() -> Tool {
    Tool {
        name: "mirrorless",
        spec_version: mirrorless_conformance::SPEC_VERSION,
        version: env!("CARGO_PKG_VERSION"),
    }
}

fn document(report: &Report) -> Result<String, serde_json::Error> {
    // A finding takes ~1.4 kB (upstream's `3f85f522ea`): room for all without growing.
    let mut out = Vec::with_capacity(1024 + 2048 * report.findings.len());
    out.extend_from_slice(b"{\n  \"errors\": ");
    items(&mut out, &report.errors, |out, e| {
        value(out, &FileErrorJson(e), 2)
    })?;
    out.extend_from_slice(b",\n  \"findings\": ");
    // The bulk of the document: written without `serde` (see [`direct`]).
    items(&mut out, &report.findings, |out, f| {
        direct::finding(out, f, 2);
        Ok(())
    })?;
    out.extend_from_slice(b",\n  \"stale_baseline\": ");
    items(&mut out, &report.stale, |out, e| {
        value(out, &EntryJson(e), 2)
    })?;
    out.extend_from_slice(b",\n  \"summary\": ");
    value(&mut out, &summary(report), 1)?;
    out.extend_from_slice(b",\n  \"tool\": ");
    value(&mut out, &tool(), 1)?;
    out.extend_from_slice(b",\n  \"version\": ");
    value(&mut out, &JSON_VERSION, 1)?;
    out.extend_from_slice(b"\n}\n");
    String::from_utf8(out).map_err(serde::ser::Error::custom)
}

/// `value` appended to `out` as it reads at `depth` levels of the document.
fn value<T: Serialize + ?Sized>(
    out: &mut Vec<u8>,
    value: &T,
    depth: usize,
) -> Result<(), serde_json::Error> {
    value.serialize(&mut serde_json::Serializer::with_formatter(
        out,
        Pretty::at(depth),
    ))
}

/// A list of the document (at the first level of its object), each item written by `write`
/// (at the list's item depth, 2); pieces of a long list are written on every core and joined
/// in order.
fn items<T: Sync>(
    out: &mut Vec<u8>,
    list: &[T],
    write: impl Fn(&mut Vec<u8>, &T) -> Result<(), serde_json::Error> + Sync,
) -> Result<(), serde_json::Error> {
    if list.is_empty() {
        out.extend_from_slice(b"[]");
        return Ok(());
    }
    out.push(b'[');
    let piece = |out: &mut Vec<u8>, first: bool, items: &[T]| {
        for (i, item) in items.iter().enumerate() {
            out.extend_from_slice(if first && i == 0 {
                b"\n    "
            } else {
                b",\n    "
            });
            write(out, item)?;
        }
        Ok::<_, serde_json::Error>(())
    };
    if list.len() <= PIECE {
        piece(out, true, list)?;
    } else {
        for (c, chunk) in list.chunks(CHUNK).enumerate() {
            let texts: Vec<Result<Vec<u8>, serde_json::Error>> = chunk
                .par_chunks(PIECE)
                .enumerate()
                .map(|(p, items)| {
                    let mut text = Vec::with_capacity(1024 * items.len());
                    piece(&mut text, c == 0 && p == 0, items)?;
                    Ok(text)
                })
                .collect();
            for text in texts {
                out.extend_from_slice(&text?);
            }
        }
    }
    out.extend_from_slice(b"\n  ]");
    Ok(())
}
