/**
 * A body's Markdown as agents read it (llms-full.txt, MCP): its components
 * written as plain Markdown, so no `:::` is left. A video reads
 * "Video: title (url)", a call to action is a link, a callout and a quote
 * are block quotes. Only published bodies come here, whose directives the
 * build has checked, so reading them line by line is enough; code blocks
 * are left as they are.
 */

const FENCE = /^\s*(`{3,}|~{3,})/
const LEAF = /^((?:\s*>)*\s*)::([a-z][\w-]*)(?:\[([^\]]*)\])?(\{[^}]*\})?\s*$/i
const OPEN = /^((?:\s*>)*\s*):::+([a-z][\w-]*)(?:\[([^\]]*)\])?(\{[^}]*\})?\s*$/i
const CLOSE = /^((?:\s*>)*\s*):::+\s*$/
const TEXT_DIRECTIVE = /(^|[^:\w]):([a-z][\w-]*)(?:\[([^\]]*)\])?(\{[^}]*\})?/gi
const ATTRIBUTE = /([\w-]+)(?:=(?:"([^"]*)"|'([^']*)'|([^\s"'}]+)))?/g

/** `{tone=warning title="Mind the gap"}` as an object. */
export function directiveAttributes(written: string | undefined): Record<string, string> {
  const out: Record<string, string> = {}
  if (!written) return out
  for (const [, name, double, single, bare] of written.slice(1, -1).matchAll(ATTRIBUTE))
    out[name!] = double ?? single ?? bare ?? ''
  return out
}

function leaf(name: string, label: string | undefined, attrs: Record<string, string>): string {
  if (name === 'video') return `Video: ${attrs.title ?? label ?? ''} (${attrs.src ?? ''})`
  if (name === 'cta') return `[${attrs.label ?? label ?? ''}](${attrs.href ?? ''})`
  return label ?? ''
}

/**
 * What any change below needs somewhere in the body: a directive's colons
 * (`::`, `:name[` or `:name{`), or a line ending in "> " (the last step trims
 * those). Most bodies have neither, and are their own readable text.
 */
const MAY_CHANGE = /::|:[a-z][\w-]*[[{]|> $/im

export function readableMarkdown(markdown: string): string {
  if (!MAY_CHANGE.test(markdown)) return markdown
  const out: string[] = []
  const open: { name: string; attrs: Record<string, string> }[] = []
  let fence: string | undefined
  for (const line of markdown.split('\n')) {
    const quote = '> '.repeat(open.length)
    const marker = FENCE.exec(line)?.[1]
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined
      out.push(quote + line)
      continue
    }
    if (marker) {
      fence = marker
      out.push(quote + line)
      continue
    }
    const leafMatch = LEAF.exec(line)
    const openMatch = OPEN.exec(line)
    const closeMatch = CLOSE.exec(line)
    if (openMatch) {
      const [, prefix, name, label, written] = openMatch
      const attrs = directiveAttributes(written)
      open.push({ name: name!, attrs })
      const title =
        name === 'callout' ? [capital(attrs.tone ?? 'note'), attrs.title ?? label].filter(Boolean).join(': ') : label
      if (title) out.push(`${quote}${prefix}> **${title}**\n${quote}${prefix}>`)
    } else if (closeMatch && !open.length) {
      // A section (contract/sections.ts) may start inside a component: its closing line alone says nothing.
    } else if (closeMatch) {
      const { name, attrs } = open.pop()!
      const caption = [attrs.attribution, attrs.role].filter(Boolean).join(', ')
      if (name === 'quote' && caption)
        out.push(`${'> '.repeat(open.length)}>\n${'> '.repeat(open.length)}> — ${caption}`)
    } else if (leafMatch) {
      const [, prefix, name, label, written] = leafMatch
      out.push(quote + prefix + leaf(name!, label, directiveAttributes(written)))
    } else
      out.push(
        quote +
          line.replace(TEXT_DIRECTIVE, (all, before: string, _name, label?: string, written?: string) =>
            label === undefined && written === undefined ? all : before + (label ?? ''),
          ),
      )
  }
  return out.join('\n').replace(/> $/gm, '>')
}

function capital(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1)
}
