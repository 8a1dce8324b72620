/**
 * What `npm run dev` wrote and serves is what `npm run build` makes of the
 * same content: dist/ byte-identical to a forced full build beside it, and
 * the served build id the one in dist/'s manifest.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect } from 'vitest'
import { buildSite } from '../../../../build/compiler/build.ts'
import { hashTree } from '../../../helpers/files.ts'
import type { TempProject } from '../../../helpers/project.ts'
import type { DevServer } from '../../../../gateway/dev-server.ts'

export async function expectDevEqualsFullBuild(
  project: TempProject,
  dev: Pick<DevServer, 'url' | 'apiOrigin'>,
): Promise<void> {
  const served = await hashTree(project.dist)
  // For the origin the dev server's records name (its own).
  const full = join(project.root, 'dist-full')
  await buildSite({ root: project.root, distDir: full, force: true, cache: false, apiOrigin: dev.apiOrigin })
  expect(served).toEqual(await hashTree(full))
  // The gateway serves the same bytes as the files.
  const health = (await (await fetch(`${dev.url}/api/health`)).json()) as { build: { id: string } }
  const manifest = JSON.parse(await readFile(join(project.dist, '_build/manifest.json'), 'utf8')) as {
    build: { id: string }
  }
  expect(health.build.id).toBe(manifest.build.id)
}
