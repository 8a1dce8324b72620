/**
 * "People" are every field of type person in the content model: a field of
 * one person counts like a list of them, in every collection that has one,
 * and a collection without such a field names nobody. The model is parsed
 * from a site.yaml as the build reads it.
 */
import { describe, expect, it } from 'vitest'
import { parseSiteConfig } from '../../build/core/site.ts'
import { peopleEnvelope, peopleIndex, personFields } from '../../contract/people-index.ts'
import type { ContentRecord } from '../../contract/records.ts'

const { model } = parseSiteConfig(
  [
    'url: https://www.example.com',
    'collections:',
    '  press-releases:',
    '    label: press release',
    '    fields:',
    '      spokesperson: person',
    '      panel: { type: list, of: person }',
    '  notes:',
    '    label: note',
    '    fields:',
    '      owner: string',
  ].join('\n'),
)

const record = (slug: string, published: string, fields: Record<string, unknown>) =>
  ({ slug, title: slug, published_at: published, tags: [], ...fields }) as unknown as ContentRecord

const ana = { name: 'Ana Press', slug: 'ana-press', title: 'Head of press' }
const bo = { name: 'Bo Lee', slug: 'bo-lee' }

describe('the people of the content model', () => {
  it('are the fields of type person, one person or a list of them', () => {
    expect(personFields(model, 'press-releases')).toEqual(['spokesperson', 'panel'])
    expect(personFields(model, 'notes')).toEqual([])
  })

  it('count a single person field like a list, and nobody in a collection without one', () => {
    const records: Record<string, ContentRecord[]> = {
      'press-releases': [
        record('launch', '2026-03-02T00:00:00Z', { spokesperson: ana, panel: [bo, ana] }),
        record('office', '2026-02-01T00:00:00Z', { spokesperson: bo, panel: [] }),
      ],
      notes: [record('memo', '2026-01-01T00:00:00Z', { owner: 'Ana Press' })],
    }
    const index = peopleIndex(model, (c) => records[c] ?? [])
    expect([...index.get('ana-press')!.items].map((i) => i.record.slug)).toEqual(['launch'])
    expect([...index.get('bo-lee')!.items].map((i) => i.record.slug)).toEqual(['launch', 'office'])
    const { data } = peopleEnvelope(model, index)
    expect(data.map((p) => [p.slug, p.count, p.counts])).toEqual([
      ['ana-press', 1, { 'press-releases': 1, notes: 0 }],
      ['bo-lee', 2, { 'press-releases': 2, notes: 0 }],
    ])
    expect(data[0]!.title).toBe('Head of press')
  })
})
