import type { Agent, Context } from '@deepseek-ai/cordis';
import type { Ui } from './ui';

/**
 * Stops the spinner and wakes the agent's follow-up queue when a turn ends. The durable
 * `turn/end {turn, reason}` carries the same reason and is also appended when the turn closes
 * from the error path. The handler needs the agent handle: keep a session-to-agent map from
 * `agent/created` and `agent/disposed`.
 */
export function apply(ctx: Context, ui: Ui) {
  const agents = new Map<string, Agent>();
  ctx.on('agent/created', (agent) => agents.set(agent.session.id, agent));
  ctx.on('agent/disposed', (agent) => agents.delete(agent.session.id));

  ctx.on('session/event', (session, event) => {
    if (event.type !== 'turn/end') return;
    const { turn, reason } = event.data;
    ui.spinnerOff(session.id, turn, reason);
    agents.get(session.id)?.wakeFollowUps();
  });
}
