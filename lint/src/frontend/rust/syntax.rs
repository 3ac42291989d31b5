//! The syn passes: declaration collection (pass 1) and context classification (pass 2).

use crate::frontend::{Context, DeclKind, Declaration, Symbols};
use crate::model::Role;
use proc_macro2::{Span, TokenStream, TokenTree};
use std::collections::HashSet;
use std::ops::Range;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::visit::{self, Visit};
use syn::{Expr, Lit};

fn range(span: Span) -> Range<usize> {
    span.byte_range()
}

fn line_of(span: Span) -> usize {
    span.start().line
}

/// Methods that only convert a name, so `bus.on("x".to_string())` is still a direct use.
const PEEL_METHODS: &[&str] = &[
    "to_string",
    "to_owned",
    "into",
    "as_str",
    "as_ref",
    "clone",
    "borrow",
    "as_bytes",
];
const PEEL_FUNCTIONS: &[&str] = &["from", "new", "Borrowed", "Owned", "Some", "Cow", "String"];

/// Evaluates `expr` as a constant string where possible: literals, `concat!`, simple
/// `format!`, conversions, and consts or typed events already declared.
pub(super) fn eval_str(expr: &Expr, symbols: &Symbols) -> Option<String> {
    match expr {
        Expr::Lit(l) => match &l.lit {
            Lit::Str(s) => Some(s.value()),
            _ => None,
        },
        Expr::Path(p) => {
            let segs: Vec<String> = p
                .path
                .segments
                .iter()
                .map(|s| s.ident.to_string())
                .collect();
            let last = segs.last()?;
            let prev = segs.len().checked_sub(2).map(|i| segs[i].as_str());
            if let Some(d) = symbols.get_const(last, prev) {
                return Some(d.event.clone());
            }
            if segs.len() >= 2 {
                let owner = &segs[segs.len() - 2];
                if let Some(d) = symbols.get(owner, DeclKind::Type) {
                    return Some(d.event.clone());
                }
            }
            None
        }
        Expr::Reference(r) => eval_str(&r.expr, symbols),
        Expr::Paren(p) => eval_str(&p.expr, symbols),
        Expr::Group(g) => eval_str(&g.expr, symbols),
        Expr::MethodCall(m)
            if m.args.is_empty() && PEEL_METHODS.contains(&m.method.to_string().as_str()) =>
        {
            eval_str(&m.receiver, symbols)
        }
        Expr::Call(c) if c.args.len() == 1 => {
            let Expr::Path(f) = &*c.func else { return None };
            let last = f.path.segments.last()?.ident.to_string();
            if PEEL_FUNCTIONS.contains(&last.as_str()) {
                eval_str(&c.args[0], symbols)
            } else {
                None
            }
        }
        Expr::Macro(m) => eval_macro(&m.mac, symbols),
        _ => None,
    }
}

fn macro_name(mac: &syn::Macro) -> String {
    mac.path
        .segments
        .last()
        .map(|s| s.ident.to_string())
        .unwrap_or_default()
}

fn macro_args(mac: &syn::Macro) -> Option<Punctuated<Expr, syn::Token![,]>> {
    mac.parse_body_with(Punctuated::<Expr, syn::Token![,]>::parse_terminated)
        .ok()
}

