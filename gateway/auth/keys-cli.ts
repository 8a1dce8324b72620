#!/usr/bin/env node
/**
 * `npm run keys -- <command>`: manage API keys, the embedded authorization
 * server's machine clients and the people who sign in to it (USAGE below). A
 * new key or secret is printed once, on stdout; only its SHA-256 hash is
 * stored (a password only as its scrypt hash). They are runtime data
 * (gateway/auth/runtime-data.ts): files under the git-ignored gateway/.data/,
 * or a Netlify site's Blobs. `--help` (`-h`) after any command says its usage.
 */
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { exportJWK, generateKeyPair } from 'jose'
import { AUDIT_USAGE, auditCommand } from './audit/audit-cli.ts'
import { cliOrigin, openAuditTrail } from './audit/audit-trail.ts'
import { SIGNING_ALG } from './issuer/signing-key.ts'
import { CLIENT_USAGE, clientCommand } from './issuer/clients-cli.ts'
import { createKey, KEY_USAGE, listKeys, revokeKey, type KeyCommandContext } from './key-commands.ts'
import { keysDocument } from './keys-file.ts'
import { dataLocations } from './runtime-data.ts'
import { openStateStore, storeSettingsFrom } from './store/open-store.ts'
import { MOVE_USAGE, moveCommand } from './store/move-cli.ts'
import { closeRedisConnections } from './store/redis-connection.ts'
import type { StateStore } from './store/state-store.ts'
import { ROLE_NAMES } from '../../contract/scopes.ts'
import { userCommand, USER_USAGE } from './people/people-cli.ts'
import { webhookCommand } from '../webhooks/cli.ts'
import { PREVIEW_LINK_USAGE, previewLinkCommand } from '../preview/link-commands.ts'
import { processIo, type CliIo } from './cli-io.ts'
import { report } from '../../contract/cli.ts'
import { defineCommand, didYouMean, parseCommand } from '../../contract/cli-args.ts'
import { UsageError } from '../../contract/errors.ts'
import { deprecations, readSettings } from '../../contract/settings.ts'

const SIGNING_KEY_USAGE = 'usage: npm run keys -- signing-key   (prints a new private JWK for OAUTH_SIGNING_KEY)'

export const USAGE = `usage: npm run keys -- <command> [options]   (--help after a command for its usage)

API keys (stored as SHA-256 hashes; a new key is shown once):
  create --role <${ROLE_NAMES.join('|')}> --label <text> [--expires <90d|2027-06-30>]
  list
  revoke <key id>
Machine clients of the embedded authorization server (client_credentials):
  client create --id <client id> --scopes "<scope> …" --label <text>
  client list
  client revoke <client id>
People who sign in to it (the password from stdin, stored as a scrypt hash):
  user create --email <email> --name <name> --password-stdin [--scopes "<scope> …"]
  user list
  user disable <person id>
Share links for reviewers without an account (one item and its translations, drafts included; stored as hashes):
  preview-link <collection>/<slug> --expires <72h|7d|2027-06-30> [--root <project>]
  preview-link list
  preview-link revoke <link id or link>
signing-key   print a new private JWK for OAUTH_SIGNING_KEY
webhook …     webhook subscriptions: \`npm run keys -- webhook --help\`
audit [--type <key|client|user|webhook>] [--id <id>] [--since <7d|2026-11-01>] [--limit <n>] [--json]
              who created, revoked or rotated what, and when (newest first)
Runtime data (all of it: keys, clients, people, webhooks, authorizations, the audit trail):
  migrate --from <files|netlify-blobs|redis> --to <files|netlify-blobs|redis>
  export <file>   one JSON file (secrets stay hashed or sealed)
  import <file>

Keys and clients live in KEYS_FILE and OAUTH_CLIENTS_FILE (default gateway/.data/, git-ignored), or
--file <path>; with STATE_STORE=netlify-blobs and NETLIFY_SITE_ID and NETLIFY_AUTH_TOKEN, in that
Netlify site's Blobs, where the deployed gateway reads them; with STATE_STORE=redis, in REDIS_URL's Redis. People, webhooks and the audit trail live
in the store (STATE_STORE).`

