import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasNode } from '../../src/contract/index.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { IDP, startChatStage, type ChatStage } from '../agent/chat-support.js';
import { WALL, card, launchBrowser, signIn } from '../support/browser.js';
import { scripted } from '../support/model-standin.js';
import { STORE_TARGETS } from '../support/stores.js';
import { chooseOption } from '../support/controls.js';

/**
 * The assistant in a thread, in Chromium: an artist asks @assistant in a comment on a shot; the stand-in model reads
 * the canvas and adds a note; the answer appears in the thread as "Assistant for ana" without a reload, the note is on
 * the canvas, and the History tab names the assistant as its author.
 */

describe('the web canvas: the assistant answers in a thread', () => {
  let stage: ChatStage;
  let browser: Browser;

  beforeAll(async () => {
    stage = await startChatStage(STORE_TARGETS[0]!, 'openai');
    await stage.server.store.writes.createNode(
      { projectId: 'p', canvasId: 'c', baseRevision: 0, clientSaveId: null, authorization: SYSTEM_WRITE },
      CanvasNode.parse({
        id: 'board',
        type: 'storyboardNode',
        position: { x: 0, y: 0 },
        data: {
          title: 'Harbour',
          frames: [
            { id: 's1', imageUrl: null, number: '1', action: 'Fog over the bay' },
            { id: 's2', imageUrl: null, number: '2', action: 'Mara looks up' },
          ],
        },
      }),
    );
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await stage?.close();
  });

  it('answers an @assistant comment in its thread, with its change on the canvas and in history', async () => {
    stage.model.setBrain(
      scripted(
        { toolCalls: [{ name: 'get_canvas', args: { project_id: 'p', canvas_id: 'c' } }] },
        {
          toolCalls: [
            {
              name: 'create_canvas_node',
              args: {
                project_id: 'p',
                canvas_id: 'c',
                base_revision: 1,
                client_save_id: null,
                node: {
                  id: 'low-angle',
                  type: 'textAnnotationNode',
                  position: { x: 0, y: 700 },
                  data: { displayName: 'Shot 2 angle', content: 'Shot 2: a low angle on Mara.' },
                },
              },
            },
          ],
        },
        { text: 'Added a note under the board: shot 2 is a low angle on Mara.' },
      ),
    );
    const { context, page, errors } = await signIn(
      browser,
      stage.server,
      { issuer: IDP, subject: 'ana' },
      { projectId: 'p', canvasId: 'c' },
      WALL,
    );
    try {
      await page.locator('.feed-live').waitFor();
      await page.getByRole('tab', { name: 'Comments' }).click();
      const panel = page.getByRole('region', { name: 'Comments' });
      const compose = panel.getByRole('form', { name: 'New comment thread' });
      await chooseOption(compose, 'On', { value: 'board' });
      await chooseOption(compose, 'Shot', { value: 's2' });
      await compose.getByLabel('Comment', { exact: true }).fill('@assistant note that shot 2 is a low angle on Mara');
      await compose.getByRole('button', { name: 'Comment', exact: true }).click();

      const thread = panel.locator('.thread').filter({ hasText: 'note that shot 2 is a low angle' });
      await thread.getByText('Assistant for ana', { exact: true }).waitFor({ timeout: 20_000 });
      await thread.getByText('Added a note under the board: shot 2 is a low angle on Mara.').waitFor();
      await card(page, 'low-angle').waitFor();

      await page.getByRole('tab', { name: 'History' }).click();
      await page.locator('.history-author', { hasText: 'Assistant for ana' }).first().waitFor();
      // The model was asked about this thread's shot, and only once.
      expect(stage.model.requests[0]!.messages.map((message) => JSON.stringify(message)).join('\n')).toContain(
        'note that shot 2 is a low angle on Mara',
      );
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
