use agent_host::{Context, Session, SessionEvent};

/// Closes the step's tracing span: `step/end {turn, step}` is appended on every close path,
/// cancel and failure included, so no span is left open.
pub fn install(ctx: &Context, tracer: Tracer) {
    ctx.on("session/event", move |session: &Session, event: &SessionEvent| {
        if event.kind != "step/end" {
            return;
        }
        if let (Some(turn), Some(step)) = (event.data["turn"].as_u64(), event.data["step"].as_u64()) {
            tracer.close_step(session.id(), turn, step);
        }
    });
}
