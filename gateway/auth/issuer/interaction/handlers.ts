/**
 * The sign-in and consent pages the provider sends the browser to:
 *
 * GET  /oauth/interaction/:uid          the page the interaction needs (sign-in or consent)
 * POST /oauth/interaction/:uid/login    email and password; throttled per address and per account
 * POST /oauth/interaction/:uid/confirm  Allow: grant the requested scopes the person may grant
 * POST /oauth/interaction/:uid/abort    Deny: the client gets access_denied
 *
 * Every POST carries the interaction's CSRF token and must come from our origin.
 * A state store that fails a step answers a 503 page (store-fault-page.ts);
 * nothing is logged as done before it is saved.
 */
import { defineHandler, type EventHandler, type H3Event } from 'h3'
import type { Interaction } from 'oidc-provider'
import { clientIp } from '../../../http/client-ip.ts'
import { requestIdOf } from '../../../http/request-id.ts'
import type { Auth } from '../../auth.ts'
import { normalizeEmail, type Person } from '../../people/people.ts'
import type { EmbeddedIssuer } from '../embedded-issuer.ts'
import { readForm } from '../form-body.ts'
import { interactionPath } from '../paths.ts'
import { grantConsent, requestedScopes } from './consent.ts'
import {
  clientView,
  expiredPage,
  finishInteraction,
  htmlResponse,
  loadInteraction,
  redirectResponse,
} from './context.ts'
import { withStoreFaultPage } from '../store-fault-page.ts'
import { crossSiteProblem, csrfToken, validCsrfToken } from './csrf.ts'
import { consentPage, errorPage, loginPage } from './pages.ts'

