//! Links the `mirrorless` executable at a fixed address where the platform's C toolchain
//! allows it (Linux with glibc): a position-independent executable has every pointer in its
//! read-only data (vtables, string tables, clap's and oxc's tables: 17,000 of them) fixed up
//! by the dynamic loader at each start, 0.16 ms of a `mirrorless --version` and of every
//! lint (docs/benchmarks/lint.md, "Tenth round"; issue 32 item 1). Go links its Linux
//! executables so by default. The code itself stays position-independent; only the
//! executable's own base address is no longer randomised (its libraries, heap and stacks
//! still are).
fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    if var("CARGO_CFG_TARGET_OS") == "linux" && var("CARGO_CFG_TARGET_ENV") == "gnu" {
        println!("cargo::rustc-link-arg-bins=-no-pie");
    }
}
