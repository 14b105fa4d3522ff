// The conformance suite sends no Authorization header; this preload adds the bearer token to every fetch.
const token = process.env.CANVAS_MCP_CONFORMANCE_TOKEN;
if (!token) throw new Error('CANVAS_MCP_CONFORMANCE_TOKEN is not set');
const originalFetch = globalThis.fetch;
globalThis.fetch = (input, init = {}) => {
  const headers = new Headers(init.headers ?? (input instanceof Request ? input.headers : undefined));
  if (!headers.has('authorization')) headers.set('authorization', `Bearer ${token}`);
  return originalFetch(input, { ...init, headers });
};
