import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { TEMPLATE_PART_MAX, TemplateBody } from '../../../src/notifications/templates/templates.schemas.js';

describe('template body limits', () => {
  it('the largest template the schema allows fits the default body limit with every character escaped', () => {
    // A client may send each character as \uXXXX, a character outside the BMP as two of them: 12 bytes.
    const worst = Object.entries(TEMPLATE_PART_MAX).reduce(
      (sum, [key, max]) => sum + `"${key}":"",`.length + 12 * max,
      2,
    );
    expect(worst).toBeLessThan(loadConfig({}).BODY_LIMIT_BYTES);
    expect(TemplateBody.safeParse({ html: 'a'.repeat(TEMPLATE_PART_MAX.html) }).success).toBe(true);
    expect(TemplateBody.safeParse({ html: 'a'.repeat(TEMPLATE_PART_MAX.html + 1) }).success).toBe(false);
  });
});
