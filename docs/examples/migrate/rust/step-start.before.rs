use agent_host::{Agent, Context};

/// Opens a tracing span per step.
pub fn install(ctx: &Context, tracer: Tracer) {
    ctx.on("agent/step-start", move |agent: &Agent, turn: u64, step: u64| {
        tracer.open_step(agent.session_id(), turn, step);
    });
}
