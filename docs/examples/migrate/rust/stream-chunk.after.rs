use agent_host::{Context, Session, SessionEvent, StreamChunk};

/// Counts output tokens per session as they stream: every delta is a durable
/// `assistant/chunk` event with the same turn, step and chunk, in the same order.
pub fn install(ctx: &Context, meter: Meter) {
    ctx.on("session/event", move |session: &Session, event: &SessionEvent| {
        if event.kind != "assistant/chunk" {
            return;
        }
        let (turn, step) = (event.data["turn"].as_u64(), event.data["step"].as_u64());
        if let (Some(turn), Some(step), Ok(chunk)) = (turn, step, StreamChunk::from_value(&event.data["chunk"])) {
            meter.record(session.id(), turn, step, &chunk);
        }
    });
}
