import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { clientConfigs } from '../../src/shared/client-configs.js';

/**
 * The README's client snippets, the first-start banner and the web canvas's "Connect an agent" panel show the same
 * configurations: the banner and the panel print clientConfigs(), and the README must say what it says.
 */

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const configs = clientConfigs({ mcpUrl: 'http://127.0.0.1:8787/mcp/', token: 'TOKEN', agentRunId: 'CHAT_RUN' });

/** The first fenced block after the bold heading `**name**` in the README. */
function snippetAfter(name: string): string {
  const start = README.indexOf(`**${name}**`);
  expect(start, `README has no **${name}** snippet`).toBeGreaterThanOrEqual(0);
  const block = /```\w*\n([\s\S]*?)```/.exec(README.slice(start));
  return block![1]!;
}

const oneLine = (text: string) => text.replace(/\\\n/g, ' ').replace(/\s+/g, ' ').trim();

describe('client configurations', () => {
  it.each(
    configs.filter((config) => config.client !== 'Claude Code').map((config) => [config.client, config] as const),
  )('the README shows %s as the panel and the banner do', (client, config) => {
    expect(JSON.parse(snippetAfter(client))).toEqual(JSON.parse(config.text));
  });

  it('the README shows the Claude Code command as the panel and the banner do', () => {
    expect(oneLine(snippetAfter('Claude Code'))).toBe(
      oneLine(configs.find((config) => config.client === 'Claude Code')!.text),
    );
  });
});
