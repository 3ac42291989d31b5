//! `suite!` needs the agent loop type.
mirrorless_conformance::suite!();

fn main() {}
