use agent_host::{Context, Session, SessionEvent};

/// Closes the step's tracing span.
pub fn install(ctx: &Context, tracer: Tracer) {
    ctx.on("session/event", move |session: &Session, event: &SessionEvent| {
        if event.kind != "step/end" {
            return;
        }
        let Some(turn) = event.data["turn"].as_u64() else {
            return;
        };
        let Some(step) = event.data["step"].as_u64() else {
            return;
        };
        tracer.close_step(session.id(), turn, step);
    });
}
