//! `suite!` needs a type that implements `AgentLoop`.
struct NotALoop;

mirrorless_conformance::suite!(NotALoop);

fn main() {}
