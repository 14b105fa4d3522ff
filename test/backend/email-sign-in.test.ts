import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, signInWithLink, startTestServer, type TestServer } from '../support/servers.js';
import { linkIn, startSmtpStandin, type SmtpStandin } from '../support/smtp-standin.js';
import { STORE_TARGETS } from '../support/stores.js';
import { waitFor } from '../support/wait.js';

/**
 * Sign-in links by e-mail: a person gives their address; when their session ends they ask the sign-in page for a link,
 * which goes through the operator's SMTP relay (nodemailer, to a local smtp-server stand-in) and signs them back in; an
 * owner's sign-in link for them is e-mailed too. The answer never says whether an address is someone's.
 */

const IDP = 'https://idp.example';

describe.each(STORE_TARGETS)('sign-in links by e-mail: $name', (target) => {
  describe.skipIf(!target.available)('through an SMTP relay', () => {
    let smtp: SmtpStandin;
    let server: TestServer;
    let anaCookie = '';
    let olgaCookie = '';
    const page = (cookie: string) => ({ cookie, origin: server.url, 'x-requested-by': 'canvas-mcp' });

    beforeAll(async () => {
      smtp = await startSmtpStandin();
      server = await startTestServer(target, { smtpUrl: smtp.url, smtpFrom: 'Canvas <canvas@studio.example>' });
      const { projects } = server.store;
      await projects.createWorkspace('w');
      await projects.createProject('p', 'w');
      await projects.createCanvas('p', 'c', false);
      for (const [subject, role] of [
        ['olga', 'owner'],
        ['ana', 'editor'],
      ] as const) {
        await projects.addMember('p', { issuer: IDP, subject }, role);
      }
      const signIn = async (subject: string) =>
        (
          await signInWithLink(
            `${server.url}/auth/login?token=${await server.store.sessions.createLoginLink({ issuer: IDP, subject }, { expiresInMs: 60_000 })}`,
          )
        ).cookie;
      anaCookie = await signIn('ana');
      olgaCookie = await signIn('olga');
    });
    afterAll(async () => {
      await server?.close();
      await smtp?.close();
    });

    const ask = (email: string) =>
      fetch(`${server.url}/auth/email-link`, {
        method: 'POST',
        headers: { origin: server.url, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email }),
      });

    it('says e-mail sign-in is offered, and keeps the address a person gives (one person per address)', async () => {
      expect((await api(server.url, '/api/v1/auth/methods')).body).toMatchObject({ email: true });
      const set = await api(server.url, '/api/v1/me/email', {
        method: 'PATCH',
        headers: page(anaCookie),
        body: { email: 'Ana@Studio.example' },
      });
      expect(set.body).toEqual({ email: 'ana@studio.example' });
      expect((await api(server.url, '/api/v1/me', { headers: page(anaCookie) })).body).toMatchObject({
        email: 'ana@studio.example',
      });
      const taken = await api(server.url, '/api/v1/me/email', {
        method: 'PATCH',
        headers: page(olgaCookie),
        body: { email: 'ana@studio.example' },
      });
      expect(taken.status).toBe(409);
    });

    it('a person whose session ended asks for a link by e-mail and is signed back in by it', async () => {
      await server.store.driver.run('UPDATE sessions SET ended_at = ? WHERE subject = ?', [Date.now(), 'ana']);
      const before = smtp.messages.length;
      const answer = await ask('ana@studio.example');
      expect(answer.status).toBe(200);
      expect(await answer.text()).toContain('a sign-in link is on its way');
      const mail = (
        await waitFor(
          async () => smtp.messages.slice(before),
          (sent) => sent.length === 1,
        )
      )[0]!;
      expect(mail.to).toEqual(['ana@studio.example']);
      expect(mail.from).toBe('canvas@studio.example');
      const link = linkIn(mail)!;
      expect(link).toMatch(new RegExp(`^${server.url}/auth/login\\?token=`));
      const { cookie } = await signInWithLink(link);
      expect((await api(server.url, '/api/v1/me', { headers: page(cookie) })).body).toMatchObject({
        person: { subject: 'ana' },
      });
    });

    it('answers an unknown address exactly as a known one, and sends nothing', async () => {
      const before = smtp.messages.length;
      const unknown = await ask('nobody@studio.example');
      expect(unknown.status).toBe(200);
      expect(await unknown.text()).toContain('If nobody@studio.example is the address of someone on this server');
      expect(smtp.messages.length).toBe(before);
    });

    it("e-mails an owner's sign-in link to the member when their address is known", async () => {
      const before = smtp.messages.length;
      const made = await api(server.url, `/api/v1/projects/p/members/${encodeURIComponent(IDP)}/ana/sign-in-link`, {
        method: 'POST',
        headers: page(olgaCookie),
      });
      expect(made.body).toMatchObject({ emailed: true });
      const mail = (
        await waitFor(
          async () => smtp.messages.slice(before),
          (sent) => sent.length === 1,
        )
      )[0]!;
      expect(linkIn(mail)).toBe((made.body as { url: string }).url);
      expect(mail.raw).toContain('olga made you this link');
    });
  });
});
