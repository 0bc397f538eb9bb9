// The console's initial JavaScript for `npm run bench:ui`: what the browser must fetch before the
// first page renders — the entry chunk index.html loads and, transitively, the chunks it imports
// statically (lazy pages are dynamic imports, fetched on their routes only). Gzipped, as served.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { UiSize } from '../scripts/build-ui.js';

/**
 * A third of the 250 KB total: the entry with the shared parts every page uses (router, ui,
 * the English catalogue, the diagram and the people picker of the task actions) was 60.2 KB
 * when this budget was set (2026-11-29), so a page's worth of new code in the entry shows.
 */
export const INITIAL_JS_BUDGET_GZIP = 80 * 1024;

// `import{a as b}from"./x.js"`, `import"./x.js"`, `export*from"./x.js"`: not `import("./x.js")`.
const STATIC_IMPORT = /\b(?:import|export)\s*(?:[\w$*\s{},]*?\s*from\s*)?["']\.\/([\w.-]+\.js)["']/g;

/** The entry chunk(s) of index.html and their static imports, each with its size from `size.files`. */
export function initialJs(distDir: string, size: UiSize) {
  const html = readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const entries = [...html.matchAll(/<script[^>]*type="module"[^>]*src="\/([^"]+\.js)"/g)].map((m) => m[1]!);
  if (!entries.length) throw new Error('ui/dist/index.html loads no module script');
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(path.join(distDir, file), 'utf8');
    for (const m of code.matchAll(STATIC_IMPORT)) visit(path.posix.join(path.posix.dirname(file), m[1]!));
  };
  entries.forEach(visit);
  const files = [...seen].map((file) => {
    const f = size.files.find((x) => x.file.split(path.sep).join('/') === file);
    if (!f) throw new Error(`${file} is imported but not in ui/dist`);
    return f;
  });
  return {
    entry: files[0]!,
    files,
    bytes: files.reduce((n, f) => n + f.bytes, 0),
    gzipBytes: files.reduce((n, f) => n + f.gzipBytes, 0),
  };
}
