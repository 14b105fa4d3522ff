import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { CanvasNode } from '../../src/contract/index.js';
import { OUTLINE_PAGE_NODES } from '../../src/mcp/canvas-resources.js';
import type { Store } from '../../src/store/store.js';
import { CLIENT_FLAVOURS, connectFlavour, flavourName } from '../support/mcp-clients.js';
import { MODES, connectClient, deploy, structured, type McpDeployment } from '../support/mcp.js';
import { STORE_TARGETS } from '../support/stores.js';

/**
 * Large canvases within host limits: get_canvas answers the whole canvas, exact to the spec, which from about a
 * thousand nodes is past what hosts accept in one result (Claude Code ≈ 25,000 tokens, claude.ai ≈ 150,000 characters).
 * The canvas resources answer it in pieces that fit at any size.
 */

/** A conservative reading of Claude Code's limit: 25,000 tokens at 3 characters a token (JSON tokenizes densely). */
const TOKEN_LIMIT_CHARS = 25_000 * 3;
const CLAUDE_AI_CHARS = 150_000;

function node(index: number): CanvasNode {
  const position = { x: (index % 100) * 360, y: Math.floor(index / 100) * 280 };
  return CanvasNode.parse(
    index % 2 === 0
      ? {
          id: `n${index}`,
          type: 'imageGenNode',
          position,
          data: {
            displayName: `Frame ${index}`,
            prompt: `Shot ${index}: the keeper climbs the stairs as the storm hits`,
            size: '1K',
            imageUrl: null,
            aspectRatio: '16:9',
          },
        }
      : {
          id: `n${index}`,
          type: 'textAnnotationNode',
          position,
          data: { displayName: `Note ${index}`, content: `Keep the lamp as the only warm light in shot ${index}.` },
        },
  );
}

async function fill(store: Store, canvasId: string, count: number): Promise<void> {
  await store.projects.createCanvas('p1', canvasId, false);
  for (let index = 0; index < count; index += 1) {
    await store.writes.createNode(
      { projectId: 'p1', canvasId, baseRevision: index, clientSaveId: null, authorization: SYSTEM_WRITE },
      node(index),
    );
  }
}

const textOf = (result: unknown) => (result as { content: Array<{ text: string }> }).content[0]!.text;
const resourceText = async (client: Client, uri: string) =>
  ((await client.readResource({ uri })).contents[0] as { text: string }).text;

