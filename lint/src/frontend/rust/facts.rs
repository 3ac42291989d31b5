//! What the Rust fixes need to know about a whole file before they rewrite a part of it:
//! its `use` leaves (to import the host's `Session`/`SessionEvent` and drop an import a
//! rewrite leaves unused), the items it declares, and where each identifier appears.

use crate::hash::{HashMap, HashSet};
use proc_macro2::{TokenStream, TokenTree};
use std::ops::Range;
use syn::spanned::Spanned;
use syn::visit::{self, Visit};

/// One name a `use` item imports.
#[derive(Debug, Clone)]
pub(super) struct UseLeaf {
    /// The imported identifier (`Agent` in `use host::{Agent, Context};`).
    pub name: String,
    /// `as` alias, if any.
    pub alias: Option<String>,
    /// The byte range of the identifier.
    pub ident: Range<usize>,
    /// Whether it sits in a `{…}` group.
    pub in_group: bool,
    /// The group it sits in, when the group is one line of plain names (`{Agent, Context}`).
    pub group: Option<Group>,
    /// What to delete to drop this leaf: its group entry and one separator, or the whole
    /// `use` item when it is its only leaf (`None` when neither is simple).
    pub removal: Option<Range<usize>>,
}

/// A one-line `{…}` group of plain names (`Name` or `Name as Alias`).
#[derive(Debug, Clone)]
pub(super) struct Group {
    /// The braces and what is between them.
    pub braces: Range<usize>,
    /// Each entry's source text, in order.
    pub entries: Vec<String>,
}

/// The facts of one file.
#[derive(Debug, Default)]
pub(super) struct FileFacts {
    /// Every named `use` leaf of the file's top-level `use` items.
    pub uses: Vec<UseLeaf>,
    /// Whether a top-level `use … ::*;` may bring any name into scope.
    pub glob: bool,
    /// Names of the file's own top-level items.
    pub items: HashSet<String>,
    /// Whether the file declares an out-of-line module (`mod x;`), whose file may use this
    /// file's private items.
    pub out_of_line_mod: bool,
    /// Byte ranges of every identifier outside `use` items, by name (macro bodies and
    /// `{name}` captures in their format strings included).
    pub idents: HashMap<String, Vec<Range<usize>>>,
    /// Starts of the identifiers that are a later segment of a path (`host::Agent`).
    pub qualified: HashSet<usize>,
}

impl FileFacts {
    /// Collects the facts of `file`.
    pub fn of(file: &syn::File) -> FileFacts {
        let mut f = FileFacts::default();
        for item in &file.items {
            match item {
                syn::Item::Use(u) => {
                    let mut leaves = Vec::new();
                    use_leaves(&u.tree, false, None, None, &mut leaves, &mut f.glob);
                    let only = leaves.len() == 1;
                    for mut l in leaves {
                        if only {
                            // The item's only leaf: dropping it drops the whole item.
                            l.removal = Some(u.span().byte_range());
                        }
                        f.uses.push(l);
                    }
                    continue;
                }
                syn::Item::Mod(m) if m.content.is_none() => f.out_of_line_mod = true,
                _ => {}
            }
            if let Some(name) = item_name(item) {
                f.items.insert(name);
            }
            let mut idents = Idents::default();
            idents.visit_item(item);
            for (name, r) in idents.0 {
                f.idents.entry(name).or_default().push(r);
            }
            f.qualified.extend(idents.1);
        }
        f
    }

    /// Whether `name` is in scope by a `use` leaf or an item of the file.
    pub fn has_name(&self, name: &str) -> bool {
        self.items.contains(name)
            || self
                .uses
                .iter()
                .any(|l| l.alias.as_deref().unwrap_or(&l.name) == name)
    }

    /// How many times `name` appears outside `use` items and outside `within`.
    pub fn count_outside(&self, name: &str, within: &[Range<usize>]) -> usize {
        self.idents.get(name).map_or(0, |rs| {
            rs.iter()
                .filter(|r| !within.iter().any(|w| w.start <= r.start && r.end <= w.end))
                .count()
        })
    }

    /// How many times `name` appears outside `use` items and outside `within` as a name in
    /// scope (not as a later segment of a path).
    pub fn count_in_scope_outside(&self, name: &str, within: &[Range<usize>]) -> usize {
        self.idents.get(name).map_or(0, |rs| {
            rs.iter()
                .filter(|r| !self.qualified.contains(&r.start))
                .filter(|r| !within.iter().any(|w| w.start <= r.start && r.end <= w.end))
                .count()
        })
    }

    /// The `use` leaf importing `name` under its own name.
    pub fn leaf(&self, name: &str) -> Option<&UseLeaf> {
        self.uses
            .iter()
            .find(|l| l.name == name && l.alias.is_none())
    }
}

fn item_name(item: &syn::Item) -> Option<String> {
    let ident = match item {
        syn::Item::Struct(i) => &i.ident,
        syn::Item::Enum(i) => &i.ident,
        syn::Item::Type(i) => &i.ident,
        syn::Item::Const(i) => &i.ident,
        syn::Item::Static(i) => &i.ident,
        syn::Item::Fn(i) => &i.sig.ident,
        syn::Item::Trait(i) => &i.ident,
        syn::Item::Union(i) => &i.ident,
        syn::Item::Mod(i) => &i.ident,
        _ => return None,
    };
    Some(ident.to_string())
}

