/**
 * The four collections: where their files live, how they are typed, sorted and
 * validated. Everything downstream (build, gateway, OpenAPI, MCP) iterates this.
 */
import type { SchemaObject } from 'ajv'
import { blogPostSchema } from './schemas/blog-posts.ts'
import { caseStudySchema } from './schemas/case-studies.ts'
import { eventSchema } from './schemas/events.ts'
import { webinarSchema } from './schemas/webinars.ts'

export const COLLECTION_NAMES = ['blog-posts', 'case-studies', 'webinars', 'events'] as const
export type CollectionName = (typeof COLLECTION_NAMES)[number]

export interface CollectionDef {
  /** URL and folder name, e.g. `blog-posts`. */
  name: CollectionName
  /** The record `type`, e.g. `blog_post`. */
  type: string
  /** Human label, singular. */
  label: string
  /** Frontmatter field the list is ordered by, newest first. */
  sortField: 'published_at' | 'starts_at'
  /** The fields `sort=` may name (each ascending, or descending with `-`). */
  sortKeys: readonly string[]
  /** The fields listing people (`author=` looks in them); none, and `author=` does not apply. */
  people: readonly string[]
  /** OAuth scope that grants read access to this collection. */
  scope: string
  schema: SchemaObject
}

export const COLLECTIONS: Record<CollectionName, CollectionDef> = {
  'blog-posts': {
    name: 'blog-posts',
    type: 'blog_post',
    label: 'blog post',
    sortField: 'published_at',
    sortKeys: ['published_at', 'updated_at', 'title'],
    people: ['authors'],
    scope: 'content.blog.read',
    schema: blogPostSchema,
  },
  'case-studies': {
    name: 'case-studies',
    type: 'case_study',
    label: 'case study',
    sortField: 'published_at',
    sortKeys: ['published_at', 'updated_at', 'title'],
    people: [],
    scope: 'content.case-studies.read',
    schema: caseStudySchema,
  },
  webinars: {
    name: 'webinars',
    type: 'webinar',
    label: 'webinar',
    sortField: 'starts_at',
    sortKeys: ['starts_at', 'published_at', 'updated_at', 'title'],
    people: ['speakers'],
    scope: 'content.webinars.read',
    schema: webinarSchema,
  },
  events: {
    name: 'events',
    type: 'event',
    label: 'event',
    sortField: 'starts_at',
    sortKeys: ['starts_at', 'ends_at', 'published_at', 'updated_at', 'title'],
    people: ['speakers'],
    scope: 'content.events.read',
    schema: eventSchema,
  },
}

/** Whether the collection's items start at a time (`starts_at`): `when=upcoming|past` applies to it. */
export function isScheduled(collection: CollectionName): boolean {
  return COLLECTIONS[collection].sortField === 'starts_at'
}

export function isCollectionName(value: string): value is CollectionName {
  return (COLLECTION_NAMES as readonly string[]).includes(value)
}
