//! The type declarations a TypeScript text holds, read without a parser (the host's files
//! are read only for this, often `.d.ts` files no front end is run on): interfaces (merged by
//! name, as TypeScript merges them, also inside `declare module` blocks), type aliases, the
//! quoted members of an event map with their parameters' types, and the names a file
//! imports, declares and exports.

/// The text with every comment replaced by spaces (byte offsets kept), so that a name in a
/// comment is never taken for a declaration.
pub(super) fn strip_comments(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = bytes.to_vec();
    let mut i = 0;
    let mut quote: Option<u8> = None;
    while i < bytes.len() {
        let b = bytes[i];
        match quote {
            Some(_) if b == b'\\' => i += 1,
            Some(q) if b == q || (b == b'\n' && q != b'`') => quote = None,
            Some(_) => {}
            None if b == b'\'' || b == b'"' || b == b'`' => quote = Some(b),
            None if b == b'/' && bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    out[i] = b' ';
                    i += 1;
                }
                continue;
            }
            None if b == b'/' && bytes.get(i + 1) == Some(&b'*') => {
                let end = text[i + 2..]
                    .find("*/")
                    .map_or(bytes.len(), |e| i + 2 + e + 2);
                for o in &mut out[i..end] {
                    if *o != b'\n' {
                        *o = b' ';
                    }
                }
                i = end;
                continue;
            }
            None => {}
        }
        i += 1;
    }
    // Only ASCII bytes were replaced, and each whole comment: still UTF-8.
    String::from_utf8(out).unwrap_or_default()
}

/// How far a clause (`extends …`, an import's names) is looked for: a bounded look keeps a
/// file full of the keyword linear.
const WINDOW: usize = 4096;

/// The largest char boundary of `text` at or below `at`.
fn floor(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}

/// Whether `text[at..]` starts the word `word` (not inside a longer identifier).
fn word_at(text: &str, at: usize, word: &str) -> bool {
    text[at..].starts_with(word)
        && !text[..at].chars().next_back().is_some_and(is_ident)
        && !text[at + word.len()..].chars().next().is_some_and(is_ident)
}

/// The identifier at the start of `text` (after spaces) and the rest.
fn ident(text: &str) -> Option<(&str, &str)> {
    let t = text.trim_start();
    let end = t.find(|c: char| !is_ident(c)).unwrap_or(t.len());
    (end > 0 && !t.starts_with(|c: char| c.is_ascii_digit())).then(|| (&t[..end], &t[end..]))
}

/// `text` past the balanced group opening at its start (`<…>`, `(…)`, `{…}`, `[…]`), quotes
/// skipped; `None` when it does not close.
pub(super) fn past_group(text: &str) -> Option<&str> {
    let (open, close) = match text.as_bytes().first()? {
        b'<' => (b'<', b'>'),
        b'(' => (b'(', b')'),
        b'{' => (b'{', b'}'),
        b'[' => (b'[', b']'),
        _ => return None,
    };
    let bytes = text.as_bytes();
    let (mut depth, mut quote, mut i) = (0usize, None, 0);
    while i < bytes.len() {
        let b = bytes[i];
        match quote {
            Some(_) if b == b'\\' => i += 1,
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None if b == b'\'' || b == b'"' || b == b'`' => quote = Some(b),
            // `=>` inside `<…>` is no closing bracket.
            None if b == b'>' && open == b'<' && i > 0 && bytes[i - 1] == b'=' => {}
            None if b == open => depth += 1,
            None if b == close => {
                depth -= 1;
                if depth == 0 {
                    return text.get(i + 1..);
                }
            }
            None => {}
        }
        i += 1;
    }
    None
}

/// The text inside the group opening at the start of `text`.
fn inside_group(text: &str) -> Option<&str> {
    let rest = past_group(text)?;
    text.get(1..text.len() - rest.len() - 1)
}

