// `npm test`: without arguments (as CI runs it) the typecheck, lint and format check, every vitest
// project, then the bounded Schemathesis pass. With arguments, only vitest with them, so
// `npm test -- test/unit/foo.test.ts` runs just that file.
import { spawn, spawnSync } from 'node:child_process';

const args = process.argv.slice(2);
const run = (cmd: string, cmdArgs: string[]) => spawnSync(cmd, cmdArgs, { stdio: 'inherit' }).status ?? 1;

const steps: Array<[string, string[]]> =
  args.length > 0
    ? [['vitest', ['run', ...args]]]
    : [
        ['npm', ['run', 'typecheck']],
        ['npm', ['run', 'lint']],
        ['npm', ['run', 'format:check']],
        ['vitest', ['run']],
        ['npm', ['run', 'fuzz', '--', '--quick']],
      ];
// The full run builds missing Go tools beside the typecheck and lint (scripts/prebuild-tools.ts),
// and waits for them before the tests that use them.
const prebuild =
  args.length === 0
    ? spawn(process.execPath, ['--import', 'tsx', 'scripts/prebuild-tools.ts'], { stdio: 'inherit' })
    : null;
const prebuilt = prebuild ? new Promise((resolve) => prebuild.once('exit', resolve)) : Promise.resolve();
for (const [cmd, cmdArgs] of steps) {
  if (cmd === 'vitest') await prebuilt;
  const status = run(cmd, cmdArgs);
  if (status !== 0) prebuild?.kill();
  if (status !== 0) process.exit(status);
}