describe('large canvases: sizes against host limits (in-process)', () => {
  let deployment: McpDeployment;
  let agent: Client;
  const sizes: Record<number, { getCanvas: number; outlinePage: number; node: number }> = {};

  beforeAll(async () => {
    deployment = await deploy('in-process', STORE_TARGETS[0]!);
    for (const count of [50, 1000, 10_000]) await fill(deployment.backend.store, `large-${count}`, count);
    agent = await connectClient(deployment.mcpUrl, {
      Authorization: `Bearer ${deployment.world.tokens.viewer.secret}`,
    });
    for (const count of [50, 1000, 10_000]) {
      const ids = { project_id: 'p1', canvas_id: `large-${count}` };
      sizes[count] = {
        getCanvas: textOf(await agent.callTool({ name: 'get_canvas', arguments: ids })).length,
        outlinePage: (await resourceText(agent, `canvas://p1/large-${count}/outline`)).length,
        node: (await resourceText(agent, `canvas://p1/large-${count}/nodes/n0`)).length,
      };
    }
    console.log(`result sizes in characters (text block): ${JSON.stringify(sizes)}`);
  }, 180_000);
  afterAll(async () => {
    await agent?.close();
    await deployment?.close();
  });

  it('get_canvas fits at 50 nodes and is past the token limit from 1,000 nodes (why the resources exist)', () => {
    expect(sizes[50]!.getCanvas).toBeLessThan(TOKEN_LIMIT_CHARS);
    expect(sizes[1000]!.getCanvas).toBeGreaterThan(TOKEN_LIMIT_CHARS);
    expect(sizes[10_000]!.getCanvas).toBeGreaterThan(CLAUDE_AI_CHARS);
  });

  it('every outline page and every node view fits under both limits, at 10,000 nodes too', () => {
    for (const count of [50, 1000, 10_000]) {
      expect(sizes[count]!.outlinePage).toBeLessThan(TOKEN_LIMIT_CHARS);
      expect(sizes[count]!.node).toBeLessThan(TOKEN_LIMIT_CHARS);
    }
  });

  it('the outline pages a 10,000-node canvas: every node on exactly one page, each page pointing to the next', async () => {
    const seen: string[] = [];
    let uri: string | null = 'canvas://p1/large-10000/outline';
    let pages = 0;
    while (uri) {
      const text = await resourceText(agent, uri);
      pages += 1;
      const lines = text.split('\n');
      expect(lines[0]).toMatch(/^# canvas p1\/large-10000 at revision 10000: 10000 nodes, 0 edges; page \d+ of 10/);
      const header = lines.indexOf('id\ttype\tname\tx\ty\twidth\theight\tparent');
      for (const line of lines.slice(header + 1)) if (line) seen.push(line.split('\t')[0]!);
      uri = /^# next page: (\S+)$/m.exec(text)?.[1] ?? null;
    }
    expect(pages).toBe(10_000 / OUTLINE_PAGE_NODES);
    expect(seen).toHaveLength(10_000);
    expect(new Set(seen).size).toBe(10_000);
    const first = (await resourceText(agent, 'canvas://p1/large-10000/outline')).split('\n')[4]!;
    expect(first.split('\t')).toEqual(['n0', 'imageGenNode', 'Frame 0', '0', '0', '-', '-', '-']);
  });

  it('a page past the end, a malformed uri and an unknown one are protocol errors naming the problem', async () => {
    await expect(agent.readResource({ uri: 'canvas://p1/large-50/outline?page=2' })).rejects.toThrow(/has 1 page/);
    await expect(agent.readResource({ uri: 'canvas://p1/large-50/outline?page=zero' })).rejects.toThrow(
      /page .* whole number/,
    );
    await expect(agent.readResource({ uri: 'canvas://p1/large-50/nodes/nope' })).rejects.toThrow(/No node nope/);
    await expect(agent.readResource({ uri: 'canvas://p1/large-50/elsewhere' })).rejects.toThrow(/Resource not found/);
  });
});

describe.each(MODES)('canvas resources: %s', (mode) => {
  let deployment: McpDeployment;
  let agent: Client;

  beforeAll(async () => {
    deployment = await deploy(mode, STORE_TARGETS[0]!, { enableHiddenTools: true });
    agent = await connectClient(deployment.mcpUrl, {
      Authorization: `Bearer ${deployment.world.tokens.editor.secret}`,
      'X-Agent-Run-Id': deployment.world.chatRuns.edit,
    });
  });
  afterAll(async () => {
    await agent?.close();
    await deployment?.close();
  });

  const ids = { project_id: 'p1', canvas_id: 'c1' };
  const revision = async () =>
    structured<{ layout: { revision: number } }>(await agent.callTool({ name: 'get_canvas', arguments: ids })).layout
      .revision;

  it('lists the seven templates', async () => {
    const { resourceTemplates } = await agent.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual([
      'canvas://{project_id}/{canvas_id}/outline{?page}',
      'canvas://{project_id}/{canvas_id}/nodes/{node_id}',
      'canvas://{project_id}/{canvas_id}/changes{?since}',
      'canvas://{project_id}/{canvas_id}/board.png{?node_id,x,y,width,height,format,guides}',
      'canvas://{project_id}/{canvas_id}/nodes/{node_id}/shots/{shot_id}/drawing',
      'canvas://{project_id}/{canvas_id}/threads{?status}',
      'canvas://{project_id}/{canvas_id}/nodes/{node_id}/threads',
    ]);
  });

  it('reads one node with its edges, and the changes since a revision with their authors', async () => {
    const since = await revision();
    for (const id of ['from', 'to']) {
      await agent.callTool({
        name: 'create_canvas_node',
        arguments: {
          ...ids,
          base_revision: await revision(),
          node: { id, type: 'textAnnotationNode', position: { x: 0, y: 0 }, data: { content: id } },
        },
      });
    }
    const edge = await agent.callTool({
      name: 'create_canvas_edge',
      arguments: { ...ids, base_revision: await revision(), edge: { id: 'from-to', source: 'from', target: 'to' } },
    });
    expect(edge.isError).toBeFalsy();
    const view = JSON.parse(await resourceText(agent, 'canvas://p1/c1/nodes/from')) as {
      revision: number;
      node: { id: string };
      edges: { outgoing: Array<{ target: string }> };
    };
    expect(view.node.id).toBe('from');
    expect(view.edges.outgoing.map((each) => each.target)).toEqual(['to']);
    expect(view.revision).toBe(await revision());
    const changes = JSON.parse(await resourceText(agent, `canvas://p1/c1/changes?since=${since}`)) as {
      revisions: Array<{
        revision: number;
        author: { kind: string; token_id?: string };
        changes: Array<{ id: string; change: string }>;
      }>;
      truncated: boolean;
    };
    expect(changes.truncated).toBe(false);
    expect(changes.revisions[0]).toMatchObject({
      revision: since + 1,
      author: { kind: 'agent', token_id: deployment.world.tokens.editor.id },
      changes: [{ id: 'from', change: 'create' }],
    });
    expect(changes.revisions[1]).toMatchObject({ revision: since + 2, changes: [{ id: 'to', change: 'create' }] });
  });

  it("is read with the caller's own rights: a token of another project cannot read the canvas", async () => {
    const outsider = await connectClient(deployment.mcpUrl, {
      Authorization: `Bearer ${deployment.world.tokens.otherProject.secret}`,
    });
    try {
      await expect(outsider.readResource({ uri: 'canvas://p1/c1/outline' })).rejects.toThrow(
        /This token is not permitted/,
      );
    } finally {
      await outsider.close();
    }
  });
});

describe('canvas resources with every client and era', () => {
  let deployment: McpDeployment;
  beforeAll(async () => {
    deployment = await deploy('in-process', STORE_TARGETS[0]!);
  });
  afterAll(async () => deployment?.close());

  it.each(CLIENT_FLAVOURS.map((flavour) => [flavourName(flavour), flavour] as const))(
    '%s reads the outline',
    async (_name, flavour) => {
      const { client } = await connectFlavour(
        deployment.mcpUrl,
        { Authorization: `Bearer ${deployment.world.tokens.viewer.secret}` },
        flavour,
      );
      try {
        const { contents } = await client.readResource({ uri: 'canvas://p1/c1/outline' });
        expect((contents[0] as { mimeType: string; text: string }).mimeType).toBe('text/tab-separated-values');
        expect((contents[0] as { text: string }).text).toMatch(/^# canvas p1\/c1 at revision \d+/);
      } finally {
        await client.close();
      }
    },
  );
});
