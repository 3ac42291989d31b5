//! The oxc passes: declaration collection (pass 1) and context classification (pass 2).
//!
//! Pass 2 does not report names itself: it records which byte ranges give a name found there
//! which role (an argument of `ctx.on`, a declaration-merging key, a test title …), plus the
//! uses of identifiers that stand for a removed event. The front end then matches names in
//! the text and asks for the innermost context of each.

use crate::frontend::locals::{Binding, Locals};
use crate::frontend::{CallNames, Context, DeclKind, Declaration, Symbols};
use crate::model::Role;
use crate::source::LineIndex;
use oxc_ast::ast::*;
use oxc_ast_visit::{Visit, walk};
use oxc_span::{GetSpan, Span};
use std::collections::BTreeSet;
use std::collections::{HashMap, HashSet};
use std::ops::Range;

fn range(span: Span) -> Range<usize> {
    span.start as usize..span.end as usize
}

/// Test-framework functions whose first argument is a title (vitest, jest, mocha, node:test).
const TEST_FUNCTIONS: &[&str] = &[
    "it",
    "test",
    "describe",
    "suite",
    "context",
    "bench",
    "specify",
    "xit",
    "fit",
    "xdescribe",
    "fdescribe",
    "xtest",
];

/// Logger methods whose string arguments are messages.
const LOG_METHODS: &[&str] = &[
    "log", "warn", "error", "info", "debug", "trace", "fatal", "verbose", "success",
];

/// Matchers and asymmetric matchers whose string argument matches a message.
const MESSAGE_MATCHERS: &[&str] = &[
    "stringContaining",
    "stringMatching",
    "toMatch",
    "toThrow",
    "toThrowError",
    "toContainEqual",
];

/// Iteration methods that hand each element of an array to a callback.
const ITERATORS: &[&str] = &["forEach", "map", "flatMap", "filter", "some", "every"];

/// `addListener` → `add_listener`, so one list of call names serves Rust and TypeScript.
fn snake_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The role a call with this callee name gives its arguments, if any: the shared call names
/// and verbs, matched as written and in snake case (`addListener`, `emitAsync`).
pub(super) fn call_role(calls: &CallNames, name: &str) -> Option<Role> {
    calls
        .role_of(name)
        .or_else(|| calls.role_of(&snake_case(name)))
}

/// The name a call is known by: `on` for `ctx.on(…)`, `this.ctx.on(…)`, `on(…)`,
/// `ctx['on'](…)`, `ctx?.on(…)`.
fn callee_name<'a>(callee: &'a Expression<'a>) -> Option<&'a str> {
    match callee.get_inner_expression() {
        Expression::Identifier(id) => Some(id.name.as_str()),
        Expression::StaticMemberExpression(m) => Some(m.property.name.as_str()),
        Expression::ComputedMemberExpression(m) => match &m.expression {
            Expression::StringLiteral(s) => Some(s.value.as_str()),
            _ => None,
        },
        Expression::ChainExpression(c) => match &c.expression {
            ChainElement::StaticMemberExpression(m) => Some(m.property.name.as_str()),
            _ => None,
        },
        _ => None,
    }
}

/// The object of a member callee (`ctx` in `ctx.on`), if the callee is a member access.
fn callee_object<'a>(callee: &'a Expression<'a>) -> Option<&'a Expression<'a>> {
    match callee.get_inner_expression() {
        Expression::StaticMemberExpression(m) => Some(&m.object),
        Expression::ComputedMemberExpression(m) => Some(&m.object),
        Expression::ChainExpression(c) => match &c.expression {
            ChainElement::StaticMemberExpression(m) => Some(&m.object),
            ChainElement::ComputedMemberExpression(m) => Some(&m.object),
            _ => None,
        },
        _ => None,
    }
}

