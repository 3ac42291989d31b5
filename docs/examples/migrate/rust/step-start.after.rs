use agent_host::{Context, Session, SessionEvent};

/// Opens a tracing span per step: `step/start {turn, step}` is appended when the step opens,
/// before any of its chunks.
pub fn install(ctx: &Context, tracer: Tracer) {
    ctx.on("session/event", move |session: &Session, event: &SessionEvent| {
        if event.kind != "step/start" {
            return;
        }
        if let (Some(turn), Some(step)) = (event.data["turn"].as_u64(), event.data["step"].as_u64()) {
            tracer.open_step(session.id(), turn, step);
        }
    });
}
