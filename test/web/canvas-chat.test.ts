import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { CanvasNode } from '../../src/contract/index.js';
import { DESKTOP, WALL, card, launchBrowser, screenshot, signIn } from '../support/browser.js';
import { scripted, type ModelAnswer } from '../support/model-standin.js';
import { STORE_TARGETS } from '../support/stores.js';
import { waitFor } from '../support/wait.js';
import { IDP, plannedAgent, startChatStage, type ChatStage } from '../agent/chat-support.js';
import { chooseOption } from '../support/controls.js';

/**
 * The canvas chat in Chromium: a person types into the Chat tab and the assistant's frames appear on the canvas, in
 * their page and live in a second member's, who also follows the conversation; a paid run waits for Approve; Stop ends
 * a turn halfway; a reload finds the conversation again.
 */

const frame = (id: string, name: string, x: number) => ({
  id,
  type: 'imageGenNode',
  position: { x, y: 0 },
  data: { displayName: name, prompt: `${name}, storyboard frame`, size: '1K', imageUrl: null, aspectRatio: '16:9' },
});

describe('the web canvas: the chat', () => {
  let stage: ChatStage;
  let browser: Browser;

  beforeAll(async () => {
    stage = await startChatStage(STORE_TARGETS[0]!, 'openai', undefined, { workers: 1, runDurationMs: 1500 });
    const beat = CanvasNode.parse({
      id: 'beat',
      type: 'textAnnotationNode',
      position: { x: 0, y: 0 },
      data: { displayName: 'The storm beat', content: 'Mara crosses the bay at night.' },
    });
    await stage.server.store.writes.createNode(
      { projectId: 'p', canvasId: 'c', baseRevision: 0, clientSaveId: null, authorization: SYSTEM_WRITE },
      beat,
    );
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await stage?.close();
  });

  const open = async (
    subject: 'ana' | 'ben' | 'olga',
  ): Promise<{ page: Page; errors: string[]; close(): Promise<void> }> => {
    // A wall of a screen: every card the assistant adds is in view (cards out of view are not drawn).
    const { context, page, errors } = await signIn(
      browser,
      stage.server,
      { issuer: IDP, subject },
      { projectId: 'p', canvasId: 'c' },
      WALL,
    );
    await page.locator('.feed-live').waitFor();
    return { page, errors, close: () => context.close() };
  };

  const openChat = async (page: Page) => {
    await page.getByRole('tab', { name: 'Chat' }).click();
    await page.locator('.chat').waitFor();
  };

  const say = async (page: Page, text: string) => {
    const box = page.getByLabel('Message', { exact: true });
    await box.fill(text);
    await box.press('Enter');
  };

  it("adds the frames asked for in the chat: they appear in both pages as the assistant's, and the other member follows the conversation live", async () => {
    stage.model.setBrain(
      plannedAgent(
        [
          { create: frame('frame-a', 'Arrival', 420) },
          { create: frame('frame-b', 'Storm', 760) },
          { create: frame('frame-c', 'Rescue', 1100) },
          { connect: { id: 'e-ab', source: 'frame-a', target: 'frame-b' } },
          { connect: { id: 'e-bc', source: 'frame-b', target: 'frame-c' } },
        ],
        'Added three frames after the storm beat and connected them.',
      ),
    );
    const ana = await open('ana');
    const ben = await open('ben');
    try {
      await openChat(ana.page);
      await ana.page.getByRole('button', { name: 'New conversation' }).click();
      await ana.page.getByLabel('Message', { exact: true }).waitFor();
      // The beat is selected: "this beat" means it.
      await card(ana.page, 'beat').click();
      await openChat(ana.page);
      await say(ana.page, 'add three storyboard frames for this beat and connect them');

      await ana.page
        .locator('.chat-text', { hasText: 'Added three frames after the storm beat and connected them.' })
        .waitFor({ timeout: 10_000 });
      for (const id of ['frame-a', 'frame-b', 'frame-c']) {
        await card(ana.page, id).waitFor();
        await card(ben.page, id).waitFor();
      }
      await waitFor(
        () => ben.page.locator('.react-flow__edge').count(),
        (count) => count === 2,
      );
      await expect(ana.page.locator('.chat-tool[data-tool="create_canvas_node"]').count()).resolves.toBe(3);
      await expect(
        ana.page.locator('.chat-tool[data-tool="create_canvas_node"]').first().textContent(),
      ).resolves.toContain('Arrival');
      const request = stage.model.requests.find((entry) =>
        entry.messages.some((message) => message.text.includes('add three storyboard frames')),
      )!;
      expect(request.tools).toContain('create_canvas_edge');
      expect(request.messages.find((message) => message.role === 'user')!.text).toContain(
        'Selected nodes (what "this" or "these" means): beat.',
      );

      // Ben sees who did it, and the conversation with its author.
      await ben.page.getByRole('tab', { name: 'History' }).click();
      await ben.page.locator('.history-author', { hasText: 'Assistant for ana' }).first().waitFor();
      await openChat(ben.page);
      await chooseOption(ben.page, 'Conversation', 'add three storyboard frames for this beat and connect them · ana');
      await ben.page.locator('.chat-text', { hasText: 'Added three frames' }).waitFor();
      await ben.page.getByText("You are following ana's conversation.").waitFor();
      await expect(ben.page.getByLabel('Message', { exact: true }).count()).resolves.toBe(0);

      // A line links to its node on the canvas.
      await ana.page.locator('.chat-tool[data-tool="create_canvas_node"] .link-button', { hasText: 'Rescue' }).click();
      await card(ana.page, 'frame-c').waitFor({ state: 'visible' });
      // The picture of docs/chat.md, at a laptop's size (test-results/screenshots; docs/images holds the one chosen).
      await ana.page.setViewportSize(DESKTOP);
      await ana.page.getByRole('button', { name: 'Fit', exact: true }).click();
      await card(ana.page, 'frame-c').waitFor({ state: 'visible' });
      const shot = await screenshot(ana.page, 'canvas-chat');
      expect(shot.inkRatio).toBeGreaterThan(0.05);
      expect([...ana.errors, ...ben.errors]).toEqual([]);
    } finally {
      await ana.close();
      await ben.close();
    }
  });

  it('waits for Approve before a paid run, shows its cost, and the run starts on the card after it; Decline starts nothing', async () => {
    stage.model.setBrain(plannedAgent([{ run: 'Arrival' }], 'The arrival frame is rendering.'));
    const ana = await open('ana');
    try {
      await openChat(ana.page);
      await say(ana.page, 'render the arrival frame');
      const approval = ana.page.getByRole('group', { name: 'Approve a run of Arrival' });
      await approval
        .getByText(/\bcredits?\b/)
        .first()
        .waitFor();
      await expect(approval.textContent()).resolves.toContain('about 1 credit;');
      expect(
        (await stage.server.store.runs.latestRunsByNode('p', 'c')).find((run) => run.node_id === 'frame-a'),
      ).toBeUndefined();
      await approval.getByRole('button', { name: 'Approve' }).click();
      await ana.page.locator('.chat-text', { hasText: 'The arrival frame is rendering.' }).waitFor({ timeout: 10_000 });
      await card(ana.page, 'frame-a').locator('[data-run-status]').first().waitFor();

      stage.model.setBrain(plannedAgent([{ run: 'Storm' }], 'Not rendering it.'));
      await say(ana.page, 'render the storm frame');
      const second = ana.page.getByRole('group', { name: 'Approve a run of Storm' });
      await second.getByRole('button', { name: 'Decline' }).click();
      await ana.page.locator('.chat-text', { hasText: 'Not rendering it.' }).waitFor({ timeout: 10_000 });
      await ana.page.locator('.chat-tool-declined, .chat-outcome-declined').first().waitFor();
      expect(
        (await stage.server.store.runs.latestRunsByNode('p', 'c')).find((run) => run.node_id === 'frame-b'),
      ).toBeUndefined();
      expect(ana.errors).toEqual([]);
    } finally {
      await ana.close();
    }
  });

  it('starts a conversation when a person first types in the Chat tab, without a separate click', async () => {
    stage.model.setBrain(scripted({ text: 'Hello Olga, the canvas has a storm beat.' }));
    const olga = await open('olga');
    try {
      await openChat(olga.page);
      expect(await stage.server.store.chats.list('p', 'c')).not.toContainEqual(
        expect.objectContaining({ owner: expect.objectContaining({ subject: 'olga' }) }),
      );
      await say(olga.page, 'what is on this canvas?');
      await olga.page.locator('.chat-message.chat-user', { hasText: 'what is on this canvas?' }).waitFor();
      await olga.page.locator('.chat-text', { hasText: 'Hello Olga' }).waitFor({ timeout: 10_000 });
      const mine = (await stage.server.store.chats.list('p', 'c')).filter((entry) => entry.owner.subject === 'olga');
      expect(mine).toHaveLength(1);
      expect(olga.errors).toEqual([]);
    } finally {
      await olga.close();
    }
  });

  it('stops a turn halfway with Stop, and finds the conversation again after a reload', async () => {
    const agent = plannedAgent([
      { create: frame('frame-d', 'Aftermath', 1440) },
      { create: frame('frame-e', 'Never', 1780) },
    ]);
    stage.model.setBrain((request) =>
      request.messages.some((message) => message.role === 'tool' && message.text.includes('frame-d'))
        ? ({ stall: true } as ModelAnswer)
        : agent(request),
    );
    const ana = await open('ana');
    try {
      await openChat(ana.page);
      await say(ana.page, 'two more frames');
      await card(ana.page, 'frame-d').waitFor({ timeout: 10_000 });
      await ana.page.getByRole('button', { name: 'Stop' }).click();
      await ana.page.getByText('Stopped.').waitFor({ timeout: 10_000 });
      expect(await stage.server.store.layout.readNode('p', 'c', 'frame-e')).toBeUndefined();

      stage.model.setBrain(scripted({ text: 'Still here.' }));
      await ana.page.reload();
      await ana.page.locator('.feed-live').waitFor();
      await openChat(ana.page);
      await ana.page.locator('.chat-message.chat-user', { hasText: 'two more frames' }).waitFor();
      await ana.page.getByText('Stopped.').waitFor();
      await say(ana.page, 'are you there?');
      await ana.page.locator('.chat-text', { hasText: 'Still here.' }).waitFor({ timeout: 10_000 });
      await waitFor(
        async () => (await stage.server.store.chats.list('p', 'c')).every((entry) => entry.status !== 'running'),
        Boolean,
        5000,
        50,
      );
      expect(ana.errors).toEqual([]);
    } finally {
      await ana.close();
    }
  });
  it("undoes the assistant's changes in a conversation with one click, saying what it did", async () => {
    const ana = await open('ana');
    try {
      await openChat(ana.page);
      // Ana's conversation of the tests above is open: its assistant added Arrival, Storm and Rescue and their two
      // connections, then Aftermath (frame-d) before it was stopped: six changes, none touched by anyone since.
      await ana.page.getByText('Stopped.').waitFor();
      await card(ana.page, 'frame-d').waitFor();
      await ana.page.getByRole('button', { name: 'Undo its changes' }).click();
      await ana.page.locator('.notice', { hasText: "Undid the assistant's 6 changes" }).first().waitFor();
      await card(ana.page, 'frame-d').waitFor({ state: 'detached' });
      for (const id of ['frame-a', 'frame-b', 'frame-c', 'frame-d'])
        expect(await stage.server.store.layout.readNode('p', 'c', id)).toBeUndefined();
      expect(await stage.server.store.layout.readNode('p', 'c', 'beat')).toBeDefined();
      expect(ana.errors).toEqual([]);
    } finally {
      await ana.close();
    }
  });
});
