//! The type declarations a TypeScript text holds, read from oxc's syntax tree (the host's
//! files are read only for this, often `.d.ts` files no front end is run on): interfaces
//! (merged by name, as TypeScript merges them, also inside `declare module` blocks), type
//! aliases, the quoted members of an event map with their parameters' types, the types of
//! `data` members, and the names a file imports, declares and exports. A text oxc cannot
//! parse yields nothing but where and why ([`Read::broken`]), which the fix's note then names.

use crate::frontend::typescript::with_program;
use oxc_ast::ast::{
    Declaration, ExportDefaultDeclarationKind, Expression, FormalParameters,
    ImportDeclarationSpecifier, Program, PropertyKey, Statement, TSInterfaceDeclaration,
    TSModuleReference, TSNamespaceDeclarationBody, TSPropertySignature, TSSignature, TSType,
    TSTypeAliasDeclaration, TSTypeName,
};
use oxc_ast_visit::{Visit, walk};
use oxc_span::{GetSpan, Span};

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
    /// The line of the name (1-based).
    pub(super) line: usize,
    /// Byte range of an interface's or a type literal's body (braces included), of an alias's
    /// whole type.
    pub(super) body: (usize, usize),
    /// An interface's or a type literal's quoted members (none for an alias).
    pub(super) members: Vec<Member>,
    /// The types its `data` members are given, at any depth ([`data_types_of`]).
    pub(super) datas: Vec<String>,
    /// The module a `declare module '…'` block around it augments.
    pub(super) module: Option<String>,
    /// Whether it has a type parameter without a default (its name alone is no type).
    pub(super) needs_arguments: bool,
}

/// A quoted member of an interface or type literal: an event map's entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Member {
    pub(super) key: String,
    /// `'k'?(…)`: the entry's type includes `undefined`.
    pub(super) optional: bool,
    /// Each parameter's type, for a method signature (`'k'(a: A): void`) or a function-typed
    /// property (`'k': (a: A) => void`); `None` when not spelled so (a rest parameter, an
    /// unannotated one, a named listener type). `this` is no parameter.
    pub(super) params: Option<Vec<Param>>,
}

/// A parameter's type in an event map's entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Param {
    /// The type as written.
    pub(super) ty: String,
    /// The name it refers to, when a type reference (`SessionEvent`, `ns` of `ns.Event`).
    pub(super) head: Option<String>,
    /// The types of the `data` members written in it (`{ type: 'a'; data: A }`).
    pub(super) datas: Vec<String>,
}

/// What a file imports, declares and exports, by name.
#[derive(Debug, Clone, Default)]
pub(super) struct Names {
    /// `(local, imported, specifier)` per imported name (`default` for a default import, `*`
    /// for a namespace).
    pub(super) imports: Vec<(String, String, String)>,
    /// Every module specifier the file imports or re-exports from (side-effect imports,
    /// `import('…')` and `require('…')` too).
    pub(super) specifiers: Vec<String>,
    /// The names it declares (classes, interfaces, types, enums, functions, variables,
    /// namespaces) at its top level and in its `declare module`/`namespace` blocks.
    pub(super) declared: Vec<String>,
    /// The names it exports (`outer=inner` when renamed), with the specifier when re-exported
    /// from another module.
    pub(super) exported: Vec<(String, Option<String>)>,
    /// The specifiers of its `export * from '…'`.
    pub(super) export_all: Vec<String>,
}

/// Why a text could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Broken {
    /// The line the parser stopped at (1-based).
    pub(super) line: usize,
    pub(super) message: String,
}

/// What a file declares, or why it could not be read.
#[derive(Debug, Clone, Default)]
pub(super) struct Read {
    /// Its interfaces and type aliases, in order.
    pub(super) decls: Vec<TypeDecl>,
    pub(super) names: Names,
    /// Set when oxc could not parse it: nothing else is then known of it.
    pub(super) broken: Option<Broken>,
}

/// The 1-based line of byte `at` of `text`.
fn line_of(text: &str, at: usize) -> usize {
    text.as_bytes()[..at.min(text.len())]
        .iter()
        .filter(|b| **b == b'\n')
        .count()
        + 1
}

