/**
 * The gateway as `npm start` mounts it, with the committed API keys file (so
 * the published sandbox key works) and a client allowed every scope.
 */
import { join } from 'node:path'
import { defaultOf } from '../../../contract/settings.ts'
import { SCOPE_NAMES } from '../../../contract/scopes.ts'
import { startFullGateway as start } from '../../helpers/full-gateway.ts'
import type { TestGateway } from '../../helpers/gateway.ts'
import { REPO_ROOT, type TempProject } from '../../helpers/project.ts'

export interface FullGateway {
  gw: TestGateway
  project: TempProject
  /** A client of the built-in issuer allowed every scope. */
  client: { id: string; secret: string }
  close(): Promise<void>
}

export async function startFullGateway(): Promise<FullGateway> {
  const full = await start({
    clients: { discovery: SCOPE_NAMES },
    keysFile: join(REPO_ROOT, defaultOf('KEYS_FILE', 'start')!),
  })
  return {
    gw: full.gw,
    project: full.project,
    client: { id: 'discovery', secret: full.secrets.discovery! },
    close: full.close,
  }
}
