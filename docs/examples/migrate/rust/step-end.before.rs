use agent_host::{Agent, Context};

/// Closes the step's tracing span.
pub fn install(ctx: &Context, tracer: Tracer) {
    ctx.on("agent/step-end", move |agent: &Agent, turn: u64, step: u64| {
        tracer.close_step(agent.session_id(), turn, step);
    });
}