/// The 1-based lines of a text's bytes, from its line starts, indexed the first time one is
/// asked for: what [`line_of`] counts, without reading the text before each declaration again
/// (issue 32 item 1: a file of many interfaces read its beginning once per interface).
struct Lines<'s> {
    text: &'s str,
    starts: std::cell::OnceCell<Vec<usize>>,
}

impl<'s> Lines<'s> {
    fn new(text: &'s str) -> Self {
        Lines {
            text,
            starts: std::cell::OnceCell::new(),
        }
    }

    /// [`line_of`] `at`.
    fn of(&self, at: usize) -> usize {
        let starts = self.starts.get_or_init(|| {
            memchr::memchr_iter(b'\n', self.text.as_bytes())
                .map(|i| i + 1)
                .collect()
        });
        // The newlines before `at` (the one at `at - 1` included), and the first line.
        starts.partition_point(|&s| s <= at.min(self.text.len())) + 1
    }
}

/// Reads the declarations of `text`, the file `path` (its extension decides TypeScript, a
/// `.d.ts` or JavaScript).
pub(super) fn read(path: &str, text: &str) -> Read {
    match with_program(path, text, |program| collect(program, text)) {
        Ok(read) => read,
        Err((at, message)) => unparsed(text, at, message),
    }
}

/// What [`read`] gives for a text oxc stopped on at byte `at` with `message`.
pub(super) fn unparsed(text: &str, at: usize, message: String) -> Read {
    Read {
        broken: Some(Broken {
            line: line_of(text, at),
            message,
        }),
        ..Read::default()
    }
}

/// The source text of `span`.
fn slice(text: &str, span: Span) -> &str {
    text.get(span.start as usize..span.end as usize)
        .unwrap_or_default()
}

/// Everything [`Read`] holds, from a parsed program.
pub(super) fn collect(program: &Program<'_>, text: &str) -> Read {
    let mut c = Collect {
        text,
        lines: Lines::new(text),
        decls: Vec::new(),
        names: Names::default(),
        modules: Vec::new(),
    };
    c.visit_program(program);
    declared_in(&program.body, &mut c.names);
    c.decls.sort_by_key(|d| d.body.0);
    Read {
        decls: c.decls,
        names: c.names,
        broken: None,
    }
}

/// The visitor gathering declarations (at any depth) and the specifiers a file names.
struct Collect<'s> {
    text: &'s str,
    /// The line of a declaration's name.
    lines: Lines<'s>,
    decls: Vec<TypeDecl>,
    names: Names,
    /// The `declare module '…'` blocks the visit is in, innermost last.
    modules: Vec<String>,
}

/// Whether type parameters leave one without a default.
fn needs_arguments(params: Option<&oxc_ast::ast::TSTypeParameterDeclaration<'_>>) -> bool {
    params.is_some_and(|p| p.params.iter().any(|t| t.default.is_none()))
}

