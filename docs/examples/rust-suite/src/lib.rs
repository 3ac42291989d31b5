//! An agent loop plugged into the mirrorless harness.
//!
//! `AgentLoop::run` is where your loop meets the harness: take user actions from
//! `host.next_input()`, open model calls with `host.request_model(turn, step)` and read
//! `host.next_stream_item()`, run tools with `host.run_tool(..)`, and report every durable event
//! your session log appends with `host.append(..)` and every live event with
//! `host.emit_event(..)` (or `host.emit_named(name, payload)` if your bus names events by string).
//! To keep the example short, `MyLoop` delegates all of that to the reference implementation
//! shipped with mirrorless; replace the body of `run` with your loop.

use mirrorless_conformance::Profile;
use mirrorless_conformance::driver::{AgentLoop, Host};
use mirrorless_conformance::reference::ReferenceLoop;

/// The implementation under test.
pub struct MyLoop {
    inner: ReferenceLoop,
}

impl AgentLoop for MyLoop {
    fn new(profile: Profile) -> Self {
        MyLoop {
            inner: ReferenceLoop::new(profile),
        }
    }

    fn run(&mut self, host: &mut dyn Host) -> Result<(), String> {
        self.inner.run(host)
    }
}