/// `concat!("agent/", "turn-start")`, `format!("agent/{}", "step-end")`.
fn eval_macro(mac: &syn::Macro, symbols: &Symbols) -> Option<String> {
    let name = macro_name(mac);
    if name != "concat" && name != "format" {
        return None;
    }
    let args = macro_args(mac)?;
    if name == "concat" {
        let mut out = String::new();
        for a in &args {
            match a {
                Expr::Lit(l) => match &l.lit {
                    Lit::Str(s) => out.push_str(&s.value()),
                    Lit::Int(i) => out.push_str(i.base10_digits()),
                    Lit::Char(c) => out.push(c.value()),
                    _ => return None,
                },
                other => out.push_str(&eval_str(other, symbols)?),
            }
        }
        return Some(out);
    }
    let mut it = args.iter();
    let Expr::Lit(syn::ExprLit {
        lit: Lit::Str(fmt), ..
    }) = it.next()?
    else {
        return None;
    };
    let values: Vec<String> = it.map(|a| eval_str(a, symbols)).collect::<Option<_>>()?;
    let fmt = fmt.value();
    let mut out = String::new();
    let mut next = 0;
    let mut chars = fmt.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                out.push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                out.push('}');
            }
            '{' => {
                let mut spec = String::new();
                for c in chars.by_ref() {
                    if c == '}' {
                        break;
                    }
                    spec.push(c);
                }
                let index = if spec.is_empty() {
                    next += 1;
                    next - 1
                } else {
                    spec.parse::<usize>().ok()?
                };
                out.push_str(values.get(index)?);
            }
            c => out.push(c),
        }
    }
    Some(out)
}

fn removed<'c>(value: Option<String>, cx: Context<'c>) -> Option<String> {
    value.filter(|v| cx.catalog.lookup(v).is_some())
}

fn type_ident(ty: &syn::Type) -> Option<&syn::Ident> {
    match ty {
        syn::Type::Path(p) if p.qself.is_none() => p.path.segments.last().map(|s| &s.ident),
        _ => None,
    }
}

/// The single expression a function body evaluates to, if the body is just that.
fn tail_expr(block: &syn::Block) -> Option<&Expr> {
    match block.stmts.as_slice() {
        [syn::Stmt::Expr(e, None)] => match e {
            Expr::Return(r) => r.expr.as_deref(),
            Expr::Block(b) => tail_expr(&b.block),
            e => Some(e),
        },
        [syn::Stmt::Expr(Expr::Return(r), Some(_))] => r.expr.as_deref(),
        _ => None,
    }
}

/// String literals anywhere in a token stream.
fn token_literals(tokens: TokenStream, out: &mut Vec<syn::LitStr>) {
    for tt in tokens {
        match tt {
            TokenTree::Group(g) => token_literals(g.stream(), out),
            TokenTree::Literal(l) => {
                if let Ok(s) = syn::parse2::<syn::LitStr>(TokenTree::Literal(l).into()) {
                    out.push(s);
                }
            }
            _ => {}
        }
    }
}

fn is_doc(attr: &syn::Attribute) -> bool {
    attr.path().is_ident("doc")
}

/// Removed names given as exact string literals in a (non-doc) attribute.
fn attr_events(attrs: &[syn::Attribute], cx: Context<'_>) -> Option<String> {
    for a in attrs.iter().filter(|a| !is_doc(a)) {
        let mut lits = Vec::new();
        token_literals(quote::ToTokens::to_token_stream(&a.meta), &mut lits);
        for l in lits {
            if cx.catalog.lookup(&l.value()).is_some() {
                return Some(l.value());
            }
        }
    }
    None
}

/// Pass 1: collects declarations.
pub(super) struct Collector<'a> {
    pub cx: Context<'a>,
    pub path: &'a str,
    pub found: Vec<Declaration>,
}

impl Collector<'_> {
    fn add(
        &mut self,
        ident: &syn::Ident,
        kind: DeclKind,
        owner: Option<String>,
        event: String,
        description: String,
    ) {
        let d = Declaration {
            ident: ident.to_string(),
            kind,
            owner,
            event,
            location: format!("{}:{}", self.path, line_of(ident.span())),
            description,
        };
        if !self.found.contains(&d) {
            self.found.push(d);
        }
    }

    fn eval(&self, e: &Expr) -> Option<String> {
        removed(eval_str(e, self.cx.symbols), self.cx)
    }
}

