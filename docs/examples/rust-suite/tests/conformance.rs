//! One `#[test]` per requirement of the spec (`chunk_1`, `mirror_3`, …) plus `coverage` and
//! `no_crash`, all sharing one run of the suite under both profiles.

use my_agent_loop::MyLoop;

mirrorless_conformance::suite!(MyLoop);
