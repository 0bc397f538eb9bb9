// The chain components as RuleGo's ComponentForm (api/types/component.go: type, category, fields,
// label, desc, relationTypes), what GET /components serves and the editor draws, in English or
// Chinese; and the short catalogue of GET /api/v1/components?scope=rulechain with a JSON Schema
// per node's configuration. Fields we accept but do not use are left out of the form and named
// in `ignoredFields` (docs/rule-chains.md lists them).
import { ENDPOINT_SPECS, NODE_SPECS, type ComponentSpec, type FieldSpec, type Locale, type Text } from './catalogue.js';

export interface ComponentFormField {
  name: string;
  type: string;
  defaultValue: unknown;
  label: string;
  desc: string;
  required: boolean;
  /** RuleGo's `validate` tag (unused: `rules` carries the checks). */
  validate: string;
  /** Validation rules in the editor's form-library shape. */
  rules: Array<{ required?: boolean; min?: number; message: string }>;
  component: Record<string, unknown> | null;
  /** Nested fields of an object type (none here). */
  fields: ComponentFormField[] | null;
}

export interface ComponentForm {
  type: string;
  category: string;
  fields: ComponentFormField[];
  label: string;
  desc: string;
  icon: string;
  /** GFlow's component kind: `nc` a native node, `ec` an endpoint. */
  componentKind: 'nc' | 'ec';
  /** The relations the node emits; empty: names the user gives (RuleGo's convention). */
  relationTypes: string[];
  disabled: boolean;
  version: string;
  /** Configuration keys accepted for RuleGo compatibility and not used here. */
  ignoredFields: string[];
}

export const FORMS_VERSION = '1.0.0';

const say = (text: Text, locale: Locale) => (locale === 'zh-CN' ? text.zh : text.en);

const REQUIRED: Text = { en: 'Required', zh: '必填' };
const AT_LEAST: Text = { en: 'At least', zh: '最小值' };

function formField(f: FieldSpec, locale: Locale): ComponentFormField {
  const rules: ComponentFormField['rules'] = [];
  if (f.required) rules.push({ required: true, message: say(REQUIRED, locale) });
  if (f.min !== undefined) rules.push({ min: f.min, message: `${say(AT_LEAST, locale)} ${f.min}` });
  return {
    name: f.name,
    type: f.type,
    defaultValue: f.defaultValue ?? null,
    label: say(f.label, locale),
    desc: say(f.desc, locale),
    required: Boolean(f.required),
    validate: '',
    rules,
    component: f.component ?? null,
    fields: null,
  };
}

function form(spec: ComponentSpec, locale: Locale): ComponentForm {
  return {
    type: spec.type,
    category: spec.category,
    fields: spec.fields.filter((f) => !f.ignored).map((f) => formField(f, locale)),
    label: say(spec.label, locale),
    desc: say(spec.desc, locale),
    icon: spec.type,
    componentKind: spec.category === 'endpoint' ? 'ec' : 'nc',
    relationTypes: spec.relations ?? [],
    disabled: false,
    version: FORMS_VERSION,
    ignoredFields: spec.fields.filter((f) => f.ignored).map((f) => f.name),
  };
}

/** Every endpoint and node form, in the catalogue's order. */
export function componentForms(locale: Locale = 'en'): { endpoints: ComponentForm[]; nodes: ComponentForm[] } {
  return {
    endpoints: ENDPOINT_SPECS.map((s) => form(s, locale)),
    nodes: NODE_SPECS.map((s) => form(s, locale)),
  };
}

const JSON_TYPES: Record<FieldSpec['type'], Record<string, unknown>> = {
  string: { type: 'string' },
  int: { type: 'integer' },
  bool: { type: 'boolean' },
  array: { type: 'array' },
  map: { type: 'object', additionalProperties: { type: 'string' } },
  object: { type: 'object' },
  json: {},
};

/** A node's configuration as JSON Schema; other keys are allowed (and kept). */
export function configSchema(spec: ComponentSpec, locale: Locale = 'en'): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const f of spec.fields) {
    const p: Record<string, unknown> = { ...JSON_TYPES[f.type], description: say(f.desc, locale) };
    if (f.defaultValue !== undefined) p.default = f.defaultValue;
    if (f.options) p.enum = [...f.options];
    if (f.min !== undefined) p.minimum = f.min;
    if (f.kind === 'cases')
      p.items = {
        type: 'object',
        properties: { case: { type: 'string' }, then: { type: 'string' } },
        required: ['case', 'then'],
      };
    if (f.ignored) p.deprecated = true;
    properties[f.name] = p;
  }
  const required = spec.fields.filter((f) => f.required).map((f) => f.name);
  return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: true };
}

export interface ChainComponentDescriptor {
  type: string;
  name: string;
  description: string;
  configSchema: Record<string, unknown>;
  form: ComponentForm;
}

/** GET /api/v1/components?scope=rulechain: every chain node (endpoints are in componentForms). */
export function chainComponentCatalogue(locale: Locale = 'en'): ChainComponentDescriptor[] {
  return NODE_SPECS.map((spec) => ({
    type: spec.type,
    name: say(spec.label, locale),
    description: say(spec.desc, locale),
    configSchema: configSchema(spec, locale),
    form: form(spec, locale),
  }));
}
