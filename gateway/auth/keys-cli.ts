#!/usr/bin/env node
/**
 * `npm run keys -- <command>`: manage API keys, the embedded authorization
 * server's machine clients and the people who sign in to it. A new key or
 * secret is printed once, on stdout; only its SHA-256 hash is stored (a
 * password only as its scrypt hash).
 *
 *   create --role <role> --label <text> [--expires <date|30d>]
 *   list
 *   revoke <key id>
 *   client create --id <client id> --scopes "<scope> …" --label <text>
 *   client list
 *   client revoke <client id>
 *   user create --email <email> --name <name> --password-stdin [--scopes "<scope> …"]
 *   user list
 *   user disable <person id>
 *   signing-key            print a new private JWK for OAUTH_SIGNING_KEY
 *   webhook …              webhook subscriptions (gateway/webhooks/cli.ts)
 *
 * Files: KEYS_FILE (default gateway/auth/keys.json) and OAUTH_CLIENTS_FILE
 * (default gateway/auth/issuer/clients.json), or --file; people live in the
 * state store (OAUTH_STORE, OAUTH_STORE_DIR; see store/open-store.ts).
 */
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { exportJWK, generateKeyPair } from 'jose'
import { generateApiKey, hashApiKey } from './api-key.ts'
import { SIGNING_ALG } from './issuer/signing-key.ts'
import {
  clientsFilePath,
  generateClientSecret,
  hashClientSecret,
  readClientsFile,
  writeClientsFile,
} from './issuer/clients-file.ts'
import { keysFilePath, newKeyId, readKeysFile, writeKeysFile } from './keys-file.ts'
import { isRole, isScope, ROLE_NAMES, SCOPE_NAMES } from '../../contract/scopes.ts'
import { userCommand, USER_USAGE } from './people/people-cli.ts'
import { webhookCommand } from '../webhooks/cli.ts'
import type { CliIo } from './cli-io.ts'
import { report } from '../../contract/cli.ts'
import { UsageError } from '../../contract/errors.ts'
import { readSettings, type Settings } from '../../contract/settings.ts'

export async function runKeysCli(argv: string[], io: CliIo): Promise<number> {
  if (argv[0] === 'webhook') return webhookCommand(argv.slice(1), io)
  try {
    const settings = readSettings(io.env, 'cli')
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
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
      },
    })
    const now = io.now?.() ?? new Date()
    const [command, ...rest] = positionals
    if (command === 'client') return await clientCommand(rest, values, io, now, settings)
    if (command === 'user') return await userCommand(rest, values, io, settings)
    if (command === 'signing-key') {
      const { privateKey } = await generateKeyPair(SIGNING_ALG, { extractable: true })
      io.err('a new ES256 private key; store it as the OAUTH_SIGNING_KEY secret of every gateway process:')
      io.out(JSON.stringify(await exportJWK(privateKey)))
      return 0
    }
    const file = values.file ? resolve(io.cwd, values.file) : keysFilePath(settings, io.cwd)
    if (command === 'create') {
      const role = values.role ?? ''
      if (!isRole(role)) throw new UsageError(`--role must be one of: ${ROLE_NAMES.join(', ')}`)
      const label = required(values.label, '--label')
      const expires = values.expires === undefined ? null : parseExpiry(values.expires, now)
      const keys = await readKeysFile(file)
      const key = generateApiKey(role === 'sandbox.read' ? 'sandbox' : 'live')
      const id = newKeyId()
      keys.keys.push({
        id,
        hash: hashApiKey(key),
        role,
        label,
        created_at: now.toISOString(),
        expires_at: expires,
        revoked_at: null,
      })
      await writeKeysFile(file, keys)
      io.err(`created ${id} (${role}${expires ? `, expires ${expires}` : ''}) in ${file}; the key is shown only now:`)
      io.out(key)
      return 0
    }
    if (command === 'list') {
      for (const k of (await readKeysFile(file)).keys) {
        const state = k.revoked_at
          ? `revoked ${k.revoked_at}`
          : k.expires_at && Date.parse(k.expires_at) <= now.getTime()
            ? `expired ${k.expires_at}`
            : k.expires_at
              ? `expires ${k.expires_at}`
              : 'active'
        io.out(`${k.id}\t${k.role}\t${state}\t${k.label}`)
      }
      return 0
    }
    if (command === 'revoke') {
      const id = required(rest[0], 'a key id')
      const keys = await readKeysFile(file)
      const entry = keys.keys.find((k) => k.id === id)
      if (!entry) throw new UsageError(`no key with id ${id} in ${file}`)
      entry.revoked_at ??= now.toISOString()
      await writeKeysFile(file, keys)
      io.err(`revoked ${id}`)
      return 0
    }
    throw new UsageError(
      `usage: keys create --role <role> --label <text> [--expires <date|30d>] | list | revoke <id> | client create|list|revoke | user create|list|disable | signing-key\n${USER_USAGE}`,
    )
  } catch (error) {
    // parseArgs refuses unknown options with a TypeError: a usage error like ours.
    const parse = (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS_')
    return report(parse ? new UsageError((error as Error).message) : error, io.err)
  }
}

