/**
 * Prompts a marketing or sales user picks from a menu. Each embeds the
 * content it is about (read from the build now), so the model writes from
 * the real text instead of from memory.
 */
import { completable, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server'
import { z } from 'zod'
import { allTags, completeFrom, readItem, resourceUri, slugsOf, unknownSlugMessage } from './content.ts'
import type { McpContext } from './context.ts'
import { kindOf, knownRegions, upcoming } from './upcoming.ts'
import { readableMarkdown } from '../../contract/readable-markdown.ts'
import { MemoKey, type Snapshot } from '../snapshot.ts'

/**
 * The prompts' argument schemas, made once per build: each server (one per request in flight)
 * registers them, and their completions read the build they were made for.
 */
const ARGS = new MemoKey<ReturnType<typeof argsSchemas>>('prompt argument schemas')

function argsSchemas(snapshot: Snapshot, stories: string | undefined) {
  return {
    outreach:
      stories === undefined
        ? undefined
        : z.object({
            slug: completable(z.string().max(200).describe('The case study (slug).'), (value) =>
              completeFrom(slugsOf(snapshot, stories), value),
            ),
            recipient: z
              .string()
              .max(200)
              .optional()
              .describe('Who it is for, e.g. "Head of Data at a mid-size insurer".'),
          }),
    upcoming: z.object({
      region: completable(
        z.string().max(60).describe('Region, e.g. "EMEA" or "latam"; all regions when empty.'),
        (value) => completeFrom(knownRegions(snapshot), value),
      ).optional(),
      days: z
        .string()
        .regex(/^[1-9][0-9]{0,3}$/, 'a whole number of days')
        .optional()
        .describe('Only the next N days (default 90).'),
    }),
    roundup: z.object({
      tag: completable(z.string().max(50).describe('The topic tag, e.g. "data-contracts".'), (value) =>
        completeFrom(allTags(snapshot), value),
      ),
    }),
  }
}

const text = (t: string) => ({ role: 'user' as const, content: { type: 'text' as const, text: t } })

export function registerPrompts(context: McpContext): void {
  const { snapshot, now } = context
  // The customer stories: the collection whose items name a customer and their results (case studies).
  const stories = snapshot.model.names.find((c) => {
    const { fields } = snapshot.model.collections[c]!
    return fields.customer?.type === 'object' && fields.results?.type === 'list'
  })
  const args = snapshot.memo(ARGS, () => argsSchemas(snapshot, stories))
  if (stories && args.outreach) registerOutreach(context, stories, args.outreach)
  registerRest(context, now, args)
}

/** The outreach email from one customer story of `collection` (the prompt keeps its case-study name). */
function registerOutreach(
  { server, snapshot }: McpContext,
  collection: string,
  argsSchema: NonNullable<ReturnType<typeof argsSchemas>['outreach']>,
): void {
  server.registerPrompt(
    'case_study_outreach_email',
    {
      title: 'Case study → outreach email',
      description: 'Turn one customer case study into a short, personal outreach email for a prospect.',
      argsSchema,
    },
    async ({ slug, recipient }) => {
      const record = await readItem(snapshot, collection, slug)
      if (!record) throw new ProtocolError(ProtocolErrorCode.InvalidParams, unknownSlugMessage(collection, slug))
      return {
        description: `Outreach email from the case study "${record.title}"`,
        messages: [
          {
            role: 'user' as const,
            content: {
              type: 'resource' as const,
              resource: {
                uri: resourceUri(collection, slug),
                mimeType: 'text/markdown',
                text: readableMarkdown(record.body.markdown),
              },
            },
          },
          text(
            `Write a short outreach email (at most 150 words, subject line included) ${recipient ? `to ${recipient} ` : ''}` +
              `based on the case study "${record.title}" above. Lead with the customer's problem in the reader's terms, ` +
              `cite one or two concrete results exactly as the case study states them (${JSON.stringify(record.results ?? [])}), ` +
              `link the case study (${String(record.url)}) and end with one low-effort call to action. No claims that are not in the case study.`,
          ),
        ],
      }
    },
  )
}

function registerRest({ server, snapshot }: McpContext, now: () => Date, args: ReturnType<typeof argsSchemas>): void {
  server.registerPrompt(
    'upcoming_events_brief',
    {
      title: 'Brief me on upcoming events',
      description:
        'A short brief on the events and webinars coming up (optionally in one region), with what to invite whom to.',
      argsSchema: args.upcoming,
    },
    ({ region, days }) => {
      const at = now()
      const window = days ? Number(days) : 90
      const items = upcoming(snapshot, { now: at, days: window, region: region || undefined })
      const list = items.length
        ? items
            .map(
              (i) =>
                `- ${i.starts_at} (${i.timezone ?? 'UTC'}) — ${i.title} [${kindOf(snapshot.model, i.collection, i.attendance_mode ?? null)}` +
                `${i.city ? `, ${i.city}, ${i.country}` : ''}${i.event_status && i.event_status !== 'scheduled' ? `, ${i.event_status}` : ''}]: ${i.summary} ` +
                `Registration: ${i.registration_url ?? i.url}`,
            )
            .join('\n')
        : '(none)'
      return {
        description: `Upcoming events${region ? ` in ${region}` : ''} in the next ${window} days`,
        messages: [
          text(
            `Today is ${at.toISOString().slice(0, 10)}. These are our events and webinars in the next ${window} days` +
              `${region ? ` for the region "${region}"` : ''}:\n\n${list}\n\n` +
              'Write a brief for a sales team: one line per item with date, place or format and who it suits, then two or ' +
              'three suggestions of which prospects to invite to what. Point out anything cancelled or postponed. If the ' +
              'list is empty, say so and suggest checking a longer window or another region.',
          ),
        ],
      }
    },
  )

  server.registerPrompt(
    'topic_roundup',
    {
      title: 'Everything we have on a topic',
      description:
        'A one-page roundup of our blog posts, case studies, webinars and events with one tag, for sales enablement.',
      argsSchema: args.roundup,
    },
    ({ tag: given }) => {
      // Tags are published lowercase and matched without regard to case, as in REST and list_content.
      const tag = given.toLowerCase()
      const { model } = snapshot
      const lines = model.names.flatMap((c) =>
        snapshot
          .summaries(c)
          .filter((r) => r.tags.includes(tag))
          .map((r) => `- [${model.collections[c]!.label}] ${r.title} — ${String(r.summary ?? '')} (${String(r.url)})`),
      )
      if (lines.length === 0) {
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `No published content has the tag "${tag.slice(0, 50)}"; complete the tag argument to see the tags in use.`,
        )
      }
      return {
        description: `Roundup of content tagged "${tag}"`,
        messages: [
          text(
            `Our published content tagged "${tag}":\n\n${lines.join('\n')}\n\n` +
              'Write a one-page roundup for the sales team: the main message across these pieces, the strongest proof point ' +
              'from the case studies, and which piece to send to which kind of prospect. Use the read or search tools for detail.',
          ),
        ],
      }
    },
  )
}
