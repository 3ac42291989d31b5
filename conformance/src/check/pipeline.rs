//! `check` on two threads: one reads the input and runs the chunk-line scanner
//! ([`scan_chunk_line`]) over every line it reads, the other runs the checker, in order, on
//! the same bytes, taking each line's scan from the first instead of scanning it again.
//!
//! The scanner's work on a line depends on that line alone, so it can run ahead of the state
//! machine; everything that depends on order (seqs, turns, findings, the context ring) stays
//! on the checker's thread, which reads the very same `read_all` loop over the same bytes as
//! the one-thread reader. A line whose scan is missing or does not match (a line cut by a
//! batch boundary, a `\r` or a byte order mark stripped before the scan would have run) is
//! scanned where it is checked, as without this module; so the outcome is the same (the
//! property test in `check/fast_equiv.rs` compares them).
//!
//! Memory is bounded: the reading thread hands over batches of at most [`BATCH_BYTES`] (cut
//! after the last newline they hold; a longer line is handed over in pieces, unscanned)
//! through a channel of [`BATCHES_AHEAD`], and the checker hands each batch's buffers back to
//! be reused.
//!
//! The two threads share the scanning ([`ScanShare`]): the reading thread also copies the file
//! out of the kernel, so when it scans every line the checker waits for it. It scans the lines
//! that start in the first part of each batch and leaves the rest to the checker, and it moves
//! that part by a sixteenth after each batch: down when the checker had already taken every
//! batch sent (it waited), up when the channel was full (the reading thread waited).

use super::event::{ChunkData, RawChunk};
use super::fastline::{FastLine, scan_chunk_line};
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::io::{self, BufRead, Read};
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TryRecvError, sync_channel};

/// The most bytes one batch holds.
pub(super) const BATCH_BYTES: usize = 256 * 1024;

/// How many batches the reading thread may be ahead of the checker.
pub(super) const BATCHES_AHEAD: usize = 2;

/// How much of each batch the reading thread scans, in sixteenths of its bytes (the lines that
/// start there); the checker scans the other lines itself, as it would without this module.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ScanShare {
    /// Starts at all of it and moves by a sixteenth after each batch, towards the share that
    /// keeps neither thread waiting for the other.
    Adaptive,
    /// Always this many sixteenths (0 to 16; more is 16), for the tests.
    #[cfg_attr(not(test), allow(dead_code))]
    Fixed(usize),
}

/// A whole batch, in [`ScanShare`]'s sixteenths.
const ALL: usize = 16;

/// A chunk line the reading thread has read in full.
#[derive(Debug)]
pub(super) enum Prescan {
    /// A text or reasoning delta; its text is bytes `start..end` of the batch's texts.
    Delta {
        seq: u64,
        turn: u64,
        step: u64,
        index: u32,
        reasoning: bool,
        start: u32,
        end: u32,
    },
    /// Any other chunk in the writer's envelope, as serde_json read its chunk object.
    Chunk(Box<OwnedChunk>),
}

/// A chunk line's [`ChunkData`] with the chunk object owned, to cross threads: what
/// [`scan_chunk_line`] read, member for member.
#[derive(Debug)]
pub(super) struct OwnedChunk {
    pub(super) seq: u64,
    turn: Option<u64>,
    step: Option<u64>,
    kind: String,
    index: Option<u32>,
    block_type: Option<String>,
    text: Option<String>,
    id: Option<String>,
    name: Option<String>,
    arguments_delta: Option<String>,
    block: Option<Box<RawValue>>,
    usage: Option<Box<RawValue>>,
    reason: Option<Box<RawValue>>,
}

impl OwnedChunk {
    /// `None` for data without a chunk object (which the scanner never yields).
    fn new(seq: u64, data: ChunkData<'_>) -> Option<OwnedChunk> {
        let c = data.chunk?;
        let owned = |v: Option<Cow<'_, str>>| v.map(Cow::into_owned);
        Some(OwnedChunk {
            seq,
            turn: data.turn,
            step: data.step,
            kind: c.kind.into_owned(),
            index: c.index,
            block_type: owned(c.block_type),
            text: owned(c.text),
            id: owned(c.id),
            name: owned(c.name),
            arguments_delta: owned(c.arguments_delta),
            block: c.block.map(ToOwned::to_owned),
            usage: c.usage.map(ToOwned::to_owned),
            reason: c.reason.map(ToOwned::to_owned),
        })
    }

