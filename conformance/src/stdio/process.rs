//! The implementation's process: spawning, line reading with timeouts, bounded stderr
//! capture, and a shutdown ladder (close stdin, wait, kill).
//!
//! Standard output is never read with an unbounded blocking call: on Unix the driver polls the
//! pipe with the time left until its deadline (one wake-up per batch of messages, which is what
//! keeps a round trip cheap), elsewhere a reader thread sends complete lines over a channel and
//! the driver waits with `recv_timeout`. Either way it gives up at the deadline.
//! Standard error is drained by another thread into a bounded tail buffer, so a chatty
//! implementation can never fill the pipe and stall.

use std::collections::VecDeque;
use std::io::{BufRead, BufWriter, Read, Write};
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
}

/// Why waiting for a line failed.
#[derive(Debug)]
pub enum WaitError {
    /// Nothing arrived before the deadline.
    Timeout,
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

/// A running implementation process.
pub struct Process {
    child: Child,
    stdin: Option<BufWriter<ChildStdin>>,
    lines: Lines,
    stderr: Arc<Mutex<Tail>>,
    stderr_thread: Option<JoinHandle<()>>,
}

impl Process {
    /// Spawns `command` (program and arguments) with piped stdio; stderr keeps at most
    /// `stderr_limit` bytes.
    pub fn spawn(command: &[String], stderr_limit: usize) -> Result<Process, String> {
        let (program, args) = command
            .split_first()
            .ok_or_else(|| "the implementation command is empty".to_owned())?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start `{}`: {e}", command.join(" ")))?;
        let stdin = child.stdin.take().map(BufWriter::new);
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
            lines,
            stderr,
            stderr_thread: Some(stderr_thread),
        })
    }

    /// Writes one line (without flushing).
    pub fn write_line(&mut self, line: &[u8]) -> std::io::Result<()> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| std::io::Error::other("stdin is closed"))?;
        stdin.write_all(line)?;
        stdin.write_all(b"\n")
    }

    /// Flushes what was written.
    pub fn flush(&mut self) -> std::io::Result<()> {
        match self.stdin.as_mut() {
            Some(s) => s.flush(),
            None => Err(std::io::Error::other("stdin is closed")),
        }
    }

    /// The next stdout item, waiting until `deadline`.
    pub fn next(&mut self, deadline: Instant) -> Result<Read1, WaitError> {
        self.lines.next(deadline)
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

    /// Waits up to `grace` for the process to exit by itself, then kills it; returns the exit
    /// status if it could be collected, after the stderr reader drained the pipe.
    pub fn stop(&mut self, grace: Duration) -> Option<ExitStatus> {
        self.stdin = None; // closing stdin asks a well-behaved implementation to exit
        let deadline = Instant::now() + grace;
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5));
                }
                Ok(None) | Err(_) => {
                    let _ = self.child.kill();
                    break self.child.wait().ok();
                }
            }
        };
        if let Some(t) = self.stderr_thread.take() {
            // A grandchild may hold stderr open; never wait for it unboundedly.
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

    /// Whether the process has exited (and how), without waiting.
    pub fn exited(&mut self) -> Option<ExitStatus> {
        self.child.try_wait().ok().flatten()
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        if self.exited().is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Line reading from the implementation's stdout with a deadline.
#[cfg(unix)]
struct Lines {
    pipe: ChildStdout,
    buf: Vec<u8>,
    start: usize,
    eof: bool,
}

#[cfg(unix)]
impl Lines {
    fn new(pipe: ChildStdout) -> Result<Lines, String> {
        Ok(Lines {
            pipe,
            buf: Vec::with_capacity(64 << 10),
            start: 0,
            eof: false,
        })
    }

    /// Waits until the pipe is readable or `deadline` passes; `Ok(false)` on timeout.
    fn wait_readable(&self, deadline: Instant) -> std::io::Result<bool> {
        use std::os::fd::AsRawFd;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            // Round up, so a wait never ends just before its deadline and spins.
            let ms = left.as_micros().div_ceil(1000).min(i32::MAX as u128) as i32;
            let mut fd = libc::pollfd {
                fd: self.pipe.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            };
            // SAFETY: one valid pollfd for the duration of the call.
            let n = unsafe { libc::poll(&mut fd, 1, ms) };
            if n > 0 {
                return Ok(true);
            }
            if n == 0 {
                return Ok(false);
            }
            let e = std::io::Error::last_os_error();
            if e.kind() != std::io::ErrorKind::Interrupted {
                return Err(e);
            }
        }
    }

    fn next(&mut self, deadline: Instant) -> Result<Read1, WaitError> {
        loop {
            let pending = &self.buf[self.start..];
            if let Some(i) = memchr::memchr(b'\n', pending) {
                let mut line = &pending[..i];
                self.start += i + 1;
                if line.last() == Some(&b'\r') {
                    line = &line[..line.len() - 1];
                }
                return Ok(match std::str::from_utf8(line) {
                    Ok(s) => Read1::Line(s.to_owned()),
                    Err(_) => Read1::Broken(format!(
                        "a line on stdout is not UTF-8: {}",
                        String::from_utf8_lossy(line)
                    )),
                });
            }
            if pending.len() > MAX_LINE {
                return Ok(Read1::Broken(format!(
                    "a line on stdout is longer than {} MiB",
                    MAX_LINE >> 20
                )));
            }
            if self.eof {
                let partial =
                    (!pending.is_empty()).then(|| String::from_utf8_lossy(pending).into_owned());
                self.start = self.buf.len();
                return Ok(Read1::Eof { partial });
            }
            if self.start > 0 {
                self.buf.drain(..self.start);
                self.start = 0;
            }
            match self.wait_readable(deadline) {
                Ok(true) => {}
                Ok(false) => return Err(WaitError::Timeout),
                Err(e) => return Ok(Read1::Broken(format!("waiting for stdout failed: {e}"))),
            }
            let len = self.buf.len();
            self.buf.resize(len + (64 << 10), 0);
            match self.pipe.read(&mut self.buf[len..]) {
                Ok(0) => {
                    self.buf.truncate(len);
                    self.eof = true;
                }
                Ok(n) => self.buf.truncate(len + n),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => self.buf.truncate(len),
                Err(e) => {
                    self.buf.truncate(len);
                    return Ok(Read1::Broken(format!("reading stdout failed: {e}")));
                }
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

    fn next(&mut self, deadline: Instant) -> Result<Read1, WaitError> {
        use std::sync::mpsc::RecvTimeoutError;
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.rx.recv_timeout(wait) {
            Ok(r) => Ok(r),
            Err(RecvTimeoutError::Timeout) => Err(WaitError::Timeout),
            // The reader ends after sending Eof/Broken; reading again repeats the end.
            Err(RecvTimeoutError::Disconnected) => Ok(Read1::Eof { partial: None }),
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
