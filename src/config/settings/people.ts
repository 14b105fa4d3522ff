import { z } from 'zod';
import { Bool, HttpUrl, Int, setting } from '../setting.js';

/** Webhooks, people (sessions, sign-in, connectors) and e-mail. */
export const PEOPLE_SETTINGS = {
  // Webhooks.
  webhookRetryMs: setting({
    schema: Int(10, 3_600_000),
    default: 5000,
    arg: 'ms',
    help: 'first retry of a failed webhook delivery, ×4 each time up to an hour',
  }),
  webhooksPrivateNetwork: setting({
    schema: Bool,
    default: false,
    switch: true,
    help: "let project owners deliver webhooks to private, loopback and link-local addresses (an endpoint's allow_private_network)",
    docs: 'let project owners deliver webhooks to private, loopback and link-local addresses and over http (an endpoint\'s `allow_private_network`); off, such endpoints are refused and deliveries to endpoints allowed earlier go to public addresses only (docs/security.md, "Webhooks")',
  }),
  webhookEndpointsPerProject: setting({
    schema: Int(1, 1000),
    default: 20,
    arg: 'n',
    help: 'webhook endpoints one project may have',
  }),
  webhookGiveUpMs: setting({
    schema: Int(1000, 7 * 86_400_000),
    default: 86_400_000,
    arg: 'ms',
    help: 'how long a webhook delivery is retried (24 h)',
  }),

  // People.
  sessionIdleHours: setting({
    schema: Int(1, 24 * 30),
    default: 12,
    arg: 'hours',
    help: 'a signed-in session unused this long ends',
  }),
  sessionMaxDays: setting({
    schema: Int(1, 365),
    default: 7,
    arg: 'days',
    help: 'a signed-in session ends this long after sign-in',
  }),
  sessionRememberDays: setting({
    schema: Int(1, 90),
    default: 30,
    arg: 'days',
    help: 'a session on a device its person chose to remember lasts this long, used or not (at most 90)',
  }),
  feedHeartbeatMs: setting({
    schema: Int(100, 3_600_000),
    default: 15_000,
    arg: 'ms',
    help: 'a comment line on an idle change feed this often, so proxies keep it open',
    docs: 'an idle change feed (`…/events`) gets a `: keep-alive` comment line this often, so proxies and load balancers do not close it; keep it below their idle timeout (at least `100`)',
  }),
  oauthClientIdleDays: setting({
    schema: Int(1, 3650),
    default: 30,
    arg: 'days',
    help: 'an OAuth client registered by an app that no grant has used this long is deleted (it registers again)',
  }),
  oidcIssuer: setting({
    schema: HttpUrl,
    arg: 'url',
    help: 'sign people in with this OpenID Connect provider too (its issuer URL; secret in CANVAS_MCP_OIDC_CLIENT_SECRET)',
    docs: 'sign people in with an OpenID Connect provider too (its issuer URL; discovery at `/.well-known/openid-configuration`); `http:` only on a loopback address',
  }),
  oidcClientId: setting({
    schema: z.string().min(1),
    arg: 'id',
    help: 'the client id registered at the OpenID Connect provider',
    docs: 'the client registered at the provider, with redirect URI `<public URL>/auth/oidc/callback`',
  }),
  oidcClientSecret: setting({
    schema: z.string().min(1),
    flag: false,
    secret: true,
    help: "the OpenID Connect client's secret",
    docs: "the client's secret (none for a public client, which PKCE alone protects); never logged",
  }),
  oidcName: setting({
    schema: z.string().min(1).max(60),
    default: 'single sign-on',
    arg: 'name',
    help: 'what the sign-in button calls the provider',
    docs: 'what the sign-in button calls the provider ("Sign in with …")',
  }),

  // E-mail: sign-in links people ask for themselves, and the ones owners make, sent through an SMTP relay.
  smtpUrl: setting({
    schema: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }),
    arg: 'url',
    help: 'an SMTP relay for e-mailed sign-in links: smtp://host:587 (STARTTLS when offered) or smtps://host:465',
    docs: 'an SMTP relay for e-mailed sign-in links (`smtp://host:587`, STARTTLS when the relay offers it; `smtps://host:465`); without it, links are made by owners and the command line only',
  }),
  smtpUser: setting({
    schema: z.string().min(1),
    arg: 'user',
    help: 'the SMTP user name (password in CANVAS_MCP_SMTP_PASSWORD)',
  }),
  smtpPassword: setting({
    schema: z.string().min(1),
    flag: false,
    secret: true,
    help: 'the SMTP password',
    docs: 'the SMTP password; never logged',
  }),
  smtpFrom: setting({
    schema: z.string().min(3).max(200),
    default: 'canvas-mcp <no-reply@localhost>',
    arg: 'address',
    help: 'the From of e-mailed sign-in links',
  }),
};
