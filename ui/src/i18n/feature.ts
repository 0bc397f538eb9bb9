// The words of a feature loaded on demand (the designer, the notification set-up, My settings): its
// English catalogue comes in the feature's own chunk, each other language in a chunk of its own,
// fetched by the feature's top-level `await` before any of its modules runs. The console's first
// chunk carries none of them. A feature's `t` is the console's catalogue with the feature's sections
// beside it, so its components read `t.designer.title` and `t.common.save` alike.
import { t as consoleWords, type Catalogue } from './index';
import { locale, type Locale } from './locale';

/** A feature's catalogue in every language but English, each fetched on demand; typed by the English one. */
export type Translations<C> = { [L in Exclude<Locale, 'en'>]: () => Promise<C> };

/** A feature's sections are its own: none may take the name of one of the console's. */
type OwnSections = { [K in keyof Catalogue]?: never };

/** The console's words and the feature's, in the chosen language (English when its catalogue cannot be fetched). */
export async function featureWords<C extends object>(
  en: C & OwnSections,
  others: Translations<C>,
): Promise<Catalogue & C> {
  const words = locale === 'en' ? en : await others[locale]().catch(() => en);
  return { ...consoleWords, ...words };
}
