import type { Agent, Context } from '@deepseek-ai/cordis';
import type { Panel } from './panel';

/**
 * Shows steering messages in the agent's side panel. Steering is recorded durably as
 * `steering/message {turn, content, source}` (2026-07 profile); the agent handle comes from a
 * session-to-agent map kept by `agent/created` and `agent/disposed`.
 */
export function apply(ctx: Context, panel: Panel) {
  const agents = new Map<string, Agent>();
  ctx.on('agent/created', (agent) => agents.set(agent.session.id, agent));
  ctx.on('agent/disposed', (agent) => agents.delete(agent.session.id));

  ctx.on('session/event', (session, event) => {
    if (event.type !== 'steering/message') return;
    const agent = agents.get(session.id);
    if (!agent) return;
    const { turn, content, source } = event.data;
    panel.showSteering(agent, turn, content, source);
  });
}
