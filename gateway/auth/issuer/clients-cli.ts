/**
 * `npm run keys -- client …`: the machine clients of the embedded
 * authorization server (client_credentials). A new secret is printed once;
 * only its SHA-256 hash is stored, with the runtime data
 * (gateway/auth/runtime-data.ts), each change as one step of the clients
 * document and recorded in the audit trail. The sandbox client is built in.
 */
import { resolve } from 'node:path'
import { FIXED_SCOPES, isScope } from '../../../contract/scopes.ts'
import { didYouMean } from '../../../contract/cli-args.ts'
import { UsageError } from '../../../contract/errors.ts'
import type { Settings } from '../../../contract/settings.ts'
import { required, type CliIo } from '../cli-io.ts'
import { dataLocations } from '../runtime-data.ts'
import { SANDBOX_MACHINE_CLIENT } from '../sandbox.ts'
import type { StateStore } from '../store/state-store.ts'
import { cliOrigin, openAuditTrail } from '../audit/audit-trail.ts'
import { type Client, clientsDocument, generateClientSecret, hashClientSecret } from './clients-file.ts'

export const CLIENT_USAGE = {
  create: 'usage: npm run keys -- client create --id <client id> --scopes "<scope> …" --label <text> [--file <path>]',
  list: 'usage: npm run keys -- client list [--file <path>]',
  revoke: 'usage: npm run keys -- client revoke <client id> [--file <path>]',
}

export async function clientCommand(
  rest: string[],
  values: { id?: string; scopes?: string; label?: string; file?: string },
  io: CliIo,
  now: Date,
  settings: Settings,
  store: () => StateStore,
): Promise<number> {
  const document = clientsDocument(
    values.file ? resolve(io.cwd, values.file) : dataLocations(settings, io.cwd).clients,
    store,
  )
  const file = document.location
  const audit = () => openAuditTrail(store(), cliOrigin(), () => io.now?.() ?? new Date())
  const [command, arg] = rest
  if (command === 'create') {
    const id = required(values.id, '--id', CLIENT_USAGE.create)
    if (!/^[A-Za-z0-9._-]{3,64}$/.test(id))
      throw new UsageError('--id must be 3 to 64 letters, digits, ".", "_" or "-"')
    if (id.startsWith('reg_'))
      throw new UsageError('--id must not start with "reg_", which marks self-registered clients')
    const scopes = required(values.scopes, '--scopes', CLIENT_USAGE.create)
      .split(/[\s,]+/)
      .filter(Boolean)
    const unknown = scopes.filter((s) => !isScope(s))
    if (unknown.length || !scopes.length)
      throw new UsageError(
        `unknown scope ${unknown.join(' ')}; scopes are: ${FIXED_SCOPES.join(' ')} and content.<collection>.read`,
      )
    const label = required(values.label, '--label', CLIENT_USAGE.create)
    const secret = generateClientSecret()
    const client: Client = {
      client_id: id,
      secret_hash: hashClientSecret(secret),
      scopes: scopes.filter(isScope),
      label,
      created_at: now.toISOString(),
      revoked_at: null,
    }
    await document.update((clients) => {
      // Checked inside the change: of two creating the same id at once, the second is refused.
      if (id === SANDBOX_MACHINE_CLIENT.client_id || clients.clients.some((c) => c.client_id === id))
        throw new UsageError(`client ${id} already exists`)
      return { ...clients, clients: [...clients.clients, client] }
    })
    const unrecorded = await audit().record('create', 'client', id, { scopes: client.scopes.join(' '), label })
    io.err(`created client ${id} (${scopes.join(' ')}) in ${file}; the secret is shown only now:`)
    io.out(secret)
    if (unrecorded) throw unrecorded
    return 0
  }
  if (command === 'list') {
    for (const c of [SANDBOX_MACHINE_CLIENT, ...(await document.read()).clients])
      io.out(
        `${c.client_id}\t${c.revoked_at ? `revoked ${c.revoked_at}` : 'active'}\t${c.scopes.join(' ')}\t${c.label}`,
      )
    return 0
  }
  if (command === 'revoke') {
    const id = required(arg, 'a client id', CLIENT_USAGE.revoke)
    if (id === SANDBOX_MACHINE_CLIENT.client_id)
      throw new UsageError(`${id} is the public sandbox client, built in (contract/sandbox.ts): it cannot be revoked`)
    await document.update((clients) => {
      const entry = clients.clients.find((c) => c.client_id === id)
      if (!entry) throw new UsageError(`no client ${id} in ${file}`)
      entry.revoked_at ??= now.toISOString()
      return clients
    })
    const unrecorded = await audit().record('revoke', 'client', id)
    io.err(`revoked client ${id}`)
    if (unrecorded) throw unrecorded
    return 0
  }
  throw new UsageError(
    command
      ? `unknown command "client ${command}"${didYouMean(command, Object.keys(CLIENT_USAGE))}`
      : 'a client command is needed',
    Object.values(CLIENT_USAGE).join('\n'),
  )
}
