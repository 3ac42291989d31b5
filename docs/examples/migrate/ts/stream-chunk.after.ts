import type { Context } from '@deepseek-ai/cordis';
import type { Meter } from './meter';

/** Counts output tokens per session as they stream. */
export function apply(ctx: Context, meter: Meter) {
  ctx.on('session/event', (session, event) => {
    if (event.type !== 'assistant/chunk') return;
    const { turn, step, chunk } = event.data;
    meter.record(session.id, turn, step, chunk);
  });
}