    /// The data, borrowed again, as the scanner handed it over.
    pub(super) fn data(&self) -> ChunkData<'_> {
        fn borrowed(v: &Option<String>) -> Option<Cow<'_, str>> {
            v.as_deref().map(Cow::Borrowed)
        }
        ChunkData {
            turn: self.turn,
            step: self.step,
            chunk: Some(RawChunk {
                kind: Cow::Borrowed(&self.kind),
                index: self.index,
                block_type: borrowed(&self.block_type),
                text: borrowed(&self.text),
                id: borrowed(&self.id),
                name: borrowed(&self.name),
                arguments_delta: borrowed(&self.arguments_delta),
                block: self.block.as_deref(),
                usage: self.usage.as_deref(),
                reason: self.reason.as_deref(),
            }),
        }
    }
}

/// One scanned line of a batch.
#[derive(Debug)]
struct Scanned {
    /// Offset of the line's first byte in the batch.
    at: usize,
    /// Length of the line, without its newline.
    len: usize,
    scan: Prescan,
}

/// A run of the input, with the chunk lines in the writer's shape that start in it read.
#[derive(Default)]
struct Batch {
    bytes: Vec<u8>,
    scans: Vec<Scanned>,
    /// The texts of its deltas, one after the other.
    texts: String,
}

/// What the reading thread sends.
enum Message {
    Batch(Batch),
    Failed(io::Error),
    End,
}

/// The scans of the batch the checker reads, shared between the [`PipeReader`] (which swaps
/// batches in) and the checker (which looks up each line).
#[derive(Default)]
pub(super) struct Prescans {
    scans: Vec<Scanned>,
    texts: String,
    /// The first scan not yet passed.
    next: Cell<usize>,
    /// Offset in the batch of the first byte the reader's last `fill_buf` returned.
    base: usize,
}

impl Prescans {
    /// The reading of the line of `len` bytes at `offset` of what the last `fill_buf`
    /// returned, with a delta's text, if the reading thread read exactly that line.
    pub(super) fn get(&self, offset: usize, len: usize) -> Option<(&Prescan, &str)> {
        let at = self.base + offset;
        let mut next = self.next.get();
        while self.scans.get(next).is_some_and(|s| s.at < at) {
            next += 1;
        }
        self.next.set(next);
        let s = self
            .scans
            .get(next)
            .filter(|s| s.at == at && s.len == len)?;
        let text = match s.scan {
            Prescan::Delta { start, end, .. } => self.texts.get(start as usize..end as usize)?,
            Prescan::Chunk(_) => "",
        };
        Some((&s.scan, text))
    }
}

/// The checker's side: a [`BufRead`] over the batches, in order.
pub(super) struct PipeReader {
    rx: Receiver<Message>,
    recycle: SyncSender<Batch>,
    /// Batches sent and not yet taken (the reading thread's measure of who waits).
    in_flight: Arc<AtomicUsize>,
    bytes: Vec<u8>,
    pos: usize,
    done: bool,
    prescans: Rc<RefCell<Prescans>>,
}

impl PipeReader {
    /// The scans of the current batch, for the checker.
    pub(super) fn prescans(&self) -> Rc<RefCell<Prescans>> {
        Rc::clone(&self.prescans)
    }
}

