import { z } from 'zod';

/** An Idempotency-Key: printable ASCII, 1..255 characters, like Stripe's keys. */
export const IdempotencyKey = z
  .string()
  .regex(/^[\x21-\x7e]{1,255}$/, { error: 'must be 1..255 printable ASCII characters without spaces' });