impl<'ast> Visit<'ast> for Collector<'_> {
    fn visit_item_const(&mut self, i: &'ast syn::ItemConst) {
        if let Some(ev) = self.eval(&i.expr) {
            self.add(
                &i.ident,
                DeclKind::Const,
                None,
                ev,
                format!("const `{}`", i.ident),
            );
        }
        visit::visit_item_const(self, i);
    }

    fn visit_item_static(&mut self, i: &'ast syn::ItemStatic) {
        if let Some(ev) = self.eval(&i.expr) {
            self.add(
                &i.ident,
                DeclKind::Const,
                None,
                ev,
                format!("static `{}`", i.ident),
            );
        }
        visit::visit_item_static(self, i);
    }

    fn visit_item_impl(&mut self, i: &'ast syn::ItemImpl) {
        if let Some(ty) = type_ident(&i.self_ty) {
            for item in &i.items {
                let (ev, what) = match item {
                    // An inherent impl holding name consts is a namespace, not a typed event.
                    syn::ImplItem::Const(c) if i.trait_.is_none() => {
                        if let Some(ev) = self.eval(&c.expr) {
                            let desc = format!("associated const `{ty}::{}`", c.ident);
                            self.add(&c.ident, DeclKind::Const, Some(ty.to_string()), ev, desc);
                        }
                        continue;
                    }
                    syn::ImplItem::Const(c) => (self.eval(&c.expr), format!("`{ty}::{}`", c.ident)),
                    syn::ImplItem::Fn(f) => (
                        tail_expr(&f.block).and_then(|e| self.eval(e)),
                        format!("`{ty}::{}()`", f.sig.ident),
                    ),
                    _ => (None, String::new()),
                };
                if let Some(ev) = ev {
                    let desc = format!("typed event `{ty}` (named by {what})");
                    self.add(ty, DeclKind::Type, None, ev, desc);
                    break;
                }
            }
        }
        visit::visit_item_impl(self, i);
    }

    fn visit_item_struct(&mut self, i: &'ast syn::ItemStruct) {
        if let Some(ev) = attr_events(&i.attrs, self.cx) {
            self.add(
                &i.ident,
                DeclKind::Type,
                None,
                ev,
                format!("typed event `{}`", i.ident),
            );
        }
        visit::visit_item_struct(self, i);
    }

    fn visit_item_enum(&mut self, i: &'ast syn::ItemEnum) {
        for v in &i.variants {
            if let Some(ev) = attr_events(&v.attrs, self.cx) {
                let desc = format!("variant `{}::{}`", i.ident, v.ident);
                self.add(
                    &v.ident,
                    DeclKind::Variant,
                    Some(i.ident.to_string()),
                    ev,
                    desc,
                );
            }
        }
        visit::visit_item_enum(self, i);
    }

    fn visit_item_type(&mut self, i: &'ast syn::ItemType) {
        if let Some(src) = type_ident(&i.ty)
            && let Some(d) = self.cx.symbols.get(&src.to_string(), DeclKind::Type)
        {
            let (ev, desc) = (
                d.event.clone(),
                format!("`{}`, an alias of {}", i.ident, d.description),
            );
            self.add(&i.ident, DeclKind::Type, None, ev, desc);
        }
        visit::visit_item_type(self, i);
    }

    fn visit_use_rename(&mut self, r: &'ast syn::UseRename) {
        let source = r.ident.to_string();
        for kind in [DeclKind::Const, DeclKind::Type] {
            if let Some(d) = self.cx.symbols.get(&source, kind) {
                let (ev, desc) = (
                    d.event.clone(),
                    format!("`{}`, an alias of {}", r.rename, d.description),
                );
                self.add(&r.rename, kind, None, ev, desc);
            }
        }
    }
}

/// What a call-like construct does with its direct arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Ctx {
    /// The arguments get this role.
    Role(Role),
    /// The call is on a foreign bus: not ours, report nothing.
    Ignore,
}

/// Pass 2: records the context of every byte range that decides a role, plus occurrences of
/// declared identifiers and of names built by macros.
pub(super) struct Classifier<'a> {
    pub cx: Context<'a>,
    /// Identifiers visible by bare name in this file (declared or imported here).
    pub visible: HashSet<String>,
    /// The file has a glob import, so any declared identifier may be visible.
    pub glob: bool,
    pub contexts: Vec<(Range<usize>, Ctx)>,
    pub occurrences: Vec<(Range<usize>, String, Option<String>)>,
    /// Byte ranges where the identifier is a definition, not a use.
    skip: Vec<usize>,
}

