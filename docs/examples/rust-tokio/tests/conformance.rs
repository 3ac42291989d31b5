//! One `#[test]` per requirement, plus `coverage`, `no_crash` and one per profile, sharing one
//! run of the suite. The loop implements 2026-08 only: `profile_2026_07` is ignored, with the
//! reason.

use my_tokio_loop::TokioLoop;

mirrorless_conformance::suite!(TokioLoop, profiles = [V2026_08]);
