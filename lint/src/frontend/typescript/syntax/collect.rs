//! Pass 1: the identifiers of a file that stand for a removed event.

use super::scope::{Resolver, reachable};
use crate::frontend::{Context, DeclKind, Declaration};
use crate::source::LineIndex;
use oxc_ast::ast::*;
use oxc_ast_visit::{Visit, walk};
use oxc_span::{GetSpan, Span};
use std::collections::BTreeSet;

/// The names an import specifier may use to reach a file: its directories and its stem
/// (`src/events.ts` → `src`, `events`), see [`Declaration::modules`].
fn module_words(path: &str) -> Vec<String> {
    let mut words: Vec<String> = std::path::Path::new(path)
        .components()
        .filter_map(|c| match c {
            std::path::Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
            _ => None,
        })
        .map(|s| {
            let stem = s.split('.').next().unwrap_or(&s);
            stem.to_owned()
        })
        .filter(|s| !s.is_empty())
        .collect();
    words.sort();
    words.dedup();
    words
}

/// Pass 1: identifiers that stand for a removed event.
pub(in crate::frontend::typescript) struct Collector<'a> {
    pub cx: Context<'a>,
    pub resolver: Resolver<'a>,
    pub lines: &'a LineIndex<'a>,
    pub found: Vec<Declaration>,
    /// Identifiers a declaration-shaped item refers to that do not resolve yet (`const B = A`
    /// before `A` is known): the engine collects the file again when one is declared.
    pub pending: BTreeSet<String>,
    /// Stack of enclosing class names, for static members.
    classes: Vec<Option<String>>,
}

impl<'a> Collector<'a> {
    pub fn new(cx: Context<'a>, resolver: Resolver<'a>, lines: &'a LineIndex<'a>) -> Self {
        Collector {
            cx,
            resolver,
            lines,
            found: Vec::new(),
            pending: BTreeSet::new(),
            classes: Vec::new(),
        }
    }

    /// Evaluates a declaration's value; an identifier or member that does not resolve yet is
    /// remembered as pending.
    fn eval_or_wait(&mut self, e: &Expression<'_>) -> Option<(String, Option<&'a Declaration>)> {
        let r = self.resolver.eval(e, self.cx);
        if r.is_none() {
            match e.get_inner_expression() {
                Expression::Identifier(id) => {
                    self.pending.insert(id.name.as_str().to_owned());
                }
                Expression::StaticMemberExpression(m) => {
                    self.pending.insert(m.property.name.as_str().to_owned());
                    if let Expression::Identifier(o) = m.object.get_inner_expression() {
                        self.pending.insert(o.name.as_str().to_owned());
                    }
                }
                _ => {}
            }
        }
        r
    }

    fn add(
        &mut self,
        ident: &str,
        at: Span,
        kind: DeclKind,
        owner: Option<String>,
        event: String,
        description: String,
    ) {
        let d = Declaration {
            ident: ident.to_owned(),
            kind,
            owner,
            event,
            location: format!(
                "{}:{}",
                self.resolver.path,
                self.lines.position(at.start as usize).0
            ),
            description,
            file: self.resolver.path.to_owned(),
            modules: module_words(self.resolver.path),
            shape: None,
        };
        let known = match kind {
            DeclKind::Variant => d
                .owner
                .as_deref()
                .and_then(|o| self.cx.symbols.variant(o, &d.ident))
                .is_some(),
            _ => self
                .cx
                .symbols
                .all()
                .any(|x| x.ident == d.ident && x.kind == kind && x.location == d.location),
        };
        if !known && !self.found.contains(&d) {
            self.found.push(d);
        }
    }

    fn describe(base: String, via: Option<&Declaration>) -> String {
        match via {
            Some(d) => format!("{base}, an alias of {}", d.description),
            None => base,
        }
    }
}

