import type { Command } from 'commander';
import type { DoctorFlags } from '../actions/doctor.js';
import { addSettingOptions, configFlagsOf, settingOptions } from '../setting-options.js';

/** `canvas-mcp doctor`: its flags, those of `serve` that choose the chat's model; actions/doctor.ts checks it. */

export function registerDoctorCommand(
  program: Command,
  run: (json: boolean, work: () => Promise<void>) => Promise<void>,
): void {
  const doctor = program
    .command('doctor')
    .description(
      "Check the canvas chat's model (which one is configured, and whether it answers) and the ffmpeg and ffprobe in use",
    );
  const options = settingOptions('doctor');
  addSettingOptions(doctor, options);
  doctor
    .option('--json', 'print one JSON object')
    .action((flags: DoctorFlags) =>
      run(!!flags.json, async () =>
        (await import('../actions/doctor.js')).doctor(configFlagsOf(doctor, options), flags),
      ),
    );
}
