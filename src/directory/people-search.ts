// The directory's search (`q` on GET /users, /roles, /departments; docs/contract.md#searching-the-directory).
// Each row keeps a `search_text`: its searchable fields normalised, and for Chinese the pinyin and
// initials, computed here (pinyin-pro runs in the application, not in SQL) whenever a row is written.
import { pinyin } from 'pinyin-pro';

/** The longest `q` a list accepts (characters): a name, an e-mail address, with room to spare. */
export const MAX_QUERY_LENGTH = 100;

/** Separates the terms of a search text; never inside one (normalise turns it into a space). */
const SEP = '|';
const HAN = /\p{Script=Han}/u;

/** How text is compared: NFKC (full-width letters as ASCII), lower case, one space between words. */
export function normalise(text: string): string {
  return text.normalize('NFKC').toLowerCase().replaceAll(SEP, ' ').replace(/\s+/g, ' ').trim();
}

/**
 * The pinyin spellings of a text with Chinese characters: the syllables joined (`zhangsan`), spaced
 * (`zhang san`) and the initials (`zs`); ü written both `v` and `u` (吕: `lv`, `lu`), as people type it.
 * Surnames read as surnames (曾 zeng, 单 shan). Empty for a text without Chinese characters.
 */
export function pinyinTerms(text: string): string[] {
  if (!HAN.test(text)) return [];
  const syllables = pinyin(text, { toneType: 'none', type: 'array', surname: 'head', nonZh: 'removed', v: true })
    .map((s) => normalise(s))
    .filter(Boolean);
  const initials = pinyin(text, {
    pattern: 'first',
    toneType: 'none',
    type: 'array',
    surname: 'head',
    nonZh: 'removed',
  })
    .map((s) => normalise(s))
    .filter(Boolean);
  const joined = syllables.join('');
  return [...new Set([joined, joined.replaceAll('v', 'u'), syllables.join(' '), initials.join('')])];
}

/**
 * A row's search text: `|term|term|…|`, each term a field normalised, then the pinyin of those with
 * Chinese characters. The separators let SQL tell an exact term (`%|q|%`) from a term's start
 * (`%|q%`), and pg_trgm indexes a term's start as a word's start.
 */
export function searchText(fields: ReadonlyArray<string | null | undefined>): string {
  const terms = new Set<string>();
  for (const field of fields) {
    if (!field) continue;
    const term = normalise(field);
    if (!term) continue;
    terms.add(term);
    for (const spelling of pinyinTerms(term)) if (spelling) terms.add(spelling);
  }
  return `${SEP}${[...terms].join(SEP)}${SEP}`;
}

/** A user is found by their display name, username, e-mail address and department's name. */
export const userSearchText = (u: {
  displayName: string;
  username: string;
  email?: string | null;
  deptName?: string | null;
}) => searchText([u.displayName, u.username, u.email, u.deptName]);
export const departmentSearchText = (d: { name: string }) => searchText([d.name]);
export const roleSearchText = (r: { code: string; name: string }) => searchText([r.name, r.code]);

/** `text` as a literal inside a LIKE pattern (the default escape character is the backslash). */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The LIKE patterns of a normalised query, best first: the whole of a term (exact), a term's start
 * (prefix), a word's start inside a term ("smith" in "erin smith"), anywhere (contains).
 */
export function queryPatterns(q: string) {
  const lit = likeLiteral(q);
  return {
    exact: `%${SEP}${lit}${SEP}%`,
    prefix: `%${SEP}${lit}%`,
    wordPrefix: `% ${lit}%`,
    contains: `%${lit}%`,
  };
}

/** Rank of a match (lower first): 0 exact, 1 prefix, 2 a word's start, 3 contains, 4 none of its own. */
export function rankOf(text: string, q: string): number {
  if (text.includes(`${SEP}${q}${SEP}`)) return 0;
  if (text.includes(`${SEP}${q}`)) return 1;
  if (text.includes(` ${q}`)) return 2;
  if (text.includes(q)) return 3;
  return 4;
}

/**
 * The SQL rank of `column` against the query's patterns (the same order as rankOf), with `?`
 * placeholders for exact, prefix, word start and contains.
 */
export const rankSql = (column: string) =>
  `case when ${column} like ? then 0 when ${column} like ? then 1 when ${column} like ? then 2 when ${column} like ? then 3 else 4 end`;

export const rankParams = (p: ReturnType<typeof queryPatterns>) => [p.exact, p.prefix, p.wordPrefix, p.contains];