impl<'a> Classifier<'a> {
    pub fn new(cx: Context<'a>, file: &syn::File) -> Self {
        let mut scope = Scope::default();
        scope.visit_file(file);
        Classifier {
            cx,
            visible: scope.names,
            glob: scope.glob,
            contexts: Vec::new(),
            occurrences: Vec::new(),
            skip: Vec::new(),
        }
    }

    fn call_ctx(&self, name: &str) -> Option<Ctx> {
        if self.cx.calls.subscribe.iter().any(|n| n == name) {
            Some(Ctx::Role(Role::Subscribe))
        } else if self.cx.calls.emit.iter().any(|n| n == name) {
            Some(Ctx::Role(Role::Emit))
        } else {
            None
        }
    }

    fn mark_args<'e>(&mut self, ctx: Ctx, args: impl Iterator<Item = &'e Expr>) {
        for a in args {
            if let Some(r) = direct_target(a) {
                self.contexts.push((r, ctx));
            }
        }
    }

    fn resolve(&self, ident: &str, prev: Option<&str>, single: bool) -> Option<&'a Declaration> {
        let symbols: &'a Symbols = self.cx.symbols;
        if single && !self.glob && !self.visible.contains(ident) {
            return None;
        }
        symbols
            .get_const(ident, prev)
            .or_else(|| symbols.get(ident, DeclKind::Type))
    }

    fn hit(&mut self, span: Span, d: &Declaration) {
        let r = range(span);
        if self.skip.contains(&r.start) {
            return;
        }
        self.occurrences.push((
            r,
            d.event.clone(),
            Some(format!(
                "through {} declared at {}",
                d.description, d.location
            )),
        ));
    }

    fn scan_tokens(&mut self, tokens: TokenStream) {
        let mut prev: Vec<TokenTree> = Vec::new();
        for tt in tokens {
            match &tt {
                TokenTree::Group(g) => self.scan_tokens(g.stream()),
                TokenTree::Ident(id) => {
                    let name = id.to_string();
                    let owner = match prev.as_slice() {
                        [
                            ..,
                            TokenTree::Ident(o),
                            TokenTree::Punct(a),
                            TokenTree::Punct(b),
                        ] if a.as_char() == ':' && b.as_char() == ':' => Some(o.to_string()),
                        _ => None,
                    };
                    let variant = owner
                        .as_deref()
                        .and_then(|o| self.cx.symbols.variant(o, &name));
                    if let Some(d) = variant {
                        self.hit(id.span(), d);
                    } else if let Some(d) = self.resolve(&name, owner.as_deref(), owner.is_none()) {
                        self.hit(id.span(), d);
                    }
                }
                _ => {}
            }
            prev.push(tt);
            if prev.len() > 3 {
                prev.remove(0);
            }
        }
    }

    fn visit_macro_body(&mut self, mac: &syn::Macro) {
        if let Some(ev) = removed(eval_macro(mac, self.cx.symbols), self.cx) {
            // Only a name built from pieces needs this: a literal holding it is found anyway.
            let mut lits = Vec::new();
            token_literals(mac.tokens.clone(), &mut lits);
            if !lits.iter().any(|l| l.value() == ev) {
                let name = macro_name(mac);
                let r = range(mac.span());
                self.occurrences
                    .push((r, ev, Some(format!("built by `{name}!`"))));
            }
        }
        match macro_args(mac) {
            Some(args) => {
                if let Some(ctx) = self.call_ctx(&macro_name(mac)) {
                    self.mark_args(ctx, args.iter());
                }
                for a in &args {
                    self.visit_expr(a);
                }
            }
            None => self.scan_tokens(mac.tokens.clone()),
        }
    }
}

