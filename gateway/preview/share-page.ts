/**
 * GET /review/{token}: a share link's page (share-links.ts). Read-only HTML
 * of one item as the API renders it (its body's HTML as published, its
 * fields), with its state and release time, and its translations a click
 * away (`?locale=`). No credential: the token is the credential, so the page
 * is indexed by no search engine, sent on to no other site and kept by no
 * cache. A revoked or expired link is a 410 page that says which; a token no
 * link has, a 404 page.
 */
import { defineHandler, type EventHandler, type H3Event } from 'h3'
import { FastResponse } from 'srvx'
import { baseHeaderRecord } from '../../contract/headers.ts'
import { escapeHtml, page } from '../../contract/html.ts'
import { PREVIEW_CACHE, PREVIEW_HEADERS, type PreviewEntry } from '../../contract/preview.ts'
import type { ArtifactStore } from '../artifacts.ts'
import { requestIdOf } from '../http/request-id.ts'
import { currentSnapshot } from '../routes/read.ts'
import type { PreviewSource } from './artifact.ts'
import { image, STYLE } from './pages.ts'
import type { ShareLinks } from './share-links.ts'

/** The body's images from wherever they are hosted; no script at all. */
const SHARE_CSP =
  "default-src 'none'; img-src https: data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

const HIDDEN = new Set(['title', 'body', 'image', 'social_image', 'related', 'toc', 'translations'])

export function reviewRoute(deps: { store: ArtifactStore; source: PreviewSource; links: ShareLinks }): EventHandler {
  return defineHandler(async (event) => {
    const token = event.context.params?.token ?? ''
    const found = await deps.links.open(token)
    if (!found.ok) {
      if (found.reason === 'unknown')
        return html(
          event,
          404,
          'Link not found',
          '<h1>This link does not exist</h1><p>Check that it was copied whole, or ask for a new one.</p>',
        )
      const { link } = found
      const when = found.reason === 'revoked' ? link.revoked_at! : link.expires_at
      const what = found.reason === 'revoked' ? 'was revoked' : 'expired'
      return html(
        event,
        410,
        `Link ${found.reason}`,
        `<h1>This review link ${what}</h1><p>It ${what} on <time datetime="${escapeHtml(when)}">${escapeHtml(when)}</time>. Ask whoever sent it for a new one.</p>`,
      )
    }
    const preview = await deps.source.of(currentSnapshot(deps.store))
    const entries = preview.itemEntries(found.link.item)
    const wanted = event.url.searchParams.get('locale')
    const entry = entries.find((e) => e.locale === wanted) ?? entries[0]
    if (!entry)
      return html(
        event,
        404,
        'Item not found',
        '<h1>This item is no longer in the content</h1><p>It was deleted or renamed since the link was made.</p>',
      )
    return html(event, 200, entry.record.title, itemHtml(entry, entries, token))
  })
}

function html(event: H3Event, status: number, title: string, main: string): Response {
  const headers = baseHeaderRecord(requestIdOf(event), 'text/html; charset=utf-8', PREVIEW_CACHE)
  Object.assign(headers, PREVIEW_HEADERS)
  headers['content-security-policy'] = SHARE_CSP
  headers['x-robots-tag'] = 'noindex, nofollow'
  headers['referrer-policy'] = 'no-referrer'
  const body = page(
    `${title} — review`,
    `<main>\n${main}\n</main>`,
    `${STYLE}<meta name="robots" content="noindex, nofollow"><meta name="referrer" content="no-referrer">\n`,
  )
  return new FastResponse(event.req.method === 'HEAD' ? null : body, { status, headers })
}

function stateBadge(entry: PreviewEntry): string {
  const at = (iso: string) => `<time datetime="${escapeHtml(iso)}">${escapeHtml(iso)}</time>`
  if (entry.state === 'draft') return '<span class="draft">draft: not published</span>'
  if (entry.state === 'scheduled') return `<span class="scheduled">scheduled: publishes ${at(entry.release_at!)}</span>`
  if (entry.state === 'expired') return `<span class="expired">expired ${at(entry.expired_at ?? '')}</span>`
  return '<span class="locale">published</span>'
}

function itemHtml(entry: PreviewEntry, entries: readonly PreviewEntry[], token: string): string {
  const { record } = entry
  const rows = Object.entries(record)
    .filter(([key, value]) => !HIDDEN.has(key) && value !== null && !(Array.isArray(value) && value.length === 0))
    .map(
      ([key, value]) =>
        `<dt>${escapeHtml(key)}</dt><dd>${escapeHtml(typeof value === 'string' || typeof value === 'number' ? String(value) : JSON.stringify(value))}</dd>`,
    )
  const state = `<dt>state</dt><dd>${escapeHtml(entry.state)}</dd>${entry.release_at ? `<dt>release_at</dt><dd>${escapeHtml(entry.release_at)}</dd>` : ''}`
  const locales =
    entries.length > 1
      ? `<nav aria-label="Translations">${entries
          .map((e) =>
            e === entry
              ? `<strong>${escapeHtml(e.locale)}</strong>`
              : `<a href="./${escapeHtml(token)}?locale=${encodeURIComponent(e.locale)}">${escapeHtml(e.locale)}</a>`,
          )
          .join(' · ')}</nav>`
      : ''
  return `<p><small>A preview for review, shared by a link: read-only, not public.</small></p>
${locales}
<article>
<h1>${escapeHtml(record.title)} ${stateBadge(entry)}</h1>
<dl class="meta">${state}${rows.join('')}</dl>
${image(record)}
<div class="body">
${record.body.html}
</div>
</article>`
}
