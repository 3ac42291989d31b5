//! The implementation's process: spawning (in a process group of its own), line reading and
//! writing with deadlines, bounded stderr capture, and a shutdown ladder (close stdin, wait,
//! SIGTERM to the group, SIGKILL to what is left).
//!
//! Standard output is never read with an unbounded blocking call: on Unix the driver polls the
//! pipe with the time left until its deadline (one wake-up per batch of messages, which is what
//! keeps a round trip cheap), elsewhere a reader thread sends complete lines over a channel and
//! the driver waits with `recv_timeout`. Either way it gives up at the deadline. Standard input
//! is non-blocking on Unix: a write that does not fit into the pipe waits, with the same
//! deadline, for the pipe to drain, reading stdout meanwhile. (Elsewhere writes block; the
//! stop ladder still ends them by killing the process.) Every wait also wakes when the run is
//! stopped ([`Stop`]).
//! Standard error is drained by another thread into a bounded tail buffer, so a chatty
//! implementation can never fill the pipe and stall.

use crate::stop::{Stop, StopReason};
use std::collections::VecDeque;
use std::io::{BufRead, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The longest line accepted on the implementation's standard output (16 MiB).
pub const MAX_LINE: usize = 16 << 20;

/// What the stdout reader thread saw.
#[derive(Debug)]
pub enum Read1 {
    /// One complete line, without its terminator.
    Line(String),
    /// The stream ended; `partial` holds bytes after the last newline, if any.
    Eof {
        /// An unterminated last line.
        partial: Option<String>,
    },
    /// A line longer than [`MAX_LINE`], or an I/O error.
    Broken(String),
    /// The process exited with nothing more to read, while its stdout stays open (a process
    /// it started holds it): waiting on would only end at a timeout that blames silence.
    Exited(ExitStatus),
}

/// Why waiting for a line failed.
#[derive(Debug)]
pub enum WaitError {
    /// Nothing arrived before the deadline.
    Timeout,
    /// The run was stopped while waiting.
    Stopped(StopReason),
}

/// The bounded tail of a stream, with a running byte count so a case can take "what was
/// written since".
#[derive(Debug, Default)]
pub struct Tail {
    buf: VecDeque<u8>,
    total: u64,
    limit: usize,
}

impl Tail {
    fn push(&mut self, bytes: &[u8]) {
        self.total += bytes.len() as u64;
        self.buf.extend(bytes);
        let excess = self.buf.len().saturating_sub(self.limit);
        self.buf.drain(..excess);
    }

    /// Everything written after byte `from` (as far as the tail still holds it).
    pub fn since(&self, from: u64) -> String {
        let start_of_buf = self.total - self.buf.len() as u64;
        let skip = from.saturating_sub(start_of_buf) as usize;
        let bytes: Vec<u8> = self.buf.iter().skip(skip).copied().collect();
        let mut s = String::from_utf8_lossy(&bytes).into_owned();
        if from < start_of_buf {
            s.insert_str(0, "[… earlier output dropped …]\n");
        }
        s
    }

    /// The byte count so far.
    pub fn total(&self) -> u64 {
        self.total
    }
}

/// How long a process group has between SIGTERM and SIGKILL.
pub const TERM_GRACE: Duration = Duration::from_secs(1);

/// How often a wait for stdout looks whether the process has exited.
const EXIT_POLL: Duration = Duration::from_millis(100);

/// How much unread stdout the writer buffers while it waits for stdin to drain; beyond it,
/// the implementation is left blocked on its own write until the deadline.
#[cfg(unix)]
const READ_AHEAD: usize = MAX_LINE + (64 << 10);

/// Why writing to the implementation's stdin failed.
#[derive(Debug)]
pub enum WriteError {
    /// The implementation did not read its stdin before the deadline; `unwritten` bytes of
    /// the message were still waiting.
    Timeout {
        /// Bytes of the message not yet taken by the pipe.
        unwritten: usize,
    },
    /// The run was stopped while waiting.
    Stopped(StopReason),
    /// The pipe is closed (the implementation closed its stdin or exited) or broken.
    Closed(std::io::Error),
}

/// A running implementation process, in a process group of its own (Unix), so that stopping
/// it stops everything it started.
pub struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    pending: Vec<u8>,
    lines: Lines,
    stderr: Arc<Mutex<Tail>>,
    stderr_thread: Option<JoinHandle<()>>,
    stop: Stop,
    stopped: bool,
    /// The group's live member found last ([`super::group::LastLive`]).
    #[cfg(unix)]
    last_live: super::group::LastLive,
}

