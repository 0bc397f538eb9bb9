import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { configSchema, loadConfig } from '../../src/config.js';
import { SEARCH_ATTRIBUTES } from '../../src/runtime/temporal-cli.js';
import { TEMPORAL_SERVER_VERSION } from '../../src/runtime/temporal-server.js';
import { composeSearchAttributes, interpolate } from '../../scripts/production-stack.js';

const root = path.resolve(import.meta.dirname, '../..');
const compose = parse(readFileSync(path.join(root, 'docker-compose.yml'), 'utf8'));
const known = new Set(Object.keys(configSchema.shape));

describe('docker-compose.yml', () => {
  it('has postgres, temporal, its web UI, the server and the worker', () => {
    expect(Object.keys(compose.services)).toEqual(
      expect.arrayContaining(['postgres', 'temporal', 'temporal-ui', 'server', 'worker']),
    );
  });

  it('gives health checks to the stateful parts and the server', () => {
    for (const name of ['postgres', 'temporal', 'server', 'worker'])
      expect(compose.services[name].healthcheck?.test, name).toBeDefined();
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
      for (const key of Object.keys(env))
        expect(known.has(key), `${name}: ${key} is not in the config schema`).toBe(true);
      // Substitute ${VAR:-default} / ${VAR:?msg} with a plausible production value.
      const resolved = Object.fromEntries(
        Object.entries(env).map(([k, v]) => [
          k,
          String(v).replace(/\$\{([A-Z_]+)(?::[-?]([^}]*))?\}/g, (_m, n) =>
            n === 'SEED_DEMO'
              ? 'false'
              : n === 'DEMO_PASSWORD'
                ? 'demo-prod-secret'
                : `${n.toLowerCase()}-value-long-enough-for-a-secret`,
          ),
        ]),
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

// npm run test:production runs this design (scripts/production-stack.ts); these pin what it relies on.
describe('docker-compose.yml and the production test', () => {
  it('runs the Temporal server version the production test builds, set up by admin-tools of the same version', () => {
    expect(compose.services.temporal.image).toBe(`temporalio/server:${TEMPORAL_SERVER_VERSION}`);
    for (const name of ['temporal-schema', 'temporal-setup'])
      expect(compose.services[name].image).toBe(`temporalio/admin-tools:${TEMPORAL_SERVER_VERSION}`);
    expect(compose.services.temporal.depends_on['temporal-schema'].condition).toBe('service_completed_successfully');
    for (const name of ['server', 'worker'])
      expect(compose.services[name].depends_on['temporal-setup'].condition, name).toBe(
        'service_completed_successfully',
      );
  });

  it('keeps Temporal on the one PostgreSQL, as the same user', () => {
    const pg = compose.services.postgres.environment;
    const schema = compose.services['temporal-schema'].environment;
    const temporal = compose.services.temporal.environment;
    expect(schema).toMatchObject({
      SQL_PLUGIN: 'postgres12',
      SQL_HOST: 'postgres',
      SQL_USER: pg.POSTGRES_USER,
      SQL_PASSWORD: pg.POSTGRES_PASSWORD,
    });
    expect(temporal).toMatchObject({
      DB: 'postgres12',
      POSTGRES_SEEDS: 'postgres',
      POSTGRES_USER: pg.POSTGRES_USER,
      POSTGRES_PWD: pg.POSTGRES_PASSWORD,
    });
  });

  it('registers every search attribute the engine writes', () => {
    expect(composeSearchAttributes(compose.services)).toEqual({ ...SEARCH_ATTRIBUTES });
  });

  it('mounts a dynamic config file that exists, where DYNAMIC_CONFIG_FILE_PATH points', () => {
    const [from, to] = compose.services.temporal.volumes[0].split(':');
    expect(to).toBe(compose.services.temporal.environment.DYNAMIC_CONFIG_FILE_PATH);
    expect(() => readFileSync(path.join(root, from), 'utf8')).not.toThrow();
  });

  it('interpolates ${VAR:-default} and refuses a missing ${VAR:?message} as compose does', () => {
    expect(interpolate('x-${A:-d}-${B}', { B: 'b' })).toBe('x-d-b');
    expect(interpolate('${A:-d}', { A: 'a' })).toBe('a');
    expect(() => interpolate('${JWT_SECRET:?set it}', {})).toThrow(/JWT_SECRET: set it/);
  });
});

describe('configuration', () => {
  it('refuses production with default passwords, naming the variables', () => {
    expect(() =>
      loadConfig({
        NODE_ENV: 'production',
        DATABASE_URL: 'postgres://x@y/z',
        TEMPORAL_ADDRESS: 't:7233',
        JWT_SECRET: 'x'.repeat(40),
      }),
    ).toThrow(/ADMIN_PASSWORD/);
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