/// The range of the expression an argument directly passes, looking through references and
/// conversions (`&X`, `X.to_string()`, `String::from(X)`), or `None` if the argument computes
/// something else (a closure, a call).
fn direct_target(e: &Expr) -> Option<Range<usize>> {
    match e {
        Expr::Lit(l) if matches!(l.lit, Lit::Str(_)) => Some(range(l.span())),
        Expr::Path(p) => Some(range(p.span())),
        Expr::Macro(m) => Some(range(m.span())),
        Expr::Reference(r) => direct_target(&r.expr),
        Expr::Paren(p) => direct_target(&p.expr),
        Expr::Group(g) => direct_target(&g.expr),
        Expr::Cast(c) => direct_target(&c.expr),
        Expr::MethodCall(m)
            if m.args.is_empty() && PEEL_METHODS.contains(&m.method.to_string().as_str()) =>
        {
            direct_target(&m.receiver)
        }
        Expr::Call(c) => {
            let Expr::Path(f) = &*c.func else { return None };
            let last = f.path.segments.last()?.ident.to_string();
            if c.args.len() == 1 && PEEL_FUNCTIONS.contains(&last.as_str()) {
                direct_target(&c.args[0])
            } else {
                Some(range(f.span()))
            }
        }
        Expr::Struct(s) => Some(range(s.path.span())),
        _ => None,
    }
}

/// The last identifier of a receiver expression (`self.app_handle` → `app_handle`).
fn receiver_name(e: &Expr) -> Option<String> {
    match e {
        Expr::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        Expr::Field(f) => match &f.member {
            syn::Member::Named(n) => Some(n.to_string()),
            syn::Member::Unnamed(_) => None,
        },
        Expr::MethodCall(m) => Some(m.method.to_string()),
        Expr::Call(c) => receiver_name(&c.func),
        Expr::Reference(r) => receiver_name(&r.expr),
        Expr::Paren(p) => receiver_name(&p.expr),
        Expr::Try(t) => receiver_name(&t.expr),
        Expr::Await(a) => receiver_name(&a.base),
        _ => None,
    }
}

