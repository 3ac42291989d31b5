use agent_host::{Agent, Context, StreamChunk};

/// Counts output tokens per agent as they stream.
pub fn install(ctx: &Context, meter: Meter) {
    ctx.on("agent/stream-chunk", move |agent: &Agent, turn: u64, step: u64, chunk: &StreamChunk| {
        meter.record(agent.session_id(), turn, step, chunk);
    });
}
