import type { Context } from '@deepseek-ai/cordis';
import type { Panel } from './panel';

/** Shows steering messages in the agent's side panel. */
export function apply(ctx: Context, panel: Panel) {
  const agentBySession = new Map<unknown, Parameters<Parameters<typeof ctx.on<'agent/created'>>[1]>[0]>();
  ctx.on('agent/created', (agent) => { agentBySession.set(agent.session, agent) });
  ctx.on('agent/disposed', (agent) => { agentBySession.delete(agent.session) });
  ctx.on('session/event', (session, event) => {
    if (event.type !== 'steering/message') return;
    const { turn, content, source } = event.data;
    const agent = agentBySession.get(session);
    if (!agent) return;
    panel.showSteering(agent, turn, content, source);
  });
}
