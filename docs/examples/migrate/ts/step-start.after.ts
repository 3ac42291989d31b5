import type { Context } from '@deepseek-ai/cordis';
import type { Tracer } from './tracer';

/**
 * Opens a tracing span per step: `step/start {turn, step}` is appended when the step opens,
 * before any of its chunks.
 */
export function apply(ctx: Context, tracer: Tracer) {
  ctx.on('session/event', (session, event) => {
    if (event.type !== 'step/start') return;
    tracer.openStep(session.id, event.data.turn, event.data.step);
  });
}