impl<'a> Visit<'a> for Collect<'_> {
    fn visit_ts_interface_declaration(&mut self, it: &TSInterfaceDeclaration<'a>) {
        self.decls.push(TypeDecl {
            name: it.id.name.to_string(),
            kind: Kind::Interface,
            line: self.lines.of(it.id.span.start as usize),
            body: (it.body.span.start as usize, it.body.span.end as usize),
            members: members(self.text, &it.body.body),
            datas: data_types_of(self.text, |v| v.visit_ts_interface_body(&it.body)),
            module: self.modules.last().cloned(),
            needs_arguments: needs_arguments(it.type_parameters.as_deref()),
        });
        walk::walk_ts_interface_declaration(self, it);
    }

    fn visit_ts_external_module_declaration(
        &mut self,
        it: &oxc_ast::ast::TSExternalModuleDeclaration<'a>,
    ) {
        self.modules.push(it.id.value.to_string());
        walk::walk_ts_external_module_declaration(self, it);
        self.modules.pop();
    }

    fn visit_ts_type_alias_declaration(&mut self, it: &TSTypeAliasDeclaration<'a>) {
        let ty = &it.type_annotation;
        let (kind, members) = match ty {
            TSType::TSTypeLiteral(lit) => (Kind::Literal, members(self.text, &lit.members)),
            _ => (Kind::Alias, Vec::new()),
        };
        let span = ty.span();
        self.decls.push(TypeDecl {
            name: it.id.name.to_string(),
            kind,
            line: self.lines.of(it.id.span.start as usize),
            body: (span.start as usize, span.end as usize),
            members,
            datas: data_types_of(self.text, |v| v.visit_ts_type(ty)),
            module: self.modules.last().cloned(),
            needs_arguments: needs_arguments(it.type_parameters.as_deref()),
        });
        walk::walk_ts_type_alias_declaration(self, it);
    }

    fn visit_import_declaration(&mut self, it: &oxc_ast::ast::ImportDeclaration<'a>) {
        let spec = it.source.value.to_string();
        self.names.specifiers.push(spec.clone());
        for s in it.specifiers.iter().flatten() {
            let (local, imported) = match s {
                ImportDeclarationSpecifier::ImportSpecifier(s) => {
                    (s.local.name.to_string(), s.imported.name().to_string())
                }
                ImportDeclarationSpecifier::ImportDefaultSpecifier(s) => {
                    (s.local.name.to_string(), "default".to_owned())
                }
                ImportDeclarationSpecifier::ImportNamespaceSpecifier(s) => {
                    (s.local.name.to_string(), "*".to_owned())
                }
            };
            self.names.imports.push((local, imported, spec.clone()));
        }
    }

    fn visit_export_all_declaration(&mut self, it: &oxc_ast::ast::ExportAllDeclaration<'a>) {
        let spec = it.source.value.to_string();
        self.names.specifiers.push(spec.clone());
        if it.exported.is_none() {
            self.names.export_all.push(spec);
        }
    }

    fn visit_export_from_declaration(&mut self, it: &oxc_ast::ast::ExportFromDeclaration<'a>) {
        let spec = it.source.value.to_string();
        self.names.specifiers.push(spec.clone());
        for s in &it.specifiers {
            let (inner, outer) = (s.local.name(), s.exported.name());
            // Re-exported: the name it has there.
            self.names
                .exported
                .push((format!("{outer}={inner}"), Some(spec.clone())));
        }
    }

    fn visit_export_named_declaration(&mut self, it: &oxc_ast::ast::ExportNamedDeclaration<'a>) {
        for s in &it.specifiers {
            let (inner, outer) = (s.local.name(), s.exported.name());
            let entry = if inner == outer {
                outer.to_string()
            } else {
                format!("{outer}={inner}")
            };
            self.names.exported.push((entry, None));
        }
    }

    fn visit_export_declaration(&mut self, it: &oxc_ast::ast::ExportDeclaration<'a>) {
        let mut bound = Vec::new();
        declaration_names(&it.declaration, &mut bound);
        self.names
            .exported
            .extend(bound.into_iter().map(|n| (n, None)));
        walk::walk_export_declaration(self, it);
    }

    fn visit_export_default_declaration(
        &mut self,
        it: &oxc_ast::ast::ExportDefaultDeclaration<'a>,
    ) {
        let name = match &it.declaration {
            ExportDefaultDeclarationKind::FunctionDeclaration(f) => f.id.as_ref(),
            ExportDefaultDeclarationKind::ClassDeclaration(c) => c.id.as_ref(),
            ExportDefaultDeclarationKind::TSInterfaceDeclaration(i) => Some(&i.id),
            _ => None,
        };
        if let Some(id) = name {
            self.names
                .exported
                .push((format!("default={}", id.name), None));
        }
        walk::walk_export_default_declaration(self, it);
    }

    fn visit_ts_import_equals_declaration(
        &mut self,
        it: &oxc_ast::ast::TSImportEqualsDeclaration<'a>,
    ) {
        if let TSModuleReference::ExternalModuleReference(r) = &it.module_reference {
            self.names.specifiers.push(r.expression.value.to_string());
        }
    }

    fn visit_ts_import_type(&mut self, it: &oxc_ast::ast::TSImportType<'a>) {
        self.names.specifiers.push(it.source.value.to_string());
        walk::walk_ts_import_type(self, it);
    }

    fn visit_import_expression(&mut self, it: &oxc_ast::ast::ImportExpression<'a>) {
        if let Expression::StringLiteral(s) = &it.source {
            self.names.specifiers.push(s.value.to_string());
        }
        walk::walk_import_expression(self, it);
    }

    fn visit_call_expression(&mut self, it: &oxc_ast::ast::CallExpression<'a>) {
        if let Expression::Identifier(callee) = &it.callee
            && callee.name == "require"
            && let Some(Expression::StringLiteral(s)) =
                it.arguments.first().and_then(|a| a.as_expression())
        {
            self.names.specifiers.push(s.value.to_string());
        }
        walk::walk_call_expression(self, it);
    }
}

