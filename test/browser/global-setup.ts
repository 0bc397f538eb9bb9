// Browser tests: Debian's chromium (installed with apt-get when missing; vendor browser
// downloads do not work here) and a fresh build of the web console. The stack itself is
// started by test/setup/global-setup.ts, listed next to this file in the vitest project.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { ensureUi } from '../../scripts/build-ui.js';

declare module 'vitest' {
  export interface ProvidedContext {
    chromiumPath: string;
  }
}

function findChromium(): string | null {
  for (const p of [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'])
    if (p && existsSync(p)) return p;
  return null;
}

/** The zh-CN pages' screenshots need a CJK font (a new machine has none: boxes instead of 汉字). */
function ensureChineseFont() {
  const has = () => {
    try {
      return execFileSync('fc-list', [':lang=zh'], { encoding: 'utf8' }).trim().length > 0;
    } catch {
      return false;
    }
  };
  if (has() || process.getuid?.() !== 0) return;
  console.log('browser tests: installing fonts-wqy-microhei with apt-get…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = ['-o', 'DPkg::Lock::Timeout=600', '-y', '-qq'];
  try {
    execFileSync('apt-get', ['install', ...apt, 'fonts-wqy-microhei'], { stdio: 'inherit', env });
  } catch {
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', ...apt, 'fonts-wqy-microhei'], { stdio: 'inherit', env });
  }
}

export async function setup(project: TestProject) {
  let chromium = findChromium();
  if (!chromium) {
    if (process.getuid?.() !== 0)
      throw new Error('chromium is missing: install it (apt-get install -y chromium) or set CHROMIUM_PATH');
    console.log('browser tests: installing chromium with apt-get…');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env });
    chromium = findChromium();
    if (!chromium) throw new Error('chromium was not found after apt-get install');
  }
  ensureChineseFont();
  project.provide('chromiumPath', chromium);
  await ensureUi({ quiet: true });
}
