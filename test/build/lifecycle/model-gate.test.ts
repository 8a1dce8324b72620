/**
 * The breaking-change gate (`npm run api:check`) on a content model changed
 * in site.yaml alone: a collection added is an addition (the gate passes and
 * `npm run api:release` records a minor version); a field removed from a
 * collection breaks its clients, and the gate fails naming the field and
 * the operations that answered it.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { gate } from '../../../build/lifecycle/gate.ts'
import { currentDocument, releasedDocument } from '../../../build/lifecycle/released.ts'
import { createProject, FIXTURE_CONTENT, type TempProject } from '../../helpers/project.ts'

const FAQS = `  faqs:
    path: /faq
    title: Questions
    label: FAQ
    fields:
      answer: { type: markdown, required: true, description: 'The answer, in Markdown.' }
      audience: { type: enum, values: [buyers, developers], filter: true }
`

describe('the gate on a model changed in site.yaml', () => {
  let project: TempProject | undefined
  afterEach(() => project?.remove())

  /** A project with the fixture's site.yaml (the model of the released document) changed by `edit`. */
  async function withSite(edit: (site: string) => string): Promise<TempProject> {
    const site = await readFile(join(FIXTURE_CONTENT, 'site.yaml'), 'utf8')
    const edited = edit(site)
    expect(edited).not.toBe(site)
    project = await createProject({ 'content/site.yaml': edited })
    return project
  }

  it('passes an added collection, as additions a minor release records', async () => {
    const { root } = await withSite((site) => `${site.trimEnd()}\n${FAQS}`)
    const current = await currentDocument(root)
    expect(Object.keys(current.paths)).toContain('/api/faqs')
    const result = gate(await releasedDocument(), current)
    expect(result.ok).toBe(true)
    expect(result.comparison.changes.length).toBeGreaterThan(0)
    expect(result.comparison.changes.every((c) => !c.breaking)).toBe(true)
    expect(result.comparison.changes.some((c) => c.subject.includes('/api/faqs'))).toBe(true)
    expect(result.lines[0]).toMatch(/none breaking; npm run api:release records them/)
  })

  it('fails a removed field, naming it', async () => {
    const { root } = await withSite((site) => site.replace('      recording_url: url\n', ''))
    const result = gate(await releasedDocument(), await currentDocument(root))
    expect(result.ok).toBe(false)
    // Records name it no more, so `fields=` may not either: the gate says which value went, where.
    expect(result.lines).toContain(
      '  GET /api/webinars: [Replaced] possible values of `[]` in query parameter `fields`: `recording_url` removed (breaking)',
    )
    expect(result.lines.at(-1)).toContain('raise API_VERSION to 2.0.0 in contract/lifecycle.ts')
  })
})
