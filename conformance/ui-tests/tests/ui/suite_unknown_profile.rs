//! `suite!(…, profiles = […])` takes `Profile` variants; a misspelt one does not compile.
use mirrorless_conformance::reference::ReferenceLoop;

mirrorless_conformance::suite!(ReferenceLoop, profiles = [V2026_09]);

fn main() {}
