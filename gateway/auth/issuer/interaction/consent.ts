/**
 * Consent: which scopes the client asked for that have not been granted
 * yet, which of them the signed-in person may grant (their account's
 * scopes), and the grant that records the answer. Scopes the person may not
 * grant are recorded as rejected, so the provider does not ask again.
 */
import type Provider from 'oidc-provider'
import type { Interaction } from 'oidc-provider'
import type { Person } from '../../people/people.ts'
import { isScope, scopeDescription } from '../../../../contract/scopes.ts'
import type { ConsentScope } from './pages.ts'

interface MissingDetails {
  missingOIDCScope?: string[]
  missingOIDCClaims?: string[]
  missingResourceScopes?: Record<string, string[]>
}

const detailsOf = (interaction: Interaction) => (interaction.prompt.details ?? {}) as MissingDetails

/** Every scope the consent is about, in words, each marked grantable or not for this person. */
export function requestedScopes(interaction: Interaction, person: Person): ConsentScope[] {
  const details = detailsOf(interaction)
  const names = new Set([
    ...(details.missingOIDCScope ?? []),
    ...Object.values(details.missingResourceScopes ?? {}).flat(),
  ])
  return [...names].map((name) => ({
    name,
    description: scopeDescription(name) ?? `A permission this server does not describe (${name}).`,
    grantable: mayGrant(person, name),
  }))
}

/** Whether `person` may grant `scope`: one of theirs, or a collection's while they hold `api.read`, which covers every collection. */
function mayGrant(person: Person, scope: string): boolean {
  if (!isScope(scope)) return false
  return person.scopes.includes(scope) || (scope.startsWith('content.') && person.scopes.includes('api.read'))
}

/** Record the person's answer in the interaction's grant and return its id. */
export async function grantConsent(provider: Provider, interaction: Interaction, person: Person): Promise<string> {
  const details = detailsOf(interaction)
  const allowed = (scope: string) => mayGrant(person, scope)
  const grant =
    (interaction.grantId ? await provider.Grant.find(interaction.grantId) : undefined) ??
    new provider.Grant({ accountId: person.id, clientId: String(interaction.params.client_id) })
  const split = (scopes: string[] = []) => [scopes.filter(allowed), scopes.filter((s) => !allowed(s))] as const

  const [oidcGranted, oidcRejected] = split(details.missingOIDCScope)
  if (oidcGranted.length) grant.addOIDCScope(oidcGranted.join(' '))
  if (oidcRejected.length) grant.rejectOIDCScope(oidcRejected.join(' '))
  if (details.missingOIDCClaims?.length) grant.addOIDCClaims(details.missingOIDCClaims)
  for (const [resource, scopes] of Object.entries(details.missingResourceScopes ?? {})) {
    const [granted, rejected] = split(scopes)
    if (granted.length) grant.addResourceScope(resource, granted.join(' '))
    if (rejected.length) grant.rejectResourceScope(resource, rejected.join(' '))
  }
  return grant.save()
}
