/**
 * The gateway as `npm start` mounts it, with no API keys file (the published
 * sandbox key is built in) and a client allowed every scope.
 */
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SCOPE_NAMES } from '../../../contract/scopes.ts'
import { startFullGateway as start } from '../../helpers/full-gateway.ts'
import type { TestGateway } from '../../helpers/gateway.ts'
import type { TempProject } from '../../helpers/project.ts'

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
    // No keys file: the published sandbox key is built in.
    keysFile: join(tmpdir(), 'content-api-no-keys', 'keys.json'),
  })
  return {
    gw: full.gw,
    project: full.project,
    client: { id: 'discovery', secret: full.secrets.discovery! },
    close: full.close,
  }
}
