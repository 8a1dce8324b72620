/** Start the real gateway on 127.0.0.1 with an ephemeral port. */
import { afterAll, beforeAll } from 'vitest'
import { buildSite } from '../../build/compiler/build.ts'
import { ArtifactStore } from '../../gateway/artifacts.ts'
import { startServer, type RunningServer } from '../../gateway/server.ts'
import type { GatewayOptions } from '../../gateway/app.ts'
import type { TempProject } from './project.ts'

export interface TestGateway extends RunningServer {
  store: ArtifactStore
}

/** Serve `distDir` (or the given, already loaded store) with the real gateway. */
export async function startGateway(distDir: string, options: Partial<GatewayOptions> = {}): Promise<TestGateway> {
  let store = options.store
  if (!store) {
    store = new ArtifactStore(distDir)
    await store.reload()
  }
  const running = await startServer({ version: '0.0.0-test', host: '127.0.0.1', port: 0, ...options, store })
  return { ...running, store }
}

export interface BuiltGateway {
  readonly project: TempProject
  readonly gateway: TestGateway
}

/**
 * For one describe block (or file): build the project `makeProject` gives and
 * serve it; afterwards close the server and remove the project.
 *
 * @example const ctx = useBuiltGateway(copyOfFixtureContent); fetch(`${ctx.gateway.url}/api/health`)
 */
export function useBuiltGateway(makeProject: () => Promise<TempProject>): BuiltGateway {
  let project: TempProject | undefined
  let gateway: TestGateway | undefined
  beforeAll(async () => {
    project = await makeProject()
    await buildSite({ root: project.root, cache: false })
    gateway = await startGateway(project.dist)
  })
  afterAll(async () => {
    await gateway?.close()
    await project?.remove()
  })
  return {
    get project() {
      return project!
    },
    get gateway() {
      return gateway!
    },
  }
}
