import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SNAPSHOT_CONTRACT_VERSION, type CanvasLayout } from '../../src/contract/index.js';
import { SCRIPT_LINE_MAX_CHARS } from '../../src/storyboard/screenplay/script-text.js';
import { LOOP_BUDGET_MS, rawRequest, whileHealthPolled } from '../support/raw-http.js';
import { api, signInWithLink, startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { projectToken } from '../support/tokens.js';
import { IDP } from './world.js';

/**
 * Hostile scripts (docs/security.md, "Script import"): a screenplay is read on a worker thread with a deadline and
 * within limits, so the server keeps answering while it reads one. The 370-byte file a security review sent (a heading,
 * then a line of spaces and a digit) held the event loop for seconds; a file whose reading outlasts the deadline is
 * stopped and refused naming the limit; an over-long line is refused naming the line; nothing is written; and only an
 * editor makes the server read a file at all.
 */

const CANVAS = '/api/v2/projects/p/canvases/c';
/** Reading this takes fountain-js seconds whatever its white space (its emphasis rules grow with each line's length). */
const slowScene = () => `INT. HOUSE - DAY\n\n${Array.from({ length: 24 }, () => '*a '.repeat(3333)).join('\n\n')}\n`;

describe.each(STORE_TARGETS)('script import within its limits: $name', (target) => {
  describe.skipIf(!target.available)('over real HTTP', () => {
    let server: TestServer;
    let headers: Record<string, string>;
    let viewer: string;

    beforeAll(async () => {
      server = await startTestServer(target, { rateLimitPerMinute: 1_000_000, scriptReadSeconds: 1 });
      const { projects } = server.store;
      await projects.createWorkspace('w');
      await projects.createProject('p', 'w');
      await projects.createCanvas('p', 'c', false);
      await projects.addMember('p', { issuer: IDP, subject: 'ed' }, 'editor');
      const link = await server.store.sessions.createLoginLink({ issuer: IDP, subject: 'ed' }, { expiresInMs: 60_000 });
      const { cookie } = await signInWithLink(`${server.url}/auth/login?token=${link}`);
      headers = { cookie, origin: server.url, 'x-requested-by': 'canvas-mcp', 'content-type': 'application/json' };
      viewer = await projectToken(server.store, 'p', 'viewer');
      // The first fetch of this test process loads its HTTP client: not the server's time.
      await fetch(`${server.url}/healthz`);
    }, 60_000);
    afterAll(async () => server?.close());

    const revision = async () =>
      (
        (
          await api(server.url, `${CANVAS}/snapshot`, {
            token: viewer,
            headers: { 'x-canvas-snapshot-version': SNAPSHOT_CONTRACT_VERSION },
          })
        ).body as { layout: CanvasLayout }
      ).layout.revision;
    const importing = (fileName: string, text: string, baseRevision: number) =>
      rawRequest(`${server.url}${CANVAS}/script-import`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ base_revision: baseRevision, file_name: fileName, text }),
      });

    it('reads the 370-byte script of a heading and a line of spaces and a digit without holding the server', async () => {
      const text = `INT. LIGHTHOUSE - NIGHT\n\n${' '.repeat(340)}1\n`;
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(370);
      const { response, samples, loopDelayMs } = await whileHealthPolled(server.url, async () =>
        importing('hostile.fountain', text, await revision()),
      );
      expect(response.status, response.text).toBe(201);
      expect(samples.every((sample) => sample.status === 200)).toBe(true);
      expect(loopDelayMs).toBeLessThan(LOOP_BUDGET_MS);
    });

    it('stops a script whose reading outlasts the deadline, refuses it naming the limit and writes nothing, while /healthz keeps answering', async () => {
      const before = await revision();
      const { response, samples, loopDelayMs } = await whileHealthPolled(server.url, () =>
        importing('slow.fountain', slowScene(), before),
      );
      expect(response.status, response.text).toBe(422);
      const { error } = response.json as { error: { code: string; message: string; details: { limit: string } } };
      expect(error.code).toBe('limit_exceeded');
      expect(error.details.limit).toBe('script_read_seconds');
      expect(error.message).toMatch(/slow\.fountain: reading this script took longer than 1 s/);
      expect(samples.every((sample) => sample.status === 200)).toBe(true);
      expect(loopDelayMs).toBeLessThan(LOOP_BUDGET_MS);
      expect(await revision()).toBe(before);
      // The stopped reader's thread is gone; the next import gets a fresh one.
      const next = await importing('next.fountain', 'INT. HOUSE - DAY\n\nA quiet room.\n', before);
      expect(next.status, next.text).toBe(201);
    });

    it('refuses a line longer than the limit, naming the line and the limit', async () => {
      const before = await revision();
      const text = `INT. HOUSE - DAY\n\nShort.\n\n${'word '.repeat(SCRIPT_LINE_MAX_CHARS / 4)}\n`;
      const response = await importing('long.fountain', text, before);
      expect(response.status, response.text).toBe(400);
      const { error } = response.json as { error: { code: string; message: string; details: { line: number } } };
      expect(error.code).toBe('invalid_arguments');
      expect(error.message).toContain(`Line 5 is ${(SCRIPT_LINE_MAX_CHARS / 4) * 5} characters long`);
      expect(error.message).toContain(`at most ${SCRIPT_LINE_MAX_CHARS}`);
      expect(error.details.line).toBe(5);
      expect(await revision()).toBe(before);
    });

    it.each([
      [
        'an external entity',
        '<?xml version="1.0"?>\n<!DOCTYPE FinalDraft [ <!ENTITY x SYSTEM "file:///etc/passwd"> ]>\n<FinalDraft><Content><Paragraph Type="Scene Heading"><Text>&x;</Text></Paragraph></Content></FinalDraft>',
      ],
      [
        "entities expanding past the parser's limit",
        `<?xml version="1.0"?>\n<!DOCTYPE FinalDraft [ <!ENTITY a "${'a'.repeat(9000)}"> ]>\n<FinalDraft><Content><Paragraph Type="Action"><Text>${'&a;'.repeat(40)}</Text></Paragraph></Content></FinalDraft>`,
      ],
    ])('refuses a Final Draft file with a DOCTYPE (%s) as bad input naming it, never a fault', async (_name, text) => {
      const before = await revision();
      const response = await importing('hostile.fdx', text, before);
      expect(response.status, response.text).toBe(400);
      const { error } = response.json as { error: { code: string; message: string; details: { line: number } } };
      expect(error.code).toBe('invalid_arguments');
      expect(error.message).toContain(
        'hostile.fdx: The Final Draft file declares a document type (<!DOCTYPE> at line 2)',
      );
      expect(error.details.line).toBe(2);
      expect(await revision()).toBe(before);
    });

    it('answers a viewer 403 before reading the file', async () => {
      const response = await api(server.url, `${CANVAS}/script-import`, {
        method: 'POST',
        token: viewer,
        body: { base_revision: 0, file_name: 'slow.fountain', text: slowScene() },
      });
      expect(response.status).toBe(403);
    });
  });
});