/** The handlers of the sign-in routes of the table (contract/routes/oauth.ts), by route id. */
export function interactionHandlers(
  auth: Auth,
  issuer: EmbeddedIssuer,
): Record<'signIn' | 'signInLogin' | 'signInConfirm' | 'signInAbort', EventHandler> {
  const log = auth.log

  async function renderLogin(
    event: H3Event,
    interaction: Interaction,
    status = 200,
    error?: string,
    email?: string,
    extra?: Record<string, string>,
  ) {
    const { name } = await clientView(await issuer.provider(), interaction)
    const html = loginPage({
      action: `${interactionPath(interaction.uid)}/login`,
      csrf: csrfToken(issuer.csrfKey, interaction.uid),
      clientName: name,
      error,
      email,
    })
    return htmlResponse(event, status, html, extra)
  }

  async function renderConsent(event: H3Event, interaction: Interaction, person: Person) {
    const { name, returnTo } = await clientView(await issuer.provider(), interaction)
    const base = interactionPath(interaction.uid)
    return htmlResponse(
      event,
      200,
      consentPage({
        allowAction: `${base}/confirm`,
        denyAction: `${base}/abort`,
        csrf: csrfToken(issuer.csrfKey, interaction.uid),
        clientName: name,
        returnTo,
        personName: person.name,
        scopes: requestedScopes(interaction, person),
      }),
    )
  }

  const signedInPerson = async (interaction: Interaction) => {
    const id = interaction.session?.accountId
    const person = id ? await issuer.people.find(id) : undefined
    return person && !person.disabled_at ? person : undefined
  }

  /** A POST's interaction and form, once the origin and CSRF checks pass; else the answer to send. */
  async function formPost(event: H3Event): Promise<{ interaction: Interaction; form: URLSearchParams } | Response> {
    const crossSite = crossSiteProblem(event.req.headers, new URL(auth.publicUrl()).origin)
    if (crossSite)
      return htmlResponse(event, 403, errorPage('Request refused', `This form cannot be accepted: ${crossSite}.`))
    const form = await readForm(event.req)
    if (!form.ok) return htmlResponse(event, form.status, errorPage('Request refused', form.description))
    const interaction = await loadInteraction(await issuer.provider(), event)
    if (!interaction) return expiredPage(event)
    if (!validCsrfToken(issuer.csrfKey, interaction.uid, form.params.get('csrf'))) {
      return htmlResponse(
        event,
        403,
        errorPage(
          'Request refused',
          'The form was not sent from this sign-in page. Go back to the application and connect again.',
        ),
      )
    }
    return { interaction, form: form.params }
  }

  const handlers = {
    signIn: defineHandler(async (event) => {
      const interaction = await loadInteraction(await issuer.provider(), event)
      if (!interaction) return expiredPage(event)
      if (interaction.prompt.name === 'login') return renderLogin(event, interaction)
      const person = await signedInPerson(interaction)
      if (interaction.prompt.name === 'consent' && person) return renderConsent(event, interaction, person)
      return htmlResponse(
        event,
        400,
        errorPage(
          'Sign-in cannot continue',
          'This request needs a step this server does not offer. Go back to the application and connect again.',
        ),
      )
    }),

    signInLogin: defineHandler(async (event) => {
      const post = await formPost(event)
      if (post instanceof Response) return post
      const { interaction, form } = post
      if (interaction.prompt.name !== 'login') return redirectResponse(event, interactionPath(interaction.uid))
      const email = (form.get('email') ?? '').trim().slice(0, 254)
      const password = form.get('password') ?? ''
      const subject = { address: clientIp(event, auth.trustProxy), identifier: normalizeEmail(email) }
      // Over the limit: refused before the password is even looked at (passwords can be guessed).
      const verdict = await auth.failures.check('sign-in', subject)
      if (!verdict.ok) {
        log('warn', 'sign-in throttled', { request_id: requestIdOf(event), by: verdict.by })
        const minutes = Math.ceil(verdict.retryAfterSeconds / 60)
        return renderLogin(
          event,
          interaction,
          429,
          `Too many failed attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
          email,
          verdict.headers,
        )
      }
      const person = email && password ? await issuer.people.authenticate(email, password) : undefined
      if (!person) {
        await auth.failures.failed('sign-in', subject)
        log('info', 'sign-in failed', { request_id: requestIdOf(event) })
        return renderLogin(event, interaction, 400, 'The email address or password is not right.', email)
      }
      await auth.failures.succeeded('sign-in', subject.identifier)
      const resume = await finishInteraction(interaction, { login: { accountId: person.id, amr: ['pwd'] } })
      // Only once the sign-in is saved: a store that failed it answered the page of its own above.
      log('info', 'signed in', { request_id: requestIdOf(event), account: person.id })
      return redirectResponse(event, resume)
    }),

    signInConfirm: defineHandler(async (event) => {
      const post = await formPost(event)
      if (post instanceof Response) return post
      const { interaction } = post
      const person = await signedInPerson(interaction)
      if (interaction.prompt.name !== 'consent' || !person)
        return redirectResponse(event, interactionPath(interaction.uid))
      const grantId = await grantConsent(await issuer.provider(), interaction, person)
      const resume = await finishInteraction(interaction, { consent: { grantId } })
      log('info', 'consent given', {
        request_id: requestIdOf(event),
        account: person.id,
        client_id: String(interaction.params.client_id),
      })
      return redirectResponse(event, resume)
    }),

    signInAbort: defineHandler(async (event) => {
      const post = await formPost(event)
      if (post instanceof Response) return post
      const result = { error: 'access_denied', error_description: 'The person declined to grant access.' }
      return redirectResponse(event, await finishInteraction(post.interaction, result))
    }),
  }
  // A store that fails any of these steps: a page saying so (503), not a 500.
  return {
    signIn: withStoreFaultPage(handlers.signIn, log),
    signInLogin: withStoreFaultPage(handlers.signInLogin, log),
    signInConfirm: withStoreFaultPage(handlers.signInConfirm, log),
    signInAbort: withStoreFaultPage(handlers.signInAbort, log),
  }
}
