//! Stopping a run early: on SIGINT/SIGTERM or when `--run-timeout` passes.
//!
//! A [`Stop`] is shared by the runner, which checks it between cases, and by the stdio driver,
//! which must notice it while it waits for an implementation. The runner then ends the run with
//! the report of what ran, and the driver stops its processes. Signal handlers only set a flag
//! and write a byte to a pipe (both async-signal-safe); the byte is never read, so the pipe
//! stays readable and wakes every waiter that polls it, on every thread.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Why a run stopped early.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopReason {
    /// SIGINT (Ctrl-C).
    Interrupt,
    /// SIGTERM.
    Terminate,
    /// The run took longer than `--run-timeout`.
    Timeout(Duration),
}

impl StopReason {
    /// The conventional exit status: 130 (128 + SIGINT), 143 (128 + SIGTERM), 2 for a timeout
    /// (the run is incomplete, so there is no verdict).
    pub fn exit_code(self) -> u8 {
        match self {
            StopReason::Interrupt => 130,
            StopReason::Terminate => 143,
            StopReason::Timeout(_) => 2,
        }
    }
}

impl std::fmt::Display for StopReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StopReason::Interrupt => f.write_str("interrupted by SIGINT"),
            StopReason::Terminate => f.write_str("terminated by SIGTERM"),
            StopReason::Timeout(d) => write!(
                f,
                "the run did not finish within {} s (--run-timeout)",
                d.as_secs_f64()
            ),
        }
    }
}

/// `from + wait`, or a far-off instant when that is not representable: a huge timeout means
/// "never", not a panic.
pub fn deadline_after(from: Instant, wait: Duration) -> Instant {
    from.checked_add(wait)
        .or_else(|| from.checked_add(Duration::from_secs(100 * 365 * 86_400)))
        .unwrap_or(from)
}

/// The shared stop condition of one run. [`Stop::never`] (the default) costs nothing.
#[derive(Clone, Default)]
pub struct Stop {
    inner: Option<Arc<Inner>>,
}

struct Inner {
    interrupt: Arc<AtomicBool>,
    terminate: Arc<AtomicBool>,
    timeout: Option<(Instant, Duration)>,
    #[cfg_attr(not(unix), allow(dead_code))] // polled on Unix only
    wake_read: std::io::PipeReader,
    wake_write: std::io::PipeWriter,
}

impl Stop {
    /// A stop condition that never fires.
    pub fn never() -> Stop {
        Stop::default()
    }

    /// A stop condition that fires when [`Stop::trigger`] is called (by a signal handler, see
    /// [`Stop::flag`] and [`Stop::waker`]) or `timeout` after now.
    pub fn new(timeout: Option<Duration>) -> std::io::Result<Stop> {
        let (wake_read, wake_write) = std::io::pipe()?;
        let timeout = timeout.map(|d| (deadline_after(Instant::now(), d), d));
        Ok(Stop {
            inner: Some(Arc::new(Inner {
                interrupt: Arc::new(AtomicBool::new(false)),
                terminate: Arc::new(AtomicBool::new(false)),
                timeout,
                wake_read,
                wake_write,
            })),
        })
    }

    /// Why the run must stop, if it must.
    pub fn reason(&self) -> Option<StopReason> {
        let inner = self.inner.as_ref()?;
        if inner.interrupt.load(Ordering::SeqCst) {
            Some(StopReason::Interrupt)
        } else if inner.terminate.load(Ordering::SeqCst) {
            Some(StopReason::Terminate)
        } else {
            match inner.timeout {
                Some((at, d)) if Instant::now() >= at => Some(StopReason::Timeout(d)),
                _ => None,
            }
        }
    }

    /// When the run times out, if it has a timeout.
    pub fn deadline(&self) -> Option<Instant> {
        self.inner.as_ref()?.timeout.map(|(at, _)| at)
    }

    /// The flag a signal handler sets for `reason` (`None` for a timeout, or for
    /// [`Stop::never`]).
    pub fn flag(&self, reason: StopReason) -> Option<Arc<AtomicBool>> {
        let inner = self.inner.as_ref()?;
        match reason {
            StopReason::Interrupt => Some(Arc::clone(&inner.interrupt)),
            StopReason::Terminate => Some(Arc::clone(&inner.terminate)),
            StopReason::Timeout(_) => None,
        }
    }

    /// A new handle on the write end of the wake-up pipe, for a signal handler to write a byte
    /// to after setting its [`Stop::flag`].
    pub fn waker(&self) -> Option<std::io::Result<std::io::PipeWriter>> {
        Some(self.inner.as_ref()?.wake_write.try_clone())
    }

    /// Stops the run as if by `reason`'s signal (tests, and callers without signals).
    pub fn trigger(&self, reason: StopReason) {
        use std::io::Write;
        if let Some(flag) = self.flag(reason) {
            flag.store(true, Ordering::SeqCst);
        }
        if let Some(inner) = &self.inner {
            let _ = (&inner.wake_write).write(&[1]);
        }
    }

    /// The read end of the wake-up pipe: readable once the run was stopped by a signal.
    #[cfg(unix)]
    pub(crate) fn wake_fd(&self) -> Option<std::os::fd::RawFd> {
        use std::os::fd::AsRawFd;
        Some(self.inner.as_ref()?.wake_read.as_raw_fd())
    }
}

impl std::fmt::Debug for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stop")
            .field("reason", &self.reason())
            .field("deadline", &self.deadline())
            .finish()
    }
}

impl PartialEq for Stop {
    /// Two handles are equal when they are the same stop condition.
    fn eq(&self, other: &Stop) -> bool {
        match (&self.inner, &other.inner) {
            (None, None) => true,
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trigger_names_its_reason_and_never_fires_by_itself() {
        assert_eq!(Stop::never().reason(), None);
        let stop = Stop::new(None).expect("a pipe");
        assert_eq!(stop.reason(), None);
        stop.trigger(StopReason::Terminate);
        assert_eq!(stop.reason(), Some(StopReason::Terminate));
        assert_eq!(stop.reason().map(StopReason::exit_code), Some(143));
        assert_eq!(stop.clone(), stop);
        assert_ne!(Stop::new(None).expect("a pipe"), stop);
    }

    #[test]
    fn a_timeout_fires_at_its_deadline() {
        let stop = Stop::new(Some(Duration::ZERO)).expect("a pipe");
        assert_eq!(stop.reason(), Some(StopReason::Timeout(Duration::ZERO)));
        let far = Stop::new(Some(Duration::MAX)).expect("a huge timeout does not overflow");
        assert_eq!(far.reason(), None);
    }
}
