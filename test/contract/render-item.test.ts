/**
 * renderItem writes a record's JSON with its `body.tree` taken as JSON text
 * (BodyTreeJson, as the build holds it): the bytes must be JSON.stringify's of
 * the same record with the tree as nodes, key order and escapes included.
 */
import { describe, expect, it } from 'vitest'
import { rewriteTreeImages } from '../../build/pipeline/body-images.ts'
import { type BodyTree, BodyTreeJson } from '../../contract/body-tree.ts'
import type { ImageObject } from '../../contract/media.ts'
import type { FullRecord } from '../../contract/records.ts'
import { renderItem } from '../../contract/render.ts'

const TREE: BodyTree = {
  version: 1,
  children: [
    {
      type: 'heading',
      depth: 2,
      id: 'caf\u00e9',
      children: [{ type: 'text', value: 'Caf\u00e9 "quoted" \u2028 \ud83d\ude00' }],
    },
    { type: 'paragraph', children: [{ type: 'image', src: 'a.png', alt: 'A </script>' }] },
    { type: 'element', tag: 'td', attributes: { '2': 'two', '10': 'ten', 'data-x': 'y' }, children: [] },
  ],
}

/** A record as derive.ts orders one, with values JSON.stringify leaves out or escapes. */
function record(tree: BodyTree | BodyTreeJson): FullRecord {
  return {
    id: 'x1',
    type: 'blog_post',
    slug: 's',
    title: 'Tab\there, "quote", \\ back',
    summary: 'lone \ud800 surrogate',
    skipped: undefined,
    related: [],
    word_count: 3,
    body: { html: '<p>é</p>', markdown: 'é', text: 'é', tree },
    toc: [{ depth: 2, text: 'Café', id: 'caf\u00e9' }],
    '\u00fcber': 1,
  } as unknown as FullRecord
}

describe('renderItem', () => {
  it('writes a tree held as JSON text as JSON.stringify writes the nodes', () => {
    const expected = JSON.stringify(record(TREE))
    expect(renderItem(record(new BodyTreeJson(JSON.stringify(TREE))))).toBe(expected)
    expect(renderItem(record(TREE))).toBe(expected)
  })

  it('gives the same bytes through JSON.stringify of a record holding the text', () => {
    expect(JSON.stringify(record(new BodyTreeJson(JSON.stringify(TREE))))).toBe(JSON.stringify(record(TREE)))
  })
})

describe('rewriteTreeImages', () => {
  const images = new Map<string, ImageObject>([
    [
      'a.png',
      { url: 'https://api.example/media/a-1.png', alt: '', width: 1, height: 1, placeholder: null, sources: [] },
    ],
  ])

  it('changes a tree held as text as it changes the nodes, and keeps it text', () => {
    const text = new BodyTreeJson(JSON.stringify(TREE))
    const rewritten = rewriteTreeImages(text, images)
    expect(rewritten).toBeInstanceOf(BodyTreeJson)
    expect((rewritten as BodyTreeJson).json).toBe(JSON.stringify(rewriteTreeImages(TREE, images)))
    expect((rewritten as BodyTreeJson).json).toContain('"src":"https://api.example/media/a-1.png"')
    // The text the render cache keeps is not changed.
    expect(text.json).toBe(JSON.stringify(TREE))
  })
})
