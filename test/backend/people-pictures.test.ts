import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemberList, MeView, PresenceEvent } from '../../src/contract/index.js';
import { api, signInWithLink, startTestServer, type TestServer } from '../support/servers.js';
import { openEvents } from '../support/sse.js';
import { STORE_TARGETS } from '../support/stores.js';

/**
 * A person's picture (docs/ui.md, "Names"): set by its person through the upload rules, kept as a 256-pixel square
 * WebP without the metadata it came with, shown beside their name on the team page, in /api/v1/me and in presence, and
 * readable only by the people who share a project with them.
 */

const IDP = 'https://idp.example';

async function photo(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 90, b: 40 } } })
    .jpeg()
    .withExif({ IFD0: { Copyright: 'GPS 48.8584 N 2.2945 E', Artist: 'Olga' } })
    .toBuffer();
}

describe.each(STORE_TARGETS)('people pictures: $name', (target) => {
  describe.skipIf(!target.available)('over real HTTP', () => {
    let server: TestServer;
    const cookies: Record<string, string> = {};

    beforeAll(async () => {
      server = await startTestServer(target, { rateLimitPerMinute: 1_000_000, uploadMaxBytes: 400_000 });
      const { projects } = server.store;
      await projects.createWorkspace('w');
      await projects.createProject('p', 'w');
      await projects.createProject('q', 'w');
      await projects.createCanvas('p', 'c', false);
      for (const [subject, project, role] of [
        ['olga', 'p', 'owner'],
        ['ana', 'p', 'editor'],
        ['zed', 'q', 'owner'],
      ] as const) {
        await projects.addMember(project, { issuer: IDP, subject }, role);
        const link = await server.store.sessions.createLoginLink({ issuer: IDP, subject }, { expiresInMs: 60_000 });
        cookies[subject] = (await signInWithLink(`${server.url}/auth/login?token=${link}`)).cookie;
      }
    });
    afterAll(async () => server?.close());

    const headersOf = (who: string) => ({ cookie: cookies[who]!, origin: server.url, 'x-requested-by': 'canvas-mcp' });
    const send = (who: string, bytes: Buffer, name = 'me.jpg') => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(bytes)]), name);
      return fetch(`${server.url}/api/v1/me/picture`, { method: 'PUT', headers: headersOf(who), body: form });
    };
    const me = async (who: string) =>
      MeView.parse((await api(server.url, '/api/v1/me', { headers: headersOf(who) })).body);

    it('a photo becomes a 256-pixel square WebP without its metadata, shown in /me and on the team page', async () => {
      const sent = await send('olga', await photo(1200, 800));
      expect(sent.status).toBe(200);
      const { picture_url: url } = (await sent.json()) as { picture_url: string };
      expect(url).toMatch(/^\/api\/v1\/pictures\/pic_[A-Za-z0-9_-]{16}$/);
      expect((await me('olga')).picture_url).toBe(url);

      const read = await fetch(`${server.url}${url}`, { headers: headersOf('ana') });
      expect(read.status).toBe(200);
      expect(read.headers.get('content-type')).toBe('image/webp');
      const bytes = Buffer.from(await read.arrayBuffer());
      const kept = await sharp(bytes).metadata();
      expect([kept.format, kept.width, kept.height]).toEqual(['webp', 256, 256]);
      expect(kept.exif).toBeUndefined();
      expect(bytes.includes(Buffer.from('GPS 48.8584'))).toBe(false);

      const members = MemberList.parse(
        (await api(server.url, '/api/v1/projects/p/members', { headers: headersOf('ana') })).body,
      ).members;
      expect(members.find((member) => member.subject === 'olga')?.picture_url).toBe(url);
      expect(members.find((member) => member.subject === 'ana')?.picture_url).toBeNull();
    });

    it('is read only by people who share a project with its person: anyone else gets 404, as for no picture', async () => {
      const url = (await me('olga')).picture_url!;
      expect((await fetch(`${server.url}${url}`, { headers: headersOf('zed') })).status).toBe(404);
      expect((await fetch(`${server.url}${url}`)).status).toBe(401);
      expect((await fetch(`${server.url}${url}`, { headers: headersOf('olga') })).status).toBe(200);
    });

    it('a file that is not a picture, or too large, is refused naming why, and the picture stays as it was', async () => {
      const before = (await me('olga')).picture_url;
      const text = await send('olga', Buffer.from('#!/bin/sh\necho hello\n'), 'me.png');
      expect(text.status).toBe(415);
      expect(JSON.stringify(await text.json())).toMatch(/picture|type/i);
      const noise = await sharp(
        Buffer.from(Array.from({ length: 600 * 600 * 3 }, (_, index) => (index * 7919) % 251)),
        {
          raw: { width: 600, height: 600, channels: 3 },
        },
      )
        .png({ compressionLevel: 0 })
        .toBuffer();
      expect(noise.length).toBeGreaterThan(400_000);
      const large = await send('olga', noise, 'noise.png');
      expect(large.status).toBe(413);
      expect((await me('olga')).picture_url).toBe(before);
    });

    it('a new picture replaces the old one, whose URL stops answering; removing it shows none', async () => {
      const old = (await me('ana')).picture_url;
      expect(old).toBeNull();
      const first = ((await (await send('ana', await photo(300, 900))).json()) as { picture_url: string }).picture_url;
      const second = ((await (await send('ana', await photo(640, 640))).json()) as { picture_url: string }).picture_url;
      expect(second).not.toBe(first);
      expect((await fetch(`${server.url}${first}`, { headers: headersOf('olga') })).status).toBe(404);
      expect((await fetch(`${server.url}${second}`, { headers: headersOf('olga') })).status).toBe(200);
      const removed = await api(server.url, '/api/v1/me/picture', { method: 'DELETE', headers: headersOf('ana') });
      expect(removed.body).toEqual({ picture_url: null });
      expect((await me('ana')).picture_url).toBeNull();
      expect((await fetch(`${server.url}${second}`, { headers: headersOf('olga') })).status).toBe(404);
    });

    it('presence names a person by their chosen name with their picture, not by their sign-in id', async () => {
      await api(server.url, '/api/v1/me/name', {
        method: 'PUT',
        headers: headersOf('olga'),
        body: { display_name: 'Olga Ivanova' },
      });
      const url = (await me('olga')).picture_url;
      const events = await openEvents(`${server.url}/api/v2/projects/p/canvases/c/events`, headersOf('ana'));
      try {
        const reported = await api(server.url, '/api/v2/projects/p/canvases/c/presence', {
          method: 'POST',
          headers: headersOf('olga'),
          body: { selection: [], cursor: { x: 1, y: 2 } },
        });
        expect(reported.status).toBe(204);
        const entriesOf = (data: unknown) =>
          PresenceEvent.parse(typeof data === 'string' ? JSON.parse(data) : data).entries;
        const event = await events.waitFor(
          (candidate) =>
            candidate.event === 'presence' && entriesOf(candidate.data).some((entry) => entry.name === 'Olga Ivanova'),
          5_000,
        );
        const olga = entriesOf(event.data).find((entry) => entry.name === 'Olga Ivanova');
        expect(olga).toMatchObject({ kind: 'person', picture_url: url });
        expect(entriesOf(event.data).map((entry) => entry.name)).not.toContain('olga');
      } finally {
        events.close();
      }
    });
  });
});
