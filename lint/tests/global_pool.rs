//! `init_global_pool` (issue 32 item 1): it returns before the pool's threads have started,
//! and a run that waits for it (`await_global_pool`, which every run of the crate calls before
//! it uses rayon) gets that pool, not rayon's default one.
//!
//! The global pool is the process's, and the other tests of this binary use rayon: the check
//! runs in a process of its own, this binary started again on that one test.

/// Set in the process that runs the check.
const CHILD: &str = "MIRRORLESS_GLOBAL_POOL_CHILD";

#[test]
fn the_run_uses_the_pool_init_global_pool_builds() {
    if std::env::var_os(CHILD).is_some() {
        return check();
    }
    let exe = std::env::current_exe().expect("the test binary");
    let out = std::process::Command::new(exe)
        .args([
            "--exact",
            "global_pool::the_run_uses_the_pool_init_global_pool_builds",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD, "1")
        .output()
        .expect("run the test binary");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("1 passed"),
        "the check failed in its own process:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn check() {
    mirrorless_lint::init_global_pool();
    mirrorless_lint::await_global_pool();
    let names = rayon::broadcast(|_| std::thread::current().name().map(str::to_owned));
    assert!(!names.is_empty());
    for name in &names {
        assert!(
            name.as_deref()
                .is_some_and(|n| n.starts_with("mirrorless-pool-")),
            "a thread of rayon's default pool ran: {names:?}"
        );
    }
    // Called again (a second run in one process), it builds nothing and waits for nothing.
    mirrorless_lint::init_global_pool();
    mirrorless_lint::await_global_pool();
    let again = rayon::broadcast(|_| std::thread::current().name().map(str::to_owned));
    assert_eq!(names.len(), again.len());
}
