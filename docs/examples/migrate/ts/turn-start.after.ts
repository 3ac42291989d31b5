import type { Context } from '@deepseek-ai/cordis';
import type { Ui } from './ui';

/**
 * Starts a spinner when a turn starts. The durable `turn/start {turn}` is appended for every
 * turn, idle injection turns included.
 */
export function apply(ctx: Context, ui: Ui) {
  ctx.on('session/event', (session, event) => {
    if (event.type === 'turn/start') ui.spinnerOn(session.id, event.data.turn);
  });
}
