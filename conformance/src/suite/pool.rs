//! The worker pool of a profile's generated cases (`-j N` with a driver that forks): one
//! thread per forked driver for the whole profile, each with its own [`Lane`], taking chunks
//! of cases in order from a shared queue, and the runner taking their items back in case
//! order.
//!
//! A chunk starts at the RNG state the chunk before it ends at: the worker that takes a chunk
//! waits for that state, draws the chunk's trees, and hands on the state after them before it
//! runs any case, so that only the drawing is in series.
//!
//! The queue runs at most [`AHEAD`] chunks per worker ahead of the chunk the runner is at, so
//! that workers never wait for one another and what the runner holds stays bounded while it
//! shrinks a counterexample. A worker ends with the pool (the profile's cases done, or the
//! runner halted), when its lane ends, or at a panic, which ends its chunk as a halt.

use super::lane::{Item, Lane};
use crate::driver::{Driver, HarnessError};
use crate::scenario::Case;
use proptest::strategy::Strategy;
use proptest::test_runner::TestRng;
use std::collections::{BTreeMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

/// How many chunks per worker the queue runs ahead of the runner.
const AHEAD: u64 = 4;

/// What a worker sends: an item of a chunk, or the chunk's end.
enum Message {
    Item(Item),
    Done,
}

/// The chunks to hand out: the next one, the first one not to hand out yet, and whether the
/// pool is over; and the RNG states chunks start at, as they become known (`None` after a
/// chunk whose drawing failed).
struct Queue {
    next: u64,
    limit: u64,
    closed: bool,
    starts: BTreeMap<u64, Option<TestRng>>,
}

/// What the workers share with the runner.
struct Shared {
    queue: Mutex<Queue>,
    wake: Condvar,
    /// Set when the runner needs no more items: a worker stops at its next case.
    cancel: AtomicBool,
    chunks: u64,
}

impl Shared {
    fn queue(&self) -> MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The next chunk for a worker, waiting while the queue is as far ahead as it may be;
    /// `None` when the pool is over.
    fn take(&self) -> Option<u64> {
        let mut q = self.queue();
        loop {
            if q.closed || q.next >= self.chunks {
                return None;
            }
            if q.next < q.limit {
                q.next += 1;
                return Some(q.next - 1);
            }
            q = self.wake.wait(q).unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// The RNG state chunk `chunk` starts at, once the chunk before it is drawn: `None` when
    /// the pool is over first, `Some(None)` when an earlier chunk's drawing failed.
    fn start_of(&self, chunk: u64) -> Option<Option<TestRng>> {
        let mut q = self.queue();
        loop {
            if let Some(rng) = q.starts.remove(&chunk) {
                return Some(rng);
            }
            if q.closed {
                return None;
            }
            q = self.wake.wait(q).unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// Records the RNG state chunk `chunk` starts at.
    fn started(&self, chunk: u64, rng: Option<TestRng>) {
        self.queue().starts.insert(chunk, rng);
        self.wake.notify_all();
    }

    /// Lets the queue run ahead of chunk `at` (the chunk the runner is at).
    fn advance(&self, at: u64, workers: u64) {
        let mut q = self.queue();
        q.limit = at
            .saturating_add(AHEAD.saturating_mul(workers))
            .min(self.chunks);
        drop(q);
        self.wake.notify_all();
    }

    /// Ends the pool: no chunk is handed out any more, and a worker stops at its next case.
    fn close(&self) {
        self.cancel.store(true, Ordering::SeqCst);
        self.queue().closed = true;
        self.wake.notify_all();
    }
}

/// Ends the pool when dropped.
struct CloseOnDrop<'s>(&'s Shared);

impl Drop for CloseOnDrop<'_> {
    fn drop(&mut self) {
        self.0.close();
    }
}

/// The items of the workers, in case order: chunk by chunk, each chunk's in the order its
/// worker sent them.
struct Ordered<'s> {
    shared: &'s Shared,
    workers: u64,
    rx: Receiver<(u64, Message)>,
    /// The chunk the runner is at.
    at: u64,
    /// Items of chunks ahead (and of this one) received but not yet taken.
    held: BTreeMap<u64, VecDeque<Message>>,
}

impl Ordered<'_> {
    fn next(&mut self) -> Option<Item> {
        loop {
            if self.at >= self.shared.chunks {
                return None;
            }
            match self.held.get_mut(&self.at).and_then(VecDeque::pop_front) {
                Some(Message::Item(item)) => return Some(item),
                Some(Message::Done) => {
                    self.held.remove(&self.at);
                    self.at += 1;
                    self.shared.advance(self.at, self.workers);
                    continue;
                }
                None => {}
            }
            match self.rx.recv() {
                Ok((chunk, message)) => self.held.entry(chunk).or_default().push_back(message),
                Err(_) => {
                    // Every worker is gone with this chunk unfinished: it cannot be counted.
                    self.at = self.shared.chunks;
                    return Some(Item::Halt(HarnessError(
                        "the threads running cases ended before the run's last case".into(),
                    )));
                }
            }
        }
    }
}

/// Runs the chunks of a profile's generated cases on `forks`, one worker thread each for as
/// long as `consume` runs, the first chunk starting at `rng`; `consume` takes the items in
/// case order (`None` after the last) and may stop taking them at any point.
pub(super) fn run<'a, S, R>(
    forks: &mut [Box<dyn Driver + Send>],
    chunks: u64,
    rng: TestRng,
    new_lane: &(dyn Fn() -> Lane<'a, S> + Sync),
    consume: impl FnOnce(&mut dyn FnMut() -> Option<Item>) -> R,
) -> R
where
    S: Strategy<Value = Case> + Sync,
{
    let workers = forks.len() as u64;
    let shared = Shared {
        queue: Mutex::new(Queue {
            next: 0,
            limit: 0,
            closed: false,
            starts: BTreeMap::from([(0, Some(rng))]),
        }),
        wake: Condvar::new(),
        cancel: AtomicBool::new(false),
        chunks,
    };
    shared.advance(0, workers);
    std::thread::scope(|scope| {
        let (tx, rx) = channel();
        for driver in forks.iter_mut() {
            let tx = tx.clone();
            let shared = &shared;
            scope.spawn(move || work(driver.as_mut(), new_lane(), shared, &tx));
        }
        drop(tx);
        let mut ordered = Ordered {
            shared: &shared,
            workers,
            rx,
            at: 0,
            held: BTreeMap::new(),
        };
        // The pool ends with `consume`, also when it unwinds: the workers must not wait for
        // chunks the runner will never take, or the scope would never join them.
        let _close = CloseOnDrop(&shared);
        consume(&mut || ordered.next())
    })
}

/// A worker: takes chunks until the pool or its lane ends; draws each (handing on the state
/// the next one starts at), then sends its items and its end.
fn work<S: Strategy<Value = Case>>(
    driver: &mut (dyn Driver + Send),
    mut lane: Lane<'_, S>,
    shared: &Shared,
    tx: &Sender<(u64, Message)>,
) {
    let send = |chunk: u64, item: Item| {
        let _ = tx.send((chunk, Message::Item(item)));
        let _ = tx.send((chunk, Message::Done));
    };
    while let Some(chunk) = shared.take() {
        let rng = match shared.start_of(chunk) {
            None => return,
            Some(None) => {
                let e = "the case generator failed on an earlier case";
                return send(chunk, Item::Error(HarnessError(e.into())));
            }
            Some(Some(rng)) => rng,
        };
        let drawn =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| lane.start(chunk, rng)));
        match drawn {
            Ok(Ok(next)) => shared.started(chunk + 1, Some(next)),
            Ok(Err(e)) => {
                shared.started(chunk + 1, None);
                return send(chunk, Item::Error(e));
            }
            Err(_) => {
                shared.started(chunk + 1, None);
                let e = "a driver thread panicked while drawing cases";
                return send(chunk, Item::Halt(HarnessError(e.into())));
            }
        }
        let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            while !shared.cancel.load(Ordering::SeqCst) {
                let Some(item) = lane.next_item(driver) else {
                    break;
                };
                if tx.send((chunk, Message::Item(item))).is_err() {
                    return;
                }
            }
        }));
        if ran.is_err() {
            lane.ended = true;
            let halt = Item::Halt(HarnessError("a driver thread panicked".into()));
            let _ = tx.send((chunk, Message::Item(halt)));
        }
        if tx.send((chunk, Message::Done)).is_err() || lane.ended {
            return;
        }
    }
}