/// The last identifier of a receiver (`this.ctx` → `ctx`, `app.window()` → `window`).
fn receiver_name<'a>(e: &'a Expression<'a>) -> Option<&'a str> {
    match e.get_inner_expression() {
        Expression::Identifier(id) => Some(id.name.as_str()),
        Expression::ThisExpression(_) => Some("this"),
        Expression::StaticMemberExpression(m) => Some(m.property.name.as_str()),
        Expression::CallExpression(c) => callee_name(&c.callee),
        Expression::AwaitExpression(a) => receiver_name(&a.argument),
        _ => None,
    }
}

/// The identifier a callee chain starts from: `it` for `it.only.each(t)(…)`.
fn callee_root<'a>(e: &'a Expression<'a>) -> Option<&'a str> {
    match e.get_inner_expression() {
        Expression::Identifier(id) => Some(id.name.as_str()),
        Expression::StaticMemberExpression(m) => callee_root(&m.object),
        Expression::ComputedMemberExpression(m) => callee_root(&m.object),
        Expression::CallExpression(c) => callee_root(&c.callee),
        _ => None,
    }
}

/// A string literal or a template literal without substitutions: its value.
fn static_string<'a>(e: &'a Expression<'a>) -> Option<&'a str> {
    match e.get_inner_expression() {
        Expression::StringLiteral(s) => Some(s.value.as_str()),
        Expression::TemplateLiteral(t) if t.expressions.is_empty() => {
            t.quasis.first().map(|q| q.value.raw.as_str())
        }
        _ => None,
    }
}

fn is_stringish(e: &Expression<'_>) -> bool {
    matches!(
        e.get_inner_expression(),
        Expression::StringLiteral(_) | Expression::TemplateLiteral(_)
    )
}

/// The range of what an argument directly passes, looking through parentheses and type
/// assertions (`'x' as const`, `X!`, `<any>X`), or `None` if it computes something else.
fn direct_target(e: &Expression<'_>) -> Option<Range<usize>> {
    let inner = e.get_inner_expression();
    match inner {
        Expression::StringLiteral(_)
        | Expression::TemplateLiteral(_)
        | Expression::Identifier(_)
        | Expression::StaticMemberExpression(_)
        | Expression::ComputedMemberExpression(_) => Some(range(inner.span())),
        _ => None,
    }
}

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