async function clientCommand(
  rest: string[],
  values: { id?: string; scopes?: string; label?: string; file?: string },
  io: CliIo,
  now: Date,
  settings: Settings,
): Promise<number> {
  const file = values.file ? resolve(io.cwd, values.file) : clientsFilePath(settings, io.cwd)
  const [command, arg] = rest
  const clients = await readClientsFile(file)
  if (command === 'create') {
    const id = required(values.id, '--id')
    if (!/^[A-Za-z0-9._-]{3,64}$/.test(id))
      throw new UsageError('--id must be 3 to 64 letters, digits, ".", "_" or "-"')
    if (id.startsWith('reg_'))
      throw new UsageError('--id must not start with "reg_", which marks self-registered clients')
    if (clients.clients.some((c) => c.client_id === id)) throw new UsageError(`client ${id} already exists`)
    const scopes = required(values.scopes, '--scopes')
      .split(/[\s,]+/)
      .filter(Boolean)
    const unknown = scopes.filter((s) => !isScope(s))
    if (unknown.length || !scopes.length)
      throw new UsageError(`unknown scope ${unknown.join(' ')}; scopes are: ${SCOPE_NAMES.join(' ')}`)
    const secret = generateClientSecret()
    clients.clients.push({
      client_id: id,
      secret_hash: hashClientSecret(secret),
      scopes: scopes.filter(isScope),
      label: required(values.label, '--label'),
      created_at: now.toISOString(),
      revoked_at: null,
    })
    await writeClientsFile(file, clients)
    io.err(`created client ${id} (${scopes.join(' ')}) in ${file}; the secret is shown only now:`)
    io.out(secret)
    return 0
  }
  if (command === 'list') {
    for (const c of clients.clients)
      io.out(
        `${c.client_id}\t${c.revoked_at ? `revoked ${c.revoked_at}` : 'active'}\t${c.scopes.join(' ')}\t${c.label}`,
      )
    return 0
  }
  if (command === 'revoke') {
    const id = required(arg, 'a client id')
    const entry = clients.clients.find((c) => c.client_id === id)
    if (!entry) throw new UsageError(`no client ${id} in ${file}`)
    entry.revoked_at ??= now.toISOString()
    await writeClientsFile(file, clients)
    io.err(`revoked client ${id}`)
    return 0
  }
  throw new UsageError(
    'usage: keys client create --id <id> --scopes "<scope> …" --label <text> | client list | client revoke <id>',
  )
}

function required(value: string | undefined, name: string): string {
  if (!value) throw new UsageError(`${name} is required`)
  return value
}

/** An RFC 3339 date-time, a date (midnight UTC), or a number of days from now (`30d`). */
function parseExpiry(value: string, now: Date): string {
  const days = /^(\d{1,4})d$/.exec(value)
  const date = days
    ? new Date(now.getTime() + Number(days[1]) * 86_400_000)
    : new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value)
  if (Number.isNaN(date.getTime()))
    throw new UsageError(`--expires must be a date, a date-time or a number of days like 30d, got "${value}"`)
  return date.toISOString()
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const code = await runKeysCli(process.argv.slice(2), {
    env: process.env,
    cwd: process.cwd(),
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    stdin: async () => {
      const chunks: Buffer[] = []
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
      return Buffer.concat(chunks).toString('utf8')
    },
  })
  process.exitCode = code
}