impl Process {
    /// Spawns `command` (program and arguments) with piped stdio, in a new process group;
    /// stderr keeps at most `stderr_limit` bytes; every wait also ends when `stop` fires.
    pub fn spawn(command: &[String], stderr_limit: usize, stop: Stop) -> Result<Process, String> {
        let (program, args) = command
            .split_first()
            .ok_or_else(|| "the implementation command is empty".to_owned())?;
        let mut cmd = Command::new(program);
        cmd.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            // Its own group: the terminal's Ctrl-C reaches mirrorless only, and stopping the
            // group reaches grandchildren too.
            cmd.process_group(0);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("cannot start `{}`: {e}", command.join(" ")))?;
        let stdin = child.stdin.take();
        #[cfg(unix)]
        if let Some(pipe) = &stdin {
            set_nonblocking(pipe).map_err(|e| {
                let _ = child.kill();
                let _ = child.wait();
                format!("cannot make the implementation's stdin non-blocking: {e}")
            })?;
        }
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| "the implementation's stdout is not piped".to_owned())?;
        let stderr_pipe = child
            .stderr
            .take()
            .ok_or_else(|| "the implementation's stderr is not piped".to_owned())?;
        let lines = Lines::new(stdout)?;
        let stderr = Arc::new(Mutex::new(Tail {
            limit: stderr_limit.max(1),
            ..Tail::default()
        }));
        let sink = Arc::clone(&stderr);
        let stderr_thread = std::thread::Builder::new()
            .name("stdio-stderr".into())
            .spawn(move || {
                let mut pipe = stderr_pipe;
                let mut buf = [0u8; 8192];
                loop {
                    match pipe.read(&mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => {
                            if let Ok(mut t) = sink.lock() {
                                t.push(&buf[..n]);
                            }
                        }
                    }
                }
            })
            .map_err(|e| format!("cannot start the stderr reader: {e}"))?;
        Ok(Process {
            child,
            stdin,
            pending: Vec::with_capacity(4096),
            lines,
            stderr,
            stderr_thread: Some(stderr_thread),
            stop,
            stopped: false,
            #[cfg(unix)]
            last_live: super::group::LastLive::default(),
        })
    }

    /// The process id (also its process group id on Unix).
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Queues one line for stdin; [`Process::flush`] writes it.
    pub fn write_line(&mut self, line: &[u8]) {
        self.pending.extend_from_slice(line);
        self.pending.push(b'\n');
    }

    /// Writes everything queued before `deadline`. While stdin is full the implementation's
    /// stdout keeps being read (and buffered for [`Process::next`]), so an implementation that
    /// writes while the harness writes cannot deadlock the two; one that stops reading its
    /// stdin is cut off at the deadline.
    pub fn flush(&mut self, deadline: Instant) -> Result<(), WriteError> {
        let result = self.write_pending(deadline);
        self.pending.clear();
        result
    }

    #[cfg(unix)]
    fn write_pending(&mut self, deadline: Instant) -> Result<(), WriteError> {
        use std::io::ErrorKind;
        use std::os::fd::AsRawFd;
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(WriteError::Closed(std::io::Error::other("stdin is closed")));
        };
        let mut written = 0;
        while written < self.pending.len() {
            match stdin.write(&self.pending[written..]) {
                Ok(0) => return Err(WriteError::Closed(ErrorKind::WriteZero.into())),
                Ok(n) => written += n,
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) if e.kind() == ErrorKind::WouldBlock => {
                    let read_stdout = self.lines.wants_more(READ_AHEAD);
                    let mut fds = [
                        pollfd(stdin.as_raw_fd(), libc::POLLOUT),
                        pollfd(if read_stdout { self.lines.fd() } else { -1 }, libc::POLLIN),
                        pollfd(self.stop.wake_fd().unwrap_or(-1), libc::POLLIN),
                    ];
                    let until = self.stop.deadline().map_or(deadline, |d| d.min(deadline));
                    let ready = poll_until(&mut fds, until).map_err(WriteError::Closed)?;
                    if let Some(reason) = self.stop.reason() {
                        return Err(WriteError::Stopped(reason));
                    }
                    if !ready {
                        return Err(WriteError::Timeout {
                            unwritten: self.pending.len() - written,
                        });
                    }
                    if fds[1].revents != 0 {
                        self.lines.fill();
                    }
                }
                Err(e) => return Err(WriteError::Closed(e)),
            }
        }
        Ok(())
    }

    /// Without non-blocking pipes the write itself is not bounded (see the module docs).
    #[cfg(not(unix))]
    fn write_pending(&mut self, _deadline: Instant) -> Result<(), WriteError> {
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(WriteError::Closed(std::io::Error::other("stdin is closed")));
        };
        stdin
            .write_all(&self.pending)
            .and_then(|()| stdin.flush())
            .map_err(WriteError::Closed)
    }

    /// The next stdout item, waiting until `deadline` (or until the run is stopped). While it
    /// waits it looks every [`EXIT_POLL`] whether the process has exited: then what is left in
    /// the pipe is read, and [`Read1::Exited`] returned when nothing is.
    pub fn next(&mut self, deadline: Instant) -> Result<Read1, WaitError> {
        loop {
            let slice = deadline.min(Instant::now() + EXIT_POLL);
            match self.lines.next(slice, &self.stop) {
                Err(WaitError::Timeout) if slice < deadline => {
                    if let Ok(Some(status)) = self.child.try_wait() {
                        // Written just before it exited: still read first.
                        return match self.lines.next(Instant::now(), &self.stop) {
                            Err(WaitError::Timeout) => Ok(Read1::Exited(status)),
                            other => other,
                        };
                    }
                }
                other => return other,
            }
        }
    }

    /// How many stderr bytes were written so far.
    pub fn stderr_mark(&self) -> u64 {
        self.stderr.lock().map(|t| t.total()).unwrap_or(0)
    }

    /// Stderr written after `mark` (bounded).
    pub fn stderr_since(&self, mark: u64) -> String {
        self.stderr
            .lock()
            .map(|t| t.since(mark))
            .unwrap_or_default()
    }

    /// Closes the process's stdin (what it reads as the end of its input); anything not yet
    /// written is dropped.
    pub fn close_stdin(&mut self) {
        self.stdin = None;
        self.pending.clear();
    }

    /// Stops the process and everything it started: closes stdin and waits up to `grace` for
    /// it to exit by itself; then (Unix) sends SIGTERM to its process group, and SIGKILL
    /// after [`TERM_GRACE`] to whatever is left of the group, grandchildren included.
    /// Returns the exit status if it could be collected, after the stderr reader drained the
    /// pipe.
    pub fn stop(&mut self, grace: Duration) -> Option<ExitStatus> {
        self.stdin = None; // closing stdin asks a well-behaved implementation to exit
        self.pending.clear();
        let mut status = self.exit_within(grace);
        #[cfg(unix)]
        if status.is_none() || self.group_alive() {
            self.signal_group(libc::SIGTERM);
            let until = Instant::now() + TERM_GRACE;
            if status.is_none() {
                status = self.exit_within(TERM_GRACE);
            }
            while self.group_alive() && Instant::now() < until {
                std::thread::sleep(Duration::from_millis(5));
            }
            if self.group_alive() {
                self.signal_group(libc::SIGKILL);
            }
        }
        if status.is_none() {
            let _ = self.child.kill();
            status = self.child.wait().ok();
        }
        self.stopped = true;
        if let Some(t) = self.stderr_thread.take() {
            // A process outside the group may still hold stderr open; never wait unboundedly.
            let until = Instant::now() + Duration::from_millis(200);
            while !t.is_finished() && Instant::now() < until {
                std::thread::sleep(Duration::from_millis(2));
            }
            if t.is_finished() {
                let _ = t.join();
            }
        }
        status
    }

    /// Whether the process has exited (and how), waiting at most `wait` for it.
    pub fn exit_within(&mut self, wait: Duration) -> Option<ExitStatus> {
        let until = Instant::now() + wait;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(2)),
                Ok(None) | Err(_) => return None,
            }
        }
    }

    /// Sends `signal` to the process group; false if no process of the group is left.
    #[cfg(unix)]
    fn signal_group(&self, signal: libc::c_int) -> bool {
        match i32::try_from(self.child.id()) {
            // Never 0 or 1: `kill(0)` and `kill(-1)` would reach far more than the group.
            // SAFETY: kill(2) with a negative pid signals exactly that process group.
            Ok(pgid) if pgid > 1 => unsafe { libc::kill(-pgid, signal) == 0 },
            _ => false,
        }
    }

    /// Whether any process of the group is left that is not a zombie (a zombie, the leader's
    /// or a reparented grandchild's, runs nothing and holds no pipe: see [`super::group`]).
    #[cfg(unix)]
    fn group_alive(&self) -> bool {
        i32::try_from(self.child.id())
            .is_ok_and(|pgid| super::group::has_live_member(pgid, &self.last_live))
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        if !self.stopped {
            #[cfg(unix)]
            self.signal_group(libc::SIGKILL);
            if self.child.try_wait().ok().flatten().is_none() {
                let _ = self.child.kill();
                let _ = self.child.wait();
            }
        }
    }
}

