use agent_host::{Agent, AgentId, Context, Session, SessionEvent, TurnEndReason};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Stops the spinner and wakes the agent's follow-up queue when a turn ends. The durable
/// `turn/end {turn, reason}` carries the same reason and is also appended when the turn closes
/// from the error path. The handler needs the agent handle: keep a session-to-agent map from
/// `agent/created` and `agent/disposed`.
pub fn install(ctx: &Context, ui: Ui) {
    let agents: Arc<Mutex<HashMap<AgentId, Agent>>> = Arc::default();

    let created = Arc::clone(&agents);
    ctx.on("agent/created", move |agent: &Agent| {
        created.lock().unwrap().insert(agent.session_id(), agent.clone());
    });
    let disposed = Arc::clone(&agents);
    ctx.on("agent/disposed", move |agent: &Agent| {
        disposed.lock().unwrap().remove(&agent.session_id());
    });

    ctx.on("session/event", move |session: &Session, event: &SessionEvent| {
        if event.kind != "turn/end" {
            return;
        }
        let turn = event.data["turn"].as_u64().unwrap_or_default();
        let reason = TurnEndReason::from_value(&event.data["reason"]);
        ui.spinner_off(session.id(), turn, reason);
        if let Some(agent) = agents.lock().unwrap().get(&session.id()) {
            agent.wake_follow_ups();
        }
    });
}
