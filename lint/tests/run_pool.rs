//! `join_run_pool` (issue 32 item 1): on Unix the calling thread becomes the first thread of
//! the run's pool, whose other threads are built as the analyses want them, one more than the
//! cores; every later use of rayon on that thread runs on that pool, and a second call
//! changes nothing.
//!
//! A thread can join a pool once, and the other tests of this binary use rayon: the check
//! runs in a process of its own, this binary started again on that one test.

/// Set in the process that runs the check.
const CHILD: &str = "MIRRORLESS_RUN_POOL_CHILD";

#[test]
fn the_run_uses_the_pool_join_run_pool_builds() {
    if std::env::var_os(CHILD).is_some() {
        return check();
    }
    let exe = std::env::current_exe().expect("the test binary");
    let out = std::process::Command::new(exe)
        .args([
            "--exact",
            "run_pool::the_run_uses_the_pool_join_run_pool_builds",
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
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    mirrorless_lint::join_run_pool();
    // Unix: this thread is the pool's first, and the pool has one thread more than the cores.
    // Elsewhere (a Windows main thread's stack is too small to parse on), rayon's global pool.
    let (first, threads) = if cfg!(unix) {
        (Some(0), cores + 1)
    } else {
        (None, cores)
    };
    assert_eq!(
        rayon::current_thread_index(),
        first,
        "this thread's place in the pool"
    );
    assert_eq!(rayon::current_num_threads(), threads);
    let names = rayon::broadcast(|c| (c.index(), std::thread::current().name().map(str::to_owned)));
    for (index, name) in names.iter().filter(|(i, _)| Some(*i) != first) {
        assert_eq!(
            name.as_deref(),
            Some(format!("mirrorless-pool-{index}").as_str()),
            "a thread not built by `join_run_pool`: {names:?}"
        );
    }
    // Called again (a second run in one process), it changes nothing.
    mirrorless_lint::join_run_pool();
    assert_eq!(rayon::current_thread_index(), first);
    assert_eq!(rayon::current_num_threads(), threads);
}
