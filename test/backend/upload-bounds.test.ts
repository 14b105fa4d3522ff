import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProjectStorageView, UploadReceipt } from '../../src/contract/index.js';
import { signedInPerson } from '../support/canvas-reads.js';
import { api, startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { projectToken } from '../support/tokens.js';
import { IDP } from './world.js';

/**
 * What uploads may add (docs/security.md, "Storage and media bounds"), over real HTTP on both stores: a project keeps
 * at most its storage quota (checked in the transaction that records an upload, so two uploads racing for the last
 * room cannot both get in), one person sends at most so many bytes an hour, and owners see what the project keeps.
 */

const MiB = 1024 * 1024;
/** The smallest quota and hourly budget the settings take: a little over one of the files below, not two. */
const QUOTA = MiB;
const HOURLY = MiB;
const FILE_BYTES = 600 * 1024;

/** A PDF of exactly `bytes` bytes (kept as sent: its size is what counts), padded with a comment. */
function pdfOf(bytes: number): Buffer {
  const head = '%PDF-1.4\n%';
  const tail = '\n%%EOF\n';
  return Buffer.from(`${head}${'x'.repeat(bytes - head.length - tail.length)}${tail}`, 'latin1');
}

describe.each(STORE_TARGETS)('upload bounds: $name', (target) => {
  describe.skipIf(!target.available)('over real HTTP', () => {
    let server: TestServer;

    beforeAll(async () => {
      server = await startTestServer(target, { projectStorageQuotaBytes: QUOTA, uploadBytesPerHour: HOURLY });
      const { projects } = server.store;
      await projects.createWorkspace('w');
      for (const project of ['full', 'raced', 'r1', 'r2']) {
        await projects.createProject(project, 'w');
        await projects.createCanvas(project, 'c', false);
      }
    }, 60_000);
    afterAll(async () => server?.close());

    /** An editor of these projects with a budget of their own (each token acting for nobody is one). */
    const editorOf = (...projectIds: string[]) =>
      server.store.tokens
        .createToken({
          name: 'an editor',
          kind: 'backend',
          role: 'editor',
          projects: projectIds,
          workspaces: [],
          actor: null,
          expiresAt: null,
        })
        .then((token) => token.secret);

    async function upload(project: string, token: string, name = 'treatment.pdf') {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(pdfOf(FILE_BYTES))], { type: 'application/pdf' }), name);
      const response = await fetch(`${server.url}/api/v2/projects/${project}/canvases/c/uploads`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
      return { status: response.status, headers: response.headers, body: (await response.json()) as unknown };
    }

    const keptIn = async (project: string) =>
      (await server.store.assets.listAssets()).filter((asset) => asset.projectId === project).length;

    it("refuses an upload past the project's storage quota, naming it and what the project keeps, keeping nothing", async () => {
      const first = await upload('full', await editorOf('full'));
      expect(first.status, JSON.stringify(first.body)).toBe(201);
      expect(UploadReceipt.parse(first.body).uploads[0]!.byte_size).toBe(FILE_BYTES);

      const second = await upload('full', await editorOf('full'), 'second.pdf');
      expect(second.status).toBe(422);
      expect(second.body).toMatchObject({
        error: {
          code: 'limit_exceeded',
          details: {
            limit: 'project_storage_quota',
            used_bytes: FILE_BYTES,
            limit_bytes: QUOTA,
            upload_bytes: FILE_BYTES,
          },
        },
      });
      const { message } = (second.body as { error: { message: string } }).error;
      expect(message).toContain('Project full has used 600 KiB of its 1 MiB storage quota');
      expect(message).toContain('--project-storage-quota-bytes, CANVAS_MCP_PROJECT_STORAGE_QUOTA_BYTES');
      expect(await keptIn('full')).toBe(1);
    });

    it('lets only one of two uploads racing for the last room in', async () => {
      const [one, two] = await Promise.all([editorOf('raced'), editorOf('raced')]);
      const answers = await Promise.all([upload('raced', one, 'one.pdf'), upload('raced', two, 'two.pdf')]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([201, 422]);
      expect(await keptIn('raced')).toBe(1);
    });

    it('refuses a person past their upload bytes for the hour with 429 and Retry-After; others still upload', async () => {
      const busy = await editorOf('r1', 'r2');
      expect((await upload('r1', busy)).status).toBe(201);
      const again = await upload('r2', busy);
      expect(again.status).toBe(429);
      expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(again.body).toMatchObject({
        error: {
          code: 'rate_limited',
          details: { limit: 'upload_bytes_per_hour', limit_bytes: HOURLY, left_bytes: HOURLY - FILE_BYTES },
        },
      });
      expect((again.body as { error: { message: string } }).error.message).toContain(
        'One person may upload 1 MiB an hour (--upload-bytes-per-hour, CANVAS_MCP_UPLOAD_BYTES_PER_HOUR)',
      );
      expect(await keptIn('r2')).toBe(0);
      expect((await upload('r2', await editorOf('r2'))).status).toBe(201);
    });

    it("shows the project's owners what it keeps against its quota, and no one else", async () => {
      await server.store.projects.addMember('full', { issuer: IDP, subject: 'boss' }, 'owner');
      await server.store.projects.addMember('full', { issuer: IDP, subject: 'ed' }, 'editor');
      const asOwner = await signedInPerson(server, { issuer: IDP, subject: 'boss' });
      const asEditor = await signedInPerson(server, { issuer: IDP, subject: 'ed' });
      const shown = await api(server.url, '/api/v1/projects/full/storage', asOwner());
      expect(shown.status).toBe(200);
      expect(ProjectStorageView.parse(shown.body)).toEqual({
        project_id: 'full',
        used_bytes: FILE_BYTES,
        quota_bytes: QUOTA,
      });
      expect((await api(server.url, '/api/v1/projects/full/storage', asEditor())).status).toBe(403);
      const token = await projectToken(server.store, 'full', 'viewer');
      expect((await api(server.url, '/api/v1/projects/full/storage', { token })).status).toBe(403);
    });
  });
});