#[cfg(unix)]
fn set_nonblocking(pipe: &ChildStdin) -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    let fd = pipe.as_raw_fd();
    // SAFETY: fcntl on a descriptor this process owns, with integer arguments only.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags < 0 || unsafe { libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) } < 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

#[cfg(unix)]
fn pollfd(fd: std::os::fd::RawFd, events: libc::c_short) -> libc::pollfd {
    // A negative fd is ignored by poll(2).
    libc::pollfd {
        fd,
        events,
        revents: 0,
    }
}

/// Polls `fds` until one is ready or `deadline` passes; `Ok(false)` on timeout.
#[cfg(unix)]
fn poll_until(fds: &mut [libc::pollfd], deadline: Instant) -> std::io::Result<bool> {
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        // Round up, so a wait never ends just before its deadline and spins.
        let ms = left.as_micros().div_ceil(1000).min(i32::MAX as u128) as i32;
        // SAFETY: a valid, exclusively borrowed array of pollfds for the duration of the call.
        let n = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, ms) };
        if n > 0 {
            return Ok(true);
        }
        if n == 0 {
            if Instant::now() >= deadline {
                return Ok(false);
            }
            continue;
        }
        let e = std::io::Error::last_os_error();
        if e.kind() != std::io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

/// Line reading from the implementation's stdout with a deadline.
#[cfg(unix)]
struct Lines {
    pipe: ChildStdout,
    buf: Vec<u8>,
    /// What one `read(2)` fills, zeroed once: `buf` grows by the bytes read, never by a fresh
    /// 64 KiB of zeros per read (which cost most of a stdio run's CPU in an unoptimized build).
    chunk: Box<[u8]>,
    start: usize,
    eof: bool,
    broken: Option<String>,
}

