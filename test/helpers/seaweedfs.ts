// A real S3-compatible server for the attachment tests: SeaweedFS (`weed server -s3`), built once
// from the Go module proxy into .tools/seaweedfs/<version>/bin like the Temporal server. Its go.mod
// has replace directives, so `go install` refuses it: the module is downloaded and built in place.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { TOOLS_DIR } from '../../src/runtime/temporal-cli.js';
import { freePort } from '../../scripts/stack.js';

const run = promisify(execFile);
export const SEAWEEDFS_MODULE = 'github.com/seaweedfs/seaweedfs';
export const SEAWEEDFS_VERSION = 'v0.0.0-20261109003541-7506e5f91cd6';

/** The weed binary, built when missing (about 5 minutes on 2 cores the first time). */
export async function ensureWeed(): Promise<string> {
  const bin = path.join(TOOLS_DIR, 'seaweedfs', SEAWEEDFS_VERSION, 'bin', 'weed');
  if (existsSync(bin)) return bin;
  const env = { ...process.env, GOTOOLCHAIN: process.env.GOTOOLCHAIN ?? 'auto', GOFLAGS: '-mod=mod' };
  const go = process.env.GO ?? 'go';
  // A fresh clone has no tools folder yet (a missing cwd fails the spawn as if go were missing).
  await mkdir(TOOLS_DIR, { recursive: true });
  const { stdout } = await run(go, ['mod', 'download', '-json', `${SEAWEEDFS_MODULE}@${SEAWEEDFS_VERSION}`], {
    env,
    cwd: TOOLS_DIR,
    maxBuffer: 16 * 1024 * 1024,
  });
  const dir = (JSON.parse(stdout) as { Dir: string }).Dir;
  await run(go, ['build', '-o', bin, './weed'], { env, cwd: dir, maxBuffer: 64 * 1024 * 1024 });
  return bin;
}

export interface S3Server {
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  bucket: string;
  /** The env a server process needs to use it. */
  env: Record<string, string>;
  /** SIGKILL (the store is down) and start again on the same ports and data. */
  kill(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

async function waitFor(url: string, child: ChildProcess, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`weed exited with ${child.exitCode}`);
    const up = await fetch(url)
      .then(() => true)
      .catch(() => false);
    if (up) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`weed s3 did not answer at ${url}`);
}

export async function startS3Server(name: string): Promise<S3Server> {
  const weed = await ensureWeed();
  const dir = path.resolve(TOOLS_DIR, '..', '.data', `weed-${name}-${process.pid}-${Date.now()}`);
  await mkdir(dir, { recursive: true });
  const accessKeyId = 'attachments-test';
  const secretAccessKey = 'attachments-test-secret';
  const config = path.join(dir, 's3.json');
  await writeFile(
    config,
    JSON.stringify({
      identities: [
        {
          name: 'test',
          credentials: [{ accessKey: accessKeyId, secretKey: secretAccessKey }],
          actions: ['Admin', 'Read', 'Write', 'List', 'Tagging'],
        },
      ],
    }),
  );
  const ports: number[] = [];
  for (let i = 0; i < 8; i++) ports.push(await freePort());
  const [master, masterGrpc, volume, volumeGrpc, filer, filerGrpc, s3, s3Grpc] = ports as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const args = [
    'server',
    `-dir=${dir}`,
    '-ip=127.0.0.1',
    '-ip.bind=127.0.0.1',
    `-master.port=${master}`,
    `-master.port.grpc=${masterGrpc}`,
    `-volume.port=${volume}`,
    `-volume.port.grpc=${volumeGrpc}`,
    `-filer.port=${filer}`,
    `-filer.port.grpc=${filerGrpc}`,
    '-s3',
    `-s3.port=${s3}`,
    `-s3.port.grpc=${s3Grpc}`,
    `-s3.config=${config}`,
    '-master.telemetry=false',
    '-volume.max=8',
    '-iam=false',
  ];
  const endpoint = `http://127.0.0.1:${s3}`;
  let child: ChildProcess;
  const start = async () => {
    child = spawn(weed, args, { stdio: 'ignore' });
    await waitFor(endpoint, child);
  };
  await start();
  const bucket = 'attachments';
  const client = new S3Client({
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId, secretAccessKey },
  });
  // The filer may need a moment after the port opens before a bucket can be made.
  for (let i = 0; ; i++) {
    try {
      await client.send(new CreateBucketCommand({ Bucket: bucket }));
      break;
    } catch (err) {
      if ((err as { name?: string }).name === 'BucketAlreadyOwnedByYou') break;
      if (i > 60) throw err;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  client.destroy();
  const kill = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await gone;
  };
  return {
    endpoint,
    accessKeyId,
    secretAccessKey,
    bucket,
    env: {
      ATTACHMENT_STORE: 's3',
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: accessKeyId,
      S3_SECRET_ACCESS_KEY: secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    },
    kill,
    start,
    stop: async () => {
      await kill();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
