// `npm test`: every vitest project, then (when run without arguments, as CI runs it) the bounded
// Schemathesis pass. Arguments go to vitest, so `npm test -- test/unit/foo.test.ts` runs just that.
import { spawnSync } from 'node:child_process';

const args = process.argv.slice(2);
const run = (cmd: string, cmdArgs: string[]) => spawnSync(cmd, cmdArgs, { stdio: 'inherit', shell: false }).status ?? 1;

let status = run('vitest', ['run', ...args]);
if (status === 0 && args.length === 0) status = run('npm', ['run', 'fuzz', '--', '--quick']);
process.exit(status);
