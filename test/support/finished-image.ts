import { expect } from 'vitest';
import type { NodeRun } from '../../src/contract/index.js';
import { api, type TestServer } from './servers.js';
import { waitFor } from './wait.js';

export const FILM_CANVAS = '/api/v2/projects/film/canvases/board';
export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A canvas with one image node whose run finished on the local provider; returns the run and the image bytes. */
export async function canvasWithFinishedImage(
  server: TestServer,
): Promise<{ token: string; run: NodeRun; image: Buffer }> {
  const { projects, tokens, chatRuns } = server.store;
  await projects.createWorkspace('studio');
  await projects.createProject('film', 'studio');
  await projects.createCanvas('film', 'board', false);
  const { tokenId, secret } = await tokens.createToken({
    name: 'rest',
    kind: 'backend',
    role: 'editor',
    projects: ['film'],
    workspaces: [],
    actor: null,
    expiresAt: null,
  });
  const chatRun = await chatRuns.createChatRun({
    projectId: 'film',
    canvasId: 'board',
    actor: null,
    tokenId,
    canEdit: true,
    expiresAt: null,
  });
  const node = {
    id: 'fox',
    type: 'imageGenNode',
    position: { x: 0, y: 0 },
    data: { prompt: 'a fox', size: '1K', imageUrl: null, aspectRatio: '1:1' },
  };
  const created = await api(server.url, `${FILM_CANVAS}/nodes`, {
    method: 'POST',
    token: secret,
    headers: { 'x-agent-run-id': chatRun },
    body: { node, base_revision: 0 },
  });
  expect(created.status).toBe(201);
  const submitted = await api(server.url, `${FILM_CANVAS}/nodes/fox/runs`, {
    method: 'POST',
    token: secret,
    headers: { 'x-agent-run-id': chatRun },
  });
  expect(submitted.status).toBe(202);
  const runId = (submitted.body as NodeRun).run_id;
  const run = await waitFor(
    async () => (await api(server.url, `${FILM_CANVAS}/runs/${runId}`, { token: secret })).body as NodeRun,
    (current) => current.status === 'succeeded',
  );
  const image = Buffer.from(await (await fetch(`${server.url}${run.outputs[0]!.url}`)).arrayBuffer());
  expect(image.subarray(0, 8)).toEqual(PNG_SIGNATURE);
  return { token: secret, run, image };
}
