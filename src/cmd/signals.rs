//! SIGINT and SIGTERM during `run` and `replay`: they do not kill mirrorless on the spot, they
//! stop the run. The handlers (signal-hook's, async-signal-safe) set the [`Stop`]'s flag and
//! wake every waiting driver; the runner ends with the report of what ran, the drivers stop
//! their implementation processes (the whole process group, SIGKILL after a grace period),
//! and the command exits 130 (SIGINT) or 143 (SIGTERM).

use mirrorless_conformance::stop::Stop;
use std::time::Duration;

/// A stop condition for one run: the signals, and `timeout` (`--run-timeout`) if given.
pub fn stop_on_signals(timeout: Option<Duration>) -> Result<Stop, String> {
    let stop = Stop::new(timeout).map_err(|e| format!("cannot set up the run's stop pipe: {e}"))?;
    #[cfg(unix)]
    {
        use mirrorless_conformance::stop::StopReason;
        use signal_hook::consts::{SIGINT, SIGTERM};
        for (signal, reason) in [
            (SIGINT, StopReason::Interrupt),
            (SIGTERM, StopReason::Terminate),
        ] {
            let installed = (|| -> std::io::Result<()> {
                // The flag first: a woken waiter must find the reason set.
                if let Some(flag) = stop.flag(reason) {
                    signal_hook::flag::register(signal, flag)?;
                }
                if let Some(waker) = stop.waker() {
                    signal_hook::low_level::pipe::register(signal, waker?)?;
                }
                Ok(())
            })();
            installed.map_err(|e| format!("cannot handle signal {signal}: {e}"))?;
        }
    }
    Ok(stop)
}

/// SIGINT, SIGTERM and SIGHUP held back while `lint --fix` writes files: a signal then does not
/// kill mirrorless between creating a temporary file and renaming it (which would leave the
/// temporary file behind); the writer checks [`Deferred::received`] between files and stops.
/// Dropping it restores the default actions.
pub struct Deferred {
    #[cfg(unix)]
    flags: Vec<(
        i32,
        std::sync::Arc<std::sync::atomic::AtomicBool>,
        signal_hook::SigId,
    )>,
}

impl Deferred {
    /// Holds the signals back until dropped (never fails: a signal that cannot be held back
    /// keeps its default action).
    pub fn new() -> Deferred {
        #[cfg(unix)]
        {
            use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
            let flags = [SIGINT, SIGTERM, SIGHUP]
                .into_iter()
                .filter_map(|signal| {
                    let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
                    let id = signal_hook::flag::register(signal, flag.clone()).ok()?;
                    Some((signal, flag, id))
                })
                .collect();
            Deferred { flags }
        }
        #[cfg(not(unix))]
        Deferred {}
    }

    /// The exit status for the first signal received so far (128 + its number), if any.
    pub fn received(&self) -> Option<u8> {
        #[cfg(unix)]
        {
            self.flags
                .iter()
                .find(|(_, flag, _)| flag.load(std::sync::atomic::Ordering::SeqCst))
                .and_then(|(signal, _, _)| u8::try_from(128 + signal).ok())
        }
        #[cfg(not(unix))]
        None
    }
}

impl Drop for Deferred {
    fn drop(&mut self) {
        #[cfg(unix)]
        for (_, _, id) in self.flags.drain(..) {
            signal_hook::low_level::unregister(id);
        }
    }
}