impl<'ast> Visit<'ast> for Classifier<'_> {
    fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
        let method = m.method.to_string();
        if let Some(mut ctx) = self.call_ctx(&method) {
            if receiver_name(&m.receiver)
                .is_some_and(|r| self.cx.calls.ignore_receivers.contains(&r))
            {
                ctx = Ctx::Ignore;
            }
            self.mark_args(ctx, m.args.iter());
            if let Some(tf) = &m.turbofish {
                for arg in &tf.args {
                    self.contexts.push((range(arg.span()), ctx));
                }
            }
        }
        visit::visit_expr_method_call(self, m);
    }

    fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
        if let Expr::Path(f) = &*c.func
            && let Some(last) = f.path.segments.last()
            && let Some(ctx) = self.call_ctx(&last.ident.to_string())
        {
            self.mark_args(ctx, c.args.iter());
            if let syn::PathArguments::AngleBracketed(ab) = &last.arguments {
                for arg in &ab.args {
                    self.contexts.push((range(arg.span()), ctx));
                }
            }
        }
        visit::visit_expr_call(self, c);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.visit_macro_body(mac);
        visit::visit_macro(self, mac);
    }

    fn visit_item_const(&mut self, i: &'ast syn::ItemConst) {
        self.contexts
            .push((range(i.expr.span()), Ctx::Role(Role::Declare)));
        visit::visit_item_const(self, i);
    }

    fn visit_item_static(&mut self, i: &'ast syn::ItemStatic) {
        self.contexts
            .push((range(i.expr.span()), Ctx::Role(Role::Declare)));
        visit::visit_item_static(self, i);
    }

    fn visit_impl_item_const(&mut self, i: &'ast syn::ImplItemConst) {
        self.contexts
            .push((range(i.expr.span()), Ctx::Role(Role::Declare)));
        visit::visit_impl_item_const(self, i);
    }

    fn visit_trait_item_const(&mut self, i: &'ast syn::TraitItemConst) {
        if let Some((_, e)) = &i.default {
            self.contexts
                .push((range(e.span()), Ctx::Role(Role::Declare)));
        }
        visit::visit_trait_item_const(self, i);
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        if let Some(e) = tail_expr(&f.block)
            && let Some(r) = direct_target(e)
        {
            self.contexts.push((r, Ctx::Role(Role::Declare)));
        }
        visit::visit_impl_item_fn(self, f);
    }

    fn visit_item_impl(&mut self, i: &'ast syn::ItemImpl) {
        // The self type of an impl is the definition site of a typed event, not a use.
        if let Some(ty) = type_ident(&i.self_ty) {
            self.skip.push(range(ty.span()).start);
        }
        visit::visit_item_impl(self, i);
    }

    fn visit_attribute(&mut self, a: &'ast syn::Attribute) {
        let name = a
            .path()
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default();
        let ctx = if name == "doc" {
            Ctx::Role(Role::Comment)
        } else {
            self.call_ctx(&name).unwrap_or(Ctx::Role(Role::Declare))
        };
        self.contexts.push((range(a.span()), ctx));
        if name != "doc" {
            self.scan_tokens(quote::ToTokens::to_token_stream(&a.meta));
        }
    }

    fn visit_path(&mut self, p: &'ast syn::Path) {
        let segs: Vec<&syn::PathSegment> = p.segments.iter().collect();
        let single = segs.len() == 1 && p.leading_colon.is_none();
        let mut found = false;
        for (i, seg) in segs.iter().enumerate() {
            let name = seg.ident.to_string();
            if i > 0 {
                let owner = segs[i - 1].ident.to_string();
                if let Some(d) = self.cx.symbols.variant(&owner, &name) {
                    self.hit(seg.ident.span(), d);
                    found = true;
                    break;
                }
            }
            let is_last = i + 1 == segs.len();
            let prev = i.checked_sub(1).map(|j| segs[j].ident.to_string());
            let d = if is_last {
                self.resolve(&name, prev.as_deref(), single)
            } else {
                let symbols: &Symbols = self.cx.symbols;
                symbols
                    .get(&name, DeclKind::Type)
                    .filter(|_| self.glob || self.visible.contains(&name) || i > 0)
            };
            if let Some(d) = d {
                self.hit(seg.ident.span(), d);
                found = true;
                break;
            }
        }
        if !found {
            visit::visit_path(self, p);
        } else {
            for seg in &segs {
                self.visit_path_arguments(&seg.arguments);
            }
        }
    }

    fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
        // A bare const in pattern position (`TURN_START => …`) parses as an identifier pattern.
        if p.subpat.is_none()
            && let Some(d) = self.resolve(&p.ident.to_string(), None, true)
            && d.kind == DeclKind::Const
        {
            self.hit(p.ident.span(), d);
        }
        visit::visit_pat_ident(self, p);
    }

    fn visit_use_name(&mut self, u: &'ast syn::UseName) {
        if let Some(d) = self.resolve(&u.ident.to_string(), None, false) {
            self.hit(u.ident.span(), d);
        }
    }

    fn visit_use_rename(&mut self, u: &'ast syn::UseRename) {
        if let Some(d) = self.resolve(&u.ident.to_string(), None, false) {
            self.hit(u.ident.span(), d);
        }
    }
}

/// Finds the identifiers a file declares or imports by name, and whether it glob-imports.
#[derive(Default)]
struct Scope {
    names: HashSet<String>,
    glob: bool,
}

impl<'ast> Visit<'ast> for Scope {
    fn visit_use_name(&mut self, u: &'ast syn::UseName) {
        self.names.insert(u.ident.to_string());
    }
    fn visit_use_rename(&mut self, u: &'ast syn::UseRename) {
        self.names.insert(u.rename.to_string());
    }
    fn visit_use_glob(&mut self, _: &'ast syn::UseGlob) {
        self.glob = true;
    }
    fn visit_item_const(&mut self, i: &'ast syn::ItemConst) {
        self.names.insert(i.ident.to_string());
        visit::visit_item_const(self, i);
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
