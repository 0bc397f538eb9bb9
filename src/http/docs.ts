import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import { Hono } from 'hono';

const require = createRequire(import.meta.url);
const assetsDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const assets: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
};

const page = `<!doctype html>
<html><head><meta charset="utf-8"><title>Approval service API</title>
<link rel="stylesheet" href="/docs/swagger-ui.css"></head>
<body><div id="ui"></div><script src="/docs/swagger-ui-bundle.js"></script>
<script>window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#ui' });</script></body></html>`;

/** `/docs`: Swagger UI served from the npm package, so nothing is fetched from a CDN. */
export function docsRoutes() {
  const r = new Hono();
  r.get('/docs', (c) => c.html(page));
  r.get('/docs/:asset', async (c) => {
    const name = c.req.param('asset');
    const type = assets[name];
    if (!type) return c.notFound();
    const content = await readFile(path.join(assetsDir, name));
    return c.body(content, 200, { 'Content-Type': type, 'Cache-Control': 'public, max-age=86400' });
  });
  return r;
}
