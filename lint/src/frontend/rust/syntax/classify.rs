//! Pass 2: the context of every byte range that decides a role (which call an argument is
//! passed to), and the occurrences of declared names and of names assembled by macros.

use super::eval::{
    Env, PEEL_FUNCTIONS, PEEL_METHODS, array_strs, eval_macro, eval_str, local_strings, macro_args,
    macro_name, peel,
};
use super::scope::{Scope, common_prefix, nearest, reachable_through, use_leaves};
use super::{line_of, range, removed, tail_expr, token_literals, type_ident};
use crate::frontend::locals::{Binding, Locals};
use crate::frontend::rust::locals;
use crate::frontend::{Context, DeclKind, Declaration, Symbols};
use crate::hash::{HashMap, HashSet};
use crate::model::Role;
use proc_macro2::{Span, TokenStream, TokenTree};
use std::ops::Range;
use syn::spanned::Spanned;
use syn::visit::{self, Visit};
use syn::{Expr, Lit};

/// What a call-like construct does with its direct arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::frontend::rust) enum Ctx {
    /// The arguments get this role.
    Role(Role),
    /// The call is on a foreign bus: not ours, report nothing.
    Ignore,
}

/// Pass 2: records the context of every byte range that decides a role, plus occurrences of
/// declared identifiers and of names built by macros.
pub(in crate::frontend::rust) struct Classifier<'a> {
    pub cx: Context<'a>,
    /// The file being classified, as reported.
    pub path: &'a str,
    /// Identifiers declared in this file.
    pub declared: HashSet<String>,
    /// Identifiers imported by name, with the path prefixes they are imported through.
    pub imports: HashMap<String, Vec<Vec<String>>>,
    /// The file has a glob import, so any declared identifier may be visible.
    pub glob: bool,
    /// Enums whose variants are glob-imported (`use AgentEvent::*;`).
    pub variant_owners: HashSet<String>,
    pub contexts: Vec<(Range<usize>, Ctx)>,
    pub occurrences: Vec<(Range<usize>, String, Option<String>)>,
    /// Byte ranges where the identifier is a definition, not a use.
    skip: Vec<usize>,
    /// Self types of the enclosing impls (for `Self::Variant`).
    impl_self: Vec<String>,
    /// The file's own string consts.
    locals: HashMap<String, String>,
    /// Resolutions already made in this file, by (identifier, previous segment, bare).
    memo: std::cell::RefCell<Memo<'a>>,
    /// Enclosing `+` operations and macro bodies being evaluated ([`MAX_ASSEMBLY_DEPTH`]).
    assembly_depth: usize,
    /// Local bindings and loop variables in scope.
    local_names: Locals,
}

type Memo<'a> = HashMap<(String, Option<String>, bool), Option<&'a Declaration>>;

impl<'a> Classifier<'a> {
    pub fn new(cx: Context<'a>, path: &'a str, file: &syn::File) -> Self {
        let mut scope = Scope::default();
        scope.visit_file(file);
        Classifier {
            cx,
            path,
            declared: scope.names,
            imports: scope.imports,
            glob: scope.glob,
            variant_owners: scope.variant_owners,
            contexts: Vec::new(),
            occurrences: Vec::new(),
            skip: Vec::new(),
            impl_self: Vec::new(),
            locals: local_strings(file, cx.symbols),
            memo: Default::default(),
            assembly_depth: 0,
            local_names: Locals::default(),
        }
    }

    fn call_ctx(&self, name: &str) -> Option<Ctx> {
        self.cx.calls.role_of(name).map(Ctx::Role)
    }