impl Read for PipeReader {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(out.len());
        out[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for PipeReader {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        while self.pos >= self.bytes.len() && !self.done {
            match self.rx.recv() {
                Ok(Message::Batch(batch)) => {
                    self.in_flight.fetch_sub(1, Ordering::Relaxed);
                    let mut prescans = self.prescans.borrow_mut();
                    let old = Batch {
                        bytes: std::mem::replace(&mut self.bytes, batch.bytes),
                        scans: std::mem::replace(&mut prescans.scans, batch.scans),
                        texts: std::mem::replace(&mut prescans.texts, batch.texts),
                    };
                    prescans.next.set(0);
                    self.pos = 0;
                    // The reading thread may have ended (an error): nothing to hand back to.
                    let _ = self.recycle.try_send(old);
                }
                Ok(Message::Failed(e)) => {
                    self.done = true;
                    return Err(e);
                }
                Ok(Message::End) => self.done = true,
                Err(_) => {
                    self.done = true;
                    return Err(io::Error::other(
                        "the thread reading the input ended before the end of the input",
                    ));
                }
            }
        }
        self.prescans.borrow_mut().base = self.pos;
        Ok(&self.bytes[self.pos.min(self.bytes.len())..])
    }

    fn consume(&mut self, amount: usize) {
        self.pos = (self.pos + amount).min(self.bytes.len());
    }
}

/// Runs `check` with a [`PipeReader`] over `input`, read in batches of at most
/// `batch_bytes` and scanned on a second thread as far as `share` says.
pub(super) fn with_pipe<R, T>(
    input: R,
    batch_bytes: usize,
    share: ScanShare,
    check: impl FnOnce(PipeReader) -> T,
) -> T
where
    R: Read + Send,
{
    let batch_bytes = batch_bytes.max(1);
    let (tx, rx) = sync_channel(BATCHES_AHEAD);
    let (recycle, recycled) = sync_channel(BATCHES_AHEAD + 2);
    let in_flight = Arc::new(AtomicUsize::new(0));
    let sender = Sender {
        tx,
        in_flight: Arc::clone(&in_flight),
    };
    std::thread::scope(|scope| {
        scope.spawn(move || produce(input, batch_bytes, share, &sender, &recycled));
        let reader = PipeReader {
            rx,
            recycle,
            in_flight,
            bytes: Vec::new(),
            pos: 0,
            done: false,
            prescans: Rc::default(),
        };
        // The reader (its receiver) is dropped when `check` returns, which ends the reading
        // thread if it is still sending.
        check(reader)
    })
}

/// The reading thread's end of the channel, counting the batches in it.
struct Sender {
    tx: SyncSender<Message>,
    in_flight: Arc<AtomicUsize>,
}

impl Sender {
    /// Sends a message; `false` when the checker has gone.
    fn send(&self, message: Message) -> bool {
        let batch = matches!(message, Message::Batch(_));
        if batch {
            self.in_flight.fetch_add(1, Ordering::Relaxed);
        }
        self.tx.send(message).is_ok()
    }

    /// The share to scan of the next batch, after `share` of the last: less when the checker
    /// has taken every batch (it is waiting), more when the channel is full (this thread would
    /// wait).
    fn next_share(&self, share: ScanShare, last: usize) -> usize {
        match share {
            ScanShare::Fixed(n) => n.min(ALL),
            ScanShare::Adaptive => match self.in_flight.load(Ordering::Relaxed) {
                0 => last.saturating_sub(1),
                n if n >= BATCHES_AHEAD => (last + 1).min(ALL),
                _ => last,
            },
        }
    }
}

/// The reading thread: batches of whole lines (as far as a batch holds them), scanned as far
/// as `share` says.
fn produce<R: Read>(
    mut input: R,
    batch_bytes: usize,
    share: ScanShare,
    tx: &Sender,
    recycled: &Receiver<Batch>,
) {
    // The bytes after the last newline of the previous batch, and whether a line starts there.
    let mut carry: Vec<u8> = Vec::new();
    let mut at_line_start = true;
    let mut sixteenths = ALL;
    loop {
        let mut batch = match recycled.try_recv() {
            Ok(b) => b,
            Err(TryRecvError::Empty | TryRecvError::Disconnected) => Batch {
                bytes: Vec::with_capacity(batch_bytes),
                ..Batch::default()
            },
        };
        batch.scans.clear();
        batch.texts.clear();
        // The bytes are read into in place, the batch at its full length meanwhile: a
        // recycled batch is initialized up to the length it was handed over with (its bytes up
        // to its last newline), so only the few bytes past that are zeroed here, not the whole
        // batch before every read.
        batch.bytes.resize(batch_bytes.max(carry.len()), 0);
        batch.bytes[..carry.len()].copy_from_slice(&carry);
        let mut filled = carry.len();
        carry.clear();
        let mut at_end = false;
        while filled < batch_bytes {
            match input.read(&mut batch.bytes[filled..]) {
                Ok(0) => {
                    at_end = true;
                    break;
                }
                Ok(n) => filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    // What was read before the error is checked first, as with one thread.
                    batch.bytes.truncate(filled);
                    if !batch.bytes.is_empty() {
                        tx.send(Message::Batch(batch));
                    }
                    tx.send(Message::Failed(e));
                    return;
                }
            }
        }
        batch.bytes.truncate(filled);
        if batch.bytes.is_empty() {
            tx.send(Message::End);
            return;
        }
        // Cut after the last newline; what follows goes to the next batch.
        if !at_end && let Some(last) = memchr::memrchr(b'\n', &batch.bytes) {
            carry.extend_from_slice(&batch.bytes[last + 1..]);
            batch.bytes.truncate(last + 1);
        }
        let starts_line = at_line_start;
        at_line_start = batch.bytes.last() == Some(&b'\n');
        sixteenths = tx.next_share(share, sixteenths);
        let scanned_to = batch.bytes.len() * sixteenths / ALL;
        scan_lines(&mut batch, starts_line, scanned_to);
        if !tx.send(Message::Batch(batch)) {
            return;
        }
        if at_end {
            tx.send(Message::End);
            return;
        }
    }
}