/** The usage `--help` asks for: the command's, else the whole. */
function usageOf(command: string | undefined, sub: string | undefined): string {
  if (command === 'client')
    return CLIENT_USAGE[sub as keyof typeof CLIENT_USAGE] ?? Object.values(CLIENT_USAGE).join('\n')
  if (command === 'user') return USER_USAGE
  if (command === 'signing-key') return SIGNING_KEY_USAGE
  if (command === 'preview-link') return PREVIEW_LINK_USAGE
  if (command === 'audit') return AUDIT_USAGE
  if (command === 'migrate' || command === 'export' || command === 'import') return MOVE_USAGE[command]
  return KEY_USAGE[command as keyof typeof KEY_USAGE] ?? USAGE
}

/** Every option of every command (their usages above say which takes which). */
const KEYS = defineCommand({
  name: 'npm run keys',
  summary: 'API keys, machine clients and people of the embedded authorization server.',
  operands: '<command>',
  positionals: 3,
  options: {
    role: { type: 'string' },
    label: { type: 'string' },
    expires: { type: 'string' },
    id: { type: 'string' },
    scopes: { type: 'string' },
    file: { type: 'string' },
    email: { type: 'string' },
    name: { type: 'string' },
    'password-stdin': { type: 'boolean' },
    type: { type: 'string' },
    since: { type: 'string' },
    limit: { type: 'string' },
    json: { type: 'boolean' },
    from: { type: 'string' },
    to: { type: 'string' },
    root: { type: 'string' },
  },
})

export async function runKeysCli(argv: string[], io: CliIo): Promise<number> {
  for (const line of deprecations(io.env)) io.err(`! ${line}`)
  if (argv[0] === 'webhook') return webhookCommand(argv.slice(1), io)
  try {
    const { help, values, positionals } = parseCommand(KEYS, argv)
    const [command, ...rest] = positionals
    if (help || command === 'help') {
      io.out(command === 'help' ? USAGE : usageOf(command, rest[0]))
      return 0
    }
    const settings = readSettings(io.env, 'cli')
    const now = io.now?.() ?? new Date()
    let store: StateStore | undefined
    const openStore = () => (store ??= openStateStore(storeSettingsFrom(settings, io.cwd)))
    if (command === 'client') return await clientCommand(rest, values, io, now, settings, openStore)
    if (command === 'user') return await userCommand(rest, values, io, settings)
    if (command === 'signing-key') {
      const { privateKey } = await generateKeyPair(SIGNING_ALG, { extractable: true })
      io.err('a new ES256 private key; store it as the OAUTH_SIGNING_KEY secret of every gateway process:')
      io.out(JSON.stringify(await exportJWK(privateKey)))
      return 0
    }
    if (command === 'audit') return await auditCommand(values, io, openStore(), now)
    if (command === 'preview-link')
      return await previewLinkCommand(rest, values, {
        io,
        now,
        settings,
        store: openStore,
        audit: () => openAuditTrail(openStore(), cliOrigin(), () => io.now?.() ?? new Date()),
      })
    if (command === 'migrate' || command === 'export' || command === 'import')
      return await moveCommand(command, rest, values, io, settings)
    const context: KeyCommandContext = {
      keys: keysDocument(values.file ? resolve(io.cwd, values.file) : dataLocations(settings, io.cwd).keys, openStore),
      audit: () => openAuditTrail(openStore(), cliOrigin(), () => io.now?.() ?? new Date()),
      io,
      now,
    }
    if (command === 'create') return await createKey(values, context)
    if (command === 'list') return await listKeys(context)
    if (command === 'revoke') return await revokeKey(rest[0], context)
    const commands = [
      'create',
      'list',
      'revoke',
      'client',
      'user',
      'signing-key',
      'preview-link',
      'webhook',
      'audit',
      'migrate',
      'export',
      'import',
    ]
    throw new UsageError(
      command ? `unknown command "${command}"${didYouMean(command, commands)}` : 'a command is needed',
      USAGE,
    )
  } catch (error) {
    return report(error, io.err)
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = await runKeysCli(process.argv.slice(2), processIo())
  // A Redis connection keeps the process alive: the command is done with it.
  await closeRedisConnections()
}
