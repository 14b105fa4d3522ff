import type { Command } from 'commander';
import type { VerifyFlags } from '../actions/admin-verify.js';

/** `canvas-mcp admin verify FILE` (docs/provenance.md, "Checking a file"): its flags; actions/ reads the file. */

export function registerVerifyCommand(
  admin: Command,
  run: (json: boolean, work: () => Promise<void>) => Promise<void>,
): void {
  admin
    .command('verify')
    .description('Print and check the content credentials (C2PA) a file carries')
    .argument('<file>')
    .option('--trust <pem>', "CA certificates to trust (PEM), e.g. the deployment's own (docs/provenance.md)")
    .option('--json', 'print JSON')
    .action((file: string, flags: VerifyFlags) =>
      run(!!flags.json, async () => (await import('../actions/admin-verify.js')).verify(file, flags)),
    );
}
