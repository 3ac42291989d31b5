//! What string a constant expression evaluates to: literals, `concat!`/`format!`, `const`s
//! and the conversions that only wrap a name (`.to_string()`, `String::from`, `Cow`), and the
//! strings of arrays and of `Ident => "literal"` pairs in macro tokens.

use crate::frontend::{DeclKind, Symbols};
use crate::hash::HashMap;
use proc_macro2::{TokenStream, TokenTree};
use syn::punctuated::Punctuated;
use syn::visit::Visit;
use syn::{Expr, Lit};

/// Methods that only convert a name, so `bus.on("x".to_string())` is still a direct use.
pub(super) const PEEL_METHODS: &[&str] = &[
    "to_string",
    "to_owned",
    "into",
    "as_str",
    "as_ref",
    "clone",
    "borrow",
    "as_bytes",
];
pub(super) const PEEL_FUNCTIONS: &[&str] =
    &["from", "new", "Borrowed", "Owned", "Some", "Cow", "String"];

/// What string evaluation may consult: declarations of removed names across the run, and
/// the file's own string consts (`const NS: &str = "agent/";`).
#[derive(Clone, Copy)]
pub(in crate::frontend::rust) struct Env<'a> {
    pub symbols: &'a Symbols,
    pub locals: &'a HashMap<String, String>,
}

/// Evaluates `expr` as a constant string where possible: literals, `concat!`, `format!` with
/// positional, numbered, named and captured arguments, `+` and `[..].concat()`, conversions,
/// consts or typed events already declared, and the file's own string consts.
pub(in crate::frontend::rust) fn eval_str(expr: &Expr, env: &Env<'_>) -> Option<String> {
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
            if let Some(d) = env.symbols.get_const(last, prev) {
                return Some(d.event.clone());
            }
            if segs.len() >= 2 {
                let owner = &segs[segs.len() - 2];
                if let Some(d) = env.symbols.get(owner, DeclKind::Type) {
                    return Some(d.event.clone());
                }
            }
            if segs.len() == 1 {
                return env.locals.get(last).cloned();
            }
            None
        }
        Expr::Reference(r) => eval_str(&r.expr, env),
        Expr::Paren(p) => eval_str(&p.expr, env),
        Expr::Group(g) => eval_str(&g.expr, env),
        Expr::Binary(b) if matches!(b.op, syn::BinOp::Add(_)) => {
            Some(eval_str(&b.left, env)? + &eval_str(&b.right, env)?)
        }
        Expr::MethodCall(m) if m.args.is_empty() && m.method == "concat" => {
            let Expr::Array(a) = peel(&m.receiver) else {
                return None;
            };
            a.elems.iter().map(|e| eval_str(e, env)).collect()
        }
        Expr::MethodCall(m)
            if m.args.is_empty() && PEEL_METHODS.contains(&m.method.to_string().as_str()) =>
        {
            eval_str(&m.receiver, env)
        }
        Expr::Call(c) if c.args.len() == 1 => {
            let Expr::Path(f) = &*c.func else { return None };
            let last = f.path.segments.last()?.ident.to_string();
            if PEEL_FUNCTIONS.contains(&last.as_str()) {
                eval_str(&c.args[0], env)
            } else {
                None
            }
        }
        Expr::Macro(m) => eval_macro(&m.mac, env),
        _ => None,
    }
}

/// Whether a path segment names a type (`Moment`, `Self`) rather than a module (`events`).
pub(super) fn is_type_name(segment: &str) -> bool {
    segment.starts_with(char::is_uppercase)
}

pub(super) fn peel(e: &Expr) -> &Expr {
    match e {
        Expr::Reference(r) => peel(&r.expr),
        Expr::Paren(p) => peel(&p.expr),
        Expr::Group(g) => peel(&g.expr),
        e => e,
    }
}

pub(super) fn macro_name(mac: &syn::Macro) -> String {
    mac.path
        .segments
        .last()
        .map(|s| s.ident.to_string())
        .unwrap_or_default()
}

pub(super) fn macro_args(mac: &syn::Macro) -> Option<Punctuated<Expr, syn::Token![,]>> {
    mac.parse_body_with(Punctuated::<Expr, syn::Token![,]>::parse_terminated)
        .ok()
}

