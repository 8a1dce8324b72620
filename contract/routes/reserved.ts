/**
 * The names no collection may take, because a route already answers there:
 * a literal segment right after /api/ in the route table (`/api/search`,
 * `/api/changes`, `/api/health`), the feed of everything (`/feeds/all.xml`),
 * and the routes PRODUCT.md plans under /api/ that the table does not hold
 * yet. A collection is `/api/<name>`: named like one of these, it would
 * shadow the route or be shadowed by it.
 */
import { ALL_FEED, API_PREFIX } from '../public-paths.ts'
import { ROUTES } from './index.ts'
import type { Route } from './route.ts'

/** Planned routes of PRODUCT.md (`/api/tags`, `/api/people`, `/api/redirects`): drop each once the table has it. */
const PLANNED = ['tags', 'people', 'redirects']

let reserved: readonly string[] | undefined

export function reservedCollectionNames(): readonly string[] {
  reserved ??= [
    ...new Set([
      ...(Object.values(ROUTES) as Route[]).flatMap((route) => {
        const segment = route.path.startsWith(`${API_PREFIX}/`)
          ? route.path.slice(API_PREFIX.length + 1).split('/')[0]!
          : ''
        return segment && !segment.startsWith('{') ? [segment] : []
      }),
      ALL_FEED,
      ...PLANNED,
    ]),
  ]
  return reserved
}
