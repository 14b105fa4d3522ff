import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigInput } from '../../src/config/index.js';
import type { NodeRun } from '../../src/contract/index.js';
import { IDP, seedWorld, type World } from '../backend/world.js';
import { connectClient, structured } from '../support/mcp.js';
import { startS3Standin, type S3Standin } from '../support/s3-standin.js';
import { signInWithLink, startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { waitFor } from '../support/wait.js';

/**
 * Asset access (docs/runs.md, "Who may read an asset"): an asset is read with the signed URL a tool result or run
 * record carries, until it expires, or by a member of its project (session or backend token); an unsigned guess is 401,
 * a caller without rights 404. The same rules on every asset store: local files, chunks in PostgreSQL, and S3 (against
 * s3rver, a local stand-in of the S3 wire protocol: no S3 service is reachable from the test machine).
 */

const ids = { project_id: 'p1', canvas_id: 'c1' };
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const PNG_END = Buffer.from([0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);

interface Variant {
  name: string;
  target: (typeof STORE_TARGETS)[number];
  assetStore: 'local' | 'postgres' | 's3';
}

const [sqlite, postgres] = STORE_TARGETS as [Variant['target'], Variant['target']];
const VARIANTS: Variant[] = [
  { name: 'local files on SQLite', target: sqlite, assetStore: 'local' },
  { name: 'chunks in PostgreSQL', target: postgres, assetStore: 'postgres' },
  { name: 'S3 (s3rver stand-in) on SQLite', target: sqlite, assetStore: 's3' },
];

describe.each(VARIANTS)('asset access: $name', ({ target, assetStore }) => {
  describe.skipIf(!target.available)('a finished image run', () => {
    let s3: S3Standin | undefined;
    let server: TestServer;
    let world: World;
    let agent: Client;
    let output: NodeRun['outputs'][number];
    let bytes: Buffer;
    let clockOffset = 0;
    let memberToken: string;
    let outsiderToken: string;
    let memberCookie: string;

    beforeAll(async () => {
      let s3Settings: ConfigInput = {};
      if (assetStore === 's3') {
        s3 = await startS3Standin();
        s3Settings = {
          s3Bucket: s3.bucket,
          s3Endpoint: s3.endpoint,
          s3ForcePathStyle: true,
          s3AccessKeyId: 'S3RVER',
          s3SecretAccessKey: 'S3RVER',
          s3Prefix: 'canvas/',
        };
      }
      server = await startTestServer(
        target,
        { workers: 1, runDurationMs: 20, enableHiddenTools: true, assetStore, ...s3Settings },
        { clock: () => Date.now() + clockOffset },
      );
      world = await seedWorld(server.store);
      const { tokens } = server.store;
      memberToken = (
        await tokens.createToken({
          name: 'member',
          kind: 'backend',
          role: 'viewer',
          projects: ['p1'],
          workspaces: [],
          actor: null,
          expiresAt: null,
        })
      ).secret;
      outsiderToken = (
        await tokens.createToken({
          name: 'outsider',
          kind: 'backend',
          role: 'editor',
          projects: ['p2'],
          workspaces: [],
          actor: null,
          expiresAt: null,
        })
      ).secret;
      const link = await server.store.sessions.createLoginLink(
        { issuer: IDP, subject: 'carol' },
        { expiresInMs: 60_000 },
      );
      memberCookie = (await signInWithLink(`${server.url}/auth/login?token=${link}`)).cookie;

      agent = await connectClient(server.server.mcpUrl, {
        Authorization: `Bearer ${world.tokens.editor.secret}`,
        'X-Agent-Run-Id': world.chatRuns.edit,
      });
      const read = structured<{ layout: { revision: number } }>(
        await agent.callTool({ name: 'get_canvas', arguments: ids }),
      );
      const node = {
        id: 'still',
        type: 'imageGenNode',
        position: { x: 0, y: 0 },
        data: { prompt: 'a harbour at dawn', size: '0.5K', imageUrl: null, aspectRatio: '1:1' },
      };
      await agent.callTool({
        name: 'create_canvas_node',
        arguments: { ...ids, base_revision: read.layout.revision, node },
      });
      const submitted = structured<NodeRun>(
        await agent.callTool({ name: 'submit_canvas_node_run', arguments: { ...ids, node_id: 'still' } }),
      );
      const done = await waitFor(
        async () =>
          structured<NodeRun>(
            await agent.callTool({ name: 'get_canvas_node_run', arguments: { ...ids, run_id: submitted.run_id } }),
          ),
        (run) => run.status === 'succeeded',
      );
      output = done.outputs[0]!;
      const response = await fetch(output.url);
      expect(response.status).toBe(200);
      bytes = Buffer.from(await response.arrayBuffer());
    });
    afterAll(async () => {
      await agent?.close();
      await server?.close();
      await s3?.close();
    });

    const unsigned = () => output.url.replace(/\?.*$/, '');

    it(`the run's output is kept in ${assetStore} storage and its signed URL serves its bytes`, async () => {
      expect((await server.store.assets.getAsset(output.asset_id))?.storage).toBe(assetStore);
      expect(bytes.subarray(0, 8)).toEqual(PNG_SIGNATURE);
      expect(bytes.length).toBe((await server.store.assets.getAsset(output.asset_id))?.byteSize);
    });

    it('an unsigned asset URL without credentials is 401', async () => {
      const response = await fetch(unsigned());
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error: { code: 'unauthenticated' } });
    });

    it('a tampered signature is 401, and so is a signature for another asset', async () => {
      const tampered = output.url.replace(/sig=(.)/, (_match, first: string) => `sig=${first === 'A' ? 'B' : 'A'}`);
      expect((await fetch(tampered)).status).toBe(401);
      const elsewhere = output.url.replace(output.asset_id, 'asset_AAAAAAAAAAAAAAAA');
      expect((await fetch(elsewhere)).status).toBe(401);
    });

    it("a project member's backend token and a member's session read the unsigned URL", async () => {
      const byToken = await fetch(unsigned(), { headers: { authorization: `Bearer ${memberToken}` } });
      expect(byToken.status).toBe(200);
      expect(Buffer.from(await byToken.arrayBuffer())).toEqual(bytes);
      const bySession = await fetch(unsigned(), { headers: { cookie: memberCookie } });
      expect(bySession.status).toBe(200);
      expect(Buffer.from(await bySession.arrayBuffer())).toEqual(bytes);
    });

    it('a token of another project gets 404, as for an asset that does not exist', async () => {
      const response = await fetch(unsigned(), { headers: { authorization: `Bearer ${outsiderToken}` } });
      expect(response.status).toBe(404);
      const missing = await fetch(`${server.url}/assets/asset_AAAAAAAAAAAAAAAA`, {
        headers: { authorization: `Bearer ${outsiderToken}` },
      });
      expect(missing.status).toBe(404);
    });

    it('a range request answers 206 with just those bytes, and a range past the end 416', async () => {
      const head = await fetch(output.url, { headers: { range: 'bytes=0-7' } });
      expect(head.status).toBe(206);
      expect(head.headers.get('content-range')).toBe(`bytes 0-7/${bytes.length}`);
      expect(Buffer.from(await head.arrayBuffer())).toEqual(PNG_SIGNATURE);
      const middle = await fetch(output.url, { headers: { range: `bytes=100-${bytes.length + 50}` } });
      expect(middle.status).toBe(206);
      expect(Buffer.from(await middle.arrayBuffer())).toEqual(bytes.subarray(100));
      const beyond = await fetch(output.url, { headers: { range: `bytes=${bytes.length + 10}-` } });
      expect(beyond.status).toBe(416);
    });

    it.skipIf(assetStore === 's3')('a suffix range answers the last bytes (the PNG end chunk)', async () => {
      // s3rver answers a suffix range from the start (a stand-in bug); real S3 follows RFC 9110 here.
      const tail = await fetch(output.url, { headers: { range: 'bytes=-8' } });
      expect(tail.status).toBe(206);
      expect(Buffer.from(await tail.arrayBuffer())).toEqual(PNG_END);
    });

    it.runIf(assetStore === 's3')(
      'an S3 asset is a redirect to a presigned GET of the object store, which refuses a forged signature',
      async () => {
        const response = await fetch(output.url, { redirect: 'manual' });
        expect(response.status).toBe(302);
        const location = new URL(response.headers.get('location')!);
        expect(location.origin).toBe(s3!.endpoint);
        expect(location.pathname).toMatch(new RegExp(`^/${s3!.bucket}/canvas/staging/${output.asset_id}\\.`));
        expect(location.searchParams.get('X-Amz-Expires')).toBe('300');
        expect((await fetch(location)).status).toBe(200);
        location.searchParams.set('X-Amz-Signature', '0'.repeat(64));
        expect((await fetch(location)).status).toBe(403);
      },
    );

    it('a signed URL stops working when it expires, and a fresh read signs a new one', async () => {
      clockOffset = 2 * 3600_000;
      try {
        const expired = await fetch(output.url);
        expect(expired.status).toBe(401);
        expect(await expired.text()).toContain('expired');
        const fresh = structured<NodeRun>(
          await agent.callTool({
            name: 'get_canvas_node_run',
            arguments: { ...ids, run_id: (await server.store.assets.getAsset(output.asset_id))!.runId },
          }),
        );
        expect(fresh.outputs[0]!.url).not.toBe(output.url);
        expect((await fetch(fresh.outputs[0]!.url)).status).toBe(200);
      } finally {
        clockOffset = 0;
      }
    });
  });
});
