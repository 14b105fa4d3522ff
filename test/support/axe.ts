import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

export interface AxeFinding {
  id: string;
  impact: string | null | undefined;
  help: string;
  targets: string[];
}

/** axe-core's serious and critical violations on the page as it is now (A11Y_DEBUG=1 prints every finding in full). */
export async function seriousFindings(page: Page): Promise<AxeFinding[]> {
  // label-content-name-mismatch (a control named other than by the words it shows) is asked for by name: axe long
  // kept it among its experimental rules, and a control speech software cannot reach by its words is a real failure.
  // resultTypes: every rule still runs on every element and every violation is listed in full; only the passes and the
  // incomplete results are cut to one element each, which this check never reads (about a quarter less time a screen).
  const results = await new AxeBuilder({ page: page as never })
    .options({ rules: { 'label-content-name-mismatch': { enabled: true } }, resultTypes: ['violations'] })
    .analyze();
  if (process.env.A11Y_DEBUG) {
    for (const violation of results.violations) {
      for (const node of violation.nodes)
        console.log(
          `${violation.impact} ${violation.id} ${node.target.join(' ')}: ${node.html.slice(0, 160)} ${node.failureSummary ?? ''}`,
        );
    }
  }
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.slice(0, 5).map((node) => node.target.join(' ')),
    }));
}