/// How a type is declared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// `interface N { … }`: merged with every other interface of its name.
    Interface,
    /// `type N = { … }`, the body a type literal.
    Literal,
    /// `type N = …` of another form (a union, an intersection, a mapped type).
    Alias,
}

/// A type declared in a file.
#[derive(Debug, Clone)]
pub(super) struct TypeDecl {
    pub(super) name: String,
    pub(super) kind: Kind,
    /// Byte offset of the name.
    pub(super) at: usize,
    /// An interface's or a type literal's members (inside the braces); an alias's whole type.
    pub(super) body: String,
    /// An interface's or a type literal's quoted members ([`members`] of its body, read once
    /// per file, not once per script whose view holds it); none for an alias.
    pub(super) members: Vec<Member>,
}

/// Every interface and type alias of a comment-free text.
pub(super) fn type_decls(code: &str) -> Vec<TypeDecl> {
    let mut out = Vec::new();
    for keyword in ["interface", "type"] {
        for at in memchr::memmem::find_iter(code.as_bytes(), keyword) {
            if !word_at(code, at, keyword) {
                continue;
            }
            let Some((name, rest)) = ident(&code[at + keyword.len()..]) else {
                continue;
            };
            let name_at = code.len() - rest.len() - name.len();
            let mut rest = rest.trim_start();
            if rest.starts_with('<') {
                let Some(r) = past_group(rest) else { continue };
                rest = r.trim_start();
            }
            if keyword == "interface" {
                // `extends A, B<C>` up to the body (a bounded look: never quadratic).
                let Some(open) = rest[..floor(rest, WINDOW)].find('{') else {
                    continue;
                };
                let Some(body) = inside_group(&rest[open..]) else {
                    continue;
                };
                out.push(TypeDecl {
                    name: name.to_owned(),
                    kind: Kind::Interface,
                    at: name_at,
                    body: body.to_owned(),
                    members: members(body),
                });
                continue;
            }
            let Some(value) = rest.strip_prefix('=') else {
                continue;
            };
            let value = value.trim_start();
            let lead = value.trim_start_matches(['|', '&', ' ', '\t', '\r', '\n']);
            if lead.starts_with('{')
                && let Some(after) = past_group(lead)
                && alias_end(after) == 0
                && let Some(body) = inside_group(lead)
            {
                out.push(TypeDecl {
                    name: name.to_owned(),
                    kind: Kind::Literal,
                    at: name_at,
                    body: body.to_owned(),
                    members: members(body),
                });
                continue;
            }
            out.push(TypeDecl {
                name: name.to_owned(),
                kind: Kind::Alias,
                at: name_at,
                body: value[..alias_end(value)].to_owned(),
                members: Vec::new(),
            });
        }
    }
    out.sort_by_key(|d| d.at);
    out
}

/// Where a type alias's type ends in `text`: a `;` at depth 0, or a line break at depth 0
/// after which no operator continues the type.
fn alias_end(text: &str) -> usize {
    let bytes = text.as_bytes();
    let (mut depth, mut quote, mut i) = (0i32, None, 0);
    while i < bytes.len() {
        let b = bytes[i];
        match quote {
            Some(_) if b == b'\\' => i += 1,
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None => match b {
                b'\'' | b'"' | b'`' => quote = Some(b),
                b'{' | b'(' | b'[' | b'<' => depth += 1,
                b'>' if i > 0 && bytes[i - 1] == b'=' => {}
                b'}' | b')' | b']' | b'>' => {
                    depth -= 1;
                    if depth < 0 {
                        return i;
                    }
                }
                b';' if depth == 0 => return i,
                b'\n' if depth == 0 => {
                    let next = text[i + 1..].trim_start();
                    let continues = ["|", "&", "?", ":", ".", "=>", "[", "extends"]
                        .iter()
                        .any(|op| next.starts_with(op));
                    let before = text[..i].trim_end();
                    let open = ["|", "&", "=", "?", ":", "=>", "<", ","]
                        .iter()
                        .any(|op| before.ends_with(op));
                    if !continues && !open {
                        return i;
                    }
                }
                _ => {}
            },
        }
        i += 1;
    }
    text.len()
}

