// Every engine version of the feature table (workflows/engine/features.ts) still runs to its end,
// with the behaviour its row names; RECORD_HISTORIES=1 writes the histories of the versions whose
// fixture this file records (test/histories; test/unit/replay.test.ts replays them).
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import { describe, expect, it } from 'vitest';
import { ENGINE_VERSION, ENGINE_VERSIONS } from '../../workflows/engine/features.js';
import { graphDoc, node, user, wire } from '../helpers/dsl.js';
import { useHarness } from './support/harness.js';

const h = useHarness('engine-versions');

/** Recorded here: the versions no other test records (v1 and v4 come from the integration suite). */
const RECORDED_HERE = new Set([2, 3]);

/** s → httpCall (refused in the workflow tests: its Failure edge) → bob → carol → end. */
const doc = (key: string) =>
  graphDoc(
    key,
    [
      node('s', 'startTask'),
      node('h', 'httpCall', { url: 'http://example.test/score' }),
      user('first', ['bob']),
      user('second', ['carol']),
      node('end', 'end'),
    ],
    wire('s>h h>first h>first:Failure first>second second>end'),
  );

describe.concurrent('engine versions', () => {
  it.each([0, ...ENGINE_VERSIONS.map((v) => v.version)])('version %i runs to its end', async (version) => {
    const { instanceId } = await h.start(doc(`ev${version}`), { engineVersion: version });
    // The httpCall activity may still run when the start answers.
    for (let i = 0; i < 200 && !h.projection.openTasks(instanceId).some((t) => t.assignee === 'bob'); i++)
      await new Promise((r) => setTimeout(r, 50));
    await h.decide(instanceId, 'bob');
    await h.decide(instanceId, 'carol');
    const outcome = await h.handle(instanceId).result();
    expect(outcome.status).toBe('completed');
    // Version 3 keeps httpCall's failure beside its reserved key, as GFlow does.
    expect('_httpError' in outcome.variables).toBe(version >= 3);
    const record = ENGINE_VERSIONS.find((v) => v.version === version);
    if (record && RECORDED_HERE.has(version) && process.env.RECORD_HISTORIES === '1') {
      const history = await h.handle(instanceId).fetchHistory();
      await writeFile(path.resolve(import.meta.dirname, '../histories', record.history), historyToJSON(history));
    }
  });

  it('new runs start with the newest version of the table', () => {
    expect(ENGINE_VERSION).toBe(ENGINE_VERSIONS.at(-1)!.version);
  });
});
