import type { Page } from 'playwright-core';
import { build, type Rollup } from 'vite';

/**
 * The test host of the MCP App in a page: test/web/fixtures/mcp-app-host.js (ext-apps's AppBridge in a host page)
 * bundled for the browser, and the app shown in it with a get_canvas result, relaying tool calls or not.
 */

/** The host page's script: test/web/fixtures/mcp-app-host.js bundled for the browser. */
export async function hostScript(): Promise<string> {
  const output = await build({
    configFile: false,
    logLevel: 'silent',
    build: {
      write: false,
      minify: false,
      lib: { entry: 'test/web/fixtures/mcp-app-host.js', formats: ['iife'], name: 'canvasHost', fileName: 'host' },
    },
  });
  const bundle = (Array.isArray(output) ? output[0] : output) as Rollup.RollupOutput;
  return bundle.output[0].code;
}

/** Loads the test host in the page and has it show the app with a get_canvas result (relaying tool calls or not). */
export async function showInHost(
  page: Page,
  app: { html: string; toolResult: unknown; relay: boolean },
): Promise<void> {
  await page.setContent(
    `<!doctype html><html lang="en"><head><title>Test host</title></head><body><script>${await hostScript()}</script></body></html>`,
  );
  await page.evaluate(
    ({ html, toolResult, relay }) =>
      (globalThis as unknown as { canvasHost: { showApp(options: unknown): Promise<void> } }).canvasHost.showApp({
        html,
        toolArguments: { project_id: 'demo', canvas_id: 'main' },
        toolResult,
        relay,
      }),
    app,
  );
}
