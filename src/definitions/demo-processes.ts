// The example processes, deployed into the demo tenant on first start so the demo is usable at once.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import { deploy } from './definitions.js';

export const examplesDir = path.resolve(import.meta.dirname, '../../examples');

export async function deployDemoProcesses(em: EntityManager): Promise<string[]> {
  const deployed: string[] = [];
  for (const file of readdirSync(examplesDir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const dsl = JSON.parse(readFileSync(path.join(examplesDir, file), 'utf8'));
    const key = dsl.ruleChain?.id;
    const existing = await em.execute(
      `select 1 from process_definitions where tenant_id = 'demo' and key = ? limit 1`,
      [key],
    );
    if (existing.length) continue;
    await deploy(em.fork(), 'demo', 'admin', { dsl });
    deployed.push(key);
  }
  return deployed;
}
