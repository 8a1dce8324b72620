/** list_upcoming: events and webinars that have not started yet, soonest first. */
import { z } from 'zod'
import type { McpContext } from '../context.ts'
import type { RecordFilter } from '../../../contract/filters.ts'
import { selectFields } from '../../../contract/list-query.ts'
import { parseFields } from '../../../contract/query.ts'
import type { ParameterError } from '../../../contract/query-values.ts'
import type { ContentRecord } from '../../../contract/records.ts'
import { fieldsOf, sharedFilters } from '../../../contract/routes/collection-parameters.ts'
import { WHEN } from '../../../contract/routes/parameters.ts'
import { readQuery } from '../../../contract/routes/query-reader.ts'
import { recordUri } from '../content.ts'
import { toolLocale } from '../../content/locales.ts'
import type { Snapshot } from '../../snapshot.ts'
import { declaredDetails, detailDescription } from '../../../contract/model/dated-details.ts'
import { datedCollections, listed, type ContentModel } from '../../../contract/model/model.ts'
import { queryOf, toolArgument, toolArguments } from '../arguments.ts'
import { collectionArg, localeArg, perModel, READ_ONLY, toolError, toolResult } from '../schemas.ts'
import { kindOf, upcomingItem, upcomingRecords, type UpcomingCollection } from '../upcoming.ts'

const MAX_DAYS = 3660
const nullableString = z.string().nullable()

/** An upcoming item: when it is, then the dated details the model declares (contract/model/dated-details.ts). */
const itemOf = (model: ContentModel) =>
  z.object({
    collection: collectionArg(datedCollections(model)),
    slug: z.string(),
    type: z.string(),
    title: z.string(),
    summary: z.string(),
    url: z.string(),
    starts_at: z.string(),
    ends_at: nullableString,
    timezone: nullableString,
    ...Object.fromEntries(
      declaredDetails(model).map((declared) => [
        declared.detail.key,
        nullableString.describe(detailDescription(declared)),
      ]),
    ),
    resource_uri: z.string(),
  })

/** An item with `fields`: its collection and resource URI, then only those fields of the REST record (id and type always). */
const sparseItemOf = (dated: readonly string[]) =>
  z.looseObject({
    collection: collectionArg(dated),
    resource_uri: z.string(),
    id: z.string(),
    type: z.string(),
  })

/** The list filters the tool takes (`when` is the tool's own premise), and `fields` of any dated collection (REST's reader then takes those of the one a call asks for). */
const argumentsOf = perModel((model: ContentModel) => ({
  filters: sharedFilters(model).filter((p) => p.name !== WHEN.name),
  fields: fieldsOf(
    model,
    datedCollections(model).map((c) => model.collections[c]!),
    'summary',
  ),
}))

/** The tool's description and schemas, made once per build: each server (one per request in flight) registers it. */
const listUpcomingTool = perModel((model: ContentModel) => {
  const dated = datedCollections(model)
  const { filters, fields } = argumentsOf(model)
  const details = declaredDetails(model).map(({ detail }) => detail.key)
  const located = details.includes('region')
  const people = dated.some((c) => model.collections[c]!.people.length > 0)
  const titles = listed(dated.map((c) => model.collections[c]!.title.toLowerCase()))
  return {
    title: `Upcoming ${titles}`,
    description:
      `List ${titles} that start after the current time (decided when you call it), soonest first. Use it ` +
      `for "what is coming up", "what is on in EMEA next quarter" or before inviting someone. Optional filters: ` +
      'days (only those starting within that many days), region (' +
      (located ? 'a location region such as "EMEA" or "North America", or ' : '') +
      'a region tag suffix: tags events-emea or events-latam answer to "emea" and "latam"), collection, and the ' +
      'filters of list_content: tag (one or several, any of them), ' +
      (people ? 'author (a person of the item), ' : '') +
      'published_after, published_before, updated_since and exclude (a slug). Returns each item with its ' +
      `start (RFC 3339 with the local offset), end and time zone${details.length ? `, and ${listed(details)} where its collection has them` : ''}; ` +
      'with fields, each item is instead its collection, resource_uri and only those fields of the REST record (as ' +
      'list_content gives them).' +
      (details.includes('event_status')
        ? ' Cancelled or postponed items are included with their event_status so you can say so.'
        : ''),
    inputSchema: z.object({
      days: z
        .number()
        .int()
        .min(1)
        .max(MAX_DAYS)
        .optional()
        .describe('Only items starting within this many days from now.'),
      region: z
        .string()
        .trim()
        .min(1)
        .max(60)
        .optional()
        .describe('Region name or region tag suffix, e.g. "EMEA" or "latam".'),
      collection: collectionArg(dated)
        .optional()
        .describe(
          `Only ${listed(
            dated.map((c) => `${c}`),
            'or only',
          )}.`,
        ),
      ...toolArguments(filters),
      fields: toolArgument(
        fields,
        'Each item is then its collection, resource_uri and these fields of its REST record.',
      ),
      limit: z.number().int().min(1).max(100).default(20).describe('At most this many items (default 20).'),
      locale: localeArg,
    }),
    outputSchema: z.object({
      now: z.string().describe('The time the list was computed for (UTC).'),
      until: nullableString.describe('End of the days window, if one was given.'),
      region: nullableString,
      total: z.number().int(),
      items: z.array(z.union([itemOf(model), sparseItemOf(dated)])),
    }),
    annotations: { title: `Upcoming ${titles}`, ...READ_ONLY },
  }
})

