// A validation problem in the console's language: from its code and params (dsl/problems.zh-CN.ts),
// else the words it came with (the server's, already in this language; the designer's own, from the catalogue).
import { problemMessageIn } from '@dsl/problems.zh-CN.js';
import { locale } from '../../i18n/locale';
import type { DesignProblem } from './model/problems';

export const problemText = (p: Pick<DesignProblem, 'code' | 'params' | 'message'>): string =>
  problemMessageIn(locale, p);
