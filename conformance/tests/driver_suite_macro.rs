//! `suite!` on the reference implementation: one passing test per requirement.

mirrorless_conformance::suite!(mirrorless_conformance::reference::ReferenceLoop);
