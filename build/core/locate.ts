/**
 * Find where a frontmatter field is written, so errors point at the exact
 * line and column. Paths are ajv instance paths split into segments.
 */
import { isMap, isPair, isScalar, isSeq, type Document, type Node } from 'yaml'

export interface Located {
  /** Offset of the most precise node found: the value, else its key, else the nearest parent. */
  offset: number
}

export function locate(doc: Document | undefined, path: (string | number)[], preferKey = false): Located {
  let node: unknown = doc?.contents
  let best = rangeStart(node) ?? 0
  for (const [index, segment] of path.entries()) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(segment))
      if (!pair) break
      const keyStart = rangeStart(pair.key)
      const isEmpty = isScalar(pair.value) && pair.value.value === null
      const wantKey = isEmpty || (preferKey && index === path.length - 1)
      best = (wantKey ? keyStart : (rangeStart(pair.value) ?? keyStart)) ?? best
      node = pair.value
    } else if (isSeq(node) && typeof segment === 'number') {
      node = node.items[segment]
      best = rangeStart(node) ?? best
    } else {
      break
    }
  }
  return { offset: best }
}

function rangeStart(node: unknown): number | undefined {
  return (node as Node | null | undefined)?.range?.[0]
}

/** `/authors/0/name` → ['authors', 0, 'name']. */
export function pointerToPath(pointer: string): (string | number)[] {
  if (!pointer) return []
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s))
}

/** ['authors', 0, 'name'] → `authors[0].name`. */
export function pathToField(path: (string | number)[]): string {
  return path.reduce<string>(
    (out, seg) => (typeof seg === 'number' ? `${out}[${seg}]` : out ? `${out}.${seg}` : seg),
    '',
  )
}
