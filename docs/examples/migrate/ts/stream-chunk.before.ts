import type { Context } from '@deepseek-ai/cordis';
import type { Meter } from './meter';

/** Counts output tokens per session as they stream. */
export function apply(ctx: Context, meter: Meter) {
  ctx.on('agent/stream-chunk', (agent, turn, step, chunk) => {
    meter.record(agent.session.id, turn, step, chunk);
  });
}
