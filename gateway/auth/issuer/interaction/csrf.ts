/**
 * Cross-site request forgery on the sign-in and consent forms is refused
 * three ways: the interaction cookie is SameSite=Lax (a cross-site POST
 * arrives without it, so no interaction is found); each form carries a
 * token bound to its interaction, an HMAC no other site can compute; and a
 * browser's Origin / Sec-Fetch-Site must say the form came from here.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'

export function csrfToken(key: Buffer, interactionUid: string): string {
  return createHmac('sha256', key).update(`interaction:${interactionUid}`).digest('base64url')
}

export function validCsrfToken(key: Buffer, interactionUid: string, presented: string | null): boolean {
  if (!presented) return false
  const expected = Buffer.from(csrfToken(key, interactionUid))
  const actual = Buffer.from(presented)
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}

/** Why the request did not come from our own page, or undefined when it may have. */
export function crossSiteProblem(headers: Headers, publicOrigin: string): string | undefined {
  const site = headers.get('sec-fetch-site')
  if (site && site !== 'same-origin')
    return `the form was sent from another site (Sec-Fetch-Site: ${site.slice(0, 40)})`
  const origin = headers.get('origin')
  if (origin && origin !== publicOrigin) return `the form was sent from another origin (${origin.slice(0, 200)})`
  return undefined
}
