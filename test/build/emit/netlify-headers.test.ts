/**
 * The Cache-Control lines of Netlify's `_headers` around a scheduled release:
 * fixed at build time, they are capped at the time left to the build's next
 * release or expiry when that is shorter than a file's lifetime, and are the
 * usual ones otherwise (nothing scheduled, or a release months away). Media,
 * named by their bytes, stay immutable.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSite } from '../../../build/compiler/build.ts'
import { CACHE } from '../../../contract/headers.ts'
import { createProject, validPost, type TempProject } from '../../helpers/project.ts'

const RELEASE = '2027-03-04T08:00:00Z'
const at = (ms: number) => new Date(ms).toISOString()

let project: TempProject
beforeAll(async () => {
  project = await createProject({ 'content/blog-posts/live.md': validPost('Live now') })
})
afterAll(() => project?.remove())

/** The distinct Cache-Control values of `_headers` built as of `clock` into its own folder. */
async function cacheControls(clock: string, dist: string): Promise<string[]> {
  const distDir = join(project.root, dist)
  await buildSite({ root: project.root, distDir, cache: false, clock: () => Date.parse(clock) })
  const text = await readFile(join(distDir, '_headers'), 'utf8')
  const values = [...text.matchAll(/^\s+cache-control:\s*(.*)$/gim)].map((m) => m[1]!)
  return [...new Set(values)].sort()
}

describe('_headers and the next release', () => {
  let usual: string[]

  it('with nothing scheduled: each file its usual lifetime', async () => {
    usual = await cacheControls(RELEASE, 'dist-none')
    expect(usual).toEqual(expect.arrayContaining([CACHE.content, CACHE.document]))
    expect(usual.some((v) => v.includes('immutable'))).toBe(true)
  })

  it('with a release months away: the usual lifetimes', async () => {
    await project.write(
      'content/blog-posts/launch.md',
      validPost('Launch day').replace('published_at: 2026-01-05', `published_at: ${RELEASE}`),
    )
    expect(await cacheControls('2027-01-01T00:00:00Z', 'dist-far')).toEqual(usual)
  })

  it('with a release two minutes away: every lifetime capped at the time left, media still immutable', async () => {
    const near = await cacheControls(at(Date.parse(RELEASE) - 120_000), 'dist-near')
    expect(near).toEqual(
      expect.arrayContaining([
        'public, max-age=60, stale-while-revalidate=60',
        'public, max-age=120, stale-while-revalidate=0',
      ]),
    )
    expect(near).not.toContain(CACHE.content)
    expect(near).not.toContain(CACHE.document)
    expect(near.filter((v) => v.includes('immutable'))).toEqual(usual.filter((v) => v.includes('immutable')))
    for (const value of near.filter((v) => !/immutable|no-store/.test(v))) {
      const seconds = [...value.matchAll(/(?:max-age|stale-while-revalidate|stale-if-error)=(\d+)/g)]
      const fresh = Number(/max-age=(\d+)/.exec(value)?.[1] ?? 0)
      const stale = seconds.filter((m) => !m[0].startsWith('max-age')).map((m) => Number(m[1]))
      expect(fresh + Math.max(0, ...stale), value).toBeLessThanOrEqual(120)
    }
  })
})
