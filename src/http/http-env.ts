import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from 'hono';
import type { Logger } from '../shared/logger.js';
import type { CallerContext } from '../backend/auth/caller.js';
import type { Principal, TokenPrincipal } from '../backend/auth/principal.js';
import type { BodyCheckPool } from '../validation/body-check-pool.js';

/** Per-request values the backend's HTTP middleware sets. */
export interface BackendHttpEnv {
  /** What @hono/node-server passes: the Node request (to tell whether its body was read) and response (OAuth pages). */
  Bindings: { incoming?: IncomingMessage; outgoing?: ServerResponse };
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
    /** The error code of a failed request, for its log line and metrics. */
    errorCode: string | undefined;
  };
}

export type BackendContext = Context<BackendHttpEnv>;
