import type { SchemaObject } from 'ajv'
import { commonProperties, commonRequired, commonTrailing, httpUrl } from './common.ts'

const text = (max: number): SchemaObject => ({ type: 'string', minLength: 1, maxLength: max })

/** Frontmatter of a customer case study. */
export const caseStudySchema: SchemaObject = {
  $id: 'case-study.frontmatter',
  title: 'Case study frontmatter',
  type: 'object',
  additionalProperties: false,
  required: [...commonRequired, 'customer', 'results'],
  properties: {
    ...commonProperties,
    customer: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'industry'],
      properties: {
        name: text(120),
        industry: text(80),
        size: { ...text(40), description: 'Company size band, e.g. "1,000-5,000 employees".' },
        region: { ...text(80), description: 'Where the customer mainly operates, e.g. "EMEA".' },
        logo_url: httpUrl,
        website: httpUrl,
      },
    },
    results: {
      type: 'array',
      minItems: 1,
      maxItems: 12,
      description: 'Headline outcomes, e.g. {label: "Incident time", value: "-63%"}.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['label', 'value'],
        properties: { label: text(80), value: text(40) },
      },
    },
    quote: {
      type: 'object',
      additionalProperties: false,
      required: ['text', 'author', 'role'],
      properties: { text: text(600), author: text(120), role: text(120) },
    },
    products: { type: 'array', uniqueItems: true, maxItems: 20, items: text(80) },
    ...commonTrailing,
  },
}
