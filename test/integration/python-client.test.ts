// A client generated in another language from GET /openapi.json (openapi-python-client, PyPI)
// runs the whole approval scenario — log in, deploy an example, start, list the to-do, approve —
// with generated functions and models only (test/integration/python-client/scenario.py), and the
// generator has nothing to say about the document (no warning).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOLS_DIR } from '../../src/runtime/temporal-cli.js';
import { baseUrl } from '../helpers/api.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

export const GENERATOR_VERSION = '0.29.1';
const venv = path.join(TOOLS_DIR, 'openapi-python-client');
const bin = (name: string) => path.join(venv, 'bin', name);

/** openapi-python-client in a git-ignored venv under .tools/ (as scripts/fuzz.ts installs Schemathesis). */
async function generator(): Promise<string> {
  if (existsSync(bin('openapi-python-client'))) {
    const { stdout } = await run(bin('openapi-python-client'), ['--version']).catch(() => ({ stdout: '' }));
    if (stdout.includes(GENERATOR_VERSION)) return bin('openapi-python-client');
  }
  await mkdir(TOOLS_DIR, { recursive: true });
  if (!existsSync(bin('pip'))) await run('python3', ['-m', 'venv', venv]);
  await run(bin('pip'), ['install', '--quiet', `openapi-python-client==${GENERATOR_VERSION}`], {
    maxBuffer: 16 * 1024 * 1024,
  });
  return bin('openapi-python-client');
}

describe('a Python client generated from /openapi.json', () => {
  let work: string;
  let generated: { stdout: string; stderr: string };

  beforeAll(async () => {
    const tool = await generator();
    work = await mkdtemp(path.join(tmpdir(), 'python-client-'));
    const res = await fetch(`${baseUrl()}/openapi.json`);
    expect(res.status).toBe(200);
    await writeFile(path.join(work, 'openapi.json'), await res.text());
    generated = await run(
      tool,
      [
        'generate',
        '--path',
        path.join(work, 'openapi.json'),
        '--output-path',
        path.join(work, 'approval_client'),
        '--meta',
        'none',
      ],
      // The venv's bin first: the generator's post hooks (ruff) live there.
      { env: { ...process.env, PATH: `${path.dirname(tool)}:${process.env.PATH}` }, maxBuffer: 16 * 1024 * 1024 },
    );
  }, 300_000);

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('is generated without a warning about the document', () => {
    const said = `${generated.stdout}\n${generated.stderr}`;
    expect(said).toContain('Generating');
    expect(said).not.toMatch(/warning|unable|cannot|could not|error/i);
  });

  it('logs in, deploys examples/leave-request.json, starts, lists the to-do and approves', async () => {
    const key = `py_leave_${Date.now().toString(36)}`;
    const { stdout } = await run(
      bin('python'),
      [
        path.join(import.meta.dirname, 'python-client/scenario.py'),
        baseUrl(),
        path.join(root, 'examples/leave-request.json'),
        key,
      ],
      { env: { ...process.env, PYTHONPATH: work }, timeout: 60_000 },
    );
    const seen = JSON.parse(stdout.trim().split('\n').at(-1)!);
    expect(seen.definition).toEqual({ key, version: 1, status: 'active' });
    expect(seen.todo).toMatchObject({ total: 1, name: 'Manager approval', assignee: 'bob' });
    expect(seen.approved).toEqual({ result: 'approved', status: 'completed' });
    expect(seen.instance.status).toBe('completed');
    expect(seen.instance.failure).toBeNull();
    expect(seen.instance.trail).toEqual(expect.arrayContaining(['start', 'approve', 'cc']));
  }, 90_000);
});
