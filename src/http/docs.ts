import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import { Hono } from 'hono';
import { contentSecurityPolicy } from './ui-static.js';

const require = createRequire(import.meta.url);
const assetsDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const assets: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
};

// The start-up script is a file of its own, not inline, so the page's policy allows no inline script.
// validatorUrl: null: no badge image fetched from validator.swagger.io (img-src is 'self').
const init = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#ui', validatorUrl: null });\n`;

const page = `<!doctype html>
<html><head><meta charset="utf-8"><title>Approval service API</title>
<link rel="stylesheet" href="/docs/swagger-ui.css"></head>
<body><div id="ui"></div><script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/swagger-init.js"></script></body></html>`;

/**
 * The policy of /docs (docs/console.md "Content-Security-Policy"): scripts and styles from this
 * origin only — Swagger UI needs no inline script (its start-up is /docs/swagger-init.js), no eval and
 * no inline style (its React `style` props go through CSSOM); its CSS has data: images; "Try it out"
 * calls this origin. Checked in Chromium by test/browser/csp.test.ts.
 */
export const DOCS_CSP = contentSecurityPolicy("'self'");

/** `/docs`: Swagger UI served from the npm package, so nothing is fetched from a CDN. */
export function docsRoutes() {
  const r = new Hono();
  r.use('/docs/*', async (c, next) => {
    await next();
    c.res.headers.set('Content-Security-Policy', DOCS_CSP);
  });
  r.get('/docs', (c) => c.html(page));
  r.get('/docs/swagger-init.js', (c) =>
    c.body(init, 200, { 'Content-Type': 'application/javascript; charset=utf-8', 'Cache-Control': 'no-cache' }),
  );
  r.get('/docs/:asset', async (c) => {
    const name = c.req.param('asset');
    const type = assets[name];
    if (!type) return c.notFound();
    const content = await readFile(path.join(assetsDir, name));
    return c.body(content, 200, { 'Content-Type': type, 'Cache-Control': 'public, max-age=86400' });
  });
  return r;
}
