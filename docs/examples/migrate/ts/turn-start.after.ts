import type { Context } from '@deepseek-ai/cordis';
import type { Ui } from './ui';

/** Starts a spinner when a turn starts. */
export function apply(ctx: Context, ui: Ui) {
  ctx.on('session/event', (session, event) => {
    if (event.type !== 'turn/start') return;
    const { turn } = event.data;
    ui.spinnerOn(session.id, turn);
  });
}
