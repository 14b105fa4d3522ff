import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SNAPSHOT_CONTRACT_VERSION, TemplateList, type CanvasLayout } from '../../src/contract/index.js';
import { api, signInWithLink, startTestServer, type ApiRequest, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { IDP } from './world.js';

/**
 * Canvas templates over real HTTP on both stores: a new canvas starts from a built-in template (here the 60-second
 * commercial: twelve 5-second shots and a 60-second voice-over track) in one revision; an owner saves a canvas as a
 * project template and the next canvas starts from it; an unknown template makes no canvas.
 */

interface Shot {
  id: string;
  number: string;
  durationMs: number;
}

describe.each(STORE_TARGETS)('canvas templates: $name', (target) => {
  describe.skipIf(!target.available)('over real HTTP', () => {
    let server: TestServer;
    const cookies: Record<string, string> = {};

    beforeAll(async () => {
      server = await startTestServer(target, { rateLimitPerMinute: 1_000_000 });
      const { projects } = server.store;
      await projects.createWorkspace('w');
      await projects.createProject('p', 'w');
      for (const [subject, role] of [
        ['olga', 'owner'],
        ['ed', 'editor'],
      ] as const) {
        await projects.addMember('p', { issuer: IDP, subject }, role);
        const link = await server.store.sessions.createLoginLink({ issuer: IDP, subject }, { expiresInMs: 60_000 });
        cookies[subject] = (await signInWithLink(`${server.url}/auth/login?token=${link}`)).cookie;
      }
    }, 60_000);
    afterAll(async () => server?.close());

    const as = (who: string, request: ApiRequest = {}): ApiRequest => ({
      ...request,
      headers: { cookie: cookies[who]!, origin: server.url, 'x-requested-by': 'canvas-mcp' },
    });
    const snapshot = async (canvasId: string) =>
      api(server.url, `/api/v2/projects/p/canvases/${canvasId}/snapshot`, {
        headers: { ...as('ed').headers, 'x-canvas-snapshot-version': SNAPSHOT_CONTRACT_VERSION },
      });
    const layoutOf = async (canvasId: string): Promise<CanvasLayout> =>
      ((await snapshot(canvasId)).body as { layout: CanvasLayout }).layout;

    it('lists the built-in templates to every member', async () => {
      const listed = await api(server.url, '/api/v1/projects/p/templates', as('ed'));
      expect(listed.status).toBe(200);
      expect(TemplateList.parse(listed.body).templates.map((template) => template.template_id)).toEqual([
        'film-16x9',
        'film-scope',
        'commercial-30',
        'commercial-60',
        'vertical-social',
        'animation',
      ]);
    });

    it('starts a canvas from the 60-second commercial: twelve 5-second shots and a voice-over, in one revision', async () => {
      const created = await api(
        server.url,
        '/api/v1/projects/p/canvases',
        as('olga', { method: 'POST', body: { title: 'Spring Spot', template_id: 'commercial-60' } }),
      );
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body).toMatchObject({ canvas_id: 'spring-spot' });
      const layout = await layoutOf('spring-spot');
      expect(layout.revision).toBe(1);
      const board = layout.nodes.find((node) => node.type === 'storyboardNode')!;
      const data = board.data as { aspectRatio: string; frames: Shot[] };
      expect(data.aspectRatio).toBe('16:9');
      expect(data.frames.map((shot) => shot.number)).toEqual(Array.from({ length: 12 }, (_, index) => `${index + 1}`));
      expect(data.frames.reduce((sum, shot) => sum + shot.durationMs, 0)).toBe(60_000);
      const voiceOver = layout.nodes.find((node) => node.type === 'audioNode')!;
      expect(voiceOver.data).toMatchObject({ displayName: 'Voice-over', durationMs: 60_000, audioKind: 'speech' });
    });

    it("saves a canvas as the project's template (owners), and the next canvas starts from it", async () => {
      const byEditor = await api(
        server.url,
        '/api/v1/projects/p/templates',
        as('ed', { method: 'POST', body: { canvas_id: 'spring-spot', title: 'Our spot' } }),
      );
      expect(byEditor.status).toBe(403);
      const saved = await api(
        server.url,
        '/api/v1/projects/p/templates',
        as('olga', { method: 'POST', body: { canvas_id: 'spring-spot', title: 'Our spot' } }),
      );
      expect(saved.status, JSON.stringify(saved.body)).toBe(201);
      const { template_id } = saved.body as { template_id: string };
      const listed = TemplateList.parse((await api(server.url, '/api/v1/projects/p/templates', as('ed'))).body);
      expect(listed.templates.at(-1)).toMatchObject({ template_id, title: 'Our spot', kind: 'project' });
      const created = await api(
        server.url,
        '/api/v1/projects/p/canvases',
        as('olga', { method: 'POST', body: { title: 'Summer Spot', template_id } }),
      );
      expect(created.status).toBe(201);
      const copy = await layoutOf('summer-spot');
      const original = await layoutOf('spring-spot');
      expect(copy.nodes.map((node) => [node.id, node.type])).toEqual(
        original.nodes.map((node) => [node.id, node.type]),
      );
    });

    it('makes no canvas from a template that does not exist', async () => {
      const refused = await api(
        server.url,
        '/api/v1/projects/p/canvases',
        as('olga', { method: 'POST', body: { title: 'Nowhere', template_id: 'tpl-missing' } }),
      );
      expect(refused.status).toBe(404);
      expect(JSON.stringify(refused.body)).toContain('There is no template tpl-missing');
      expect((await snapshot('nowhere')).status).toBe(404);
    });
  });
});
