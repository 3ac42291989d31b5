use agent_host::{Agent, Context, TurnEndReason};

/// Stops the spinner and wakes the agent's follow-up queue when a turn ends.
pub fn install(ctx: &Context, ui: Ui) {
    ctx.on("agent/turn-end", move |agent: &Agent, turn: u64, reason: TurnEndReason| {
        ui.spinner_off(agent.session_id(), turn, reason);
        agent.wake_follow_ups();
    });
}
