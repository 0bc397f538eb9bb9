// src/db/bound.ts: `?` placeholders numbered for PostgreSQL's bind parameters.
import { describe, expect, it } from 'vitest';
import { numbered } from '../../src/db/bound.js';

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
