use agent_host::{Agent, Context};

/// Starts a spinner when a turn starts.
pub fn install(ctx: &Context, ui: Ui) {
    ctx.on("agent/turn-start", move |agent: &Agent, turn: u64| {
        ui.spinner_on(agent.session_id(), turn);
    });
}
