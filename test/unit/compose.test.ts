import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { configSchema, loadConfig } from '../../src/config.js';

const root = path.resolve(import.meta.dirname, '../..');
const compose = parse(readFileSync(path.join(root, 'docker-compose.yml'), 'utf8'));
const known = new Set(Object.keys(configSchema.shape));

describe('docker-compose.yml', () => {
  it('has postgres, temporal, its web UI, the server and the worker', () => {
    expect(Object.keys(compose.services)).toEqual(expect.arrayContaining(['postgres', 'temporal', 'temporal-ui', 'server', 'worker']));
  });

  it('gives health checks to the stateful parts and the server', () => {
    for (const name of ['postgres', 'temporal', 'server', 'worker']) expect(compose.services[name].healthcheck?.test, name).toBeDefined();
  });

  it('publishes the API, PostgreSQL, Temporal and the Web UI ports', () => {
    expect(compose.services.server.ports).toContain('3000:3000');
    expect(compose.services.postgres.ports).toContain('5432:5432');
    expect(compose.services.temporal.ports).toContain('7233:7233');
    expect(compose.services['temporal-ui'].ports[0]).toMatch(/:8080$/);
  });

  for (const name of ['server', 'worker']) {
    it(`sets only known configuration variables on ${name}, and a valid production config`, () => {
      const env: Record<string, string> = compose.services[name].environment;
      for (const key of Object.keys(env)) expect(known.has(key), `${name}: ${key} is not in the config schema`).toBe(true);
      // Substitute ${VAR:-default} / ${VAR:?msg} with a plausible production value.
      const resolved = Object.fromEntries(
        Object.entries(env).map(([k, v]) => [k, String(v).replace(/\$\{([A-Z_]+)(?::[-?]([^}]*))?\}/g, (_m, n) => (n === 'SEED_DEMO' ? 'false' : n === 'DEMO_PASSWORD' ? 'demo-prod-secret' : `${n.toLowerCase()}-value-long-enough-for-a-secret`))]),
      );
      const config = loadConfig(resolved as NodeJS.ProcessEnv);
      expect(config.NODE_ENV).toBe('production');
      expect(config.DATABASE_URL).toMatch(/^postgres:\/\/.+@postgres:5432\/approvals$/);
      expect(config.TEMPORAL_ADDRESS).toBe('temporal:7233');
    });
  }

  it('points the services at each other by their compose names', () => {
    expect(compose.services.server.environment.TEMPORAL_ADDRESS).toBe('temporal:7233');
    expect(compose.services.temporal.environment.POSTGRES_SEEDS).toBe('postgres');
    expect(compose.services['temporal-ui'].environment.TEMPORAL_ADDRESS).toBe('temporal:7233');
    expect(compose.services.worker.environment.WORKFLOW_BUNDLE_PATH).toBe('/app/dist/workflow-bundle.js');
  });
});

describe('configuration', () => {
  it('refuses production with default passwords, naming the variables', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://x@y/z', TEMPORAL_ADDRESS: 't:7233', JWT_SECRET: 'x'.repeat(40) })).toThrow(/ADMIN_PASSWORD/);
  });

  it('names a wrong variable', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(/PORT/);
    expect(() => loadConfig({ TEMPORAL_TLS: 'maybe' })).toThrow(/TEMPORAL_TLS/);
  });

  it('has defaults for the embedded runtime', () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(3000);
    expect(c.ADMIN_PASSWORD).toBe('admin');
    expect(c.DEMO_PASSWORD).toBe('demo');
  });
});
