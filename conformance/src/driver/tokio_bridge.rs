//! An async (tokio) agent loop behind the synchronous [`Host`] (cargo feature `tokio`).
//!
//! The harness is synchronous and ordered; a tokio loop awaits. [`run`] puts the loop's future
//! on a tokio runtime and serves the [`AsyncHost`] it is given from the calling thread: every
//! call is one message on one channel, so the harness sees the calls in the order the loop made
//! them, and each answer comes back to the awaiting task.
//!
//! ```ignore
//! impl AgentLoop for MyLoop {
//!     fn new(profile: Profile) -> Self { MyLoop { profile } }
//!     fn run(&mut self, host: &mut dyn Host) -> Result<(), String> {
//!         let profile = self.profile;
//!         tokio_bridge::run(runtime().handle(), host, move |host| my_async_loop(profile, host))
//!     }
//! }
//! ```
//!
//! # Tasks the loop spawns
//!
//! A loop often reacts to a cancel or dispose by spawning a task (`tokio::spawn(agent.dispose())`)
//! and reading on. Nothing polls that task before the loop's next call, so its events land after
//! the next chunk, or not, depending on the scheduler: the suite then rightly reports the loop as
//! not deterministic. Spawn such tasks with [`AsyncHost::spawn`] instead: before the harness
//! moves on (the next user input, model call, stream item, tool result or retry decision), the
//! bridge waits until every task spawned that way has finished, so what the task appends and
//! emits lands exactly where the loop reacted. The loop's end waits for them too. Such a task
//! may append and emit; it should not wait for the loop itself (it is waited for), and a call
//! from inside it that moves the harness on does not wait for the other tasks.

use super::{Emit, Host, LiveEvent, StreamItem, ToolRequest, ToolResult, UserInput};
use crate::vocab::Profile;
use crate::vocab::chunk::LlmFailure;
use crate::vocab::durable::SessionEvent;
use serde_json::Value;
use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use tokio::runtime::Handle;
use tokio::sync::{Notify, mpsc, oneshot};
use tokio::task::JoinHandle;

/// One call of the loop, served by the thread that owns the [`Host`].
enum Call {
    NextInput(oneshot::Sender<Option<UserInput>>),
    RequestModel(u64, u64, oneshot::Sender<()>),
    NextStreamItem(oneshot::Sender<StreamItem>),
    RunTool(ToolRequest, oneshot::Sender<ToolResult>),
    RequestError(u64, u64, LlmFailure, oneshot::Sender<bool>),
    Append(SessionEvent),
    Emit(String, Value),
    /// The loop's future ended (and every task it spawned through the bridge).
    Done(Result<(), String>),
}

/// The tasks spawned through [`AsyncHost::spawn`] that have not finished yet.
#[derive(Default)]
struct Tasks {
    live: AtomicUsize,
    idle: Notify,
    panicked: AtomicBool,
}

/// Counts one spawned task until it is dropped: finished, cancelled or unwound.
struct Live(Arc<Tasks>);

impl Drop for Live {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.panicked.store(true, Ordering::SeqCst);
        }
        if self.0.live.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.0.idle.notify_waiters();
        }
    }
}

tokio::task_local! {
    /// Set inside a task spawned through the bridge (which must not wait for itself).
    static TRACKED: ();
}

/// What an async loop talks to: the [`Host`] conversation with `async` calls. Cheap to clone,
/// `Send` and `'static`, so spawned tasks can hold it. Appends and emits are queued at once, in
/// order; the calls that wait for an answer are `async`.
#[derive(Clone)]
pub struct AsyncHost {
    calls: mpsc::UnboundedSender<Call>,
    profile: Profile,
    tasks: Arc<Tasks>,
}

impl AsyncHost {
    /// The profile the case runs under.
    pub fn profile(&self) -> Profile {
        self.profile
    }

    /// Waits until every task spawned through [`AsyncHost::spawn`] has finished (not from
    /// inside one: it would wait for itself).
    async fn settle(&self) {
        if TRACKED.try_with(|()| ()).is_ok() {
            return;
        }
        loop {
            // Registered before the check, so a task finishing in between still wakes us.
            let idle = self.tasks.idle.notified();
            if self.tasks.live.load(Ordering::SeqCst) == 0 {
                return;
            }
            idle.await;
        }
    }

