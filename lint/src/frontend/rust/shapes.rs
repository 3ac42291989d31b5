//! The structs of a file's typed events, as pass 1 records them on their declarations
//! ([`crate::frontend::Declaration::shape`]): what the typed-subscription rewrite
//! ([`super::typed`]) needs to build a value of one from a durable event's `data`.

use crate::frontend::{FieldShape, TypeShape};
use crate::hash::HashMap;
use syn::visit::{self, Visit};

/// Every struct of `file` (inline modules included) by name: its shape, or `None` when the
/// name is declared twice, the struct is generic, or its fields are a tuple.
pub(super) fn struct_shapes(file: &syn::File) -> HashMap<String, Option<TypeShape>> {
    let mut v = Structs::default();
    v.visit_file(file);
    v.0
}

#[derive(Default)]
struct Structs(HashMap<String, Option<TypeShape>>);

fn shape_of(s: &syn::ItemStruct) -> Option<TypeShape> {
    if !s.generics.params.is_empty() {
        return None;
    }
    let fields = match &s.fields {
        syn::Fields::Unit => Vec::new(),
        syn::Fields::Unnamed(_) => return None,
        syn::Fields::Named(n) => n
            .named
            .iter()
            .map(|f| {
                Some(FieldShape {
                    name: f.ident.as_ref()?.to_string(),
                    ty: quote::ToTokens::to_token_stream(&f.ty).to_string(),
                    visible: !matches!(f.vis, syn::Visibility::Inherited),
                })
            })
            .collect::<Option<Vec<_>>>()?,
    };
    Some(TypeShape { fields })
}

impl<'ast> Visit<'ast> for Structs {
    fn visit_item_struct(&mut self, s: &'ast syn::ItemStruct) {
        let name = s.ident.to_string();
        // The same name in two modules of one file: which one an impl means is not known here.
        let shape = if self.0.contains_key(&name) {
            None
        } else {
            shape_of(s)
        };
        self.0.insert(name, shape);
        visit::visit_item_struct(self, s);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shapes(src: &str) -> HashMap<String, Option<TypeShape>> {
        struct_shapes(&syn::parse_file(src).unwrap())
    }

    #[test]
    fn named_unit_tuple_generic_and_twice_declared_structs() {
        let s = shapes(
            "pub struct A { pub turn: u32, step: u64 }\nstruct U;\nstruct T(u64);\n\
             struct G<X> { x: X }\nstruct D;\nmod m { struct D { x: u64 } }\n",
        );
        let a = s["A"].as_ref().unwrap();
        let got: Vec<(&str, &str, bool)> = a
            .fields
            .iter()
            .map(|f| (f.name.as_str(), f.ty.as_str(), f.visible))
            .collect();
        assert_eq!(got, [("turn", "u32", true), ("step", "u64", false)]);
        assert_eq!(s["U"], Some(TypeShape::default()));
        assert_eq!(s["T"], None);
        assert_eq!(s["G"], None);
        assert_eq!(s["D"], None);
    }
}
