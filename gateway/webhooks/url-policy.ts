/**
 * Which webhook URLs may be called: https to public unicast addresses only,
 * so a subscription cannot make the gateway reach into the network it runs
 * in (SSRF): no loopback, private, link-local, carrier-grade NAT, multicast,
 * documentation or other special-purpose range (ipaddr.js names them), and no
 * IPv6 form of one (mapped, NAT64, 6to4, Teredo). A gateway listening on
 * loopback for development may also call http and https on loopback.
 *
 * The URL is checked when the subscription is made, and every address its
 * host resolves to is checked again at each delivery, inside the connection's
 * own DNS lookup (`guardedLookup`): the address checked is the address
 * connected to, so a name that resolves differently the second time (DNS
 * rebinding) gains nothing.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns'
import { isIP, type LookupFunction } from 'node:net'
import ipaddr from 'ipaddr.js'
import type { Settings } from '../../contract/settings.ts'
import { isLoopbackHostname } from '../mcp/origin-guard.ts'
import { WebhookError } from './errors.ts'

export const MAX_URL_LENGTH = 2000

export interface UrlPolicy {
  /** Development: the gateway listens on loopback, so loopback endpoints (http too) are allowed. */
  allowLoopback: boolean
}

/**
 * Development when nothing points elsewhere: a loopback HOST, no public URL
 * off this machine, and no remote Netlify site named (the keys CLI managing a
 * site's Blobs from a laptop makes production subscriptions). The Netlify
 * functions pass the site's URL as PUBLIC_URL when it is not set.
 *
 * On Netlify (a function, which LAMBDA_TASK_ROOT marks, or state in the
 * site's Blobs) the HOST default and a missing URL say nothing about where
 * the code runs, so they never open loopback: only Netlify's local emulation
 * does, which marks what runs in it with NETLIFY_LOCAL=true. Without it,
 * loopback is refused there like every private range, whatever else is unset.
 */
export function urlPolicyFrom(settings: {
  HOST: Settings['HOST']
  PUBLIC_URL?: string | undefined
  NETLIFY_SITE_ID?: string | undefined
  STATE_STORE?: Settings['STATE_STORE']
  LAMBDA_TASK_ROOT?: string | undefined
  NETLIFY_LOCAL?: boolean
}): UrlPolicy {
  const publicHost = settings.PUBLIC_URL ? new URL(settings.PUBLIC_URL).hostname.replace(/^\[|\]$/g, '') : undefined
  const thisMachine =
    settings.NETLIFY_SITE_ID === undefined &&
    isLoopbackHostname(settings.HOST) &&
    (publicHost === undefined || isLoopbackHostname(publicHost) || publicHost === '::1')
  const netlify = settings.LAMBDA_TASK_ROOT !== undefined || settings.STATE_STORE === 'netlify-blobs'
  return { allowLoopback: thisMachine && (!netlify || settings.NETLIFY_LOCAL === true) }
}

/** Whether an endpoint may be connected to at `address` (an IP literal). */
export function addressAllowed(address: string, policy: UrlPolicy): boolean {
  if (!ipaddr.isValid(address)) return false
  const range = ipaddr.process(address).range()
  return range === 'unicast' || (policy.allowLoopback && range === 'loopback')
}

/** The URL's form: https (http only on loopback in development), no credentials or fragment, a public address when it is an IP. */
export function checkUrlForm(raw: string, policy: UrlPolicy): URL {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new WebhookError(`--url must be an absolute https URL; got "${raw.slice(0, 100)}"`, 'WEBHOOK_INVALID')
  }
  if (raw.length > MAX_URL_LENGTH)
    throw new WebhookError(`--url must be at most ${MAX_URL_LENGTH} characters`, 'WEBHOOK_INVALID')
  if (url.username || url.password || url.hash)
    throw new WebhookError('--url must not carry credentials or a #fragment', 'WEBHOOK_INVALID')
  const host = url.hostname.replace(/^\[|\]$/g, '')
  const loopback = isLoopbackHostname(host) || (isIP(host) !== 0 && ipaddr.process(host).range() === 'loopback')
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback && policy.allowLoopback))
    throw new WebhookError(
      `--url must use https${policy.allowLoopback ? ' (http only on loopback, for development)' : ''}; got ${url.protocol}`,
      'WEBHOOK_INVALID',
    )
  if (loopback && !policy.allowLoopback) throw refused(url.host, 'loopback')
  if (isIP(host) !== 0 && !addressAllowed(host, policy)) throw refused(url.host, ipaddr.process(host).range())
  return url
}

/** checkUrlForm, then every address the host resolves to now. */
export async function checkWebhookUrl(raw: string, policy: UrlPolicy): Promise<URL> {
  const url = checkUrlForm(raw, policy)
  const host = url.hostname.replace(/^\[|\]$/g, '')
  if (isIP(host) !== 0) return url
  let addresses: LookupAddress[]
  try {
    addresses = await new Promise((resolve, reject) =>
      dnsLookup(host, { all: true }, (error, found) => (error ? reject(error) : resolve(found))),
    )
  } catch (error) {
    throw new WebhookError(
      `${host} does not resolve (${(error as NodeJS.ErrnoException).code ?? 'lookup failed'})`,
      'WEBHOOK_INVALID',
    )
  }
  const bad = addresses.find((a) => !addressAllowed(a.address, policy))
  if (bad) throw refused(`${host} (${bad.address})`, ipaddr.process(bad.address).range())
  return url
}

function refused(host: string, range: string): WebhookError {
  return new WebhookError(
    `--url must reach a public address; ${host} is ${range === 'unicast' ? 'not allowed' : `in a ${range} range`}, which would let a subscription reach this host's own network`,
    'WEBHOOK_URL_REFUSED',
  )
}

/** An address refused at connection time (the error the delivery log shows). */
export class AddressRefusedError extends Error {
  readonly code = 'WEBHOOK_ADDRESS_REFUSED'
}

/**
 * A `lookup` for http(s).request that resolves as usual and fails the
 * connection unless every address is allowed.
 */
export function guardedLookup(policy: UrlPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...(options as object), all: true } as LookupAllOptions, (error, addresses) => {
      if (error) return callback(error, '', 0)
      const bad = addresses.find((a) => !addressAllowed(a.address, policy))
      if (bad || addresses.length === 0) {
        const reason = bad ? `${hostname} resolves to ${bad.address}, which is not a public address` : 'no address'
        return callback(new AddressRefusedError(reason), '', 0)
      }
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses)
      callback(null, addresses[0]!.address, addresses[0]!.family)
    })
  }
}
