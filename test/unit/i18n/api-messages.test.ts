// The API's words in the caller's language (docs/http.md "Languages"): the zh-CN error and problem
// catalogues have exactly the keys of the English ones, and the error mapper answers in the language
// of Accept-Language with the same code and machine-readable data.
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { PROBLEM_CODES, finding } from '../../../dsl/problems.js';
import { problemMessageIn, zhCNProblems } from '../../../dsl/problems.zh-CN.js';
import { AppError, ErrorCodes } from '../../../src/errors.js';
import { zhCNErrors } from '../../../src/errors.zh-CN.js';
import { localize, notFound, onError, validationHook } from '../../../src/http/errors.js';
import { chooseLocale, localeOf } from '../../../src/http/locale.js';
import { reasonTextIn } from '../../../src/read-model/assignment-reason.zh-CN.js';
import { ASSIGNMENT_KINDS, reasonOfWhy } from '../../../src/read-model/assignment-reason.js';

describe('API catalogues', () => {
  it('the zh-CN error catalogue has exactly the types of errors.ts, each translated', () => {
    expect(Object.keys(zhCNErrors).sort()).toEqual(Object.keys(ErrorCodes).sort());
    for (const [type, sentence] of Object.entries(zhCNErrors)) {
      expect(sentence, type).toMatch(/\p{Script=Han}/u);
      expect(sentence, type).not.toBe(ErrorCodes[type as keyof typeof ErrorCodes].message);
    }
  });

  it('the zh-CN problem catalogue has exactly the codes of dsl/problems.ts', () => {
    expect(Object.keys(zhCNProblems).sort()).toEqual([...PROBLEM_CODES].sort());
  });

  it('says a problem from its code and params', () => {
    const f = finding('graph.duplicateNodeId', { id: 'a' });
    expect(problemMessageIn('zh-CN', f)).toBe('节点 ID“a”重复');
    expect(problemMessageIn('en', f)).toBe(f.message);
    expect(problemMessageIn('zh-CN', { code: 'designer.own', message: 'kept' })).toBe('kept');
  });
});

describe('Accept-Language', () => {
  it('zh, zh-CN, zh-Hans answer in zh-CN; anything else in English; q-values count', () => {
    expect(localeOf('zh')).toBe('zh-CN');
    expect(localeOf('zh-CN,zh;q=0.9,en;q=0.8')).toBe('zh-CN');
    expect(localeOf('zh-Hans-CN')).toBe('zh-CN');
    expect(localeOf('en-US,en;q=0.9')).toBe('en');
    expect(localeOf('fr-FR, en;q=0.5, zh;q=0.8')).toBe('zh-CN');
    expect(localeOf('de')).toBe('en');
    expect(localeOf(undefined)).toBe('en');
    expect(localeOf('zh;q=0, en')).toBe('en');
  });
});

describe('the choice order', () => {
  it("the user's locale, else Accept-Language, else the tenant's default, else English", () => {
    expect(chooseLocale({ user: 'en', acceptLanguage: 'zh-CN', tenant: 'zh-CN' })).toBe('en');
    expect(chooseLocale({ user: 'zh-CN', acceptLanguage: 'en', tenant: 'en' })).toBe('zh-CN');
    expect(chooseLocale({ user: null, acceptLanguage: 'en-US', tenant: 'zh-CN' })).toBe('en');
    expect(chooseLocale({ user: null, acceptLanguage: 'zh', tenant: null })).toBe('zh-CN');
    // A header naming none of ours counts as none: the tenant decides.
    expect(chooseLocale({ user: null, acceptLanguage: 'fr-FR,de;q=0.5', tenant: 'zh-CN' })).toBe('zh-CN');
    expect(chooseLocale({ user: 'xx', acceptLanguage: undefined, tenant: 'zh-CN' })).toBe('zh-CN');
    expect(chooseLocale({ user: null, acceptLanguage: null, tenant: null })).toBe('en');
    expect(chooseLocale({})).toBe('en');
  });
});

