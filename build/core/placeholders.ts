/**
 * The placeholders `npm run new` writes where only the author can say what
 * goes (scaffold/templates.ts writes them from here), and how the check finds
 * them again: an item published with one would publish `Your Name` as its
 * author. They pass the schema on purpose (a new draft is valid), so the
 * check names them by value, field by field, once the item is no draft.
 */
import type { CollectionName } from '../../contract/collections.ts'
import { pathToField } from './locate.ts'

interface Placeholders {
  /** By field, `[]` standing for any index of a list (`authors[].name`): the text written there. */
  fields: Record<string, string>
  /** The body's one paragraph. */
  body: string
}

export const PLACEHOLDERS = {
  'blog-posts': {
    fields: { 'authors[].name': 'Your Name' },
    body: 'Write the post here. The first paragraph becomes the summary unless `summary` is set.',
  },
  'case-studies': {
    fields: { 'customer.name': 'Customer name', 'customer.industry': 'Industry', 'results[].label': 'Headline result' },
    body: 'Tell the customer story here: the problem, what they did, what changed.',
  },
  webinars: {
    fields: { 'speakers[].name': 'Speaker Name' },
    body: 'Describe the webinar here: who it is for and what attendees will learn.',
  },
  events: {
    fields: {},
    body: 'Describe the event here: the agenda, who should come, how to take part.',
  },
} as const satisfies Record<CollectionName, Placeholders>

/** A placeholder left in an item: where (a frontmatter path, or the body's line from its start) and which. */
export type FoundPlaceholder =
  | { path: (string | number)[]; field: string; text: string }
  | { bodyLine: number; text: string }

/** The placeholders of `collection` left in `data` (the frontmatter) and `body`, in the order written. */
export function placeholdersIn(collection: CollectionName, data: unknown, body: string): FoundPlaceholder[] {
  const { fields, body: paragraph }: Placeholders = PLACEHOLDERS[collection]
  const found: FoundPlaceholder[] = []
  const walk = (value: unknown, path: (string | number)[]) => {
    if (typeof value === 'string') {
      const pattern = pathToField(path.map((p) => (typeof p === 'number' ? -1 : p))).replaceAll('[-1]', '[]')
      if (fields[pattern] === value) found.push({ path, field: pathToField(path), text: value })
    } else if (Array.isArray(value)) {
      for (const [i, v] of value.entries()) walk(v, [...path, i])
    } else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, [...path, k])
  }
  walk(data, [])
  const at = body.indexOf(paragraph)
  if (at >= 0) found.push({ bodyLine: body.slice(0, at).split('\n').length - 1, text: paragraph })
  return found
}