impl<'a> Visit<'a> for Collector<'_> {
    fn visit_variable_declarator(&mut self, it: &VariableDeclarator<'a>) {
        if let (BindingPattern::BindingIdentifier(id), Some(init)) = (&it.id, &it.init)
            && self.resolver.scope.top.contains(&it.span.start)
        {
            let name = id.name.as_str();
            if let Some((ev, via)) = self.eval_or_wait(init) {
                let desc = Self::describe(format!("const `{name}`"), via);
                self.add(name, id.span, DeclKind::Const, None, ev, desc);
            } else if let Expression::ObjectExpression(obj) = init.get_inner_expression() {
                for p in &obj.properties {
                    if let ObjectPropertyKind::ObjectProperty(p) = p
                        && !p.computed
                        && let Some(key) = p.key.static_name()
                        && let Some((ev, via)) = self.eval_or_wait(&p.value)
                    {
                        let desc = Self::describe(format!("`{name}.{key}`"), via);
                        self.add(
                            &key,
                            p.key.span(),
                            DeclKind::Variant,
                            Some(name.to_owned()),
                            ev,
                            desc,
                        );
                    }
                }
            }
        }
        walk::walk_variable_declarator(self, it);
    }

    fn visit_ts_enum_declaration(&mut self, it: &TSEnumDeclaration<'a>) {
        let owner = it.id.name.as_str();
        for m in &it.body.members {
            let key = match &m.id {
                TSEnumMemberName::Identifier(i) => i.name.as_str(),
                TSEnumMemberName::String(s) | TSEnumMemberName::ComputedString(s) => {
                    s.value.as_str()
                }
                TSEnumMemberName::ComputedTemplateString(_) => continue,
            };
            if let Some(init) = &m.initializer
                && let Some((ev, via)) = self.eval_or_wait(init)
            {
                let desc = Self::describe(format!("enum member `{owner}.{key}`"), via);
                self.add(
                    key,
                    m.span,
                    DeclKind::Variant,
                    Some(owner.to_owned()),
                    ev,
                    desc,
                );
            }
        }
        walk::walk_ts_enum_declaration(self, it);
    }

    fn visit_class(&mut self, it: &Class<'a>) {
        self.classes
            .push(it.id.as_ref().map(|i| i.name.as_str().to_owned()));
        walk::walk_class(self, it);
        self.classes.pop();
    }

    fn visit_property_definition(&mut self, it: &PropertyDefinition<'a>) {
        if it.r#static
            && !it.computed
            && let Some(Some(owner)) = self.classes.last().cloned()
            && let Some(key) = it.key.static_name()
            && let Some(value) = &it.value
            && let Some((ev, via)) = self.eval_or_wait(value)
        {
            let desc = Self::describe(format!("static `{owner}.{key}`"), via);
            self.add(
                &key,
                it.key.span(),
                DeclKind::Variant,
                Some(owner),
                ev,
                desc,
            );
        }
        walk::walk_property_definition(self, it);
    }

    fn visit_import_specifier(&mut self, it: &ImportSpecifier<'a>) {
        let imported = it.imported.name();
        let local = it.local.name.as_str();
        let source = self.resolver.scope.sources.get(local);
        if imported.as_str() != local {
            self.pending.insert(imported.as_str().to_owned());
        }
        if imported.as_str() != local
            && let Some(d) = self
                .cx
                .symbols
                .all_of(imported.as_str())
                .iter()
                .find(|d| d.kind == DeclKind::Const && source.is_none_or(|s| reachable(s, d)))
        {
            let desc = format!("`{local}`, an alias of {}", d.description);
            let (ev, modules) = (d.event.clone(), d.modules.clone());
            self.add(local, it.local.span, DeclKind::Const, None, ev, desc);
            // The alias is reached through the same module as what it renames.
            if let Some(last) = self.found.last_mut()
                && last.ident == local
            {
                last.modules = modules;
            }
        }
    }

    fn visit_export_specifier(&mut self, it: &ExportSpecifier<'a>) {
        let local = it.local.name();
        let exported = it.exported.name();
        if local.as_str() != exported.as_str() {
            self.pending.insert(local.as_str().to_owned());
        }
        if local.as_str() != exported.as_str()
            && let Some(d) = self.cx.symbols.get(local.as_str(), DeclKind::Const)
        {
            let desc = format!("`{exported}`, an alias of {}", d.description);
            let ev = d.event.clone();
            self.add(
                exported.as_str(),
                it.exported.span(),
                DeclKind::Const,
                None,
                ev,
                desc,
            );
        }
    }
}
