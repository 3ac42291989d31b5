//! Which declaration a name refers to from a place in the file: the `use` trees in scope and
//! the nearest declaration by module path.

use super::eval::{ident_literal_pairs, is_type_name};
use crate::frontend::Declaration;
use crate::hash::{HashMap, HashSet};
use syn::visit::{self, Visit};

/// Every `(imported ident, alias, path prefix)` of a use tree.
pub(super) fn use_leaves(
    tree: &syn::UseTree,
    prefix: &mut Vec<String>,
    out: &mut Vec<(syn::Ident, Option<syn::Ident>, Vec<String>)>,
) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            use_leaves(&p.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) => out.push((n.ident.clone(), None, prefix.clone())),
        syn::UseTree::Rename(r) => {
            out.push((r.ident.clone(), Some(r.rename.clone()), prefix.clone()))
        }
        syn::UseTree::Glob(_) => {}
        syn::UseTree::Group(g) => {
            for t in &g.items {
                use_leaves(t, prefix, out);
            }
        }
    }
}

/// Finds the identifiers a file declares or imports by name, and whether it glob-imports.
#[derive(Default)]
pub(super) struct Scope {
    pub(super) names: HashSet<String>,
    pub(super) imports: HashMap<String, Vec<Vec<String>>>,
    pub(super) glob: bool,
    /// Enums whose variants are glob-imported.
    pub(super) variant_owners: HashSet<String>,
}

impl Scope {
    fn use_tree(&mut self, tree: &syn::UseTree, prefix: &mut Vec<String>) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(&p.tree, prefix);
                prefix.pop();
            }
            syn::UseTree::Name(n) => {
                self.imports
                    .entry(n.ident.to_string())
                    .or_default()
                    .push(prefix.clone());
            }
            syn::UseTree::Rename(r) => {
                // The alias is declared by pass 1 where it renames a known item.
                self.names.insert(r.rename.to_string());
            }
            syn::UseTree::Glob(_) => {
                // `use AgentEvent::*;` brings variants into scope, not items.
                match prefix.last() {
                    Some(owner) if owner.starts_with(char::is_uppercase) => {
                        self.variant_owners.insert(owner.clone());
                    }
                    _ => self.glob = true,
                }
            }
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    self.use_tree(t, prefix);
                }
            }
        }
    }
}

/// Number of leading path components the file `decl_path` shares with `path`.
pub(super) fn common_prefix(decl_path: &str, path: &str) -> usize {
    decl_path
        .split('/')
        .zip(path.split('/'))
        .take_while(|(a, b)| a == b)
        .count()
}

/// The nearest of `decls` to `path` (ties: the first).
pub(super) fn nearest<'d>(
    decls: impl Iterator<Item = &'d Declaration>,
    path: &str,
) -> Option<&'d Declaration> {
    let mut best: Option<(usize, &Declaration)> = None;
    for d in decls {
        let c = common_prefix(&d.file, path);
        if best.is_none_or(|(b, _)| c > b) {
            best = Some((c, d));
        }
    }
    best.map(|(_, d)| d)
}

/// Whether an import or qualified path through `prefix` can reach `d`: a prefix made only of
/// `crate`/`self`/`super`, or one naming a module word of the declaration. A path whose last
/// qualifier is a type (`Moment::TurnEnd`, `Self::TurnEnd`) names a variant or an associated
/// item of that type, never a free item such as a typed event or a free const.
pub(super) fn reachable_through(prefix: &[String], d: &Declaration) -> bool {
    if d.owner.is_none() && prefix.last().is_some_and(|s| is_type_name(s)) {
        return false;
    }
    let named: Vec<&String> = prefix
        .iter()
        .filter(|s| !matches!(s.as_str(), "crate" | "self" | "super" | "Self"))
        .filter(|s| !s.starts_with(char::is_uppercase))
        .collect();
    named.is_empty() || named.iter().any(|s| d.modules.contains(s))
}

impl<'ast> Visit<'ast> for Scope {
    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        self.use_tree(&u.tree, &mut Vec::new());
    }
    fn visit_item_const(&mut self, i: &'ast syn::ItemConst) {
        self.names.insert(i.ident.to_string());
        visit::visit_item_const(self, i);
    }
    fn visit_item_macro(&mut self, i: &'ast syn::ItemMacro) {
        let mut pairs = Vec::new();
        ident_literal_pairs(i.mac.tokens.clone(), &mut pairs);
        self.names
            .extend(pairs.into_iter().map(|(id, _)| id.to_string()));
    }
    fn visit_item_static(&mut self, i: &'ast syn::ItemStatic) {
        self.names.insert(i.ident.to_string());
        visit::visit_item_static(self, i);
    }
    fn visit_item_struct(&mut self, i: &'ast syn::ItemStruct) {
        self.names.insert(i.ident.to_string());
        visit::visit_item_struct(self, i);
    }
    fn visit_item_enum(&mut self, i: &'ast syn::ItemEnum) {
        self.names.insert(i.ident.to_string());
        visit::visit_item_enum(self, i);
    }
    fn visit_item_type(&mut self, i: &'ast syn::ItemType) {
        self.names.insert(i.ident.to_string());
        visit::visit_item_type(self, i);
    }
}