    fn mark_args<'e>(&mut self, ctx: Ctx, args: impl Iterator<Item = &'e Expr>) {
        for a in args {
            if let Some(r) = direct_target(a) {
                self.contexts.push((r, ctx));
            }
        }
    }

    /// The declaration a use of `ident` refers to. `prev` is the previous path segment, if
    /// any; `single` says the identifier stands alone (so it must be declared or imported in
    /// this file).
    fn resolve(&self, ident: &str, prev: Option<&str>, single: bool) -> Option<&'a Declaration> {
        if !self.cx.symbols.contains(ident) {
            return None;
        }
        let key = (ident.to_owned(), prev.map(str::to_owned), single);
        if let Some(hit) = self.memo.borrow().get(&key) {
            return *hit;
        }
        let found = self.resolve_uncached(ident, prev, single);
        self.memo.borrow_mut().insert(key, found);
        found
    }

    fn resolve_uncached(
        &self,
        ident: &str,
        prev: Option<&str>,
        single: bool,
    ) -> Option<&'a Declaration> {
        let symbols: &'a Symbols = self.cx.symbols;
        let candidates = symbols.all_of(ident).iter().filter(|d| match d.kind {
            DeclKind::Const => match d.owner.as_deref() {
                None => true,
                Some(owner) => prev.is_some_and(|p| p == owner || p == "Self"),
            },
            DeclKind::Type => true,
            DeclKind::Variant => false,
        });
        let mut best: Option<(usize, &'a Declaration)> = None;
        for d in candidates {
            // A file declaring its own item of that name means that item, unless the removed
            // event's declaration is this very file's.
            let declared_here = d.file == self.path;
            if self.declared.contains(ident) && !declared_here && single {
                continue;
            }
            let reachable = if single {
                declared_here
                    || self
                        .imports
                        .get(ident)
                        .is_some_and(|ps| ps.iter().any(|p| reachable_through(p, d)))
                    || (self.glob && !self.imports.contains_key(ident))
            } else {
                prev.is_none_or(|p| reachable_through(&[p.to_owned()], d))
            };
            // Of several reachable declarations (the same name in several crates), the
            // nearest one in the tree is meant.
            if !reachable {
                continue;
            }
            let closeness = common_prefix(&d.file, self.path);
            if best.is_none_or(|(c, _)| closeness > c) {
                best = Some((closeness, d));
            }
        }
        best.map(|(_, d)| d)
    }

    fn hit(&mut self, span: Span, d: &Declaration) {
        let r = range(span);
        if self.skip.contains(&r.start) {
            return;
        }
        let symbols: &Symbols = self.cx.symbols;
        for d in symbols.same_site(d) {
            self.occurrences.push((
                r.clone(),
                d.event.clone(),
                Some(format!(
                    "through {} declared at {}",
                    d.description, d.location
                )),
            ));
        }
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
        if self.assembly_depth >= MAX_ASSEMBLY_DEPTH {
            // Deep inside nested macros: only look for identifiers, once per token.
            return self.scan_tokens(mac.tokens.clone());
        }
        self.assembly_depth += 1;
        self.visit_macro_parsed(mac);
        self.assembly_depth -= 1;
    }

    fn visit_macro_parsed(&mut self, mac: &syn::Macro) {
        let env = Env {
            symbols: self.cx.symbols,
            locals: &self.locals,
        };
        if let Some(ev) = removed(eval_macro(mac, &env), self.cx) {
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
        Expr::Binary(b) if matches!(b.op, syn::BinOp::Add(_)) => Some(range(e.span())),
        Expr::MethodCall(m) if m.args.is_empty() && m.method == "concat" => Some(range(e.span())),
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

/// Names are assembled from a few pieces: deeper `+` chains or macro nesting are not
/// evaluated (each level would re-evaluate everything below it: quadratic on attack input).
const MAX_ASSEMBLY_DEPTH: usize = 16;

impl Classifier<'_> {
    /// A name assembled at run time from evaluable pieces (`NS.to_owned() + "turn-start"`,
    /// `[NS, "turn-start"].concat()`): `eval` evaluates it. Returns whether it was one.
    /// `span` is taken only for a hit: syn finds an expression's span by printing it, so
    /// taking it at every `+` of a long sum costs the square of its length.
    fn assembled(
        &mut self,
        span: impl FnOnce() -> Span,
        eval: impl FnOnce(&Env<'_>) -> Option<String>,
        how: &str,
    ) -> bool {
        if self.assembly_depth >= MAX_ASSEMBLY_DEPTH {
            return false;
        }
        let env = Env {
            symbols: self.cx.symbols,
            locals: &self.locals,
        };
        match removed(eval(&env), self.cx) {
            Some(ev) => {
                self.occurrences
                    .push((range(span()), ev, Some(format!("built by {how}"))));
                true
            }
            None => false,
        }
    }
}

/// Methods that iterate or copy without changing the names (`MIRRORS.iter()`).
const ITER_METHODS: &[&str] = &["iter", "into_iter", "copied", "cloned"];

impl Classifier<'_> {
    /// The removed names an expression bound to a local holds: a name (literal, const, built
    /// name), an array of them, a const array, or another local holding them.
    fn held_names(&self, e: &Expr) -> Vec<String> {
        let e = peel(e);
        match e {
            Expr::MethodCall(m)
                if m.args.is_empty()
                    && (ITER_METHODS.contains(&m.method.to_string().as_str())
                        || PEEL_METHODS.contains(&m.method.to_string().as_str())) =>
            {
                return self.held_names(&m.receiver);
            }
            Expr::Path(p) if p.qself.is_none() => {
                let segs: Vec<String> = p
                    .path
                    .segments
                    .iter()
                    .map(|s| s.ident.to_string())
                    .collect();
                let single = segs.len() == 1 && p.path.leading_colon.is_none();
                if single && let Some(bound) = self.local_names.get(&segs[0]) {
                    return bound.map_or_else(Vec::new, |b| b.events.clone());
                }
                let prev = segs.len().checked_sub(2).map(|i| segs[i].as_str());
                if let Some(last) = segs.last()
                    && let Some(d) = self.resolve(last, prev, single)
                {
                    let symbols: &Symbols = self.cx.symbols;
                    return symbols
                        .same_site(d)
                        .iter()
                        .map(|d| d.event.clone())
                        .collect();
                }
            }
            _ => {}
        }
        let env = Env {
            symbols: self.cx.symbols,
            locals: &self.locals,
        };
        if let Some(ev) = removed(eval_str(e, &env), self.cx) {
            return vec![ev];
        }
        let mut strs = Vec::new();
        array_strs(e, &env, &mut strs);
        strs.into_iter()
            .filter_map(|v| removed(Some(v), self.cx))
            .collect()
    }

    /// Binds the names `pat` introduces: the one name of a simple pattern to `events` (when
    /// there are any), every other name to nothing.
    fn bind_pattern(&mut self, pat: &syn::Pat, events: Vec<String>) {
        if let Some(name) = locals::single_ident(pat) {
            let binding = (!events.is_empty()).then(|| Binding {
                events,
                via: format!(
                    "through local `{name}` bound at {}:{}",
                    self.path,
                    line_of(pat.span())
                ),
            });
            self.local_names.bind(name, binding);
            return;
        }
        let mut names = Vec::new();
        locals::pattern_idents(pat, &mut names);
        for n in names {
            self.local_names.bind(n, None);
        }
    }
}

impl<'ast> Visit<'ast> for Classifier<'_> {
    fn visit_block(&mut self, b: &'ast syn::Block) {
        self.local_names.push();
        visit::visit_block(self, b);
        self.local_names.pop();
    }

    fn visit_local(&mut self, l: &'ast syn::Local) {
        // The value is read before the new name exists (`let name = name;`).
        let events = l
            .init
            .as_ref()
            .map_or_else(Vec::new, |init| self.held_names(&init.expr));
        visit::visit_local(self, l);
        self.bind_pattern(&l.pat, events);
    }

    fn visit_expr_for_loop(&mut self, f: &'ast syn::ExprForLoop) {
        self.visit_expr(&f.expr);
        let events = self.held_names(&f.expr);
        self.local_names.push();
        self.bind_pattern(&f.pat, events);
        self.visit_block(&f.body);
        self.local_names.pop();
    }

    fn visit_expr_closure(&mut self, c: &'ast syn::ExprClosure) {
        self.local_names.push();
        for p in &c.inputs {
            self.bind_pattern(p, Vec::new());
        }
        visit::visit_expr_closure(self, c);
        self.local_names.pop();
    }

    fn visit_arm(&mut self, a: &'ast syn::Arm) {
        self.local_names.push();
        self.bind_pattern(&a.pat, Vec::new());
        visit::visit_arm(self, a);
        self.local_names.pop();
    }

    fn visit_expr_let(&mut self, l: &'ast syn::ExprLet) {
        visit::visit_expr_let(self, l);
        self.bind_pattern(&l.pat, Vec::new());
    }

    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        let saved = self.local_names.enter_item();
        visit::visit_item_fn(self, f);
        self.local_names.restore(saved);
    }

    fn visit_expr_binary(&mut self, b: &'ast syn::ExprBinary) {
        if !matches!(b.op, syn::BinOp::Add(_)) {
            return visit::visit_expr_binary(self, b);
        }
        let sum = |env: &Env<'_>| Some(eval_str(&b.left, env)? + &eval_str(&b.right, env)?);
        if self.assembled(|| b.span(), sum, "`+`") {
            return;
        }
        self.assembly_depth += 1;
        visit::visit_expr_binary(self, b);
        self.assembly_depth -= 1;
    }

    fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
        let concat = |env: &Env<'_>| {
            let Expr::Array(a) = peel(&m.receiver) else {
                return None;
            };
            a.elems.iter().map(|e| eval_str(e, env)).collect()
        };
        if m.args.is_empty()
            && m.method == "concat"
            && self.assembled(|| m.span(), concat, "`concat()`")
        {
            return;
        }
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

    fn visit_item_macro(&mut self, i: &'ast syn::ItemMacro) {
        if !i.mac.path.is_ident("macro_rules") {
            self.contexts
                .push((range(i.mac.span()), Ctx::Role(Role::Declare)));
        }
        visit::visit_item_macro(self, i);
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
        // `fn name(&self) -> &str { "agent/x" }` declares; `fn start() -> Self { Self::X {..} }`
        // merely builds a value.
        if let Some(e) = tail_expr(&f.block)
            && !matches!(e, Expr::Struct(_) | Expr::Call(_))
            && let Some(r) = direct_target(e)
        {
            self.contexts.push((r, Ctx::Role(Role::Declare)));
        }
        let saved = self.local_names.enter_item();
        visit::visit_impl_item_fn(self, f);
        self.local_names.restore(saved);
    }

    fn visit_item_impl(&mut self, i: &'ast syn::ItemImpl) {
        // The self type of an impl is the definition site of a typed event, not a use.
        if let Some(ty) = type_ident(&i.self_ty) {
            self.skip.push(range(ty.span()).start);
        }
        let self_name = type_ident(&i.self_ty)
            .map(ToString::to_string)
            .unwrap_or_default();
        self.impl_self.push(self_name);
        visit::visit_item_impl(self, i);
        self.impl_self.pop();
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
        if single && let Some(bound) = self.local_names.get(&segs[0].ident.to_string()) {
            // A local: it holds removed names, or shadows whatever else has this name.
            if let Some(b) = bound {
                let r = range(segs[0].ident.span());
                for ev in &b.events {
                    self.occurrences
                        .push((r.clone(), ev.clone(), Some(b.via.clone())));
                }
            }
            return self.visit_path_arguments(&segs[0].arguments);
        }
        if single {
            // A variant in scope by `use Enum::*` or `use Enum::Variant`.
            let name = segs[0].ident.to_string();
            let imported_from = self
                .imports
                .get(&name)
                .into_iter()
                .flatten()
                .filter_map(|p| p.last().cloned());
            let owners: Vec<String> = self
                .variant_owners
                .iter()
                .cloned()
                .chain(imported_from)
                .collect();
            let symbols: &Symbols = self.cx.symbols;
            if let Some(d) = owners.iter().find_map(|o| symbols.variant(o, &name)) {
                self.hit(segs[0].ident.span(), d);
                self.visit_path_arguments(&segs[0].arguments);
                return;
            }
        }
        let mut found = false;
        for (i, seg) in segs.iter().enumerate() {
            let name = seg.ident.to_string();
            if i > 0 {
                let mut owner = segs[i - 1].ident.to_string();
                if owner == "Self"
                    && let Some(t) = self.impl_self.last()
                {
                    owner = t.clone();
                }
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
                    .and_then(|_| self.resolve(&name, prev.as_deref(), i == 0))
                    .filter(|d| d.kind == DeclKind::Type)
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
        } else if p.subpat.is_none() {
            // A unit variant in scope by `use Enum::*` also parses as an identifier pattern.
            let name = p.ident.to_string();
            let symbols: &Symbols = self.cx.symbols;
            let owners: Vec<String> = self.variant_owners.iter().cloned().collect();
            if let Some(d) = owners.iter().find_map(|o| symbols.variant(o, &name)) {
                self.hit(p.ident.span(), d);
            }
        }
        visit::visit_pat_ident(self, p);
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        let mut imported = Vec::new();
        use_leaves(&u.tree, &mut Vec::new(), &mut imported);
        let symbols: &Symbols = self.cx.symbols;
        for (ident, _, prefix) in imported {
            let name = ident.to_string();
            let found = nearest(
                symbols.all_of(&name).iter().filter(|d| {
                    matches!(d.kind, DeclKind::Const | DeclKind::Type)
                        && d.owner.is_none()
                        && reachable_through(&prefix, d)
                }),
                self.path,
            );
            let variant = prefix
                .last()
                .and_then(|owner| symbols.variant(owner, &name));
            if let Some(d) = found.or(variant) {
                self.hit(ident.span(), d);
            }
        }
    }
}
