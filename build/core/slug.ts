/** Slugs and tags as authors mean them: lowercase ASCII letters and digits, single hyphens. */

/**
 * A slug (or tag) from any text: accents dropped, lowercase, every other run
 * of characters one hyphen, at most 80 characters.
 *
 * @example slugify('Crème brûlée -- at 10:00!') // 'creme-brulee-at-10-00'
 */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '')
}