export function registerListUpcoming({ server, snapshot, now }: McpContext): void {
  const dated = datedCollections(snapshot.model)
  // A model with no dated collection has nothing that comes up.
  if (!dated.length) return
  server.registerTool('list_upcoming', listUpcomingTool(snapshot.model), (args) => {
    const { days, region, collection, limit } = args
    const chosen = toolLocale(snapshot, args.locale)
    if (!chosen.ok) return toolError(chosen.message)
    // REST's own parsers for the filters and fields, so they take what the lists take.
    const errors: ParameterError[] = []
    const { filters, fields: fieldsParameter } = argumentsOf(snapshot.model)
    const params = queryOf(args, [...filters, fieldsParameter])
    const filter = readQuery(filters, params, errors) as RecordFilter
    const fields = parseFields(
      params,
      snapshot.model,
      (collection ? [collection] : dated).map((c) => snapshot.model.collections[c]!),
      'summary',
      errors,
    )
    if (errors.length) return toolError(errors.map((e) => `${e.parameter} ${e.message}`).join('; '))
    const at = now()
    const all = upcomingRecords(snapshot, {
      now: at,
      days,
      region,
      collection,
      filter,
      ...(chosen.locale && { locale: chosen.locale }),
    })
    const items = all
      .slice(0, limit)
      .map(
        ({ collection, record }): Record<string, unknown> =>
          fields ? sparse(snapshot, collection, record, fields) : { ...upcomingItem(snapshot, collection, record) },
      )
    const until = days === undefined ? null : new Date(at.getTime() + days * 86_400_000).toISOString()
    const scope = `${collection ?? listed(dated)}${region ? ` in ${region}` : ''}${days ? ` in the next ${days} days` : ''}`
    const text =
      items.length === 0
        ? `No upcoming ${scope} (as of ${at.toISOString()}).`
        : [
            `${all.length} upcoming ${scope} (as of ${at.toISOString()}), soonest first:`,
            ...all
              .slice(0, limit)
              .map(({ collection, record }) => lineOf(snapshot.model, upcomingItem(snapshot, collection, record))),
          ].join('\n')
    return toolResult({ now: at.toISOString(), until, region: region ?? null, total: all.length, items }, text)
  })
}

/** An item as `fields` asks: the tool's own keys, then the REST record's fields (selectFields: id and type always). */
function sparse(
  snapshot: Snapshot,
  collection: UpcomingCollection,
  record: ContentRecord,
  fields: readonly string[],
): Record<string, unknown> {
  return { collection, resource_uri: recordUri(snapshot, collection, record), ...selectFields(record, fields) }
}

/** One item as a line of the text answer: how it is attended where its collection says (events), else what it is. */
function lineOf(model: ContentModel, i: ReturnType<typeof upcomingItem>): string {
  const kind = kindOf(model, i.collection, i.attendance_mode ?? null)
  return (
    `- ${i.starts_at} ${i.title} (${kind}` +
    `${i.city ? `, ${i.city}` : ''}${i.event_status && i.event_status !== 'scheduled' ? `, ${i.event_status.toUpperCase()}` : ''}) slug "${i.slug}"`
  )
}
