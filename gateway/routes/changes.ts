/**
 * GET /api/changes: the change feed. The first page is the build's
 * pre-rendered file; `?since=<cursor>` and `?limit=` are rendered here from
 * the build's change log with the same renderer, and cached per build. A
 * multilingual build has a feed per locale, chosen by `?locale=` alone
 * (never Accept-Language: a client's cursor must keep reading one feed), with
 * its own log, first page and cursors.
 */
import { defineHandler } from 'h3'
import {
  CHANGE_LOG_FILE,
  CHANGE_LOG_FORMAT,
  CHANGES_FILE,
  changesHref,
  isFirstChangesPage,
  parseChangesQuery,
  renderChanges,
  type ChangeLog,
} from '../../contract/changes.ts'
import { CACHE, JSON_TYPE } from '../../contract/headers.ts'
import { localeChangeLogFile, localeChangesFile } from '../../contract/paths.ts'
import type { ArtifactStore, Snapshot } from '../artifacts.ts'
import { isMultilingual, localesOf, recordsBySlug } from '../content/locales.ts'
import { MemoKey } from '../snapshot.ts'
import { unavailable } from '../http/problem.ts'
import { respondWithFile } from '../http/respond.ts'
import { invalidParameters, JSON_TYPE_NAME, readSnapshot } from './read.ts'

/** `now`: the gateway's clock, which caps Cache-Control at the build's next release or expiry. */
export function changesRoute(store: ArtifactStore, now: () => Date) {
  return defineHandler((event) => {
    const snapshot = readSnapshot(event, store)
    const build = { snapshot, now: now().getTime() }
    const multilingual = isMultilingual(snapshot)
    const parsed = parseChangesQuery(event.url.searchParams, multilingual ? localesOf(snapshot) : undefined)
    if (!parsed.ok) throw invalidParameters(parsed.errors)
    const { query } = parsed
    const { locale } = query
    const options = {
      contentType: JSON_TYPE,
      cacheControl: CACHE.content,
      // The feed's locale, as the lists say theirs; never a Vary: Accept-Language does not choose it.
      ...(multilingual && { headers: { 'content-language': locale ?? localesOf(snapshot).default } }),
      build,
      memo: { accept: JSON_TYPE_NAME },
    }
    const first = isFirstChangesPage(query)
      ? snapshot.file(locale === undefined ? CHANGES_FILE : localeChangesFile(locale))
      : undefined
    if (first) return respondWithFile(event, first, options)
    return changeLog(snapshot, locale).then((log) => {
      const file = snapshot.rendered(changesHref(query), () => ({
        body: renderChanges(
          log,
          (c, slug) => recordsBySlug(snapshot, c, locale).get(slug),
          query,
          multilingual ? localesOf(snapshot).default : undefined,
        ),
      }))
      return respondWithFile(event, file, options)
    })
  })
}

/** One memo per log file (the default's and each locale's): a few keys for the process. */
const CHANGE_LOGS = new Map<string, MemoKey<Promise<ChangeLog>>>()

/**
 * The build's change log of a locale (undefined: the default's), read and parsed once per
 * snapshot; 503 for a build without one (or whose file is gone).
 */
export function changeLog(snapshot: Snapshot, locale: string | undefined): Promise<ChangeLog> {
  const file = locale === undefined ? CHANGE_LOG_FILE : localeChangeLogFile(locale)
  let key = CHANGE_LOGS.get(file)
  if (!key) CHANGE_LOGS.set(file, (key = new MemoKey(`change log ${file}`)))
  // A failed read may succeed later (a transient error): it is not remembered.
  return snapshot.load(key, () => parseChangeLog(snapshot, file))
}

async function parseChangeLog(snapshot: Snapshot, path: string): Promise<ChangeLog> {
  const found = snapshot.file(path)
  const file = found && (await Promise.resolve(found).catch(() => undefined))
  const log = file ? (JSON.parse(file.body.toString('utf8')) as ChangeLog) : undefined
  if (log?.format !== CHANGE_LOG_FORMAT || !Array.isArray(log.changes))
    throw unavailable(`This build has no change log (${path}); rebuild with \`npm run build\`.`)
  return log
}
