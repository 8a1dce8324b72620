/**
 * hast-util-to-text's `trimAndCollapseSpacesAndTabs` (lib/index.js, 4.0.3),
 * the same string made without an array of every word and a join: it was a
 * tenth of rendering a body, called on every text node. The bundle of the
 * commands puts it in the library's place (build/bundle/prebuilt.ts,
 * fasterTextCollapse); test/build/pipeline/collapse-spaces.test.ts holds it
 * to the library's own on every kind of input.
 *
 * Runs of spaces and tabs become one space; a space left at the start is
 * dropped when a segment break comes before (`breakBefore`), one at the end
 * when one comes after.
 */
const TABS_OR_SPACES = /[\t ]+/g

export function trimAndCollapseSpacesAndTabs(value: string, breakBefore: unknown, breakAfter: unknown): string {
  let out = value.replace(TABS_OR_SPACES, ' ')
  if (breakBefore && out.charCodeAt(0) === 32) out = out.slice(1)
  if (breakAfter && out.charCodeAt(out.length - 1) === 32) out = out.slice(0, -1)
  return out
}
