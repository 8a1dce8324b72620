/**
 * Redirects from git history on Netlify, under Netlify's own local emulation:
 * a file renamed twice and committed answers 301 from both old slugs to the
 * new one in one hop (the generated _redirects), an alias likewise, and a
 * deleted file's address reaches the function, which answers 410 with the
 * problem naming its tombstone, as the self-hosted gateway does.
 */
import { copyFile } from 'node:fs/promises'
import { join } from 'node:path'
import { exportJWK, generateKeyPair } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSite } from '../../../build/compiler/build.ts'
import { commitAll, git, initAndCommit } from '../../helpers/git.ts'
import { createProject, REPO_ROOT, validPost, type TempProject } from '../../helpers/project.ts'
import { startEmulator, type Emulator } from './emulator.ts'
import { bundledFunctions } from './functions.ts'

const T1 = 1_769_904_000 // 2026-02-01T00:00:00Z
const post = (title: string, extra = '') =>
  `${validPost(title, extra)}\n${`${title} has words of its own, which no other post here shares. `.repeat(6)}\n`

let project: TempProject
let netlify: Emulator

beforeAll(async () => {
  project = await createProject({
    'content/blog-posts/alpha.md': post('Alpha'),
    'content/blog-posts/bravo.md': post('Bravo'),
    'content/blog-posts/charlie.md': post('Charlie', 'aliases: [old-charlie]\n'),
    '.gitignore': 'dist/\nnetlify-functions/\n.netlify/\n.cache/\n',
  })
  await initAndCommit(project.root, T1)
  await git(project.root, ['mv', 'content/blog-posts/alpha.md', 'content/blog-posts/alpha-two.md'])
  await git(project.root, ['rm', '-q', 'content/blog-posts/bravo.md'])
  await commitAll(project.root, 'rename alpha, remove bravo', T1 + 86_400)
  await git(project.root, ['mv', 'content/blog-posts/alpha-two.md', 'content/blog-posts/alpha-three.md'])
  await commitAll(project.root, 'rename alpha again', T1 + 2 * 86_400)
  await buildSite({ root: project.root, cache: false })
  await bundledFunctions(project.root)
  await copyFile(join(REPO_ROOT, 'netlify.toml'), join(project.root, 'netlify.toml'))
  const { privateKey } = await generateKeyPair('ES256', { extractable: true })
  netlify = await startEmulator(project.root, { OAUTH_SIGNING_KEY: JSON.stringify(await exportJWK(privateKey)) })
}, 300_000)

afterAll(async () => {
  await netlify?.stop()
  await project?.remove()
})

const ask = (path: string) => fetch(`${netlify.url}${path}`, { redirect: 'manual' })

describe('redirects on Netlify', () => {
  it('answers both old slugs of a file renamed twice 301 to the new one, in one hop, and an alias likewise', async () => {
    for (const [old, now] of [
      ['alpha', 'alpha-three'],
      ['alpha-two', 'alpha-three'],
      ['old-charlie', 'charlie'],
    ]) {
      const response = await ask(`/api/blog-posts/${old}`)
      expect(response.status, `${old}\n${netlify.log()}`).toBe(301)
      expect(new URL(response.headers.get('location')!, netlify.url).pathname).toBe(`/api/blog-posts/${now}`)
    }
    const moved = await ask('/api/blog-posts/alpha-three')
    expect(moved.status).toBe(200)
    expect(((await moved.json()) as { slug: string }).slug).toBe('alpha-three')
  })

  it("answers a deleted file's address 410 with the problem naming its tombstone", async () => {
    const response = await ask('/api/blog-posts/bravo')
    expect(response.status, netlify.log()).toBe(410)
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/)
    const body = (await response.json()) as { type: string; tombstone: { slug: string } }
    expect(body).toMatchObject({ type: '/problems/gone', tombstone: { slug: 'bravo' } })
  })
})