    /// Sends a call that moves the harness on, once the spawned tasks have landed, and awaits
    /// its answer; `gone` when the harness no longer answers (the case is over).
    async fn ask<T>(&self, call: impl FnOnce(oneshot::Sender<T>) -> Call, gone: T) -> T {
        self.settle().await;
        let (tx, rx) = oneshot::channel();
        if self.calls.send(call(tx)).is_err() {
            return gone;
        }
        rx.await.unwrap_or(gone)
    }

    /// [`Host::next_input`]: the next user action; `None` when the case is over.
    pub async fn next_input(&self) -> Option<UserInput> {
        self.ask(Call::NextInput, None).await
    }

    /// [`Host::request_model`]: opens a model call for the open `turn` and `step`.
    pub async fn request_model(&self, turn: u64, step: u64) {
        self.ask(|tx| Call::RequestModel(turn, step, tx), ()).await;
    }

    /// [`Host::next_stream_item`]: the next item of the open model call.
    pub async fn next_stream_item(&self) -> StreamItem {
        self.ask(Call::NextStreamItem, StreamItem::End).await
    }

    /// [`Host::run_tool`]: runs a tool call and returns its result.
    pub async fn run_tool(&self, request: ToolRequest) -> ToolResult {
        let gone = ToolResult {
            content: "mirrorless: the case is over".into(),
            is_error: true,
        };
        self.ask(|tx| Call::RunTool(request, tx), gone).await
    }

    /// [`Host::request_error`]: whether to retry the failed call in the same step (2026-08).
    pub async fn request_error(&self, turn: u64, step: u64, failure: LlmFailure) -> bool {
        self.ask(|tx| Call::RequestError(turn, step, failure, tx), false)
            .await
    }

    /// [`Host::append`]: records a durable event the loop appended to its session log.
    pub fn append(&self, event: SessionEvent) {
        // After the case the harness is gone and nothing records anything.
        let _ = self.calls.send(Call::Append(event));
    }

    /// [`HostExt::emit_event`](super::HostExt::emit_event): a typed live event (a removed
    /// mirror does not compile).
    pub fn emit_event<E: Emit>(&self, event: E) {
        self.emit(event.into_live_event());
    }

    /// [`Host::emit`]: a typed live event.
    pub fn emit(&self, event: LiveEvent) {
        self.emit_named(event.name(), event.data());
    }

    /// [`Host::emit_named`]: a live event by name and payload, judged as over stdio.
    pub fn emit_named(&self, event: &str, data: Value) {
        let _ = self.calls.send(Call::Emit(event.to_owned(), data));
    }

    /// Spawns a task on the current runtime whose appends and emits must land before the
    /// harness moves on (a dispose or cancel handler): the bridge waits for it before the
    /// loop's next call that moves the harness on, and before the loop's end. A panic in it is
    /// reported as a crash of the loop.
    pub fn spawn<F>(&self, task: F) -> JoinHandle<F::Output>
    where
        F: Future + Send + 'static,
        F::Output: Send + 'static,
    {
        self.tasks.live.fetch_add(1, Ordering::SeqCst);
        let live = Live(self.tasks.clone());
        tokio::spawn(TRACKED.scope((), async move {
            let _live = live;
            task.await
        }))
    }
}

/// Runs the async loop that `agent` returns on `runtime`, serving its [`AsyncHost`] from this
/// thread until the loop's future ends; its `Err`, or a panic in it or in a task it spawned
/// through [`AsyncHost::spawn`], is the loop's crash. Call it from [`AgentLoop::run`]
/// (super::AgentLoop::run), not from inside an async context (it blocks this thread).
pub fn run<F, Fut>(runtime: &Handle, host: &mut dyn Host, agent: F) -> Result<(), String>
where
    F: FnOnce(AsyncHost) -> Fut,
    Fut: Future<Output = Result<(), String>> + Send + 'static,
{
    let (calls, mut served) = mpsc::unbounded_channel();
    let async_host = AsyncHost {
        calls,
        profile: host.profile(),
        tasks: Arc::default(),
    };
    let future = {
        let _entered = runtime.enter();
        agent(async_host.clone())
    };
    let main = runtime.spawn(future);
    runtime.spawn(async move {
        let outcome = match main.await {
            Ok(outcome) => outcome,
            Err(e) if e.is_panic() => Err(format!("the async loop panicked: {}", panic_text(e))),
            Err(_) => Err("the async loop's task was cancelled".to_owned()),
        };
        // What the loop spawned through the bridge lands before its end.
        async_host.settle().await;
        let outcome = match outcome {
            Ok(()) if async_host.tasks.panicked.load(Ordering::SeqCst) => {
                Err("a task the async loop spawned through the bridge panicked".to_owned())
            }
            other => other,
        };
        let _ = async_host.calls.send(Call::Done(outcome));
    });
    while let Some(call) = served.blocking_recv() {
        // A dropped receiver is a caller that stopped waiting: nothing to answer.
        match call {
            Call::NextInput(tx) => {
                let _ = tx.send(host.next_input());
            }
            Call::RequestModel(turn, step, tx) => {
                host.request_model(turn, step);
                let _ = tx.send(());
            }
            Call::NextStreamItem(tx) => {
                let _ = tx.send(host.next_stream_item());
            }
            Call::RunTool(request, tx) => {
                let _ = tx.send(host.run_tool(&request));
            }
            Call::RequestError(turn, step, failure, tx) => {
                let _ = tx.send(host.request_error(turn, step, &failure));
            }
            Call::Append(event) => host.append(event),
            Call::Emit(event, data) => host.emit_named(&event, data),
            Call::Done(outcome) => return outcome,
        }
    }
    Err("the async loop's runtime shut down before the loop finished".to_owned())
}

