use agent_host::{Agent, AgentId, Context, Session, SessionEvent};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Shows steering messages in the agent's side panel. Steering is recorded durably as
/// `steering/message {turn, content, source}` (2026-07 profile); the agent handle comes from
/// a session-to-agent map kept by `agent/created` and `agent/disposed`.
pub fn install(ctx: &Context, panel: Panel) {
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
        if event.kind != "steering/message" {
            return;
        }
        if let Some(agent) = agents.lock().unwrap().get(&session.id()) {
            let turn = event.data["turn"].as_u64().unwrap_or_default();
            panel.show_steering(agent, turn, &event.data["content"], &event.data["source"]);
        }
    });
}