/// The named leaves of a use tree; `removal` is filled in for entries of a group.
fn use_leaves(
    tree: &syn::UseTree,
    in_group: bool,
    removal: Option<Range<usize>>,
    group: Option<&Group>,
    out: &mut Vec<UseLeaf>,
    glob: &mut bool,
) {
    match tree {
        syn::UseTree::Path(p) => use_leaves(&p.tree, in_group, removal, None, out, glob),
        syn::UseTree::Name(n) => out.push(UseLeaf {
            name: n.ident.to_string(),
            alias: None,
            ident: n.ident.span().byte_range(),
            in_group,
            group: group.cloned(),
            removal,
        }),
        syn::UseTree::Rename(r) => out.push(UseLeaf {
            name: r.ident.to_string(),
            alias: Some(r.rename.to_string()),
            ident: r.ident.span().byte_range(),
            in_group,
            group: group.cloned(),
            removal,
        }),
        syn::UseTree::Glob(_) => *glob = true,
        syn::UseTree::Group(g) => {
            let pairs: Vec<_> = g.items.pairs().collect();
            let plain = g
                .items
                .iter()
                .all(|t| matches!(t, syn::UseTree::Name(_) | syn::UseTree::Rename(_)));
            let braces = g.brace_token.span.join().byte_range();
            let one_line =
                g.brace_token.span.open().start().line == g.brace_token.span.close().end().line;
            let info = (plain && one_line).then(|| Group {
                braces,
                entries: g
                    .items
                    .iter()
                    .map(|t| quote::ToTokens::to_token_stream(t).to_string())
                    .collect(),
            });
            for (i, pair) in pairs.iter().enumerate() {
                let value = pair.value().span().byte_range();
                // An entry goes with the separator after it, or the last one with the one
                // before it; a group of one is not simple to drop.
                let own = match (pair.punct(), pairs.get(i + 1)) {
                    (Some(_), Some(next)) => {
                        Some(value.start..next.value().span().byte_range().start)
                    }
                    (Some(p), None) if i > 0 => Some(value.start..p.span.byte_range().end),
                    (None, _) if i > 0 => pairs[i - 1]
                        .punct()
                        .map(|p| p.span.byte_range().start..value.end),
                    _ => None,
                };
                use_leaves(pair.value(), true, own, info.as_ref(), out, glob);
            }
        }
    }
}

/// Every identifier of a syntax node with its byte range, macro tokens included, and the
/// `{name}` captures of string literals inside macros (`println!("{turn}")`).
#[derive(Default)]
pub(super) struct Idents(pub Vec<(String, Range<usize>)>, pub Vec<usize>);

impl Idents {
    fn tokens(&mut self, tokens: TokenStream) {
        for tt in tokens {
            match tt {
                TokenTree::Group(g) => self.tokens(g.stream()),
                TokenTree::Ident(i) => self.0.push((i.to_string(), i.span().byte_range())),
                TokenTree::Literal(l) => {
                    let text = l.to_string();
                    let r = l.span().byte_range();
                    for name in captures(&text) {
                        self.0.push((name, r.clone()));
                    }
                }
                TokenTree::Punct(_) => {}
            }
        }
    }
}

/// The identifiers a format string captures: `{name}`, `{name:?}`.
fn captures(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find('{') {
        rest = &rest[at + 1..];
        if rest.starts_with('{') {
            rest = &rest[1..];
            continue;
        }
        let end = rest.find(['}', ':']).unwrap_or(0);
        let name = &rest[..end];
        if !name.is_empty()
            && name.starts_with(|c: char| c.is_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_alphanumeric() || c == '_')
        {
            out.push(name.to_owned());
        }
    }
    out
}

impl<'ast> Visit<'ast> for Idents {
    fn visit_ident(&mut self, i: &'ast proc_macro2::Ident) {
        self.0.push((i.to_string(), i.span().byte_range()));
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        self.tokens(m.tokens.clone());
        visit::visit_macro(self, m);
    }

    /// Only a path's first segment can name something in scope (`host::Agent` does not use
    /// an imported `Agent`): the others are recorded as qualified.
    fn visit_path(&mut self, p: &'ast syn::Path) {
        for (i, seg) in p.segments.iter().enumerate() {
            if i > 0 || p.leading_colon.is_some() {
                self.1.push(seg.ident.span().byte_range().start);
            }
        }
        visit::visit_path(self, p);
    }
}

/// The identifiers of an expression (see [`Idents`]).
pub(super) fn expr_idents(e: &syn::Expr) -> Vec<(String, Range<usize>)> {
    let mut i = Idents::default();
    i.visit_expr(e);
    i.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_captures_are_uses() {
        assert_eq!(captures("\"{turn} {step:?} {{x}} {0}\""), ["turn", "step"]);
    }

    #[test]
    fn use_leaves_know_how_to_leave() {
        let src = "use host::{Agent, Context};\nuse other::Thing;\nfn f(a: Agent) {}\n";
        let file = syn::parse_file(src).unwrap();
        let f = FileFacts::of(&file);
        let agent = f.leaf("Agent").unwrap();
        assert!(agent.in_group);
        assert_eq!(&src[agent.removal.clone().unwrap()], "Agent, ");
        let ctx = f.leaf("Context").unwrap();
        assert_eq!(&src[ctx.removal.clone().unwrap()], ", Context");
        let thing = f.leaf("Thing").unwrap();
        assert_eq!(&src[thing.removal.clone().unwrap()], "use other::Thing;");
        assert_eq!(f.count_outside("Agent", &[]), 1);
        assert!(f.has_name("f") && f.has_name("Thing") && !f.has_name("Session"));
    }
}