fn panic_text(error: tokio::task::JoinError) -> String {
    let payload = error.into_panic();
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic with a non-string payload".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::{Exchange, Harness};
    use crate::scenario::Case;
    use serde_json::json;

    fn case() -> Case {
        serde_json::from_value(json!({
            "profile": "2026-08",
            "script": { "actions": [{ "action": "prompt", "text": "p", "calls": [{ "chunks": [
                { "type": "block-start", "index": 0, "blockType": "text" },
                { "type": "text-delta", "index": 0, "text": "a" },
                { "type": "finish", "reason": { "kind": "stop" } }
            ] }] }] }
        }))
        .expect("a valid case")
    }

    fn event(kind: &str) -> SessionEvent {
        SessionEvent {
            kind: kind.to_owned(),
            seq: None,
            time: None,
            data: Value::Null,
            surface_op: None,
            source_event_seqs: None,
            ignorable: None,
        }
    }

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .build()
            .expect("a runtime")
    }

    /// A task spawned through the bridge after the first chunk, which takes its time, still
    /// lands before the second chunk is delivered.
    #[test]
    fn a_spawned_task_lands_before_the_harness_moves_on() {
        let rt = runtime();
        let case = case();
        for _ in 0..20 {
            let mut harness = Harness::new(&case, "agent-1");
            let outcome = run(rt.handle(), &mut harness, |host| async move {
                host.next_input().await;
                host.request_model(1, 1).await;
                let _ = host.next_stream_item().await;
                let late = host.clone();
                host.spawn(async move {
                    for _ in 0..5 {
                        tokio::task::yield_now().await;
                    }
                    late.append(event("spawned"));
                    late.emit_named("agent/status", json!({ "status": "idle" }));
                });
                let _ = host.next_stream_item().await;
                host.append(event("after"));
                Ok(())
            });
            assert_eq!(outcome, Ok(()));
            let obs = harness.finish();
            let kinds: Vec<&str> = obs.log.iter().map(|e| e.kind.as_str()).collect();
            assert_eq!(kinds, ["spawned", "after"]);
            // The second chunk was delivered after the spawned task's append.
            assert!(
                obs.transcript
                    .iter()
                    .any(|x| matches!(x, Exchange::Chunk { index: 1, at: 1 })),
                "{:?}",
                obs.transcript
            );
            assert_eq!(obs.live[0].at, Some(1));
        }
    }

    #[test]
    fn a_panic_or_an_error_of_the_loop_is_its_crash() {
        let rt = runtime();
        let case = case();
        let mut harness = Harness::new(&case, "agent-1");
        let outcome = run(rt.handle(), &mut harness, |_host| async move {
            panic!("boom");
        });
        assert_eq!(outcome, Err("the async loop panicked: boom".to_owned()));
        let mut harness = Harness::new(&case, "agent-1");
        let outcome = run(rt.handle(), &mut harness, |host| async move {
            host.spawn(async { panic!("in a task") });
            Ok(())
        });
        assert_eq!(
            outcome,
            Err("a task the async loop spawned through the bridge panicked".to_owned())
        );
        let mut harness = Harness::new(&case, "agent-1");
        let outcome = run(rt.handle(), &mut harness, |_host| async move {
            Err("no model".to_owned())
        });
        assert_eq!(outcome, Err("no model".to_owned()));
    }
}