/// Reads every whole line that starts in the batch before `scanned_to` and is a chunk line in
/// the writer's shape.
fn scan_lines(batch: &mut Batch, starts_line: bool, scanned_to: usize) {
    let bytes = &batch.bytes;
    let mut at = if starts_line {
        0
    } else {
        match memchr::memchr(b'\n', bytes) {
            Some(i) => i + 1,
            None => return,
        }
    };
    while at < scanned_to
        && let Some(len) = memchr::memchr(b'\n', &bytes[at..])
    {
        let scan = match scan_chunk_line(&bytes[at..at + len]) {
            None => None,
            Some(FastLine::Chunk { seq, data }) => {
                OwnedChunk::new(seq, data).map(|c| Prescan::Chunk(Box::new(c)))
            }
            Some(FastLine::Delta(d)) => {
                let start = batch.texts.len();
                batch.texts.push_str(&d.text);
                match (u32::try_from(start), u32::try_from(batch.texts.len())) {
                    (Ok(start), Ok(end)) => Some(Prescan::Delta {
                        seq: d.seq,
                        turn: d.turn,
                        step: d.step,
                        index: d.index,
                        reasoning: d.reasoning,
                        start,
                        end,
                    }),
                    _ => None,
                }
            }
        };
        if let Some(scan) = scan {
            batch.scans.push(Scanned { at, len, scan });
        }
        at += len + 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sender(in_flight: usize) -> Sender {
        let (tx, _rx) = sync_channel(BATCHES_AHEAD);
        Sender {
            tx,
            in_flight: Arc::new(AtomicUsize::new(in_flight)),
        }
    }

    /// The adaptive share moves towards the thread that waits: down by a sixteenth when the
    /// checker has taken every batch, up when the channel is full, never past 0 or 16.
    #[test]
    fn the_adaptive_share_moves_towards_the_waiting_thread() {
        let waiting_checker = sender(0);
        assert_eq!(
            waiting_checker.next_share(ScanShare::Adaptive, ALL),
            ALL - 1
        );
        assert_eq!(waiting_checker.next_share(ScanShare::Adaptive, 0), 0);
        let busy_checker = sender(BATCHES_AHEAD);
        assert_eq!(busy_checker.next_share(ScanShare::Adaptive, 5), 6);
        assert_eq!(busy_checker.next_share(ScanShare::Adaptive, ALL), ALL);
        assert_eq!(sender(1).next_share(ScanShare::Adaptive, 7), 7);
        assert_eq!(waiting_checker.next_share(ScanShare::Fixed(40), 3), ALL);
    }
}
