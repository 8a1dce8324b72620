/**
 * The CommonMark spec's examples (the commonmark-spec package) render the
 * same on every path the renderer has: markdown-it's fast path, the
 * reference (unified) renderer, and the reference with the directive syntax
 * (the path of bodies with components). Same HTML, text, word count, first
 * paragraph, toc and body.tree. Not the spec's own HTML: bodies are GFM and
 * sanitised, so raw HTML and some links differ from it by design.
 */
import { tests } from 'commonmark-spec'
import { describe, expect, it } from 'vitest'
import { componentSet } from '../../../build/core/components.ts'
import { hasDirectives } from '../../../build/pipeline/markdown-directives.ts'
import { renderFast } from '../../../build/pipeline/markdown-fast.ts'
import { renderDirectives, renderReference } from '../../../build/pipeline/markdown-reference.ts'
import type { RenderedBody } from '../../../build/pipeline/markdown-types.ts'

/** What a record carries of a rendered body (the images' positions aside: they are the source's). */
function published({ images: _images, ...rest }: RenderedBody) {
  return rest
}

describe('the CommonMark spec examples on every render path', () => {
  it('has the examples', () => {
    expect(tests.length).toBeGreaterThan(600)
  })

  it('render the same through markdown-it as through the reference renderer', () => {
    let fast = 0
    for (const { markdown, number, section } of tests) {
      const reference = renderReference(markdown)
      const quick = renderFast(markdown)
      if (!quick) continue
      const where = `example ${number} (${section}): ${JSON.stringify(markdown)}`
      expect(quick.missingAlt, where).toEqual(reference.missingAlt)
      if (!reference.rendered) continue
      expect(published(quick.rendered!), where).toEqual(published(reference.rendered))
      fast++
    }
    // Most examples take the fast path: the comparison cannot pass by falling back.
    expect(fast).toBeGreaterThan(600)
  })

  it('render the same with the directive syntax on (a body with components) as without', () => {
    const components = componentSet()
    let compared = 0
    for (const { markdown, number, section } of tests) {
      // An example with directive syntax is a body with components: it has only the one path.
      if (hasDirectives(markdown)) continue
      const reference = renderReference(markdown)
      const directives = renderDirectives(markdown, components)
      const where = `example ${number} (${section}): ${JSON.stringify(markdown)}`
      expect(directives.errors, where).toEqual([])
      expect(directives.rendered && published(directives.rendered), where).toEqual(
        reference.rendered && published(reference.rendered),
      )
      compared++
    }
    expect(compared).toBeGreaterThan(600)
  })
})
