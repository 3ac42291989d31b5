use agent_host::{Context, Session, SessionEvent};

/// Starts a spinner when a turn starts.
pub fn install(ctx: &Context, ui: Ui) {
    ctx.on("session/event", move |session: &Session, event: &SessionEvent| {
        if event.kind != "turn/start" {
            return;
        }
        let Some(turn) = event.data["turn"].as_u64() else {
            return;
        };
        ui.spinner_on(session.id(), turn);
    });
}
