use agent_host::{Context, Session, SessionEvent};

/// Starts a spinner when a turn starts. The durable `turn/start {turn}` is appended for every
/// turn, idle injection turns included.
pub fn install(ctx: &Context, ui: Ui) {
    ctx.on("session/event", move |session: &Session, event: &SessionEvent| {
        if event.kind == "turn/start" {
            if let Some(turn) = event.data["turn"].as_u64() {
                ui.spinner_on(session.id(), turn);
            }
        }
    });
}
