/** Start the real gateway on 127.0.0.1 with an ephemeral port. */
import { ArtifactStore } from '../../gateway/artifacts.ts'
import { startServer, type RunningServer } from '../../gateway/server.ts'
import type { GatewayOptions } from '../../gateway/app.ts'

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
