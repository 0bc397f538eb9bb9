import { describe, expect, it } from 'vitest';
import {
  normalise,
  pinyinTerms,
  queryPatterns,
  rankOf,
  searchText,
  userSearchText,
} from '../../src/directory/people-search.js';

/** Whether a LIKE pattern (backslash escapes) matches `text`, as PostgreSQL would. */
function like(text: string, pattern: string): boolean {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') re += pattern[++i]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    else if (c === '%') re += '[\\s\\S]*';
    else if (c === '_') re += '[\\s\\S]';
    else re += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`).test(text);
}

/** The rank SQL gives (people-search's rankSql): the first pattern that matches. */
const sqlRank = (text: string, q: string) => {
  const p = queryPatterns(normalise(q));
  return [p.exact, p.prefix, p.wordPrefix, p.contains].findIndex((pattern) => like(text, pattern));
};

describe('people search', () => {
  it('normalises case, width and spaces, and never lets the separator into a term', () => {
    expect(normalise('  Erin   SMITH ')).toBe('erin smith');
    expect(normalise('ＺＨＡＮＧ')).toBe('zhang');
    expect(normalise('a|b')).toBe('a b');
  });

  it('spells Chinese names in pinyin, spaced, joined and by initials; surnames as surnames', () => {
    expect(pinyinTerms('张三')).toEqual(['zhangsan', 'zhang san', 'zs']);
    expect(pinyinTerms('曾小贤')).toContain('zengxiaoxian');
    expect(pinyinTerms('单田芳')).toContain('shantianfang');
    expect(pinyinTerms('吕布')).toEqual(expect.arrayContaining(['lvbu', 'lubu', 'lb']));
    expect(pinyinTerms('Erin Smith')).toEqual([]);
  });

  it('keeps each field and spelling as a term between separators', () => {
    expect(
      userSearchText({ displayName: '张三', username: 'zhang.san', email: 'ZS@Example.com', deptName: 'HR' }),
    ).toBe('|张三|zhangsan|zhang san|zs|zhang.san|zs@example.com|hr|');
    expect(searchText([null, '', '  '])).toBe('||');
  });

  it('ranks a whole term, then a term start, then a word start, then anywhere; SQL agrees', () => {
    const zhang = userSearchText({ displayName: '张三', username: 'u1' });
    const erin = userSearchText({ displayName: 'Erin Smith', username: 'esmith', email: 'erin@example.com' });
    const cases: Array<[string, string, number]> = [
      [zhang, 'zhangsan', 0],
      [zhang, 'zs', 0],
      [zhang, '张三', 0],
      [zhang, 'zhang san', 0],
      [zhang, 'zhang', 1],
      [zhang, '张', 1],
      [zhang, 'san', 2],
      [zhang, 'angs', 3],
      [erin, 'erin', 1],
      [erin, 'SMITH', 2],
      [erin, 'rin', 3],
      [erin, 'bob', 4],
    ];
    for (const [text, q, rank] of cases) {
      expect(rankOf(text, normalise(q)), `${q} in ${text}`).toBe(rank);
      expect(sqlRank(text, q), `SQL: ${q} in ${text}`).toBe(rank === 4 ? -1 : rank);
    }
  });

  it('escapes LIKE wildcards in a query', () => {
    const text = searchText(['a_b', '100%']);
    expect(sqlRank(text, '_')).toBe(3);
    expect(sqlRank(searchText(['axb']), 'a_b')).toBe(-1);
    expect(sqlRank(searchText(['100 percent']), '100%')).toBe(-1);
    expect(queryPatterns('a\\b').contains).toBe('%a\\\\b%');
  });
});
