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
