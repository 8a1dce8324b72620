/**
 * The components an author may write in a body, as data: each a directive
 * (`:name[…]{…}` text, `::name{…}` leaf, `:::name{…} … :::` container) with
 * an attribute schema: JSON Schema string properties (`enum`, `format: uri`,
 * `pattern`, `maxLength`, `minLength`, `required`), which a site declares in
 * the content model's field vocabulary (site-components.ts reads it).
 * The built-in ones have their own HTML (build/pipeline/component-html.ts); a team's own,
 * declared under `components:` in content/site.yaml (build/core/site-components.ts),
 * render as documented, stable markup: a class and data attributes.
 */

/** One attribute of a component, as a JSON Schema string property. */
export interface AttributeSchema {
  type: 'string'
  description?: string
  enum?: string[]
  format?: 'uri'
  pattern?: string
  maxLength?: number
  minLength?: number
  default?: string
}

export type ComponentKind = 'text' | 'leaf' | 'container'

export interface ComponentDeclaration {
  name: string
  kind: ComponentKind
  description?: string
  attributes: { type: 'object'; properties: Record<string, AttributeSchema>; required: string[] }
}

export const BUILT_IN_COMPONENTS: readonly ComponentDeclaration[] = [
  {
    name: 'callout',
    kind: 'container',
    description: 'A note, tip or warning box around Markdown content.',
    attributes: {
      type: 'object',
      properties: {
        tone: { type: 'string', enum: ['note', 'tip', 'warning'], default: 'note' },
        title: { type: 'string', maxLength: 120 },
      },
      required: [],
    },
  },
  {
    name: 'video',
    kind: 'leaf',
    description: 'A YouTube, Vimeo or Wistia video, embedded privacy-friendly.',
    attributes: {
      type: 'object',
      properties: {
        src: { type: 'string', format: 'uri', description: 'The video page on YouTube, Vimeo or Wistia.' },
        title: { type: 'string', maxLength: 200, description: 'What the video is, for screen readers.' },
      },
      required: ['src', 'title'],
    },
  },
  {
    name: 'cta',
    kind: 'leaf',
    description: 'A call-to-action link, styled as a button by the front-end.',
    attributes: {
      type: 'object',
      properties: {
        label: { type: 'string', maxLength: 80 },
        href: { type: 'string', format: 'uri' },
        style: { type: 'string', pattern: '^[a-z][a-z0-9-]*$', maxLength: 40, default: 'primary' },
      },
      required: ['label', 'href'],
    },
  },
  {
    name: 'quote',
    kind: 'container',
    description: 'A pull quote with who said it.',
    attributes: {
      type: 'object',
      properties: {
        attribution: { type: 'string', maxLength: 120 },
        role: { type: 'string', maxLength: 120 },
      },
      required: ['attribution'],
    },
  },
]

/** The built-in components and a site's own (a site's may not redeclare a built-in: site-components.ts checks). */
export function componentSet(own: readonly ComponentDeclaration[] = []): ReadonlyMap<string, ComponentDeclaration> {
  return new Map([...BUILT_IN_COMPONENTS, ...own].map((c) => [c.name, c]))
}

/** What the render cache must know of a site's components: bodies with directives render differently with others. */
export function componentsKey(own: readonly ComponentDeclaration[] = []): string {
  return own.length ? JSON.stringify(own) : ''
}
