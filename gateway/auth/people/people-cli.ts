/**
 * `npm run keys -- user …`: the people who may sign in to the embedded
 * authorization server. The password is read from stdin (never an
 * argument: those end up in shell history and process lists) and only its
 * scrypt hash is stored, in the state store the gateway uses (STATE_STORE).
 *
 *   user create --email <email> --name <name> --password-stdin [--scopes "<scope> …"]
 *   user list
 *   user disable <id>
 */
import { FIXED_SCOPES, isScope, type Scope } from '../../../contract/scopes.ts'
import { openStateStore, storeSettingsFrom } from '../store/open-store.ts'
import { cliOrigin, openAuditTrail } from '../audit/audit-trail.ts'
import { openPeople } from './people.ts'
import { didYouMean } from '../../../contract/cli-args.ts'
import { UsageError } from '../../../contract/errors.ts'
import type { Settings } from '../../../contract/settings.ts'
import type { CliIo } from '../cli-io.ts'

export interface UserCliOptions {
  email?: string | undefined
  name?: string | undefined
  scopes?: string | undefined
  'password-stdin'?: boolean | undefined
}

export const USER_USAGE =
  'usage: npm run keys -- user create --email <email> --name <name> --password-stdin [--scopes "<scope> …"]\n       npm run keys -- user list\n       npm run keys -- user disable <person id>'

export async function userCommand(
  rest: string[],
  options: UserCliOptions,
  io: CliIo,
  settings: Settings,
): Promise<number> {
  const [command, arg] = rest
  // A mistyped command is answered before any store is opened (a Redis one would connect first).
  if (command === undefined) throw new UsageError(USER_USAGE)
  if (!USER_COMMANDS.includes(command))
    throw new UsageError(`unknown command "user ${command}"${didYouMean(command, USER_COMMANDS)}`, USER_USAGE)
  const store = openStateStore(storeSettingsFrom(settings, io.cwd))
  const people = openPeople(store)
  const now = io.now?.() ?? new Date()
  const audit = () => openAuditTrail(store, cliOrigin(), () => io.now?.() ?? new Date())
  if (command === 'create') {
    if (!options.email) throw new UsageError('--email is required')
    if (!options.name) throw new UsageError('--name is required')
    if (!options['password-stdin'] || !io.stdin)
      throw new UsageError('--password-stdin is required: pipe the password in (it is never taken as an argument)')
    const password = (await io.stdin()).replace(/\r?\n$/, '')
    const scopes = parseScopes(options.scopes)
    const person = await people.create({ email: options.email, name: options.name, password, scopes }, now)
    const unrecorded = await audit().record('create', 'user', person.id, {
      email: person.email,
      scopes: person.scopes.join(' '),
    })
    io.err(`created ${person.id} (${person.email}, scopes: ${person.scopes.join(' ') || 'none'}) in ${store.location}`)
    io.out(person.id)
    if (unrecorded) throw unrecorded
    return 0
  }
  if (command === 'list') {
    for (const p of await people.list())
      io.out(
        `${p.id}\t${p.email}\t${p.disabled_at ? `disabled ${p.disabled_at}` : 'active'}\t${p.scopes.join(' ')}\t${p.name}`,
      )
    return 0
  }
  if (command === 'disable') {
    if (!arg) throw new UsageError('a person id is required')
    const person = await people.disable(arg, now)
    const unrecorded = await audit().record('disable', 'user', person.id)
    io.err(
      `disabled ${person.id} (${person.email}); they can no longer sign in or refresh tokens, and access tokens already issued expire within the token lifetime`,
    )
    if (unrecorded) throw unrecorded
    return 0
  }
  throw new UsageError(USER_USAGE)
}

const USER_COMMANDS = ['create', 'list', 'disable']

/**
 * Every fixed scope but the preview's unless given (`api.read` lets a person grant each collection's
 * scope too): drafts are shown to a reviewer named as one (`--scopes "… content.preview.read"`).
 */
function parseScopes(value: string | undefined): Scope[] {
  if (value === undefined) return FIXED_SCOPES.filter((s) => s !== 'content.preview.read')
  const scopes = value.split(/[\s,]+/).filter(Boolean)
  const unknown = scopes.filter((s) => !isScope(s))
  if (unknown.length)
    throw new UsageError(
      `unknown scope ${unknown.join(' ')}; scopes are: ${FIXED_SCOPES.join(' ')} and content.<collection>.read`,
    )
  return scopes.filter(isScope)
}
