//! Local bindings (`let`/`const` in a function, loop variables) that hold a removed name, for
//! following the name to their uses: `let name = "agent/turn-start"; bus.on(name, h)`
//! subscribes. Front ends open a scope per block, function, closure or arm and bind every name
//! a scope introduces; a binding that holds no removed name still shadows an outer one (or a
//! module-level const of the same name).

use crate::hash::HashMap;

/// What a local binding holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    /// The removed names it may hold (several for a loop over an array).
    pub events: Vec<String>,
    /// How findings through it are described: "through local `name` bound at src/a.rs:3".
    pub via: String,
}

/// The local bindings in scope, innermost scope last.
#[derive(Debug, Default)]
pub struct Locals {
    scopes: Vec<HashMap<String, Option<Binding>>>,
}

impl Locals {
    /// Opens a scope (a block, a closure, an arm).
    pub fn push(&mut self) {
        self.scopes.push(HashMap::default());
    }

    /// How many scopes are open.
    pub fn depth(&self) -> usize {
        self.scopes.len()
    }

    /// Closes the innermost scope.
    pub fn pop(&mut self) {
        self.scopes.pop();
    }

    /// Binds `name` in the innermost scope: to removed names, or (`None`) to anything else.
    pub fn bind(&mut self, name: String, binding: Option<Binding>) {
        if self.scopes.is_empty() {
            self.push();
        }
        if let Some(scope) = self.scopes.last_mut() {
            scope.insert(name, binding);
        }
    }

    /// What `name` is bound to here: `None` if it is not a local, `Some(None)` if it is one
    /// that holds no removed name.
    pub fn get(&self, name: &str) -> Option<Option<&Binding>> {
        self.scopes
            .iter()
            .rev()
            .find_map(|s| s.get(name))
            .map(Option::as_ref)
    }

    /// Leaves every scope, for an item nested in a function; `restore` brings them back.
    pub fn enter_item(&mut self) -> Vec<HashMap<String, Option<Binding>>> {
        std::mem::take(&mut self.scopes)
    }

    /// Restores the scopes saved by [`Locals::enter_item`].
    pub fn restore(&mut self, saved: Vec<HashMap<String, Option<Binding>>>) {
        self.scopes = saved;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inner_scopes_shadow_and_items_start_afresh() {
        let mut l = Locals::default();
        let b = |e: &str| {
            Some(Binding {
                events: vec![e.to_owned()],
                via: String::new(),
            })
        };
        l.push();
        l.bind("name".into(), b("agent/turn-start"));
        l.push();
        l.bind("name".into(), None);
        assert_eq!(l.get("name"), Some(None));
        l.pop();
        assert!(l.get("name").is_some_and(|b| b.is_some()));
        let saved = l.enter_item();
        assert_eq!(l.get("name"), None);
        l.restore(saved);
        assert!(l.get("name").is_some());
        assert_eq!(l.get("other"), None);
    }
}
