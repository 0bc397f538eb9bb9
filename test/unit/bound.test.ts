// src/db/bound.ts: `?` placeholders numbered for PostgreSQL's bind parameters.
import { describe, expect, it } from 'vitest';
import { numbered } from '../../src/db/bound.js';
import { PREPARE_MARK } from '../../src/db/prepared.js';
import { operationOf } from '../../src/observability/pg-tracing.js';

describe('numbered placeholders', () => {
  it('numbers every ? in order', () => {
    expect(numbered('select ? as a, ?::jsonb as b where id = ? and x = any(?)')).toBe(
      'select $1 as a, $2::jsonb as b where id = $3 and x = any($4)',
    );
  });

  it('leaves quoted literals, quoted identifiers and comments alone', () => {
    expect(numbered(`select '?' as "q?", 'it''s ?', ? -- a ? here\n, ?`)).toBe(
      `select '?' as "q?", 'it''s ?', $1 -- a ? here\n, $2`,
    );
    expect(numbered(`select jsonb_path_query_array(x, 'lax $.**.userIds[*] ? (@.type() == "string")'), ?`)).toBe(
      `select jsonb_path_query_array(x, 'lax $.**.userIds[*] ? (@.type() == "string")'), $1`,
    );
  });

  it("refuses MikroORM's ?? identifier placeholder and an unterminated quote", () => {
    expect(() => numbered('select ?? from t')).toThrow(/identifier placeholder/);
    expect(() => numbered("select 'open")).toThrow(/unterminated/);
  });
});

describe('span names of statements', () => {
  it("a prepared statement's span is named by its first keyword, past the mark", () => {
    expect(operationOf(`${PREPARE_MARK}with old as (select 1) select 2`)).toBe('WITH');
    expect(operationOf('  select 1')).toBe('SELECT');
    expect(operationOf('/* a\ncomment */ update t set x = 1')).toBe('UPDATE');
  });
});