/// Whether a declaration can be what `import … from 'source'` brings in. A relative import
/// must name the declaring file (or its directory, for `index` files and re-exports); a
/// package import (`@scope/pkg`, `cordis`) cannot be mapped to a file and is trusted.
fn reachable(source: &str, d: &Declaration) -> bool {
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
    let mut out = HashSet::new();
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

/// The element ranges of an array literal (`[…]`, `[…] as const`).
fn array_elements(e: &Expression<'_>) -> Option<Vec<Range<usize>>> {
    match e.get_inner_expression() {
        Expression::ArrayExpression(arr) => Some(
            arr.elements
                .iter()
                .filter_map(|el| el.as_expression().and_then(direct_target))
                .collect(),
        ),
        _ => None,
    }
}

/// Names visible in a file: what it declares at module level and what it imports.
#[derive(Debug, Default)]
pub(super) struct Scope {
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
pub(super) struct Resolver<'a> {
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

/// Pass 1: identifiers that stand for a removed event.
pub(super) struct Collector<'a> {
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

/// Pass 2: contexts that decide roles, and uses of identifiers standing for removed events.
pub(super) struct Classifier<'a> {
    pub cx: Context<'a>,
    pub resolver: Resolver<'a>,
    /// Byte range → role of a name found inside it (the innermost range wins).
    pub contexts: Vec<(Range<usize>, Option<Role>)>,
    /// Uses of identifiers resolved to removed events: range, event, how it was resolved.
    pub occurrences: Vec<(Range<usize>, String, Option<String>)>,
    /// String, template and JSX-text tokens (the comments come from the parser).
    pub strings: Vec<super::lex::Token>,
    /// Names a loop hands to a subscribe or emit call (`for (const n of ['agent/…']) ctx.on(n, …)`):
    /// no fix rewrites those, and their findings say why.
    pub looped: Vec<Range<usize>>,
    /// Names subscribed with `once`: no fix rewrites those either, and their findings say why.
    pub once: Vec<Range<usize>>,
    /// Array literals bound in functions so far (module-level ones are in the scope).
    local_arrays: HashMap<String, Vec<Range<usize>>>,
    /// Function- and block-level bindings in scope; the program's own scope is the first.
    local_names: Locals,
    /// Byte offsets of the line starts, for describing where a local was bound.
    line_starts: Vec<usize>,
}

impl<'a> Classifier<'a> {
    pub fn new(cx: Context<'a>, resolver: Resolver<'a>) -> Self {
        Classifier {
            cx,
            resolver,
            contexts: Vec::new(),
            occurrences: Vec::new(),
            strings: Vec::new(),
            looped: Vec::new(),
            once: Vec::new(),
            local_arrays: HashMap::new(),
            local_names: Locals::default(),
            line_starts: Vec::new(),
        }
    }

    /// A `const`/`let` inside a function or block whose value is a removed name (a literal, a
    /// module-level const, another such local): its uses are followed like a const's.
    fn local_binding(&self, name: &str, init: &Expression<'_>, at: u32) -> Option<Binding> {
        let events = match init.get_inner_expression() {
            Expression::Identifier(id) => match self.local_names.get(id.name.as_str()) {
                Some(bound) => bound.map(|b| b.events.clone()),
                None => self.resolver.eval(init, self.cx).map(|(ev, _)| vec![ev]),
            },
            _ => self.resolver.eval(init, self.cx).map(|(ev, _)| vec![ev]),
        }?;
        let line = self.line_starts.partition_point(|&s| s <= at as usize);
        Some(Binding {
            events,
            via: format!(
                "through local `{name}` bound at {}:{line}",
                self.resolver.path
            ),
        })
    }

    fn mark(&mut self, r: Range<usize>, role: Option<Role>) {
        self.contexts.push((r, role));
    }

    fn hit(&mut self, span: Span, d: &Declaration) {
        self.occurrences.push((
            range(span),
            d.event.clone(),
            Some(format!(
                "through {} declared at {}",
                d.description, d.location
            )),
        ));
    }

    fn call_context(&mut self, call: &CallExpression<'_>) {
        let name = callee_name(&call.callee);
        if let Some(role) = name.and_then(|n| call_role(self.cx.calls, n)) {
            let foreign = callee_object(&call.callee)
                .and_then(receiver_name)
                .is_some_and(|r| self.cx.calls.ignore_receivers.iter().any(|x| x == r));
            let role = (!foreign).then_some(role);
            for a in &call.arguments {
                if let Some(r) = a.as_expression().and_then(direct_target) {
                    if name == Some("once") && role == Some(Role::Subscribe) {
                        self.once.push(r.clone());
                    }
                    self.mark(r, role);
                }
            }
            return;
        }
        let message_args = |call: &CallExpression<'_>| -> Vec<Range<usize>> {
            call.arguments
                .iter()
                .filter_map(Argument::as_expression)
                .filter(|e| is_stringish(e))
                .map(|e| range(e.span()))
                .collect()
        };
        let is_member = callee_object(&call.callee).is_some();
        let is_log =
            name.is_some_and(|n| LOG_METHODS.contains(&n)) && (is_member || name == Some("debug"));
        let is_matcher = name.is_some_and(|n| MESSAGE_MATCHERS.contains(&n));
        if is_log || is_matcher {
            for r in message_args(call) {
                self.mark(r, Some(Role::Mention));
            }
            return;
        }
        if callee_root(&call.callee).is_some_and(|r| TEST_FUNCTIONS.contains(&r))
            && let Some(first) = call.arguments.first().and_then(Argument::as_expression)
            && is_stringish(first)
        {
            self.mark(range(first.span()), Some(Role::Mention));
        }
        // `NAMES.forEach((name) => ctx.on(name, …))`.
        if name.is_some_and(|n| ITERATORS.contains(&n))
            && let Some(obj) = callee_object(&call.callee)
            && self.is_known_array(obj)
            && let Some(Expression::ArrowFunctionExpression(_) | Expression::FunctionExpression(_)) =
                call.arguments
                    .first()
                    .and_then(Argument::as_expression)
                    .map(Expression::get_inner_expression)
        {
            let (param, body_span): (Option<String>, Span) = match call
                .arguments
                .first()
                .and_then(Argument::as_expression)
                .map(Expression::get_inner_expression)
            {
                Some(Expression::ArrowFunctionExpression(f)) => {
                    (first_param(&f.params), f.body.span())
                }
                Some(Expression::FunctionExpression(f)) => (
                    first_param(&f.params),
                    f.body.as_ref().map_or(f.span, |b| b.span),
                ),
                _ => (None, call.span),
            };
            if let Some(param) = param {
                self.iterated(obj, &param, body_span, call);
            }
        }
    }

    /// An array literal, or a name bound to one: only then are its elements worth following
    /// into a loop body (which is walked a second time to find the call).
    fn is_known_array(&self, e: &Expression<'_>) -> bool {
        match e.get_inner_expression() {
            Expression::ArrayExpression(_) => true,
            Expression::Identifier(id) => {
                self.local_arrays.contains_key(id.name.as_str())
                    || self.resolver.scope.arrays.contains_key(id.name.as_str())
            }
            _ => false,
        }
    }

    /// Elements of an array that a loop hands, one by one, to a subscribe or emit call.
    fn iterated(
        &mut self,
        array: &Expression<'_>,
        var: &str,
        body: Span,
        whole: &CallExpression<'_>,
    ) {
        let mut finder = LoopUse {
            calls: self.cx.calls,
            var,
            body,
            role: None,
        };
        finder.visit_call_expression(whole);
        self.apply_iteration(array, finder.role);
    }

    fn apply_iteration(&mut self, array: &Expression<'_>, role: Option<Role>) {
        let Some(role) = role else { return };
        let elems: Vec<Range<usize>> = match array.get_inner_expression() {
            Expression::ArrayExpression(a) => a
                .elements
                .iter()
                .filter_map(|el| el.as_expression().and_then(direct_target))
                .collect(),
            Expression::Identifier(id) => self
                .local_arrays
                .get(id.name.as_str())
                .or_else(|| self.resolver.scope.arrays.get(id.name.as_str()))
                .cloned()
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        for r in elems {
            self.looped.push(r.clone());
            self.mark(r, Some(role));
        }
    }
}

fn first_param(params: &FormalParameters<'_>) -> Option<String> {
    match params.items.first().map(|p| &p.pattern) {
        Some(BindingPattern::BindingIdentifier(id)) => Some(id.name.as_str().to_owned()),
        _ => None,
    }
}

/// Finds whether a loop variable is passed to a subscribe or emit call inside a body.
struct LoopUse<'c> {
    calls: &'c CallNames,
    var: &'c str,
    body: Span,
    role: Option<Role>,
}

