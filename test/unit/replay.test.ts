// Replays recorded histories against the current workflow code: a change that would break
// running instances fails here (use patched() for incompatible changes). The replay runs in
// its own Node process: protobufjs does not survive Vitest's module loader.
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const files = readdirSync(path.join(root, 'test', 'histories')).filter((f) => f.endsWith('.json'));

describe('workflow determinism', () => {
  it('has recorded histories', () => {
    expect(files.length).toBeGreaterThanOrEqual(2);
  });

  it('replays every recorded history without nondeterminism', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/replay-histories.ts'], {
      cwd: root,
      maxBuffer: 16 * 1024 * 1024,
    }).catch((err) => err);
    const results = String(stdout)
      .trim()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l));
    expect(results).toEqual(files.map((f) => ({ history: f, ok: true, error: null })));
  }, 120_000);
});
