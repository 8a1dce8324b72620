/**
 * One copy of each repeated short string in a parsed manifest. JSON.parse
 * gives every occurrence of a value its own string: a tag, an author's name
 * and avatar, a date, an image URL given as both image and social image are
 * stored once per record that carries them, and the manifest is what the
 * gateway keeps resident for as long as it serves the build. Keys are already
 * shared by V8; long values (summaries, titles) are mostly unique, so they
 * are left as they are rather than looked up.
 *
 * @example
 * const manifest = shareStrings(JSON.parse(text) as Manifest)
 */
const LONGEST_SHARED = 100

export function shareStrings<T>(value: T): T {
  const seen = new Map<string, string>()
  const share = (v: unknown): unknown => {
    if (typeof v === 'string') {
      if (v.length > LONGEST_SHARED) return v
      const known = seen.get(v)
      if (known !== undefined) return known
      seen.set(v, v)
      return v
    }
    if (v === null || typeof v !== 'object') return v
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) v[i] = share(v[i])
      return v
    }
    const record = v as Record<string, unknown>
    for (const key in record) record[key] = share(record[key])
    return v
  }
  return share(value) as T
}
