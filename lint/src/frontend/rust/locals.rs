//! syn patterns for [`crate::frontend::locals`]: which names a pattern binds. Scopes follow
//! blocks, closures, match arms and `if let`; an item (`fn`) starts afresh, as it cannot see
//! the locals around it.

/// Every identifier a pattern binds.
pub(super) fn pattern_idents(pat: &syn::Pat, out: &mut Vec<String>) {
    use syn::visit::Visit;
    struct Idents<'o>(&'o mut Vec<String>);
    impl<'ast> Visit<'ast> for Idents<'_> {
        fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
            self.0.push(p.ident.to_string());
            syn::visit::visit_pat_ident(self, p);
        }
    }
    Idents(out).visit_pat(pat);
}

/// The identifier of a pattern that binds exactly one name (`name`, `name: &str`, `&name`).
pub(super) fn single_ident(pat: &syn::Pat) -> Option<String> {
    match pat {
        syn::Pat::Ident(p) if p.subpat.is_none() => Some(p.ident.to_string()),
        syn::Pat::Type(t) => single_ident(&t.pat),
        syn::Pat::Reference(r) => single_ident(&r.pat),
        _ => None,
    }
}
