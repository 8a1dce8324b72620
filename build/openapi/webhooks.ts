/**
 * The OpenAPI 3.1 `webhooks` section: the requests this API sends to a
 * subscriber's endpoint (gateway/webhooks/), one per event type of
 * contract/webhook-events.ts, with the Standard Webhooks headers and how to
 * verify them. Its own module, hooked into document.ts by one line.
 */
import type { SchemaObject } from 'ajv'
import { MAX_CURSOR_LENGTH } from '../../contract/routes/search-changes-parameters.ts'
import { MAX_LOCALE_LENGTH } from '../../contract/locales.ts'
import type { ContentModel } from '../../contract/model/model.ts'
import { MAX_SLUG_LENGTH, SLUG_PATTERN } from '../../contract/patterns.ts'
import {
  WEBHOOK_EVENT_DESCRIPTIONS,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_HEADERS,
  type WebhookEventType,
} from '../../contract/webhook-events.ts'
import { instant, text, uri } from '../../contract/routes/schema.ts'
import { ANONYMOUS } from '../../contract/routes/responses.ts'
import { collectionNames } from './search-changes-schemas.ts'

export const WEBHOOKS_TAG = {
  name: 'Webhooks',
  description:
    'Requests this API sends to subscribed endpoints when a build with changes goes live ([Standard Webhooks](https://www.standardwebhooks.com/): verify `webhook-signature` with any of its libraries and your `whsec_` secret). Subscriptions are made by the operator: `npm run keys -- webhook create --url … --events …`.',
}

const nullable = (schema: SchemaObject): SchemaObject => ({ ...schema, type: [schema.type as string, 'null'] })

function eventSchema(type: WebhookEventType, model: ContentModel): SchemaObject {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['type', 'timestamp', 'data'],
    properties: {
      type: { type: 'string', const: type },
      timestamp: instant({ description: 'When the change was recorded (the commit that made it).' }),
      data: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'collection', 'slug', 'url', 'api_url', 'updated_at', 'changed_at', 'cursor', 'locale'],
        properties: {
          id: text(200, { description: "The item's stable id, as in the API." }),
          collection: collectionNames(model),
          slug: text(MAX_SLUG_LENGTH, { pattern: SLUG_PATTERN }),
          locale: text(MAX_LOCALE_LENGTH, {
            description:
              "The locale whose change feed this change is in (the site's language on a single-language site): on a multilingual site, `GET /api/changes?locale=<locale>&since=<cursor>` continues it. Where that locale falls back to the default, the item may be the default locale's record (its `url` is then that page). A subscription hears the default locale's feed unless the operator named its locales (`--locales de,fr` or `all`).",
          }),
          url: nullable(
            uri({ description: 'The canonical page on the marketing site (where it was, for a removal).' }),
          ),
          api_url: nullable(uri({ description: 'The item in this API, to fetch its body; null once removed.' })),
          updated_at: instant({ description: "The record's updated_at; for a removal, when it was recorded." }),
          changed_at: instant({ description: 'When the change was recorded.' }),
          cursor: text(MAX_CURSOR_LENGTH, {
            pattern: '^[A-Za-z0-9_-]+$',
            description:
              "The change feed cursor just after this change: `GET /api/changes?since=<cursor>` continues from here (with `locale=` of another locale's feed, whose cursors name it).",
          }),
        },
      },
    },
  }
}

const HEADER_PARAMETERS = [
  {
    name: WEBHOOK_HEADERS.id,
    in: 'header',
    required: true,
    description:
      'The message id, the same on every attempt (retries, redeliveries): process each id once. `msg_` and 32 hex digits.',
    schema: text(64, { pattern: '^msg_[0-9a-f]{32}$' }),
  },
  {
    name: WEBHOOK_HEADERS.timestamp,
    in: 'header',
    required: true,
    description: 'When this attempt was sent, in seconds since the epoch; refuse one far from your clock (5 minutes).',
    schema: text(12, { pattern: '^[0-9]{1,12}$' }),
  },
  {
    name: WEBHOOK_HEADERS.signature,
    in: 'header',
    required: true,
    description:
      '`v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>` keyed with the secret; space-separated when several secrets sign (after a rotation, for its overlap): any one matching is enough.',
    schema: text(1000, { pattern: '^v1,[A-Za-z0-9+/=]+( v1,[A-Za-z0-9+/=]+)*$' }),
  },
]

