// My settings' words beside the console's (`t.settings.*`, `t.common.*`), in the chosen language.
import { featureWords } from '../../../i18n/feature';
import { en } from './en';

export const t = await featureWords(en, { 'zh-CN': async () => (await import('./zh-CN')).zhCN });
