import { z } from '@hono/zod-openapi';
import { FormStatuses } from '../db/entities/forms.js';
import { formSchema } from '../../dsl/index.js';
import { IsoDate } from '../shapes.js';
import { catalogueQuery, catalogueRow } from './versioned.schemas.js';

/** The one form schema (dsl/forms.ts), as the OpenAPI document shows it. */
export const FormSchema = formSchema.openapi('FormSchema', {
  description: 'Form schema shared by embedded and stored forms (docs/forms.md)',
});

/**
 * Bodies take any object here: the form validator answers 422 naming each field (not a 400). The
 * document states the shape exactly (the FormSchema component); the rules JSON Schema cannot say
 * are in the description.
 */
const SchemaInput = z.record(z.string(), z.unknown()).openapi({
  description:
    'A FormSchema, checked on save: a schema that breaks a rule answers 422 FORM_INVALID naming each bad field (`data.problems`). ' +
    'Beyond its shape: section ids and field names are unique; select and multi-select fields have options (distinct values), others none; ' +
    '`pattern` only on text fields and a valid pattern; `multiple` only on user, department, attachment; `min`/`max` fit the type (dates for date fields, non-negative integers for text lengths and counts) and min ≤ max; ' +
    '`layout.section` names a section; `default` is a valid value of the field (docs/forms.md).',
  allOf: [{ $ref: '#/components/schemas/FormSchema' }],
});

const key = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'letters, digits, _ . - (not starting with a symbol)');
const name = z.string().min(1).max(200);
const optionalText = (max: number) => z.string().max(max).nullable().optional();

export const Form = catalogueRow(FormStatuses, { schema: FormSchema }, { publishedAt: IsoDate.nullable() }).openapi(
  'Form',
);

export const FormQuery = catalogueQuery(FormStatuses);

export const CreateFormBody = z
  .object({
    key,
    name,
    category: optionalText(100),
    description: optionalText(2000),
    schema: SchemaInput,
  })
  .strict()
  .openapi('FormCreateBody');

export const UpdateFormBody = z
  .object({
    name: name.optional(),
    category: optionalText(100),
    description: optionalText(2000),
    schema: SchemaInput.optional(),
  })
  .strict()
  .openapi('FormUpdateBody');

export const IdParam = z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' } }) });
export const KeyParam = z.object({ formKey: z.string().openapi({ param: { name: 'formKey', in: 'path' } }) });
