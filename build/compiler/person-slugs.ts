/**
 * One person, one slug: `author=<slug>` finds a person's items by the slug
 * their records carry, so a name must not get two slugs from two files. A
 * `slug:` written for a person (to keep the slug when the name's spelling
 * changes, or to tell two people of one name apart) other than the one made
 * from the name makes every other mention of that name ambiguous: written
 * without a slug, it is someone else to the API. The build cannot tell which
 * was meant, so such a mention is an author error, at the mention, naming the
 * file and place of the slug it conflicts with. Mentions that all write their
 * slug (the same, or different ones for different people) are fine.
 */
import { personSlug } from '../../contract/people.ts'
import { ContentError } from '../core/errors.ts'
import type { CompiledFile } from '../pipeline/compile.ts'

interface WrittenSlug {
  path: string
  slug: string
  line: number
  column: number
}

/** The errors of mentions without a slug whose name is given another slug elsewhere (in any collection or locale). */
export function personSlugErrors(files: Iterable<CompiledFile>): ContentError[] {
  const all = [...files]
  // By the slug made from the name: the first file (in path order) writing another slug for it.
  const written = new Map<string, WrittenSlug>()
  for (const file of all)
    for (const mention of file.people) {
      if (mention.slug === undefined) continue
      const made = personSlug(mention.name)
      if (mention.slug === made) continue
      const known = written.get(made)
      if (!known || file.source.path < known.path)
        written.set(made, { path: file.source.path, slug: mention.slug, line: mention.line, column: mention.column })
    }
  if (written.size === 0) return []
  const errors: ContentError[] = []
  for (const file of all)
    for (const mention of file.people) {
      if (mention.slug !== undefined) continue
      const made = personSlug(mention.name)
      const other = written.get(made)
      if (!other) continue
      errors.push(
        new ContentError(
          'PERSON_SLUG',
          file.source.path,
          mention.line,
          mention.column,
          `${mention.field}.name`,
          `${mention.name} has no slug here (so ${made}), but ${other.path}:${other.line}:${other.column} gives this name the slug ${other.slug}: one person has one slug. Write slug: ${other.slug} here if it is the same person, slug: ${made} if it is someone else, or remove the slug there`,
        ),
      )
    }
  return errors
}
