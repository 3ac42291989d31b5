//! The compile errors users see: a removed mirror cannot be emitted (one case per removed
//! event, each naming its durable replacement), and misuse of `suite!` is explained.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}
