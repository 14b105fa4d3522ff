import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/**
 * The client side of an OAuth connection in tests: an OAuthClientProvider for the official SDK clients (v1 and v2
 * share the interface) that keeps what they save and captures the authorization URL, and a "browser" that walks the
 * authorization with a cookie jar: the person's session cookie, the consent page, their answer, and the redirects on
 * to the client's redirect address.
 */

export class TestOAuthProvider implements OAuthClientProvider {
  authorizationUrl?: URL;
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier?: string;
  discovery?: OAuthDiscoveryState;
  readonly invalidated: string[] = [];

  constructor(
    readonly redirect = 'http://127.0.0.1:53682/callback',
    readonly name = 'Test connector',
  ) {}

  get redirectUrl() {
    return this.redirect;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [this.redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  state() {
    return `state-${Math.random().toString(36).slice(2)}`;
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(client: OAuthClientInformationMixed) {
    this.client = client;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    if (!this.verifier) throw new Error('no code verifier saved');
    return this.verifier;
  }
  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery;
  }
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery') {
    this.invalidated.push(scope);
    if (scope === 'all' || scope === 'client') this.client = undefined;
    if (scope === 'all' || scope === 'tokens') this.saved = undefined;
    if (scope === 'all' || scope === 'verifier') this.verifier = undefined;
    if (scope === 'all' || scope === 'discovery') this.discovery = undefined;
  }
}

export interface ConsentAnswer {
  decision: 'allow' | 'deny';
  canvas?: string;
  access?: 'read' | 'edit' | 'runs';
  spend_limit?: string;
}

export interface AuthorizeOutcome {
  /** The query the browser arrived with at the client's redirect address (code, state, iss; or error). */
  callback: URLSearchParams;
  /** The consent page as the person saw it. */
  consentPage: string;
  /** Status of the answer's response (303 when accepted). */
  answerStatus: number;
  answerPage: string;
}

/** A cookie jar over fetch, following redirects by hand until the client's redirect address. */
export class Browser {
  readonly jar = new Map<string, string>();

  constructor(cookie?: string) {
    if (cookie) {
      const [name, value] = cookie.split(';')[0]!.split('=') as [string, string];
      this.jar.set(name, value);
    }
  }

  private cookieHeader() {
    return [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: this.cookieHeader() },
    });
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(';') as [string];
      const name = pair.slice(0, pair.indexOf('='));
      if (/expires=Thu, 01 Jan 1970/i.test(header) || /max-age=0/i.test(header)) this.jar.delete(name);
      else this.jar.set(name, pair.slice(pair.indexOf('=') + 1));
    }
    return response;
  }

  /** Follows redirects from `start` until a page (answered with it) or the redirect address (answered as its query). */
  async follow(
    start: string,
    redirectUri: string,
  ): Promise<{ page: Response; url: string } | { callback: URLSearchParams }> {
    let url = start;
    for (let hop = 0; hop < 12; hop += 1) {
      if (url.startsWith(redirectUri)) return { callback: new URL(url).searchParams };
      const response = await this.request(url);
      const location = response.headers.get('location');
      if (!location) return { page: response, url };
      await response.body?.cancel();
      url = new URL(location, url).href;
    }
    throw new Error(`too many redirects from ${start}`);
  }

  /** Walks an authorization: to the consent page, the person's answer, and on to the client. */
  async authorize(start: URL, redirectUri: string, origin: string, answer: ConsentAnswer): Promise<AuthorizeOutcome> {
    const first = await this.follow(start.href, redirectUri);
    if ('callback' in first) return { callback: first.callback, consentPage: '', answerStatus: 0, answerPage: '' };
    const consentPage = await first.page.text();
    if (first.page.status !== 200)
      throw new Error(`the authorization stopped at ${first.url}: ${first.page.status} ${consentPage.slice(0, 400)}`);
    const form = new URLSearchParams(
      Object.entries(answer).filter((entry): entry is [string, string] => entry[1] !== undefined),
    );
    const answered = await this.request(first.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
      body: form.toString(),
    });
    const location = answered.headers.get('location');
    if (!location)
      return {
        callback: new URLSearchParams(),
        consentPage,
        answerStatus: answered.status,
        answerPage: await answered.text(),
      };
    const next = await this.follow(new URL(location, first.url).href, redirectUri);
    if (!('callback' in next))
      throw new Error(
        `after the answer the authorization stopped at ${next.url}: ${next.page.status} ${(await next.page.text()).slice(0, 400)}`,
      );
    return { callback: next.callback, consentPage, answerStatus: answered.status, answerPage: '' };
  }
}

/**
 * Connects the v1 SDK client through OAuth as the person whose session `cookie` holds: the first 401, registration,
 * the person's answer on the consent page, the code, the tokens. `client` is null when the answer gave no code.
 */
export async function connectThroughOAuth(options: {
  mcpUrl: string;
  serverUrl: string;
  cookie: string;
  answer: ConsentAnswer;
}) {
  const provider = new TestOAuthProvider();
  const first = new Client({ name: 'oauth-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(options.mcpUrl), { authProvider: provider });
  const refused = await first.connect(transport).then(
    () => null,
    (error: unknown) => error,
  );
  if (!(refused instanceof UnauthorizedError))
    throw new Error(`expected the first connection to be refused with 401, got ${String(refused)}`);
  const outcome = await new Browser(options.cookie).authorize(
    provider.authorizationUrl!,
    provider.redirectUrl,
    options.serverUrl,
    options.answer,
  );
  const code = outcome.callback.get('code');
  if (!code) return { provider, outcome, client: null };
  await transport.finishAuth(code);
  const client = new Client({ name: 'oauth-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(options.mcpUrl), { authProvider: provider }));
  return { provider, outcome, client };
}
