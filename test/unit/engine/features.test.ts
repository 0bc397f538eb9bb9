// The engine-feature table (workflows/engine/features.ts): each version is tied to a recorded history
// started with it, and the Update ids the server sends are the ones the workflow says the caller writes.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENGINE_VERSION, ENGINE_VERSIONS, engineFeatures } from '../../../workflows/engine/features.js';
import { callerWrites, startUpdateIdOf, updateIdOf } from '../../../workflows/engine/update-ids.js';

const histories = path.resolve(import.meta.dirname, '../../histories');

/** The engineVersion in a recorded history's first event's input. */
function startedWith(file: string): number | undefined {
  const history = JSON.parse(readFileSync(path.join(histories, file), 'utf8'));
  const payload = history.events[0].workflowExecutionStartedEventAttributes.input.payloads[0];
  return JSON.parse(Buffer.from(payload.data, 'base64').toString('utf8')).engineVersion;
}

describe('engine versions', () => {
  it('every version of the table has its recorded history, started with that version', () => {
    expect(ENGINE_VERSIONS.map((v) => v.version)).toEqual(ENGINE_VERSIONS.map((_, i) => i + 1));
    for (const v of ENGINE_VERSIONS) expect(startedWith(v.history), v.history).toBe(v.version);
    expect(ENGINE_VERSION).toBe(ENGINE_VERSIONS.at(-1)!.version);
  });

  it('each version keeps what the versions before it turned on', () => {
    const on = (version: number) =>
      Object.entries(engineFeatures(version))
        .filter(([k, v]) => k !== 'version' && v === true)
        .map(([k]) => k);
    expect(on(0)).toEqual([]);
    for (let v = 1; v <= ENGINE_VERSION; v++) {
      expect(on(v).length, `version ${v}`).toBe(v);
      expect(on(v)).toEqual(expect.arrayContaining(on(v - 1)));
    }
  });
});

describe('Update ids', () => {
  it('the caller writes the state of every Update the server sends, and of no other', () => {
    const unique = '6f1c2a9e-0000-4000-8000-000000000000';
    expect(callerWrites({ name: 'approve', id: updateIdOf('approve', { scopedKey: 'k1', unique }) })).toBe(true);
    expect(callerWrites({ name: 'approve', id: updateIdOf('approve', { actorId: 'bob', unique }) })).toBe(true);
    expect(callerWrites({ name: 'approve', id: updateIdOf('approve', { unique }) })).toBe(true);
    expect(callerWrites({ name: 'sync', id: startUpdateIdOf('i-1') })).toBe(true);
    expect(updateIdOf('approve', { actorId: 'bob', unique })).toBe(`approve-by-bob-${unique}`);
    // Sent from the Web UI or the CLI: an id of their own.
    expect(callerWrites({ name: 'approve', id: 'e0b9c4d2-web-ui' })).toBe(false);
    expect(callerWrites({ name: 'reject', id: updateIdOf('approve', { unique }) })).toBe(false);
  });
});
