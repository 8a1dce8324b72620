import type { SchemaObject } from 'ajv'
import { avatarUrl, commonProperties, commonRequired, commonTrailing, person } from './common.ts'

/** Frontmatter of a blog post (schema.org BlogPosting). */
export const blogPostSchema: SchemaObject = {
  $id: 'blog-post.frontmatter',
  title: 'Blog post frontmatter',
  type: 'object',
  additionalProperties: false,
  required: [...commonRequired, 'authors'],
  properties: {
    ...commonProperties,
    authors: {
      type: 'array',
      minItems: 1,
      maxItems: 10,
      items: {
        ...person,
        properties: {
          ...person.properties,
          avatar_url: avatarUrl,
        },
      },
    },
    ...commonTrailing,
  },
}
