// Builds the web console (ui/) into ui/dist with Vite, writes gzip copies next to the text
// assets (served precompressed) and reports the JavaScript shipped, gzipped, against the budget.
// `npm run build` runs it; `npm start` and the browser tests call ensureUi(), which rebuilds
// only when ui/ changed since the last build (a stamp of the sources' newest mtime).
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const root = path.resolve(import.meta.dirname, '..');
export const uiDir = path.join(root, 'ui');
export const distDir = path.join(uiDir, 'dist');
const stampFile = path.join(distDir, '.build-stamp');
export const JS_BUDGET_GZIP = 250 * 1024;

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'dist' || entry.name === 'node_modules') continue;
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

function sourcesStamp() {
  return String(
    Math.max(
      newestMtime(uiDir),
      newestMtime(path.join(root, 'dsl')), // the console imports the DSL package (@dsl)
      statSync(path.join(root, 'package-lock.json')).mtimeMs,
      statSync(import.meta.filename).mtimeMs,
    ),
  );
}

export function uiIsFresh(): boolean {
  return (
    existsSync(path.join(distDir, 'index.html')) &&
    existsSync(stampFile) &&
    readFileSync(stampFile, 'utf8') === sourcesStamp()
  );
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)],
  );
}

export interface UiSize {
  jsBytes: number;
  jsGzipBytes: number;
  cssGzipBytes: number;
  files: Array<{ file: string; bytes: number; gzipBytes: number }>;
}

/** Sizes of the built assets (JavaScript and CSS, raw and gzipped). */
export function uiSize(): UiSize {
  const files = walk(distDir)
    .filter((f) => /\.(js|css|html)$/.test(f))
    .map((f) => {
      const content = readFileSync(f);
      return {
        file: path.relative(distDir, f),
        bytes: content.length,
        gzipBytes: gzipSync(content, { level: 9 }).length,
      };
    });
  const js = files.filter((f) => f.file.endsWith('.js'));
  return {
    jsBytes: js.reduce((n, f) => n + f.bytes, 0),
    jsGzipBytes: js.reduce((n, f) => n + f.gzipBytes, 0),
    cssGzipBytes: files.filter((f) => f.file.endsWith('.css')).reduce((n, f) => n + f.gzipBytes, 0),
    files,
  };
}

export async function buildUi(opts: { quiet?: boolean } = {}): Promise<UiSize> {
  const started = Date.now();
  const stamp = sourcesStamp();
  const { build } = await import('vite');
  // A production bundle even when called from a test run (NODE_ENV=test would select dev builds).
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      configFile: path.join(uiDir, 'vite.config.ts'),
      mode: 'production',
      logLevel: opts.quiet ? 'warn' : 'info',
    });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  for (const f of walk(distDir))
    if (/\.(js|css|html|svg|json)$/.test(f)) writeFileSync(`${f}.gz`, gzipSync(readFileSync(f), { level: 9 }));
  writeFileSync(stampFile, stamp);
  const size = uiSize();
  console.log(
    `web console built in ${((Date.now() - started) / 1000).toFixed(1)} s: JavaScript ${(size.jsBytes / 1024).toFixed(1)} KB, ` +
      `${(size.jsGzipBytes / 1024).toFixed(1)} KB gzipped (budget ${JS_BUDGET_GZIP / 1024} KB), CSS ${(size.cssGzipBytes / 1024).toFixed(1)} KB gzipped`,
  );
  if (size.jsGzipBytes > JS_BUDGET_GZIP)
    throw new Error(
      `the console ships ${size.jsGzipBytes} bytes of gzipped JavaScript, over the ${JS_BUDGET_GZIP} budget`,
    );
  return size;
}

/** Builds the console when it is missing or older than its sources. */
export async function ensureUi(opts: { quiet?: boolean } = {}): Promise<void> {
  if (uiIsFresh()) return;
  await buildUi(opts);
}

if (import.meta.main) {
  await buildUi();
}
