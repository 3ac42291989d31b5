use agent_host::{Agent, ContentBlock, Context, MessageSource};

/// Shows steering messages in the agent's side panel.
pub fn install(ctx: &Context, panel: Panel) {
    ctx.on(
        "agent/steering",
        move |agent: &Agent, turn: u64, content: &[ContentBlock], source: &MessageSource| {
            panel.show_steering(agent, turn, content, source);
        },
    );
}