/// A quoted member of an interface or type literal: an event map's entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Member {
    pub(super) key: String,
    /// Each parameter's type, for a method signature (`'k'(a: A): void`) or a function-typed
    /// property (`'k': (a: A) => void`); `None` when not spelled so (a rest parameter, an
    /// unannotated one, a named listener type).
    pub(super) params: Option<Vec<String>>,
}

/// The quoted members at the top level of an interface or type literal body.
pub(super) fn members(body: &str) -> Vec<Member> {
    let bytes = body.as_bytes();
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'{' | b'(' | b'[' => depth += 1,
            b'}' | b')' | b']' => depth = depth.saturating_sub(1),
            b'\'' | b'"' => {
                let Some(len) = body[i + 1..].find(b as char) else {
                    break;
                };
                let key = &body[i + 1..i + 1 + len];
                let after = body[i + 2 + len..].trim_start();
                let after_optional = after.strip_prefix('?').unwrap_or(after).trim_start();
                if depth == 0
                    && (after_optional.starts_with('(') || after_optional.starts_with(':'))
                {
                    let params = match after_optional.strip_prefix(':') {
                        Some(ty) => {
                            let ty = ty.trim_start();
                            ty.starts_with('(').then(|| params(ty)).flatten()
                        }
                        None => params(after_optional),
                    };
                    out.push(Member {
                        key: key.to_owned(),
                        params,
                    });
                }
                i += len + 1;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// The types of the parameter list opening at the start of `text` (`this` skipped).
fn params(text: &str) -> Option<Vec<String>> {
    let inner = inside_group(text)?;
    let mut out = Vec::new();
    for p in split_top(inner, b',') {
        let p = p.trim();
        if p.is_empty() {
            continue;
        }
        if p.starts_with("...") {
            return None;
        }
        let (name, rest) = ident(p)?;
        let rest = rest.trim_start();
        let ty = rest
            .strip_prefix('?')
            .unwrap_or(rest)
            .trim_start()
            .strip_prefix(':')?;
        if name == "this" {
            continue;
        }
        out.push(ty.trim().to_owned());
    }
    Some(out)
}

/// `text` up to the first of `seps` where no bracket or quote is open (all of it when none
/// is), or up to a bracket closing one it did not open.
fn until_top<'t>(text: &'t str, seps: &[u8]) -> &'t str {
    let bytes = text.as_bytes();
    let (mut depth, mut quote, mut i) = (0i32, None, 0);
    while i < bytes.len() {
        let b = bytes[i];
        match quote {
            Some(_) if b == b'\\' => i += 1,
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None => match b {
                b'\'' | b'"' | b'`' => quote = Some(b),
                b'{' | b'(' | b'[' | b'<' => depth += 1,
                b'>' if i > 0 && bytes[i - 1] == b'=' => {}
                b'}' | b')' | b']' | b'>' => {
                    depth -= 1;
                    if depth < 0 {
                        return &text[..i];
                    }
                }
                _ if depth == 0 && seps.contains(&b) => return &text[..i],
                _ => {}
            },
        }
        i += 1;
    }
    text
}

/// `text` split at `sep` where no bracket or quote is open.
pub(super) fn split_top(text: &str, sep: u8) -> Vec<&str> {
    let bytes = text.as_bytes();
    let (mut depth, mut quote, mut start) = (0i32, None, 0);
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match quote {
            Some(_) if b == b'\\' => i += 1,
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None => match b {
                b'\'' | b'"' | b'`' => quote = Some(b),
                b'{' | b'(' | b'[' | b'<' => depth += 1,
                b'>' if i > 0 && bytes[i - 1] == b'=' => {}
                b'}' | b')' | b']' | b'>' => depth -= 1,
                _ if b == sep && depth == 0 => {
                    out.push(&text[start..i]);
                    start = i + 1;
                }
                _ => {}
            },
        }
        i += 1;
    }
    out.push(&text[start..]);
    out
}

