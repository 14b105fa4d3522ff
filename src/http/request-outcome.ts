import type { Context } from 'hono';
import { matchedRoutes } from 'hono/route';

/** What the backend's HTTP layer reports about every request it answered (logs and metrics). */
export interface RequestOutcome {
  method: string;
  /** The route template that answered ('/api/v2/projects/:project_id/…'), never the raw path: bounded cardinality. */
  route: string;
  status: number;
  /** Our error code when the request failed with one. */
  errorCode: string | null;
  seconds: number;
}

export type RequestObserver = (outcome: RequestOutcome) => void;

export const UNMATCHED_ROUTE = '(unmatched)';

/**
 * The template of the route a request was answered by. A request refused by a wildcard middleware (a token check
 * on /api/v2/*) is labelled with the route it was headed for, the first concrete one matched after it; a request
 * no route matched is UNMATCHED_ROUTE. Call it once the request is answered.
 */
export function routeTemplateOf(c: Context): string {
  const matched = matchedRoutes(c);
  for (let index = Math.max(c.req.routeIndex, 0); index < matched.length; index += 1) {
    const path = matched[index]!.path;
    if (!path.endsWith('*')) return path;
  }
  const answering = matched[c.req.routeIndex];
  // A wildcard route that answers by itself (static files) is its own template; one that only passed it on is not.
  return answering && answering.method !== 'ALL'
    ? answering.path
    : c.res.status === 404
      ? UNMATCHED_ROUTE
      : (answering?.path ?? UNMATCHED_ROUTE);
}
