import type { Context } from '@deepseek-ai/cordis';
import type { Ui } from './ui';

/** Stops the spinner and wakes the agent's follow-up queue when a turn ends. */
export function apply(ctx: Context, ui: Ui) {
  ctx.on('session/event', (session, event) => {
    if (event.type !== 'turn/end') return;
    const { turn, reason } = event.data;
    const agent = ctx.agents.get(session.id);
    if (!agent) return;
    ui.spinnerOff(agent.session.id, turn, reason);
    agent.wakeFollowUps();
  });
}
