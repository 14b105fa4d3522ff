/** The HttpOnly cookie a person's sign-in sets (read by the REST API and by the OAuth authorization server). */
export const SESSION_COOKIE = 'canvas_mcp_session';
