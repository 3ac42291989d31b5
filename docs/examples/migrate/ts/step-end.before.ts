import type { Context } from '@deepseek-ai/cordis';
import type { Tracer } from './tracer';

/** Closes the step's tracing span. */
export function apply(ctx: Context, tracer: Tracer) {
  ctx.on('agent/step-end', (agent, turn, step) => {
    tracer.closeStep(agent.session.id, turn, step);
  });
}
