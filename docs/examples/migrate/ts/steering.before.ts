import type { Context } from '@deepseek-ai/cordis';
import type { Panel } from './panel';

/** Shows steering messages in the agent's side panel. */
export function apply(ctx: Context, panel: Panel) {
  ctx.on('agent/steering', (agent, turn, content, source) => {
    panel.showSteering(agent, turn, content, source);
  });
}
