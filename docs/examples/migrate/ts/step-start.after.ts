import type { Context } from '@deepseek-ai/cordis';
import type { Tracer } from './tracer';

/** Opens a tracing span per step. */
export function apply(ctx: Context, tracer: Tracer) {
  ctx.on('session/event', (session, event) => {
    if (event.type !== 'step/start') return;
    const { turn, step } = event.data;
    tracer.openStep(session.id, turn, step);
  });
}