describe('assignment reasons in Chinese', () => {
  it('every kind is said from its fields; English stays as stored', () => {
    const reason = reasonOfWhy({ kind: 'role', ids: ['finance'], count: 3 });
    expect(reasonTextIn('en', reason)).toBe('role finance (3 members)');
    expect(reasonTextIn('zh-CN', reason)).toBe('角色 finance（3 人）');
    expect(reasonTextIn('zh-CN', reasonOfWhy({ kind: 'manager', ids: ['alice'], level: 2 }))).toBe(
      'alice 的主管（第 2 级）',
    );
    for (const kind of ASSIGNMENT_KINDS.filter((k) => k !== 'recorded')) {
      const text = reasonTextIn('zh-CN', {
        kind,
        text: 'English',
        ids: ['u1'],
        count: 1,
        level: 1,
        by: 'u2',
        rule: 'role:x',
      });
      expect(text, kind).toMatch(/\p{Script=Han}/u);
    }
    // A reason recorded before kinds existed keeps its words.
    expect(
      reasonTextIn('zh-CN', {
        kind: 'recorded',
        text: 'assigned',
        ids: [],
        count: null,
        level: null,
        by: null,
        rule: null,
      }),
    ).toBe('assigned');
  });
});

describe('the error mapper', () => {
  const app = new Hono();
  app.get('/state', () => {
    throw new AppError('INVALID_STATE');
  });
  app.get('/specific', () => {
    throw new AppError('NOT_FOUND', 'The instance is not running');
  });
  app.get('/dsl', () => {
    const problems = [
      { nodeId: 'n1', field: 'id', ...finding('graph.duplicateNodeId', { id: 'n1' }) },
      { nodeId: null, field: '', ...finding('graph.noEnd') },
    ];
    throw new AppError('DSL_INVALID', `The process definition does not validate: node n1: ${problems[0]!.message}`, {
      problems,
    });
  });
  app.get('/fields', (c) => {
    validationHook({
      success: false,
      target: 'json',
      error: {
        issues: [
          {
            code: 'invalid_type',
            path: ['days'],
            message: 'Invalid input: expected number, received string',
            expected: 'number',
          } as never,
        ],
      },
    });
    return c.text('unreachable');
  });
  app.onError(onError as never);
  app.notFound(notFound as never);

  const get = async (path: string, lang?: string) => {
    const res = await app.request(path, lang ? { headers: { 'Accept-Language': lang } } : {});
    return { status: res.status, body: (await res.json()) as { code: number; message: string; data: any } };
  };

  it('answers in English by default and in Chinese for zh, with the same code', async () => {
    const en = await get('/state');
    const zh = await get('/state', 'zh-CN,zh;q=0.9');
    expect(en.body).toEqual({ code: 40901, data: null, message: 'The current state does not allow this action' });
    expect(zh.status).toBe(409);
    expect(zh.body).toEqual({ code: 40901, data: null, message: '当前状态不允许此操作' });
  });

  it('keeps English specifics after the translated sentence', async () => {
    expect((await get('/specific', 'zh')).body.message).toBe('不存在：The instance is not running');
  });

  it('says DSL problems from their codes, keeping codes and params', async () => {
    const { body } = await get('/dsl', 'zh-Hans');
    expect(body.code).toBe(42200);
    expect(body.message).toBe('流程定义校验未通过：节点 n1：节点 ID“n1”重复（另有 1 个问题）');
    expect(body.data.problems.map((p: { code: string }) => p.code)).toEqual(['graph.duplicateNodeId', 'graph.noEnd']);
    expect(body.data.problems[1].message).toBe('流程没有结束节点');
    expect(body.data.problems[0].params).toEqual({ id: 'n1' });
    const en = await get('/dsl');
    expect(en.body.data.problems[1].message).toBe('the process has no end node');
  });

  it('says field errors in Chinese, paths unchanged', async () => {
    const { body } = await get('/fields', 'zh-CN');
    expect(body.code).toBe(40001);
    expect(body.data.fields[0].path).toBe('days');
    expect(body.data.fields[0].message).toMatch(/^无效输入：期望 数字/);
    expect(body.message).toMatch(/^请求参数校验未通过：days：无效输入/);
    expect((await get('/fields')).body.data.fields[0].message).toBe('Invalid input: expected number, received string');
  });

  it('unknown routes and unexpected errors too', async () => {
    expect((await get('/nowhere', 'zh')).body).toEqual({
      code: 40401,
      data: null,
      message: '没有此接口: GET /nowhere',
    });
    expect(localize(new AppError('INTERNAL'), 'zh-CN').message).toBe('内部错误');
  });
});
