import type { Context } from '@deepseek-ai/cordis';
import type { Ui } from './ui';

/** Stops the spinner and wakes the agent's follow-up queue when a turn ends. */
export function apply(ctx: Context, ui: Ui) {
  ctx.on('agent/turn-end', (agent, turn, reason) => {
    ui.spinnerOff(agent.session.id, turn, reason);
    agent.wakeFollowUps();
  });
}
