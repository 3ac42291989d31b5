//! `file:` URIs ↔ paths. Editors send documents as URIs; the linter works on paths.

use lsp_types::Uri;
use percent_encoding::{AsciiSet, CONTROLS, percent_decode_str, utf8_percent_encode};
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// Characters escaped in the path of a `file:` URI (RFC 3986: everything but unreserved
/// characters, sub-delimiters, `:`, `@` and `/`).
const PATH: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'[')
    .add(b'\\')
    .add(b']')
    .add(b'^')
    .add(b'`')
    .add(b'{')
    .add(b'|')
    .add(b'}');

/// The local path of a `file:` URI, or `None` for any other scheme (`untitled:`, a remote
/// host).
pub fn to_path(uri: &Uri) -> Option<PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    let (authority, path) = rest.split_at(rest.find('/')?);
    if !(authority.is_empty() || authority.eq_ignore_ascii_case("localhost")) {
        return None;
    }
    let path = path.split(['?', '#']).next().unwrap_or(path);
    let bytes: Vec<u8> = percent_decode_str(path).collect();
    from_bytes(bytes)
}

#[cfg(unix)]
fn from_bytes(bytes: Vec<u8>) -> Option<PathBuf> {
    use std::os::unix::ffi::OsStringExt;
    Some(PathBuf::from(std::ffi::OsString::from_vec(bytes)))
}

#[cfg(not(unix))]
fn from_bytes(bytes: Vec<u8>) -> Option<PathBuf> {
    let s = String::from_utf8(bytes).ok()?;
    // `file:///C:/x` names `C:/x`.
    let s = match s.strip_prefix('/') {
        Some(rest) if rest.as_bytes().get(1) == Some(&b':') => rest.to_owned(),
        _ => s,
    };
    Some(PathBuf::from(s))
}

/// The `file:` URI of an absolute path (`None` if the path is not valid UTF-8 or the URI does
/// not parse).
pub fn from_path(path: &Path) -> Option<Uri> {
    let s = path.to_str()?.replace('\\', "/");
    let s = if s.starts_with('/') {
        s
    } else {
        format!("/{s}")
    };
    Uri::from_str(&format!("file://{}", utf8_percent_encode(&s, PATH))).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(unix)]
    fn round_trips_escaped_and_non_ascii_paths() {
        let path = Path::new("/srv/a dir/é#1.ts");
        let uri = from_path(path).unwrap();
        assert_eq!(uri.as_str(), "file:///srv/a%20dir/%C3%A9%231.ts");
        assert_eq!(to_path(&uri).unwrap(), path);
        let localhost = Uri::from_str("file://localhost/srv/x.ts").unwrap();
        assert_eq!(to_path(&localhost).unwrap(), Path::new("/srv/x.ts"));
        assert_eq!(
            to_path(&Uri::from_str("untitled:Untitled-1").unwrap()),
            None
        );
        assert_eq!(to_path(&Uri::from_str("file://host/x.ts").unwrap()), None);
    }
}