/// `concat!("agent/", "turn-start")`, `format!("agent/{}", "step-end")`.
pub(super) fn eval_macro(mac: &syn::Macro, env: &Env<'_>) -> Option<String> {
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
                other => out.push_str(&eval_str(other, env)?),
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
    let mut positional = Vec::new();
    let mut named = HashMap::default();
    for a in it {
        match a {
            Expr::Assign(asg) => {
                let Expr::Path(p) = &*asg.left else {
                    return None;
                };
                let key = p.path.get_ident()?.to_string();
                named.insert(key, eval_str(&asg.right, env)?);
            }
            a => positional.push(eval_str(a, env)?),
        }
    }
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
                // Only plain `{}` / `{0}` / `{name}`: a format spec could change the text.
                let value = if spec.is_empty() {
                    next += 1;
                    positional.get(next - 1)?.clone()
                } else if let Ok(i) = spec.parse::<usize>() {
                    positional.get(i)?.clone()
                } else if let Some(v) = named.get(&spec) {
                    v.clone()
                } else {
                    eval_str(&syn::parse_str::<Expr>(&spec).ok()?, env)?
                };
                out.push_str(&value);
            }
            c => out.push(c),
        }
    }
    Some(out)
}

/// The file's own string consts and statics whose value can be evaluated (literals, `concat!`,
/// other such consts), for building names from pieces (`format!("{NS}turn-start")`).
pub(in crate::frontend::rust) fn local_strings(
    file: &syn::File,
    symbols: &Symbols,
) -> HashMap<String, String> {
    struct Items<'f>(Vec<(&'f syn::Ident, &'f Expr)>);
    impl<'ast> Visit<'ast> for Items<'ast> {
        fn visit_item_const(&mut self, i: &'ast syn::ItemConst) {
            self.0.push((&i.ident, &i.expr));
        }
        fn visit_item_static(&mut self, i: &'ast syn::ItemStatic) {
            self.0.push((&i.ident, &i.expr));
        }
    }
    let mut items = Items(Vec::new());
    items.visit_file(file);
    let mut locals = HashMap::default();
    // Two rounds resolve a const defined from an earlier or later one.
    for _ in 0..2 {
        for (ident, expr) in &items.0 {
            let env = Env {
                symbols,
                locals: &locals,
            };
            if let Some(v) = eval_str(expr, &env) {
                locals.insert(ident.to_string(), v);
            }
        }
    }
    locals
}

/// `(Ident, "literal")` pairs in a token stream where an UpperCamelCase identifier is followed,
/// within three tokens of punctuation (`,`, `=>`, `=`, `:`), by a string literal.
pub(super) fn ident_literal_pairs(tokens: TokenStream, out: &mut Vec<(syn::Ident, syn::LitStr)>) {
    let mut last_ident: Option<(syn::Ident, usize)> = None;
    for (i, tt) in tokens.into_iter().enumerate() {
        match tt {
            TokenTree::Group(g) => {
                ident_literal_pairs(g.stream(), out);
                last_ident = None;
            }
            TokenTree::Ident(id) => {
                let upper = id.to_string().starts_with(char::is_uppercase);
                last_ident = upper.then_some((id, i));
            }
            TokenTree::Punct(_) => {}
            TokenTree::Literal(l) => {
                if let Some((id, at)) = last_ident.take()
                    && i - at <= 3
                    && let Ok(s) = syn::parse2::<syn::LitStr>(TokenTree::Literal(l).into())
                {
                    out.push((id, s));
                }
            }
        }
    }
}

/// The string elements of an array or slice expression (through `&`).
pub(super) fn array_strs(expr: &Expr, env: &Env<'_>, out: &mut Vec<String>) {
    match expr {
        Expr::Reference(r) => array_strs(&r.expr, env, out),
        Expr::Array(a) => {
            for e in &a.elems {
                if let Some(v) = eval_str(e, env) {
                    out.push(v);
                } else {
                    array_strs(e, env, out);
                }
            }
        }
        Expr::Tuple(t) => {
            for e in &t.elems {
                if let Some(v) = eval_str(e, env) {
                    out.push(v);
                }
            }
        }
        _ => {}
    }
}
