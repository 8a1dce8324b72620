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
import { addToSet, deleteFromSet } from '../core/set-map.ts'

interface WrittenSlug {
  path: string
  slug: string
  line: number
  column: number
}

/**
 * Every file's person mentions by the slug made from the name, kept up to
 * date file by file, so an edit costs its own mentions, not a pass over every
 * file's.
 */
export class PersonSlugs {
  /** By the slug made from the name: the files whose mentions write another slug for it. */
  private readonly written = new Map<string, Set<CompiledFile>>()
  /** By the slug made from the name: the files mentioning it without a slug. */
  private readonly unwritten = new Map<string, Set<CompiledFile>>()

  add(file: CompiledFile): void {
    for (const mention of file.people) {
      const made = personSlug(mention.name)
      if (mention.slug === undefined) addToSet(this.unwritten, made, file)
      else if (mention.slug !== made) addToSet(this.written, made, file)
    }
  }

  delete(file: CompiledFile): void {
    for (const mention of file.people) {
      const made = personSlug(mention.name)
      deleteFromSet(mention.slug === undefined ? this.unwritten : this.written, made, file)
    }
  }

  clear(): void {
    this.written.clear()
    this.unwritten.clear()
  }

  /** The errors of mentions without a slug whose name is given another slug elsewhere (in any collection or locale). */
  errors(): ContentError[] {
    const errors: ContentError[] = []
    for (const [made, writers] of this.written) {
      const mentioning = this.unwritten.get(made)
      if (!mentioning) continue
      const other = firstWritten(made, writers)
      for (const file of mentioning)
        for (const mention of file.people) {
          if (mention.slug !== undefined || personSlug(mention.name) !== made) continue
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
    }
    return errors
  }
}

/** The first file (in path order) writing another slug for `made`, and where. */
function firstWritten(made: string, writers: ReadonlySet<CompiledFile>): WrittenSlug {
  let found: WrittenSlug | undefined
  for (const file of writers)
    for (const mention of file.people) {
      if (mention.slug === undefined || mention.slug === made || personSlug(mention.name) !== made) continue
      if (!found || file.source.path < found.path)
        found = { path: file.source.path, slug: mention.slug, line: mention.line, column: mention.column }
    }
  return found!
}
