//! Names visible in a file (its module-level bindings and imports) and their resolution to
//! the run's declarations.

use super::expr::{array_elements, static_string};
use crate::frontend::{Context, DeclKind, Declaration, Symbols};
use crate::hash::{HashMap, HashSet};
use oxc_ast::ast::*;
use std::ops::Range;

/// Whether a declaration can be what `import … from 'source'` brings in. A relative import
/// must name the declaring file (or its directory, for `index` files and re-exports); a
/// package import (`@scope/pkg`, `cordis`) cannot be mapped to a file and is trusted.
pub(super) fn reachable(source: &str, d: &Declaration) -> bool {
    if !source.starts_with('.') {
        return true;
    }
    let last = source
        .trim_end_matches('/')
        .rsplit('/')
        .find(|s| !s.is_empty() && *s != "index")
        .unwrap_or("");
    let last = last.split('.').next().unwrap_or("");
    last.is_empty() || d.modules.iter().any(|m| m == last)
}

/// Start offsets of the module-level variable declarators (`const X = …`, `export const X = …`).
/// Only those declare a name for other code: a function-local `const event = 'agent/…'` is
/// reported where its literal is, but its uses are not resolved (the name is too local).
fn top_level_declarators(program: &Program<'_>) -> HashSet<u32> {
    let mut out = HashSet::default();
    for stmt in &program.body {
        let decl = match stmt {
            Statement::VariableDeclaration(d) => Some(&**d),
            Statement::ExportDeclaration(e) => match &e.declaration {
                oxc_ast::ast::Declaration::VariableDeclaration(d) => Some(&**d),
                _ => None,
            },
            _ => None,
        };
        for d in decl.iter().flat_map(|d| d.declarations.iter()) {
            out.insert(d.span.start);
        }
    }
    out
}

/// Names visible in a file: what it declares at module level and what it imports.
#[derive(Debug, Default)]
pub(in crate::frontend::typescript) struct Scope {
    /// Identifiers imported by name (`import { A, B as C }`: `A`, `C`; default imports).
    pub imported: HashSet<String>,
    /// The module each imported identifier (or namespace) comes from.
    pub sources: HashMap<String, String>,
    /// Namespace imports (`import * as ev`).
    pub namespaces: HashSet<String>,
    /// Identifiers this file binds with a module-level `const`/`let`/`var`, or an
    /// `enum`/`class`.
    pub declared: HashSet<String>,
    /// Start offsets of the module-level declarators.
    pub top: HashSet<u32>,
    /// Array literals bound to a module-level binding: their element ranges.
    pub arrays: HashMap<String, Vec<Range<usize>>>,
}

impl Scope {
    /// The module-level bindings of a program: imports, `const`/`let`/`var`, enums and classes
    /// (plain or exported). Only the top level is read, so this costs nothing next to a parse.
    pub fn of(program: &Program<'_>) -> Scope {
        let mut s = Scope {
            top: top_level_declarators(program),
            ..Scope::default()
        };
        for stmt in &program.body {
            match stmt {
                Statement::ImportDeclaration(d) => s.import(d),
                Statement::ExportDeclaration(e) => s.declaration(&e.declaration),
                other => {
                    if let Some(d) = other.as_declaration() {
                        s.declaration(d);
                    }
                }
            }
        }
        s
    }

    fn import(&mut self, d: &ImportDeclaration<'_>) {
        let source = d.source.value.as_str();
        for spec in d.specifiers.iter().flatten() {
            let local = match spec {
                ImportDeclarationSpecifier::ImportSpecifier(x) => {
                    self.imported.insert(x.local.name.as_str().to_owned());
                    x.local.name.as_str()
                }
                ImportDeclarationSpecifier::ImportDefaultSpecifier(x) => {
                    self.imported.insert(x.local.name.as_str().to_owned());
                    x.local.name.as_str()
                }
                ImportDeclarationSpecifier::ImportNamespaceSpecifier(x) => {
                    self.namespaces.insert(x.local.name.as_str().to_owned());
                    x.local.name.as_str()
                }
            };
            self.sources.insert(local.to_owned(), source.to_owned());
        }
    }

    fn declaration(&mut self, d: &oxc_ast::ast::Declaration<'_>) {
        match d {
            oxc_ast::ast::Declaration::VariableDeclaration(v) => {
                for it in &v.declarations {
                    let BindingPattern::BindingIdentifier(id) = &it.id else {
                        continue;
                    };
                    let name = id.name.as_str().to_owned();
                    if let Some(elems) = it.init.as_ref().and_then(array_elements) {
                        self.arrays.insert(name.clone(), elems);
                    }
                    self.declared.insert(name);
                }
            }
            oxc_ast::ast::Declaration::TSEnumDeclaration(e) => {
                self.declared.insert(e.id.name.as_str().to_owned());
            }
            oxc_ast::ast::Declaration::ClassDeclaration(c) => {
                if let Some(id) = &c.id {
                    self.declared.insert(id.name.as_str().to_owned());
                }
            }
            _ => {}
        }
    }

    fn visible(&self, name: &str) -> bool {
        self.imported.contains(name) || self.declared.contains(name)
    }
}

/// Resolves identifiers to declarations of the whole run, file-aware: a name this file binds
/// itself only resolves to this file's own declaration of it.
pub(in crate::frontend::typescript) struct Resolver<'a> {
    pub symbols: &'a Symbols,
    pub scope: &'a Scope,
    pub path: &'a str,
}

impl<'a> Resolver<'a> {
    fn own(&self, d: &Declaration) -> bool {
        d.file == self.path
    }

    /// A bare identifier holding a removed name.
    pub fn ident(&self, name: &str) -> Option<&'a Declaration> {
        if !self.scope.visible(name) {
            return None;
        }
        let consts = || {
            self.symbols
                .all_of(name)
                .iter()
                .filter(|x| x.kind == DeclKind::Const)
        };
        if self.scope.declared.contains(name) && !self.scope.imported.contains(name) {
            // Declared here: only this file's declaration counts.
            return consts().find(|x| self.own(x));
        }
        match self.scope.sources.get(name) {
            Some(source) => consts().find(|x| reachable(source, x)),
            None => consts().next(),
        }
    }

    /// `owner.prop`: a member of a const object, enum or class, or a const reached through a
    /// namespace import.
    pub fn member(&self, owner: &str, prop: &str) -> Option<&'a Declaration> {
        if self.scope.namespaces.contains(owner) {
            let source = self.scope.sources.get(owner);
            return self
                .symbols
                .all_of(prop)
                .iter()
                .find(|x| x.kind == DeclKind::Const && source.is_none_or(|s| reachable(s, x)));
        }
        if !self.scope.visible(owner) {
            return None;
        }
        self.symbols.variant(owner, prop)
    }

    /// The removed event an expression evaluates to, if it is a constant one.
    pub fn eval(
        &self,
        e: &Expression<'_>,
        cx: Context<'_>,
    ) -> Option<(String, Option<&'a Declaration>)> {
        match e.get_inner_expression() {
            Expression::Identifier(id) => self
                .ident(id.name.as_str())
                .map(|d| (d.event.clone(), Some(d))),
            Expression::StaticMemberExpression(m) => match m.object.get_inner_expression() {
                Expression::Identifier(o) => self
                    .member(o.name.as_str(), m.property.name.as_str())
                    .map(|d| (d.event.clone(), Some(d))),
                _ => None,
            },
            other => static_string(other)
                .filter(|v| cx.catalog.lookup(v).is_some())
                .map(|v| (v.to_owned(), None)),
        }
    }
}