/// The names a declaration binds (every binding of a `const {a, b} = …`).
fn declaration_names(d: &Declaration<'_>, out: &mut Vec<String>) {
    match d {
        Declaration::VariableDeclaration(v) => {
            for decl in &v.declarations {
                out.extend(
                    decl.id
                        .get_binding_identifiers()
                        .iter()
                        .map(|id| id.name.to_string()),
                );
            }
        }
        other => out.extend(other.id().map(|id| id.name.to_string())),
    }
}

/// The names `stmts` declare, and those of the `declare module`, `declare global` and
/// `namespace` blocks among them.
fn declared_in(stmts: &[Statement<'_>], names: &mut Names) {
    for s in stmts {
        let decl = match s {
            Statement::ExportDeclaration(e) => Some(&e.declaration),
            Statement::ExportDefaultDeclaration(e) => {
                let id = match &e.declaration {
                    ExportDefaultDeclarationKind::FunctionDeclaration(f) => f.id.as_ref(),
                    ExportDefaultDeclarationKind::ClassDeclaration(c) => c.id.as_ref(),
                    ExportDefaultDeclarationKind::TSInterfaceDeclaration(i) => Some(&i.id),
                    _ => None,
                };
                names.declared.extend(id.map(|id| id.name.to_string()));
                None
            }
            other => other.as_declaration(),
        };
        let Some(decl) = decl else { continue };
        if !matches!(decl, Declaration::TSImportEqualsDeclaration(_)) {
            declaration_names(decl, &mut names.declared);
        }
        match decl {
            Declaration::TSExternalModuleDeclaration(m) => {
                if let Some(body) = &m.body {
                    declared_in(&body.body, names);
                }
            }
            Declaration::TSGlobalDeclaration(g) => declared_in(&g.body.body, names),
            Declaration::TSNamespaceDeclaration(n) => {
                let mut body = &n.body;
                loop {
                    match body {
                        TSNamespaceDeclarationBody::TSNamespaceDeclaration(inner) => {
                            body = &inner.body;
                        }
                        TSNamespaceDeclarationBody::TSModuleBlock(b) => {
                            declared_in(&b.body, names);
                            break;
                        }
                    }
                }
            }
            _ => {}
        }
    }
}

/// The quoted members among `signatures` (an interface's or type literal's own, not those of
/// types nested in them).
fn members(text: &str, signatures: &[TSSignature<'_>]) -> Vec<Member> {
    signatures
        .iter()
        .filter_map(|s| match s {
            TSSignature::TSMethodSignature(m) if !m.computed => Some(Member {
                key: quoted(&m.key)?,
                optional: m.optional,
                params: params(text, &m.params),
            }),
            TSSignature::TSPropertySignature(p) if !p.computed => Some(Member {
                key: quoted(&p.key)?,
                optional: p.optional,
                params: property_params(text, p),
            }),
            _ => None,
        })
        .collect()
}

/// The key of a member written as a string (`'agent/created'`), not as a name.
fn quoted(key: &PropertyKey<'_>) -> Option<String> {
    match key {
        PropertyKey::StringLiteral(s) => Some(s.value.to_string()),
        _ => None,
    }
}

/// The parameters of a function-typed property (`'k': (a: A) => void`).
fn property_params(text: &str, p: &TSPropertySignature<'_>) -> Option<Vec<Param>> {
    match &p.type_annotation.as_ref()?.type_annotation {
        TSType::TSFunctionType(f) => params(text, &f.params),
        _ => None,
    }
}

/// Each parameter's type; `None` when one is unannotated or a rest parameter.
fn params(text: &str, params: &FormalParameters<'_>) -> Option<Vec<Param>> {
    if params.rest.is_some() {
        return None;
    }
    params
        .items
        .iter()
        .map(|p| {
            let ty = &p.type_annotation.as_ref()?.type_annotation;
            Some(Param {
                ty: slice(text, ty.span()).trim().to_owned(),
                head: head(ty),
                datas: data_types_of(text, |v| v.visit_ts_type(ty)),
            })
        })
        .collect()
}

/// The name a type reference starts with.
fn head(ty: &TSType<'_>) -> Option<String> {
    let TSType::TSTypeReference(r) = ty else {
        return None;
    };
    let mut name = &r.type_name;
    loop {
        match name {
            TSTypeName::IdentifierReference(id) => return Some(id.name.to_string()),
            TSTypeName::QualifiedName(q) => name = &q.left,
            TSTypeName::ThisExpression(_) => return None,
        }
    }
}

/// The types `data` members are given (`data: unknown`, `'data'?: Data[K]`) in what `walk`
/// visits, at any depth.
fn data_types_of(text: &str, walk: impl FnOnce(&mut DataTypes<'_>)) -> Vec<String> {
    let mut v = DataTypes {
        text,
        out: Vec::new(),
    };
    walk(&mut v);
    v.out
}

/// The visitor of [`data_types_of`].
struct DataTypes<'s> {
    text: &'s str,
    out: Vec<String>,
}

impl<'a> Visit<'a> for DataTypes<'_> {
    fn visit_ts_property_signature(&mut self, it: &TSPropertySignature<'a>) {
        let is_data = !it.computed
            && match &it.key {
                PropertyKey::StaticIdentifier(id) => id.name == "data",
                PropertyKey::StringLiteral(s) => s.value == "data",
                _ => false,
            };
        if is_data && let Some(ty) = &it.type_annotation {
            self.out.push(
                slice(self.text, ty.type_annotation.span())
                    .trim()
                    .to_owned(),
            );
        }
        walk::walk_ts_property_signature(self, it);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 32 item 1: the line a declaration is reported at is the one [`line_of`] counts,
    /// at every offset (and past the end) of generated texts of newlines, carriage returns and
    /// other bytes, multi-byte characters included.
    #[test]
    fn lines_are_those_line_of_counts() {
        let pieces = ["\n", "\r\n", "a", "interface X {}", "é", "\n\n", " "];
        let mut rng = crate::test_rng::Rng(0x2545_F491_4F6C_DD1D);
        let mut lines = 0;
        for _ in 0..500 {
            let text: String = (0..rng.below(20)).map(|_| rng.pick(&pieces)).collect();
            let index = Lines::new(&text);
            for at in 0..=text.len() + 2 {
                assert_eq!(index.of(at), line_of(&text, at), "{text:?} at {at}");
                lines = lines.max(index.of(at));
            }
        }
        assert!(lines > 10, "at most {lines} lines");
    }

    // Issue #29 item 1 (b): the host's event map is read from its declarations, members with
    // their parameters' types.
    #[test]
    fn an_event_maps_members_carry_their_parameters_types() {
        let text = "interface E {\n  'agent/created'(agent: Agent): void\n  'agent/turn-end': (a: { x: 'no' }, reason: R<T, U>) => void\n  'session/event'?(this: X, s: Session, e: SessionEvent): void\n  'rest'(...args: any[]): void\n  plain(x: 'not/key'): void\n  nested: { 'inner/key'(a: A): void }\n}\n";
        let read = read("host.ts", text);
        assert_eq!(read.broken, None);
        let got = &read.decls[0].members;
        let keys: Vec<&str> = got.iter().map(|m| m.key.as_str()).collect();
        assert_eq!(
            keys,
            vec!["agent/created", "agent/turn-end", "session/event", "rest"]
        );
        let types = |m: &Member| -> Option<Vec<String>> {
            m.params
                .as_ref()
                .map(|p| p.iter().map(|p| p.ty.clone()).collect())
        };
        assert_eq!(types(&got[0]), Some(vec!["Agent".to_owned()]));
        assert_eq!(
            types(&got[1]),
            Some(vec!["{ x: 'no' }".to_owned(), "R<T, U>".to_owned()])
        );
        assert_eq!(
            types(&got[2]),
            Some(vec!["Session".to_owned(), "SessionEvent".to_owned()])
        );
        assert_eq!(
            got[2].params.as_ref().map(|p| p[1].head.clone()),
            Some(Some("SessionEvent".to_owned()))
        );
        assert_eq!(got[3].params, None);
    }

    // Issue #29 item 1 (b): interfaces (in `declare module` blocks too) and type aliases, a
    // name in a comment never one.
    #[test]
    fn interfaces_and_aliases_are_found_outside_comments() {
        let text = "// interface Fake { 'x'(): void }\ndeclare module './host' {\n  interface Events<T> extends Base {\n    'a/b'(x: T): void\n  }\n}\nexport type Events2 = {\n  'c/d'(): void;\n};\ntype SessionEvent =\n  | { type: 'a'; data: A }\n  | { type: 'b'; data: unknown };\nconst x = 1;\n";
        let read = read("host.ts", text);
        let got: Vec<(&str, Kind, usize)> = read
            .decls
            .iter()
            .map(|d| (d.name.as_str(), d.kind, d.line))
            .collect();
        assert_eq!(
            got,
            vec![
                ("Events", Kind::Interface, 3),
                ("Events2", Kind::Literal, 7),
                ("SessionEvent", Kind::Alias, 10)
            ]
        );
        assert_eq!(read.decls[0].module.as_deref(), Some("./host"));
        assert!(read.decls[0].needs_arguments);
        assert_eq!(read.decls[1].module, None);
        assert_eq!(read.decls[1].members[0].key, "c/d");
        assert_eq!(read.decls[2].datas, vec!["A", "unknown"]);
    }

    // Issue #29 item 1 (b): a type the rewrite spells must be one the file can name.
    #[test]
    fn a_files_imports_declarations_and_exports_are_its_names() {
        let code = "import { out } from './host';\nimport type { Agent, Ctx as Context } from \"./host\";\nimport * as ns from 'pkg';\nimport './side';\nexport { X as Y } from './x';\nexport * from './all';\nexport declare class Host {}\ninterface Local {}\nfunction f() { const inner = 1 }\ntype T = import('./typed').T;\nconst r = require('./req');\nexport default function main() {}\n";
        let n = read("plugin.ts", code).names;
        assert!(
            n.imports
                .contains(&("Context".into(), "Ctx".into(), "./host".into()))
        );
        assert!(n.imports.contains(&("ns".into(), "*".into(), "pkg".into())));
        for spec in ["./side", "./typed", "./req", "./x", "./all"] {
            assert!(n.specifiers.contains(&spec.to_owned()), "{spec}");
        }
        assert!(
            n.exported
                .contains(&("Y=X".to_owned(), Some("./x".to_owned())))
        );
        assert!(n.exported.contains(&("Host".to_owned(), None)));
        assert!(n.exported.contains(&("default=main".to_owned(), None)));
        assert_eq!(n.export_all, vec!["./all"]);
        assert!(n.declared.contains(&"Local".to_owned()));
        assert!(n.declared.contains(&"r".to_owned()));
        // A function's local binding is no name of the module.
        assert!(!n.declared.contains(&"inner".to_owned()));
    }

    // COMMON "Bad input: a clear error naming the file and line": a text oxc cannot parse
    // says where, and declares nothing.
    #[test]
    fn a_broken_text_says_where_it_stops() {
        let read = read(
            "host.d.ts",
            "export interface Events {\n  'a/b'(x: A): void\n",
        );
        let broken = read.broken.as_ref().map(|b| b.line);
        assert_eq!(broken, Some(3), "{:?}", read.broken);
        assert!(read.decls.is_empty());
    }
}

#[cfg(test)]
mod robustness {
    use super::*;

    // Bad input is never a panic (COMMON: "never a panic/hang"): every prefix of texts cut
    // mid-construct (unclosed braces, quotes, comments; multi-byte characters) is read, and a
    // prefix that does not parse says so.
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
                let read = read("host.ts", prefix);
                if let Some(b) = &read.broken {
                    assert!(b.line >= 1 && !b.message.is_empty(), "{prefix:?}");
                }
            }
        }
    }
}
