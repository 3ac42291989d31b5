use agent_host::{Context, Session, SessionEvent};

/// Opens a tracing span per step.
pub fn install(ctx: &Context, tracer: Tracer) {
    ctx.on("session/event", move |session: &Session, event: &SessionEvent| {
        if event.kind != "step/start" {
            return;
        }
        let Some(turn) = event.data["turn"].as_u64() else {
            return;
        };
        let Some(step) = event.data["step"].as_u64() else {
            return;
        };
        tracer.open_step(session.id(), turn, step);
    });
}
