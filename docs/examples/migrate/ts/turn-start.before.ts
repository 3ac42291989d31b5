import type { Context } from '@deepseek-ai/cordis';
import type { Ui } from './ui';

/** Starts a spinner when a turn starts. */
export function apply(ctx: Context, ui: Ui) {
  ctx.on('agent/turn-start', (agent, turn) => {
    ui.spinnerOn(agent.session.id, turn);
  });
}
