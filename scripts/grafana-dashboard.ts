// Writes deploy/grafana/approval-service.json from its typed source (deploy/grafana/approval-service.dashboard.ts).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { dashboard } from '../deploy/grafana/approval-service.dashboard.js';

const out = path.resolve(import.meta.dirname, '../deploy/grafana/approval-service.json');
writeFileSync(out, `${JSON.stringify(dashboard, null, 2)}\n`);
console.log(`wrote ${path.relative(process.cwd(), out)}`);
