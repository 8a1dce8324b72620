/**
 * `npm run keys -- migrate|export|import`: move every piece of runtime data
 * (runtime-move.ts) from one store to another, or to one JSON file and back.
 * Each side is read from the same settings the gateway reads: `files` from
 * OAUTH_STORE_DIR, KEYS_FILE and OAUTH_CLIENTS_FILE, `redis` from REDIS_URL
 * and REDIS_KEY_PREFIX, `netlify-blobs` from NETLIFY_SITE_ID and
 * NETLIFY_AUTH_TOKEN; export and import use STATE_STORE's. Run it while no
 * gateway writes (a maintenance window): what is written meanwhile on the
 * source may be missed.
 *
 *   migrate --from <files|netlify-blobs|redis> --to <files|netlify-blobs|redis>
 *   export <file>     (mode 0600: hashes, and webhook secrets sealed with WEBHOOK_SECRETS_KEY)
 *   import <file>
 */
import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { z } from 'zod'
import { AppError, UsageError } from '../../../contract/errors.ts'
import { SETTINGS, type Settings } from '../../../contract/settings.ts'
import type { CliIo } from '../cli-io.ts'
import { dataLocations } from '../runtime-data.ts'
import { writeDurably } from './durable-file.ts'
import { openStateStore, storeSettingsFrom } from './open-store.ts'
import { countsOf, readRuntimeData, writeRuntimeData, type RuntimeData } from './runtime-move.ts'

export const MOVE_USAGE = {
  migrate:
    'usage: npm run keys -- migrate --from <files|netlify-blobs|redis> --to <files|netlify-blobs|redis>\n       (each side from its settings: OAUTH_STORE_DIR, KEYS_FILE, OAUTH_CLIENTS_FILE; REDIS_URL; NETLIFY_SITE_ID)',
  export: 'usage: npm run keys -- export <file>   (every record of STATE_STORE, as one JSON file, mode 0600)',
  import: 'usage: npm run keys -- import <file>   (a file of `keys export`, into STATE_STORE)',
} as const

type StoreKind = Settings['STATE_STORE']
const KINDS = ['files', 'netlify-blobs', 'redis'] as const satisfies readonly StoreKind[]
const FORMAT = 'content-api-runtime-data'

const ExportFile = z.strictObject({
  format: z.literal(FORMAT),
  version: z.literal(1),
  exported_at: z.iso.datetime({ offset: true }),
  from: z.enum(KINDS),
  records: z.array(
    z.strictObject({
      key: z.string().min(1).max(512),
      value: z.unknown(),
      expires_at: z.number().int().positive().optional(),
    }),
  ),
})

export class ExportFileError extends AppError {
  readonly code = 'EXPORT_FILE_INVALID'
}

/** One side of a move: the store of `kind` and its documents, as the settings place them. */
function sideOf(kind: StoreKind, settings: Settings, cwd: string): RuntimeData {
  if (kind === 'redis' && settings.REDIS_URL === undefined)
    throw new UsageError('REDIS_URL must be set for the redis side: it names the Redis (redis://host:6379)')
  const these = { ...settings, STATE_STORE: kind }
  const store = openStateStore(storeSettingsFrom(these, cwd))
  return { name: kind, store, ...dataLocations(these, cwd) }
}

const kindOption = (value: string | undefined, name: string): StoreKind => {
  if (!value || !(KINDS as readonly string[]).includes(value))
    throw new UsageError(`${name} must be ${SETTINGS.STATE_STORE.accepts}`, MOVE_USAGE.migrate)
  return value as StoreKind
}

export interface MoveOptions {
  from?: string | undefined
  to?: string | undefined
}

export async function moveCommand(
  command: keyof typeof MOVE_USAGE,
  rest: string[],
  options: MoveOptions,
  io: CliIo,
  settings: Settings,
): Promise<number> {
  const now = io.now?.().getTime() ?? Date.now()
  if (command === 'migrate') {
    const from = kindOption(options.from, '--from')
    const to = kindOption(options.to, '--to')
    if (from === to) throw new UsageError('--from and --to must name two different stores', MOVE_USAGE.migrate)
    const source = sideOf(from, settings, io.cwd)
    const target = sideOf(to, settings, io.cwd)
    const records = await readRuntimeData(source)
    const written = await writeRuntimeData(target, records, now)
    io.err(
      `✓ moved ${written} records (${countsOf(records)}) from ${source.store.location} to ${target.store.location}`,
    )
    return 0
  }
  const file = rest[0]
  if (!file) throw new UsageError('a file is needed', MOVE_USAGE[command])
  const path = resolve(io.cwd, file)
  const side = sideOf(settings.STATE_STORE, settings, io.cwd)
  if (command === 'export') {
    const records = await readRuntimeData(side)
    const body = {
      format: FORMAT,
      version: 1,
      exported_at: new Date(now).toISOString(),
      from: settings.STATE_STORE,
      records,
    }
    await writeDurably(path, `${JSON.stringify(body, null, 1)}\n`)
    io.err(`✓ exported ${records.length} records (${countsOf(records)}) from ${side.store.location} to ${file}`)
    return 0
  }
  const parsed = ExportFile.safeParse(await readJson(path, file))
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw new ExportFileError(
      `${file} is not a file of \`keys export\`: ${issue.path.join('.') || '(root)'}: ${issue.message}`,
    )
  }
  const written = await writeRuntimeData(side, parsed.data.records, now)
  io.err(
    `✓ imported ${written} records (${countsOf(parsed.data.records)}) from ${file} into ${side.store.location}${written < parsed.data.records.length ? `; ${parsed.data.records.length - written} had expired` : ''}`,
  )
  return 0
}

async function readJson(path: string, shown: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as unknown
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') throw new ExportFileError(`${shown} does not exist`)
    if (error instanceof SyntaxError) throw new ExportFileError(`${shown} is not JSON: ${error.message}`)
    throw error
  }
}
