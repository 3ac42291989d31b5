import type { Context } from '@deepseek-ai/cordis';
import type { Ui } from './ui';

/** Stops the spinner and wakes the agent's follow-up queue when a turn ends. */
export function apply(ctx: Context, ui: Ui) {
  const agentBySession = new Map<unknown, Parameters<Parameters<typeof ctx.on<'agent/created'>>[1]>[0]>();
  ctx.on('agent/created', (agent) => { agentBySession.set(agent.session, agent) });
  ctx.on('agent/disposed', (agent) => { agentBySession.delete(agent.session) });
  ctx.on('session/event', (session, event) => {
    if (event.type !== 'turn/end') return;
    const { turn, reason } = event.data;
    const agent = agentBySession.get(session);
    if (!agent) return;
    ui.spinnerOff(agent.session.id, turn, reason);
    agent.wakeFollowUps();
  });
}
