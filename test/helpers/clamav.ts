// A real clamd for the virus-scan tests: Debian's clamav-daemon (installed with apt-get when
// missing, like chromium for the browser tests). It cannot download signatures here, so the test
// writes its own database: the EICAR test file's MD5 signature.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { freePort } from '../../scripts/stack.js';

/** The EICAR anti-virus test file: harmless, and every scanner's agreed "virus". */
export const EICAR = Buffer.from('X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*', 'latin1');

function clamdBinary(): string {
  const bin = '/usr/sbin/clamd';
  if (existsSync(bin)) return bin;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = ['-o', 'DPkg::Lock::Timeout=600', 'install', '-y', '-qq', 'clamav-daemon'];
  try {
    execFileSync('apt-get', apt, { stdio: 'inherit', env });
  } catch {
    execFileSync('apt-get', ['-o', 'DPkg::Lock::Timeout=600', 'update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', apt, { stdio: 'inherit', env });
  }
  if (!existsSync(bin)) throw new Error('clamd was not found after apt-get install clamav-daemon');
  return bin;
}

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port }, () => s.write('zPING\0'));
    let got = '';
    s.on('data', (d) => (got += d.toString()));
    s.on('end', () => resolve(got.startsWith('PONG')));
    s.on('error', () => resolve(false));
  });
}

export interface Clamd {
  host: string;
  stop(): Promise<void>;
}

export async function startClamd(): Promise<Clamd> {
  const bin = clamdBinary();
  const dir = path.resolve(import.meta.dirname, '../../.data', `clamd-${process.pid}-${Date.now()}`);
  await mkdir(path.join(dir, 'db'), { recursive: true });
  const md5 = createHash('md5').update(EICAR).digest('hex');
  await writeFile(path.join(dir, 'db', 'test.hdb'), `${md5}:${EICAR.length}:Eicar-Test-Signature\n`);
  const port = await freePort();
  await writeFile(
    path.join(dir, 'clamd.conf'),
    [
      `TCPSocket ${port}`,
      'TCPAddr 127.0.0.1',
      `DatabaseDirectory ${path.join(dir, 'db')}`,
      'Foreground yes',
      `LogFile ${path.join(dir, 'clamd.log')}`,
      `PidFile ${path.join(dir, 'clamd.pid')}`,
      'StreamMaxLength 100M',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(bin, ['-c', path.join(dir, 'clamd.conf')], { stdio: 'ignore' });
  const deadline = Date.now() + 60_000;
  while (!(await ping(port))) {
    if (child.exitCode !== null) throw new Error(`clamd exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error('clamd did not answer PING');
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    host: `127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode === null) {
        const gone = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await gone;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
