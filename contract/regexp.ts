/**
 * Regular expressions made from text: one escaping for every place that
 * builds one (search snippets, route paths, nginx locations, the tests).
 */

/**
 * `literal` as a pattern that matches exactly it, in JavaScript (with or
 * without the `u` flag) and in PCRE (nginx).
 *
 * @example new RegExp(escapeRegExp('a.b(1)')).test('a.b(1)') // true, and false for 'axb(1)'
 */
export function escapeRegExp(literal: string): string {
  return literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/**
 * The pattern (its source, unanchored) of the concrete paths of a path
 * template: each `{parameter}` stands for one or more characters other than `/`.
 *
 * @example templateSource('/feeds/{collection}.xml') // '/feeds/[^/]+\\.xml'
 */
export function templateSource(template: string): string {
  return template
    .split(/\{[^}]+\}/)
    .map(escapeRegExp)
    .join('[^/]+')
}
