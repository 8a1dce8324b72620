/**
 * The manifest's repeated strings shared in place: what the gateway serves from
 * the parsed manifest is the same value, field for field, and nothing else changes.
 */
import { describe, expect, it } from 'vitest'
import { shareStrings } from '../../../gateway/files/share-strings.ts'

describe('shareStrings', () => {
  it('leaves every value equal, in place, whatever its kind or length', () => {
    const author = { name: 'Dana Silva', slug: 'dana-silva', avatar_url: 'https://cdn.example/a.png' }
    const long = 'word '.repeat(60)
    const text = JSON.stringify({
      collections: {
        posts: [
          { slug: 'a', tags: ['x', 'y'], authors: [author], summary: long, width: 3, draft: false, image: null },
          { slug: 'b', tags: ['y', 'x'], authors: [author, author], summary: long, width: 0, draft: true, image: [] },
        ],
      },
      empty: {},
    })
    const parsed = JSON.parse(text) as Record<string, unknown>
    const collections = parsed.collections
    expect(shareStrings(parsed)).toBe(parsed)
    expect(parsed.collections).toBe(collections)
    expect(parsed).toEqual(JSON.parse(text))
    expect(JSON.stringify(parsed)).toBe(text)
  })
})
