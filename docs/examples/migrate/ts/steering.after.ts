import type { Context } from '@deepseek-ai/cordis';
import type { Panel } from './panel';

/** Shows steering messages in the agent's side panel. */
export function apply(ctx: Context, panel: Panel) {
  ctx.on('session/event', (session, event) => {
    if (event.type !== 'steering/message') return;
    const { turn, content, source } = event.data;
    const agent = ctx.agents.get(session.id);
    if (!agent) return;
    panel.showSteering(agent, turn, content, source);
  });
}