/// The types a type's `data` members are given (`data: unknown`, `data?: Data[K]`), at any
/// depth of `text`.
pub(super) fn data_types(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (at, _) in text.match_indices("data") {
        let key_at = if text[..at].ends_with(['\'', '"']) {
            at - 1
        } else {
            at
        };
        if !word_at(text, at, "data") || text[..key_at].trim_end().ends_with('.') {
            continue;
        }
        let rest = text[at + 4..].trim_start_matches(['\'', '"']).trim_start();
        let Some(ty) = rest
            .strip_prefix('?')
            .unwrap_or(rest)
            .trim_start()
            .strip_prefix(':')
        else {
            continue;
        };
        // A member ends at `;`, `,`, the brace closing its type, or its line's end.
        let ty = ty.trim_start();
        let end = until_top(ty, b";,\n").len();
        out.push(ty[..end].trim().to_owned());
    }
    out
}

/// What a file imports, declares and exports, by name.
#[derive(Debug, Default)]
pub(super) struct Names {
    /// `(local, imported, specifier)` per imported name (`default` for a default import, `*`
    /// for a namespace).
    pub(super) imports: Vec<(String, String, String)>,
    /// Every module specifier the file imports or re-exports from (side-effect imports too).
    pub(super) specifiers: Vec<String>,
    /// The names it declares (classes, interfaces, types, enums, functions, variables).
    pub(super) declared: Vec<String>,
    /// The names it exports, with the specifier when re-exported from another module.
    pub(super) exported: Vec<(String, Option<String>)>,
    /// The specifiers of its `export * from '…'`.
    pub(super) export_all: Vec<String>,
}

/// The string literal at the start of `text` (after spaces).
fn string_lit(text: &str) -> Option<&str> {
    let t = text.trim_start();
    let q = t.chars().next().filter(|c| matches!(c, '\'' | '"'))?;
    let end = t[1..].find(q)?;
    Some(&t[1..1 + end])
}

/// `{ a, b as c, type d }` as `(imported, local)` pairs.
fn braced_names(list: &str) -> Vec<(String, String)> {
    list.split(',')
        .filter_map(|item| {
            let item = item.trim();
            let item = item.strip_prefix("type ").unwrap_or(item).trim();
            let (imported, local) = match item.split_once(" as ") {
                Some((a, b)) => (a.trim(), b.trim()),
                None => (item, item),
            };
            (!imported.is_empty() && imported.chars().all(is_ident))
                .then(|| (imported.to_owned(), local.to_owned()))
        })
        .collect()
}