impl<'a> Visit<'a> for LoopUse<'_> {
    fn visit_call_expression(&mut self, it: &CallExpression<'a>) {
        let inside = self.body.start <= it.span.start && it.span.end <= self.body.end;
        if inside
            && self.role.is_none()
            && let Some(role) = callee_name(&it.callee).and_then(|n| call_role(self.calls, n))
            && it.arguments.iter().any(|a| {
                matches!(a.as_expression().map(Expression::get_inner_expression),
                    Some(Expression::Identifier(id)) if id.name.as_str() == self.var)
            })
        {
            self.role = Some(role);
        }
        walk::walk_call_expression(self, it);
    }
}

impl<'a> Visit<'a> for Classifier<'_> {
    fn visit_program(&mut self, it: &Program<'a>) {
        self.line_starts = std::iter::once(0)
            .chain(memchr::memchr_iter(b'\n', it.source_text.as_bytes()).map(|i| i + 1))
            .collect();
        walk::walk_program(self, it);
    }

    fn enter_scope(
        &mut self,
        _flags: oxc_syntax::scope::ScopeFlags,
        _id: &std::cell::Cell<Option<oxc_syntax::scope::ScopeId>>,
    ) {
        self.local_names.push();
    }

    fn leave_scope(&mut self) {
        self.local_names.pop();
    }

    fn visit_binding_identifier(&mut self, it: &BindingIdentifier<'a>) {
        // Below the program's scope, every name bound shadows: a parameter, a loop variable,
        // a local function. Module-level names are declarations, resolved across files.
        if self.local_names.depth() > 1 {
            self.local_names.bind(it.name.as_str().to_owned(), None);
        }
    }

    fn visit_assignment_expression(&mut self, it: &AssignmentExpression<'a>) {
        // A reassigned local is no longer known to hold the name (nor is its target a use).
        if let AssignmentTarget::AssignmentTargetIdentifier(id) = &it.left
            && self.local_names.get(id.name.as_str()).is_some()
        {
            self.local_names.bind(id.name.as_str().to_owned(), None);
        }
        walk::walk_assignment_expression(self, it);
    }

    fn visit_string_literal(&mut self, it: &StringLiteral<'a>) {
        let r = range(it.span);
        // Quotes are one byte each; a literal from a JSX attribute or import is the same.
        if r.end >= r.start + 2 {
            self.strings.push(super::lex::Token {
                kind: super::lex::TokenKind::Str,
                start: r.start,
                end: r.end,
                content_start: r.start + 1,
                content_end: r.end - 1,
                whole: true,
            });
        }
    }

    fn visit_template_literal(&mut self, it: &TemplateLiteral<'a>) {
        let whole = it.expressions.is_empty();
        for q in &it.quasis {
            let r = range(q.span);
            self.strings.push(super::lex::Token {
                kind: super::lex::TokenKind::Str,
                start: r.start,
                end: r.end,
                content_start: r.start,
                content_end: r.end,
                whole,
            });
        }
        walk::walk_template_literal(self, it);
    }

    fn visit_jsx_text(&mut self, it: &JSXText<'a>) {
        let r = range(it.span);
        self.strings.push(super::lex::Token {
            kind: super::lex::TokenKind::Str,
            start: r.start,
            end: r.end,
            content_start: r.start,
            content_end: r.end,
            whole: false,
        });
        self.mark(r, Some(Role::Mention));
    }

    fn visit_call_expression(&mut self, it: &CallExpression<'a>) {
        self.call_context(it);
        walk::walk_call_expression(self, it);
    }

    fn visit_for_of_statement(&mut self, it: &ForOfStatement<'a>) {
        let var = match &it.left {
            ForStatementLeft::VariableDeclaration(d) => match d.declarations.first().map(|d| &d.id)
            {
                Some(BindingPattern::BindingIdentifier(id)) => Some(id.name.as_str().to_owned()),
                _ => None,
            },
            _ => None,
        };
        if let Some(var) = var
            && self.is_known_array(&it.right)
        {
            let mut finder = LoopUse {
                calls: self.cx.calls,
                var: &var,
                body: it.body.span(),
                role: None,
            };
            finder.visit_statement(&it.body);
            let role = finder.role;
            self.apply_iteration(&it.right, role);
        }
        walk::walk_for_of_statement(self, it);
    }

    fn visit_variable_declarator(&mut self, it: &VariableDeclarator<'a>) {
        if let (BindingPattern::BindingIdentifier(id), Some(init)) = (&it.id, &it.init)
            && let Some(elems) = array_elements(init)
        {
            self.local_arrays.insert(id.name.as_str().to_owned(), elems);
        }
        // Read before the declarator binds its name (`const name = name`).
        let local = match (&it.id, &it.init) {
            (BindingPattern::BindingIdentifier(id), Some(init)) if self.local_names.depth() > 1 => {
                self.local_binding(id.name.as_str(), init, it.span.start)
                    .map(|b| (id.name.as_str().to_owned(), b))
            }
            _ => None,
        };
        if let Some(init) = &it.init {
            match init.get_inner_expression() {
                e @ (Expression::StringLiteral(_) | Expression::TemplateLiteral(_)) => {
                    self.mark(range(e.span()), Some(Role::Declare));
                }
                Expression::ObjectExpression(obj) => {
                    for p in &obj.properties {
                        if let ObjectPropertyKind::ObjectProperty(p) = p
                            && let Some(r) = direct_target(&p.value)
                            && static_string(&p.value).is_some()
                        {
                            self.mark(r, Some(Role::Declare));
                        }
                    }
                }
                _ => {}
            }
        }
        walk::walk_variable_declarator(self, it);
        if let Some((name, binding)) = local {
            self.local_names.bind(name, Some(binding));
        }
    }

    fn visit_property_definition(&mut self, it: &PropertyDefinition<'a>) {
        if let Some(v) = &it.value
            && static_string(v).is_some()
        {
            self.mark(range(v.get_inner_expression().span()), Some(Role::Declare));
        }
        walk::walk_property_definition(self, it);
    }

    fn visit_ts_enum_member(&mut self, it: &TSEnumMember<'a>) {
        if let Some(init) = &it.initializer {
            self.mark(range(init.span()), Some(Role::Declare));
        }
        walk::walk_ts_enum_member(self, it);
    }

    fn visit_ts_method_signature(&mut self, it: &TSMethodSignature<'a>) {
        self.mark(range(it.key.span()), Some(Role::Declare));
        walk::walk_ts_method_signature(self, it);
    }

    fn visit_ts_property_signature(&mut self, it: &TSPropertySignature<'a>) {
        self.mark(range(it.key.span()), Some(Role::Declare));
        walk::walk_ts_property_signature(self, it);
    }

    fn visit_identifier_reference(&mut self, it: &IdentifierReference<'a>) {
        if let Some(bound) = self.local_names.get(it.name.as_str()) {
            // A local: it holds removed names, or shadows whatever else has this name.
            if let Some(b) = bound {
                for ev in &b.events {
                    self.occurrences
                        .push((range(it.span), ev.clone(), Some(b.via.clone())));
                }
            }
            return;
        }
        if self.cx.symbols.is_empty() {
            return;
        }
        if let Some(d) = self.resolver.ident(it.name.as_str()) {
            self.hit(it.span, d);
        }
    }

    fn visit_static_member_expression(&mut self, it: &StaticMemberExpression<'a>) {
        if !self.cx.symbols.is_empty()
            && let Expression::Identifier(o) = it.object.get_inner_expression()
            && let Some(d) = self
                .resolver
                .member(o.name.as_str(), it.property.name.as_str())
        {
            self.hit(it.span, d);
            return;
        }
        walk::walk_static_member_expression(self, it);
    }

    fn visit_import_specifier(&mut self, it: &ImportSpecifier<'a>) {
        // Report the import through what it imports (`TURN_START` in `events.ts`), not
        // through the alias it creates on this very line.
        let imported = it.imported.name();
        let source = self.resolver.scope.sources.get(it.local.name.as_str());
        let original = self.cx.symbols.all_of(imported.as_str()).iter().find(|d| {
            d.kind == DeclKind::Const
                && d.file != self.resolver.path
                && source.is_none_or(|s| reachable(s, d))
        });
        if let Some(d) = original.or_else(|| self.resolver.ident(it.local.name.as_str())) {
            self.hit(it.span, d);
        }
    }

    fn visit_export_specifier(&mut self, it: &ExportSpecifier<'a>) {
        // `export { X } from './events'` names another module's binding.
        if let ModuleExportName::IdentifierName(n) = &it.local
            && let Some(d) = self.cx.symbols.get(n.name.as_str(), DeclKind::Const)
        {
            self.hit(it.span, d);
            return;
        }
        walk::walk_export_specifier(self, it);
    }
}
