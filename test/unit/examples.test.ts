import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileProcess } from '../../dsl/index.js';
import { serviceFunctionNames } from '../../src/definitions/builtin-functions.js';

const root = path.resolve(import.meta.dirname, '../..');
const local = path.join(root, 'examples');
// The process documents; examples/ also holds code (the function worker).
const processFiles = () => readdirSync(local).filter((f) => f.endsWith('.json'));
// The reference GFlow examples exactly as they were handed over: a change to one is a change of
// the compatibility target, so it must be deliberate (update the digest with it).
const referenceDigests: Record<string, string> = {
  'expense-claim.json': 'fcb70f9f87fae5eb7a447de21a0f10b7906500d4974945c04199914540fd9bd7',
  'leave-request.json': '3a16f34e181c2c166d4dc060db908acab724cf872103b64bb8cf4f95166b2a50',
  // The leave request with Chinese names (请假流程): the console's language test (test/browser/i18n.test.ts).
  'leave-request.zh-CN.json': '33388cfa8cbf6241337fd118fc986e948e001c46f4878cc6666f0c999304ff34',
  'purchase-legacy-keys.json': '4ada24b70fce9d68f13333c84ae11e6c7cc32e788eec2a73aba77da903d000d0',
};

describe('bundled example processes (demo data)', () => {
  it('are the reference examples, unchanged', () => {
    expect(processFiles().sort()).toEqual(Object.keys(referenceDigests).sort());
    for (const f of processFiles())
      expect(
        createHash('sha256')
          .update(readFileSync(path.join(local, f)))
          .digest('hex'),
        f,
      ).toBe(referenceDigests[f]);
  });

  it('all compile', () => {
    for (const f of processFiles())
      expect(
        compileProcess(JSON.parse(readFileSync(path.join(local, f), 'utf8')), { functions: serviceFunctionNames }).ok,
        f,
      ).toBe(true);
  });
});
