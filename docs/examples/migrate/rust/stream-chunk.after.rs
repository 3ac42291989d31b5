use agent_host::{Context, Session, SessionEvent, StreamChunk};

/// Counts output tokens per agent as they stream.
pub fn install(ctx: &Context, meter: Meter) {
    ctx.on("session/event", move |session: &Session, event: &SessionEvent| {
        if event.kind != "assistant/chunk" {
            return;
        }
        let Some(turn) = event.data["turn"].as_u64() else {
            return;
        };
        let Some(step) = event.data["step"].as_u64() else {
            return;
        };
        let Ok(chunk) = StreamChunk::from_value(&event.data["chunk"]) else {
            return;
        };
        let chunk = &chunk;
        meter.record(session.id(), turn, step, chunk);
    });
}
