import type { Context } from '@deepseek-ai/cordis';
import type { Tracer } from './tracer';

/**
 * Closes the step's tracing span: `step/end {turn, step}` is appended on every close path,
 * cancel and failure included, so no span is left open.
 */
export function apply(ctx: Context, tracer: Tracer) {
  ctx.on('session/event', (session, event) => {
    if (event.type !== 'step/end') return;
    tracer.closeStep(session.id, event.data.turn, event.data.step);
  });
}
