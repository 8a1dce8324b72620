/**
 * Scheduled publishing for sites that deploy from CI (.github/workflows/ci.yml):
 * is the live build's next release or expiry (`build.next_release_at` of its
 * /api/health) past? Prints the answer and, under GitHub Actions, writes
 * `due=true` or `due=false` to $GITHUB_OUTPUT for the deploy job. Self-contained
 * (no dependency, plain Node 22 or later strips the types), so the check every few
 * minutes needs no `npm ci`.
 *
 * The site is the URL given, else `api_url` of content/site.yaml.
 *
 * @example node build/ci/schedule-due.ts https://content.example.com
 */
import { appendFileSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

const TIMEOUT_MS = 15_000

/**
 * Whether the release is due, and why, for the site at `site` as of `now`
 * (ms). `unread`: the health document could not be read or made no sense, so
 * nothing was compared (the run says so as a warning: a site that never
 * answers would otherwise never release).
 */
export async function scheduleDue(
  site: string,
  now = Date.now(),
): Promise<{ due: boolean; why: string; unread?: true }> {
  const url = `${site.replace(/\/+$/, '')}/api/health`
  let body: { build?: { id?: string; next_release_at?: string | null } } | null
  try {
    const response = await fetch(url, {
      signal: AbortSignal.timeout(TIMEOUT_MS),
      headers: { accept: 'application/json' },
    })
    if (!response.ok) return { due: false, why: `${url} answered ${response.status}: nothing to compare`, unread: true }
    body = (await response.json()) as typeof body
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    return { due: false, why: `${url} could not be read (${reason})`, unread: true }
  }
  const next = body?.build?.next_release_at
  if (typeof body?.build !== 'object' || !(next === null || next === undefined || typeof next === 'string'))
    return { due: false, why: `${url} is not a health document (no build.next_release_at)`, unread: true }
  if (!next) return { due: false, why: `build ${body.build?.id ?? '?'} has nothing scheduled` }
  const at = Date.parse(next)
  if (Number.isNaN(at)) return { due: false, why: `next_release_at "${next}" is not a date-time`, unread: true }
  return at <= now
    ? { due: true, why: `build ${body.build?.id ?? '?'} is due for its release or expiry at ${next}` }
    : { due: false, why: `build ${body.build?.id ?? '?'} waits for ${next}` }
}

/** `api_url` of content/site.yaml (where the API is served), read without a YAML parser: one plain line. */
function apiUrlOf(root: string): string | undefined {
  const text = readFileSync(join(root, 'content', 'site.yaml'), 'utf8')
  return /^api_url:[ \t]*["']?(https?:\/\/[^\s"'#]+)["']?[ \t]*(?:#.*)?$/m.exec(text)?.[1]
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const site = process.argv[2] ?? apiUrlOf(process.cwd())
  const answer = site
    ? await scheduleDue(site)
    : { due: false, why: 'no URL given and content/site.yaml has no api_url: set it to where the API is served' }
  console.log(`${answer.due ? '✓ due' : '· not due'}: ${answer.why}`)
  const unread = !site || ('unread' in answer && answer.unread)
  if (unread && process.env.GITHUB_ACTIONS === 'true')
    console.log(`::warning title=Scheduled publishing::${answer.why}`)
  if (process.env.GITHUB_OUTPUT) appendFileSync(process.env.GITHUB_OUTPUT, `due=${answer.due}\n`)
}