/** The `webhooks` of the document. */
export function webhooksSection(model: ContentModel): Record<string, unknown> {
  return Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `webhook${type
            .split(/[.-]/)
            .map((w) => w[0]!.toUpperCase() + w.slice(1))
            .join('')}`,
          summary: type,
          description: `${WEBHOOK_EVENT_DESCRIPTIONS[type]} Sent once per changed item after the build is live, at least once (retried with backoff for up to WEBHOOK_RETRY_HOURS), in change-feed order per endpoint; never the body.`,
          tags: [WEBHOOKS_TAG.name],
          security: ANONYMOUS,
          parameters: HEADER_PARAMETERS,
          requestBody: {
            required: true,
            content: { 'application/json': { schema: eventSchema(type, model) } },
          },
          responses: {
            '204': {
              description:
                'Any 2xx: received. Anything else, a timeout (10 s by default) or no connection: retried later; `Retry-After` is honoured.',
            },
          },
        },
      },
    ]),
  )
}

/** The webhooks guide of /docs/ and llms-full.txt: what is sent, and how a receiver verifies it. */
export function webhookGuide(): string {
  const events = WEBHOOK_EVENT_TYPES.map((t) => `- \`${t}\`: ${WEBHOOK_EVENT_DESCRIPTIONS[t]}`).join('\n')
  return `## Webhooks

Instead of polling \`/api/changes\`, an endpoint can be told when a build with changes goes live: one signed \`POST\` per changed item, in change-feed order, with the item's \`id\`, \`collection\`, \`slug\`, \`locale\`, \`url\`, \`api_url\`, \`updated_at\`, \`changed_at\` and the feed's \`cursor\`; never the body (fetch \`api_url\`). The operator subscribes an https endpoint with \`npm run keys -- webhook create --url https://example.com/hooks --events all\` and hands you the \`whsec_\` secret it prints once.

On a multilingual site each locale has its change feed, and \`locale\` says which one an event is in (\`api_url\` and \`cursor\` are that feed's: \`?locale=de\`, \`de_…\`). A subscription hears the default locale's feed, as it always did, unless the operator names the locales it wants (\`--locales de,fr\` or \`--locales all\`): an endpoint that syncs one language never receives another's records.

${events}

Requests follow [Standard Webhooks](https://www.standardwebhooks.com/): headers \`webhook-id\` (the same on every retry: process each id once), \`webhook-timestamp\` and \`webhook-signature\` (HMAC-SHA256; during a secret rotation two signatures, space-separated, either one valid). Answer 2xx within 10 seconds; anything else is retried with exponential backoff for up to three days, honouring \`Retry-After\`. Verify with any Standard Webhooks library, on the raw body:

\`\`\`js
import { Webhook } from 'standardwebhooks' // npm install standardwebhooks

const webhook = new Webhook(process.env.CONTENT_WEBHOOK_SECRET) // "whsec_…"
// In your HTTP handler, with the body exactly as received:
const event = webhook.verify(rawBody, request.headers) // throws WebhookVerificationError if forged or stale
if (!alreadyProcessed(request.headers['webhook-id'])) handle(event.type, event.data)
\`\`\`

\`\`\`json
{"type":"content.updated","timestamp":"2026-11-02T09:30:00Z","data":{"id":"…","collection":"blog-posts","slug":"data-contracts-in-ci","locale":"en","url":"https://www.example.com/blog/data-contracts-in-ci","api_url":"https://api.example.com/api/blog-posts/data-contracts-in-ci","updated_at":"2026-11-02T00:00:00Z","changed_at":"2026-11-02T09:30:00Z","cursor":"YzEuMTc5MzYyMzQwMC4x"}}
\`\`\`

Feeds: when the site names a WebSub hub, every feed links it (\`rel="hub"\`) and the hub is pinged after each build that changed them (each locale's feeds under \`/feeds/<locale>/\` too).
`
}
