import type { Context } from '@deepseek-ai/cordis';
import type { Tracer } from './tracer';

/** Closes the step's tracing span. */
export function apply(ctx: Context, tracer: Tracer) {
  ctx.on('session/event', (session, event) => {
    if (event.type !== 'step/end') return;
    const { turn, step } = event.data;
    tracer.closeStep(session.id, turn, step);
  });
}
