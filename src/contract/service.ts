import { z } from 'zod';

/** Answers of the service's own routes (docs/api.md, docs/operations.md): health, readiness. */

export const HealthBody = z.looseObject({ status: z.literal('ok') });
export type HealthBody = z.infer<typeof HealthBody>;

export const ReadyBody = z.looseObject({
  status: z.literal('ready'),
  store: z.enum(['sqlite', 'postgres', 'http']).optional().meta({ description: 'The store this process serves from.' }),
  backend: z.literal('http').optional().meta({ description: 'Gateway mode: the backend answered its own /readyz.' }),
});
export type ReadyBody = z.infer<typeof ReadyBody>;