/// The imports, declarations and exports of a comment-free text.
pub(super) fn names(code: &str) -> Names {
    let mut n = Names::default();
    for at in memchr::memmem::find_iter(code.as_bytes(), "import") {
        if !word_at(code, at, "import") {
            continue;
        }
        let rest = &code[at + 6..];
        // `import('x')` in a type or an expression, `import 'x'`.
        if let Some(spec) = rest
            .trim_start()
            .strip_prefix('(')
            .and_then(string_lit)
            .or_else(|| string_lit(rest))
        {
            n.specifiers.push(spec.to_owned());
            continue;
        }
        let Some(from) = rest[..floor(rest, WINDOW)].find(" from") else {
            continue;
        };
        let clause = rest[..from].trim();
        if clause.contains(';') || clause.contains('=') {
            continue;
        }
        let Some(spec) = string_lit(&rest[from + 5..]) else {
            continue;
        };
        n.specifiers.push(spec.to_owned());
        let clause = clause.strip_prefix("type ").unwrap_or(clause).trim();
        let (head, list) = match clause.find('{') {
            Some(open) => (
                &clause[..open],
                clause[open + 1..].split('}').next().unwrap_or(""),
            ),
            None => (clause, ""),
        };
        for part in head.split(',') {
            let part = part.trim();
            if let Some(ns) = part.strip_prefix("* as ") {
                n.imports
                    .push((ns.trim().to_owned(), "*".to_owned(), spec.to_owned()));
            } else if !part.is_empty() && part.chars().all(is_ident) {
                n.imports
                    .push((part.to_owned(), "default".to_owned(), spec.to_owned()));
            }
        }
        for (imported, local) in braced_names(list) {
            n.imports.push((local, imported, spec.to_owned()));
        }
    }
    for at in memchr::memmem::find_iter(code.as_bytes(), "require(") {
        if let Some(spec) = string_lit(&code[at + 8..]) {
            n.specifiers.push(spec.to_owned());
        }
    }
    for at in memchr::memmem::find_iter(code.as_bytes(), "export") {
        if !word_at(code, at, "export") {
            continue;
        }
        let rest = code[at + 6..].trim_start();
        let rest = rest.strip_prefix("type ").unwrap_or(rest).trim_start();
        if let Some(r) = rest.strip_prefix('*') {
            if let Some(spec) = r.trim_start().strip_prefix("from").and_then(string_lit) {
                n.export_all.push(spec.to_owned());
                n.specifiers.push(spec.to_owned());
            }
            continue;
        }
        if let Some(inner) = rest.strip_prefix('{') {
            let window = &inner[..floor(inner, WINDOW)];
            let Some(close) = window.find('}') else {
                continue;
            };
            let list = &inner[..close];
            let after = inner[close + 1..].trim_start();
            let spec = after.strip_prefix("from").and_then(string_lit);
            if let Some(s) = spec {
                n.specifiers.push(s.to_owned());
            }
            for (inner, outer) in braced_names(list) {
                match spec {
                    // Re-exported: the name it has there.
                    Some(s) => n
                        .exported
                        .push((format!("{outer}={inner}"), Some(s.to_owned()))),
                    None if inner == outer => n.exported.push((outer, None)),
                    None => n.exported.push((format!("{outer}={inner}"), None)),
                }
            }
            continue;
        }
        let mut words = rest;
        for modifier in ["declare ", "abstract ", "default ", "async "] {
            words = words.strip_prefix(modifier).unwrap_or(words).trim_start();
        }
        for keyword in [
            "class",
            "interface",
            "type",
            "enum",
            "function",
            "const",
            "let",
            "var",
            "namespace",
        ] {
            if let Some(r) = words.strip_prefix(keyword)
                && r.starts_with(char::is_whitespace)
                && let Some((name, _)) = ident(r)
            {
                n.exported.push((name.to_owned(), None));
            }
        }
    }
    for keyword in [
        "class",
        "interface",
        "type",
        "enum",
        "function",
        "const",
        "let",
        "var",
        "namespace",
    ] {
        for at in memchr::memmem::find_iter(code.as_bytes(), keyword) {
            if word_at(code, at, keyword)
                && code[at + keyword.len()..].starts_with(char::is_whitespace)
                && let Some((name, _)) = ident(&code[at + keyword.len()..])
            {
                n.declared.push(name.to_owned());
            }
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    // Issue #29 item 1 (b): the host's event map is read from its declarations, members with
    // their parameters' types.
    #[test]
    fn an_event_maps_members_carry_their_parameters_types() {
        let body = "\n  'agent/created'(agent: Agent): void\n  'agent/turn-end': (a: { x: 'no' }, reason: R<T, U>) => void\n  'session/event'?(this: X, s: Session, e: SessionEvent): void\n  'rest'(...args: any[]): void\n  plain(x: 'not/key'): void\n";
        let got = members(body);
        let keys: Vec<&str> = got.iter().map(|m| m.key.as_str()).collect();
        assert_eq!(
            keys,
            vec!["agent/created", "agent/turn-end", "session/event", "rest"]
        );
        assert_eq!(got[0].params, Some(vec!["Agent".to_owned()]));
        assert_eq!(
            got[1].params,
            Some(vec!["{ x: 'no' }".to_owned(), "R<T, U>".to_owned()])
        );
        assert_eq!(
            got[2].params,
            Some(vec!["Session".to_owned(), "SessionEvent".to_owned()])
        );
        assert_eq!(got[3].params, None);
    }

    // Issue #29 item 1 (b): interfaces (in `declare module` blocks too) and type aliases, a
    // name in a comment never one.
    #[test]
    fn interfaces_and_aliases_are_found_outside_comments() {
        let text = "// interface Fake { 'x'(): void }\ndeclare module './host' {\n  interface Events<T> extends Base {\n    'a/b'(x: T): void\n  }\n}\nexport type Events2 = {\n  'c/d'(): void;\n};\ntype SessionEvent =\n  | { type: 'a'; data: A }\n  | { type: 'b'; data: unknown };\nconst x = 1;\n";
        let code = strip_comments(text);
        let decls = type_decls(&code);
        let got: Vec<(&str, Kind)> = decls.iter().map(|d| (d.name.as_str(), d.kind)).collect();
        assert_eq!(
            got,
            vec![
                ("Events", Kind::Interface),
                ("Events2", Kind::Literal),
                ("SessionEvent", Kind::Alias)
            ]
        );
        assert_eq!(members(&decls[1].body)[0].key, "c/d");
        assert_eq!(data_types(&decls[2].body), vec!["A", "unknown"]);
    }

    // Issue #29 item 1 (b): a type the rewrite spells must be one the file can name.
    #[test]
    fn a_files_imports_declarations_and_exports_are_its_names() {
        let code = "import { out } from './host';\nimport type { Agent, Ctx as Context } from \"./host\";\nimport * as ns from 'pkg';\nimport './side';\nexport { X as Y } from './x';\nexport * from './all';\nexport declare class Host {}\ninterface Local {}\n";
        let n = names(code);
        assert!(
            n.imports
                .contains(&("Context".into(), "Ctx".into(), "./host".into()))
        );
        assert!(n.imports.contains(&("ns".into(), "*".into(), "pkg".into())));
        assert!(n.specifiers.contains(&"./side".to_owned()));
        assert!(
            n.exported
                .contains(&("Y=X".to_owned(), Some("./x".to_owned())))
        );
        assert!(n.exported.contains(&("Host".to_owned(), None)));
        assert_eq!(n.export_all, vec!["./all"]);
        assert!(n.declared.contains(&"Local".to_owned()));
    }
}

#[cfg(test)]
mod robustness {
    use super::*;

    // Bad input is never a panic (COMMON: "never a panic/hang"): every prefix of texts cut
    // mid-construct (unclosed braces, quotes, comments; multi-byte characters) is read.
    #[test]
    fn every_prefix_of_a_broken_declaration_is_read_without_panic() {
        let texts = [
            "interface Events { 'a/b'(x: { y: 'é' }, z: A<B<C>>): void; 'c': (q: Q) => void }",
            "type E = { data: Data[K] } | { data: unknown; 'x'?: (a: 'ü') => R }\n",
            "import type { A, B as C } from './h'; export { D as E } from \"./x\"; export * from './y';",
            "/* unterminated comment 'agent/created'(a: A) interface X {",
            "declare module './h' { interface Events { 'k'(a: A): void } } // ü\n type T = (",
            "export declare class Host { on<K extends keyof Events>(name: K, fn: Events[K]): this }",
        ];
        for text in texts {
            for (at, _) in text.char_indices() {
                let prefix = &text[..at];
                let code = strip_comments(prefix);
                assert_eq!(code.len(), prefix.len());
                for d in type_decls(&code) {
                    let _ = members(&d.body);
                    let _ = data_types(&d.body);
                }
                let _ = names(&code);
                let _ = data_types(&code);
                let _ = split_top(&code, b',');
                let _ = past_group(&code);
            }
        }
    }
}
