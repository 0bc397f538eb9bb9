import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileProcess } from '../../src/dsl/index.js';
import { serviceFunctionNames } from '../../activities/service-functions.js';

const root = path.resolve(import.meta.dirname, '../..');
const local = path.join(root, 'examples');
const shared = path.resolve(root, '..', 'shared', 'examples');

describe('bundled example processes (demo data)', () => {
  it('are the shared examples, unchanged', () => {
    if (!existsSync(shared)) return; // only beside the shared folder
    expect(readdirSync(local).sort()).toEqual(readdirSync(shared).sort());
    for (const f of readdirSync(shared)) expect(readFileSync(path.join(local, f), 'utf8'), f).toBe(readFileSync(path.join(shared, f), 'utf8'));
  });

  it('all compile', () => {
    for (const f of readdirSync(local)) expect(compileProcess(JSON.parse(readFileSync(path.join(local, f), 'utf8')), { functions: serviceFunctionNames }).ok, f).toBe(true);
  });
});
