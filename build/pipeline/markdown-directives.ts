/**
 * Bodies with components: the one implementation of the directive syntax,
 * micromark-extension-directive (remark-directive's, see directive-syntax.ts), in the reference
 * renderer. `hasDirectives` sends a body here when it may hold a leaf or
 * container directive (`::name`, `:::name` opening a line) or a text
 * directive with a label or attributes (`:name[…]`, `:name{…}`); every other
 * body keeps the fast path, where such text is plain text. A bare `:name`
 * (no label, no attributes: `note:this`, `mailto:x@y`) is prose on both
 * (directive-syntax.ts), so a body's text never depends on the engine.
 */
import type { Root as MdastRoot, RootContent } from 'mdast'
import { closest } from '../../contract/did-you-mean.ts'
import { checkAttributes } from './component-attributes.ts'
import { type DirectiveNode, toComponentHtml } from './component-html.ts'
import type { ComponentDeclaration } from '../core/components.ts'
import type { BodyError } from './markdown-types.ts'
import { VIDEO_HOSTS, videoEmbed } from './video-embed.ts'

/** A superset of what micromark-extension-directive reads as a directive with markup (see the module comment). */
const DIRECTIVE_SYNTAX = /(?:^|\n)[ \t>*+\-\d.)]*:{2,}[A-Za-z]|:[A-Za-z][\w-]*[[{]/

export function hasDirectives(markdown: string): boolean {
  return DIRECTIVE_SYNTAX.test(markdown)
}

const DIRECTIVE_TYPES = new Set(['textDirective', 'leafDirective', 'containerDirective'])
const WRITTEN = { textDirective: ':', leafDirective: '::', containerDirective: ':::' } as const
const KIND = { textDirective: 'text', leafDirective: 'leaf', containerDirective: 'container' } as const

/** Check and mark every directive of `tree` for rendering; the faults, at their place in `source`. */
export function applyComponents(
  tree: MdastRoot,
  components: ReadonlyMap<string, ComponentDeclaration>,
  source: string,
): BodyError[] {
  const errors: BodyError[] = []
  const visit = (parent: { children: RootContent[] }) => {
    for (let k = 0; k < parent.children.length; k++) {
      const node = parent.children[k]!
      if ('children' in node) visit(node as { children: RootContent[] })
      if (!DIRECTIVE_TYPES.has(node.type)) continue
      const directive = node as unknown as DirectiveNode
      const start = directive.position?.start ?? { line: 1, column: 1 }
      const fault = (detail: string) =>
        errors.push({ code: 'COMPONENT', line: start.line, column: start.column, detail })
      const attributes = directive.attributes ?? {}
      const written = `${WRITTEN[directive.type]}${directive.name}`
      const component = components.get(directive.name)
      if (!component) {
        const near = closest(directive.name, components.keys(), 2)
        fault(
          `unknown component ${written}${near ? ` (did you mean ${WRITTEN[directive.type]}${near}?)` : ''}; components: ${[...components.keys()].join(', ')}`,
        )
        continue
      }
      if (component.kind !== KIND[directive.type]) {
        fault(`${component.name} is written ${usage(component)}, not ${written}`)
        continue
      }
      if (directive.type === 'containerDirective' && !closed(directive, source)) {
        fault(`${written} is never closed: end it with a line of ::: (as many colons as it opened with)`)
        continue
      }
      const { values, faults } = checkAttributes(component, attributes)
      if (!faults.length && component.name === 'video' && values.src && !videoEmbed(values.src))
        faults.push(`video src must be a video page on ${VIDEO_HOSTS.join(', ')}, not "${values.src}"`)
      for (const detail of faults) fault(detail)
      if (!faults.length) toComponentHtml(directive, values)
    }
  }
  visit(tree)
  return errors
}

function usage(component: ComponentDeclaration): string {
  if (component.kind === 'text') return `inline as :${component.name}[text]{…}`
  if (component.kind === 'leaf') return `on its own line as ::${component.name}{…}`
  return `around content as :::${component.name}{…} … :::`
}

/** Whether a container ends with its closing fence (micromark runs an unclosed one to the end of its parent). */
function closed(node: DirectiveNode, source: string): boolean {
  const start = node.position?.start.offset
  const end = node.position?.end.offset
  if (start === undefined || end === undefined) return true
  const text = source.slice(start, end)
  const opening = /^:+/.exec(text)![0].length
  const last = text.slice(text.lastIndexOf('\n') + 1).replace(/^[\s>]*/, '')
  return text.includes('\n') && /^:+\s*$/.test(last) && last.trim().length >= opening
}
