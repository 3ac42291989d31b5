//! MIRROR-3: the removed mirror cannot be emitted through the typed live-event API.
use mirrorless_conformance::driver::live::removed;
use mirrorless_conformance::driver::{Host, HostExt};

fn on_event(host: &mut dyn Host) {
    host.emit_event(removed::TurnStart { turn: 1 });
}

fn main() {
    let _ = on_event;
}
