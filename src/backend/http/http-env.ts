import type { Context } from 'hono';
import type { Logger } from '../../shared/logger.js';
import type { CallerContext } from '../auth/caller.js';
import type { Principal, TokenPrincipal } from '../auth/principal.js';
import type { BodyCheckPool } from '../../validation/body-check-pool.js';

/** Per-request values the backend's HTTP middleware sets. */
export interface BackendHttpEnv {
  Variables: {
    requestId: string;
    log: Logger;
    /** The verified token; for a gateway token acting on behalf of an agent token, that agent token. */
    principal: Principal;
    /** The gateway token itself, when the request came through a gateway. */
    gateway: TokenPrincipal | undefined;
    caller: CallerContext;
    /** Where large bodies are checked off the event loop. */
    bodyChecks: BodyCheckPool;
  };
}

export type BackendContext = Context<BackendHttpEnv>;