#[cfg(unix)]
impl Lines {
    fn new(pipe: ChildStdout) -> Result<Lines, String> {
        Ok(Lines {
            pipe,
            buf: Vec::with_capacity(64 << 10),
            chunk: vec![0; 64 << 10].into_boxed_slice(),
            start: 0,
            eof: false,
            broken: None,
        })
    }

    fn fd(&self) -> std::os::fd::RawFd {
        use std::os::fd::AsRawFd;
        self.pipe.as_raw_fd()
    }

    /// Whether reading more is useful: not at the end, and less than `limit` bytes unread.
    fn wants_more(&self, limit: usize) -> bool {
        !self.eof && self.broken.is_none() && self.buf.len() - self.start < limit
    }

    /// One `read(2)` into the buffer (the pipe is readable, so it does not block).
    fn fill(&mut self) {
        if self.start > 0 {
            self.buf.drain(..self.start);
            self.start = 0;
        }
        match self.pipe.read(&mut self.chunk) {
            Ok(0) => self.eof = true,
            Ok(n) => self.buf.extend_from_slice(&self.chunk[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => self.broken = Some(format!("reading stdout failed: {e}")),
        }
    }

    /// A complete item from the buffer, if there is one.
    fn take(&mut self) -> Option<Read1> {
        let pending = &self.buf[self.start..];
        if let Some(i) = memchr::memchr(b'\n', pending) {
            let mut line = &pending[..i];
            self.start += i + 1;
            if line.last() == Some(&b'\r') {
                line = &line[..line.len() - 1];
            }
            return Some(match std::str::from_utf8(line) {
                Ok(s) => Read1::Line(s.to_owned()),
                Err(_) => Read1::Broken(format!(
                    "a line on stdout is not UTF-8: {}",
                    String::from_utf8_lossy(line)
                )),
            });
        }
        if pending.len() > MAX_LINE {
            return Some(Read1::Broken(format!(
                "a line on stdout is longer than {} MiB",
                MAX_LINE >> 20
            )));
        }
        if let Some(e) = &self.broken {
            return Some(Read1::Broken(e.clone()));
        }
        if self.eof {
            let partial =
                (!pending.is_empty()).then(|| String::from_utf8_lossy(pending).into_owned());
            self.start = self.buf.len();
            return Some(Read1::Eof { partial });
        }
        None
    }

    fn next(&mut self, deadline: Instant, stop: &Stop) -> Result<Read1, WaitError> {
        loop {
            if let Some(item) = self.take() {
                return Ok(item);
            }
            let mut fds = [
                pollfd(self.fd(), libc::POLLIN),
                pollfd(stop.wake_fd().unwrap_or(-1), libc::POLLIN),
            ];
            let until = stop.deadline().map_or(deadline, |d| d.min(deadline));
            let ready = poll_until(&mut fds, until);
            if let Some(reason) = stop.reason() {
                return Err(WaitError::Stopped(reason));
            }
            match ready {
                // Only a readable stdout is read: a read(2) on an idle pipe would block.
                Ok(true) if fds[0].revents != 0 => self.fill(),
                Ok(true) => {}
                Ok(false) => return Err(WaitError::Timeout),
                Err(e) => return Ok(Read1::Broken(format!("waiting for stdout failed: {e}"))),
            }
        }
    }
}

/// Line reading from the implementation's stdout with a deadline: a reader thread sends
/// complete lines over a bounded channel (so a flood of output is back-pressured into the pipe).
#[cfg(not(unix))]
struct Lines {
    rx: std::sync::mpsc::Receiver<Read1>,
}

#[cfg(not(unix))]
impl Lines {
    fn new(pipe: ChildStdout) -> Result<Lines, String> {
        let (tx, rx) = std::sync::mpsc::sync_channel(4096);
        std::thread::Builder::new()
            .name("stdio-stdout".into())
            .spawn(move || {
                let mut reader = std::io::BufReader::with_capacity(64 << 10, pipe);
                loop {
                    let item = read_line(&mut reader);
                    let end = !matches!(item, Read1::Line(_));
                    if tx.send(item).is_err() || end {
                        break;
                    }
                }
            })
            .map_err(|e| format!("cannot start the stdout reader: {e}"))?;
        Ok(Lines { rx })
    }

    fn next(&mut self, deadline: Instant, stop: &Stop) -> Result<Read1, WaitError> {
        use std::sync::mpsc::RecvTimeoutError;
        let until = stop.deadline().map_or(deadline, |d| d.min(deadline));
        loop {
            if let Some(reason) = stop.reason() {
                return Err(WaitError::Stopped(reason));
            }
            // Without a pollable stop pipe, wake up now and then to look at the stop flags.
            let wait = until
                .saturating_duration_since(Instant::now())
                .min(Duration::from_millis(50));
            match self.rx.recv_timeout(wait) {
                Ok(r) => return Ok(r),
                Err(RecvTimeoutError::Timeout) if Instant::now() < until => {}
                Err(RecvTimeoutError::Timeout) => {
                    return match stop.reason() {
                        Some(reason) => Err(WaitError::Stopped(reason)),
                        None => Err(WaitError::Timeout),
                    };
                }
                // The reader ends after sending Eof/Broken; reading again repeats the end.
                Err(RecvTimeoutError::Disconnected) => return Ok(Read1::Eof { partial: None }),
            }
        }
    }
}

#[cfg_attr(unix, allow(dead_code))] // the line splitter of the non-Unix reader thread (and its tests)
fn read_line(reader: &mut impl BufRead) -> Read1 {
    let mut line = Vec::new();
    loop {
        let (done, used) = match reader.fill_buf() {
            Ok([]) => {
                let partial =
                    (!line.is_empty()).then(|| String::from_utf8_lossy(&line).into_owned());
                return Read1::Eof { partial };
            }
            Ok(buf) => match memchr::memchr(b'\n', buf) {
                Some(i) => {
                    line.extend_from_slice(&buf[..i]);
                    (true, i + 1)
                }
                None => {
                    line.extend_from_slice(buf);
                    (false, buf.len())
                }
            },
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Read1::Broken(format!("reading stdout failed: {e}")),
        };
        reader.consume(used);
        if line.len() > MAX_LINE {
            return Read1::Broken(format!(
                "a line on stdout is longer than {} MiB",
                MAX_LINE >> 20
            ));
        }
        if done {
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            return match String::from_utf8(line) {
                Ok(s) => Read1::Line(s),
                Err(e) => Read1::Broken(format!(
                    "a line on stdout is not UTF-8: {}",
                    String::from_utf8_lossy(e.as_bytes())
                )),
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::BufReader;

    #[test]
    fn lines_partial_tails_and_crlf() {
        let mut r = BufReader::with_capacity(4, &b"ab\r\ncdefgh\nxy"[..]);
        assert!(matches!(read_line(&mut r), Read1::Line(s) if s == "ab"));
        assert!(matches!(read_line(&mut r), Read1::Line(s) if s == "cdefgh"));
        assert!(matches!(read_line(&mut r), Read1::Eof { partial: Some(s) } if s == "xy"));
        assert!(matches!(read_line(&mut r), Read1::Eof { partial: None }));
    }

    #[test]
    fn the_tail_is_bounded_and_marks_what_was_dropped() {
        let mut t = Tail {
            limit: 4,
            ..Tail::default()
        };
        t.push(b"abc");
        let mark = t.total();
        t.push(b"def");
        assert_eq!(t.since(mark), "def");
        assert_eq!(t.since(0), "[… earlier output dropped …]\ncdef");
    }
}
