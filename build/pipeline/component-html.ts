/**
 * Directives (mdast-util-directive's nodes) to the markup the sanitiser
 * allows, written on the mdast as `data.hName`/`hProperties`, the way
 * mdast-util-to-hast reads them, so the HTML goes through the same
 * sanitiser as every other element. Built-in components have their own
 * markup; any other declared one becomes `<div>` (`<span>` inline) with
 * `class="component component-NAME"`, `data-component="NAME"` and one
 * `data-ATTR` per attribute.
 */
import type { Properties } from 'hast'
import type { Parent, PhrasingContent, RootContent } from 'mdast'
import { videoEmbed } from './video-embed.ts'

/** What mdast-util-directive makes of `:name`, `::name` and `:::name` (its own types would be a dependency of their own). */
export interface DirectiveNode extends Parent {
  type: 'textDirective' | 'leafDirective' | 'containerDirective'
  name: string
  attributes?: Record<string, string | null | undefined> | null
  data?: { hName?: string; hProperties?: Properties; directiveLabel?: boolean }
}

type Props = Properties

/** `data-my-attr` as a hast property name. */
function dataProperty(name: string): string {
  return `data${name.replace(/(?:^|-)([a-z0-9])/g, (_, c: string) => c.toUpperCase())}`
}

function base(name: string, values: Record<string, string>): Props {
  const props: Props = { className: ['component', `component-${name}`], dataComponent: name }
  for (const [key, value] of Object.entries(values)) props[dataProperty(key)] = value
  return props
}

function textNode(value: string): PhrasingContent {
  return { type: 'text', value }
}

/** Mark `node` to render as the component's markup. */
export function toComponentHtml(node: DirectiveNode, values: Record<string, string>): void {
  const children = node.children as RootContent[]
  const label =
    node.type === 'containerDirective' &&
    (children[0]?.data as { directiveLabel?: boolean } | undefined)?.directiveLabel
  if (label) children.shift()
  switch (node.name) {
    case 'callout': {
      node.data = { hName: 'aside', hProperties: base('callout', values) }
      if (values.title)
        children.unshift({
          type: 'paragraph',
          data: { hProperties: { className: ['component-callout-title'] } },
          children: [{ type: 'strong', children: [textNode(values.title)] }],
        })
      return
    }
    case 'quote': {
      const caption = [values.attribution, values.role].filter(Boolean).join(', ')
      node.data = { hName: 'figure', hProperties: base('quote', values) }
      node.children = [
        { type: 'blockquote', children: children as never },
        { type: 'paragraph', data: { hName: 'figcaption' }, children: [textNode(`— ${caption}`)] },
      ] as never
      return
    }
    case 'video': {
      const embed = videoEmbed(values.src!)!
      node.data = { hName: 'figure', hProperties: { ...base('video', { provider: embed.provider, ...values }) } }
      node.children = [
        {
          type: 'paragraph',
          data: { hName: 'iframe', hProperties: { src: embed.embed, title: values.title } },
          children: [],
        },
        {
          type: 'paragraph',
          data: { hName: 'figcaption' },
          children: [{ type: 'link', url: values.src!, children: [textNode(values.title!)] }],
        },
      ] as never
      return
    }
    case 'cta': {
      node.data = { hName: 'p', hProperties: base('cta', values) }
      node.children = [
        {
          type: 'link',
          url: values.href!,
          data: { hProperties: { className: ['component-cta-link'] } },
          children: [textNode(values.label!)],
        },
      ] as never
      return
    }
    default:
      node.data = { hName: node.type === 'textDirective' ? 'span' : 'div', hProperties: base(node.name, values) }
      // A leaf's `[label]` is its content, as a paragraph so the markup stays a block.
      if (node.type === 'leafDirective' && children.length)
        node.children = [{ type: 'paragraph', children: children as PhrasingContent[] }] as never
  }
}
