/**
 * Stage 3, render: a Markdown (GFM) body to sanitised HTML, plain text, word
 * count and first paragraph, or the images without alt text that stop it.
 * markdown-it renders (markdown-fast.ts, faster than micromark;
 * BENCHMARKS.md), raw HTML parsed and then sanitised with GitHub's allow-list as
 * the reference renderer does (markdown-raw.ts); the few constructs where
 * markdown-it and micromark could disagree go through the reference renderer
 * (unified, rehype-raw, rehype-sanitize). Both give the same text and HTML.
 * Bodies with components (directives) are read by the reference renderer
 * with remark-directive, the one implementation of that syntax
 * (markdown-directives.ts).
 */
import { componentSet, type ComponentDeclaration } from '../core/components.ts'
import { hasDirectives } from './markdown-directives.ts'
import { renderFast } from './markdown-fast.ts'
import { renderDirectives, renderReference } from './markdown-reference.ts'
import type { BodyResult } from './markdown-types.ts'

export type { BodyResult, RenderedBody } from './markdown-types.ts'

/** Bump when the output of this module changes, to invalidate the render cache. */
export const MARKDOWN_RENDERER_VERSION = 6

/** `components`: the site's own (content/site.yaml), beside the built-in ones; only bodies with directives read them. */
export function renderBody(markdown: string, components: readonly ComponentDeclaration[] = []): BodyResult {
  if (hasDirectives(markdown)) return renderDirectives(markdown, componentSet(components))
  return renderFast(markdown) ?? renderReference(markdown)
}
