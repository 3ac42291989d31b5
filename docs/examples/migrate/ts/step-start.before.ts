import type { Context } from '@deepseek-ai/cordis';
import type { Tracer } from './tracer';

/** Opens a tracing span per step. */
export function apply(ctx: Context, tracer: Tracer) {
  ctx.on('agent/step-start', (agent, turn, step) => {
    tracer.openStep(agent.session.id, turn, step);
  });
}
