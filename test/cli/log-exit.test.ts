import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/** The batched log (src/shared/logger.ts, test/unit/log-batching.test.ts) loses no line when its process exits. */
describe('batched log lines at exit', () => {
  it('loses no line when the process exits at once', () => {
    const logger = new URL('../../src/shared/logger.ts', import.meta.url).href;
    const output = execFileSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `import { createLogger } from '${logger}';
         const log = createLogger('info');
         for (let i = 0; i < 3; i += 1) log.info({ i }, 'line');
         process.exit(0);`,
      ],
      { encoding: 'utf8' },
    );
    expect(output.split('\n').filter(Boolean)).toHaveLength(3);
  });
});
