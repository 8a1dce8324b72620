/**
 * A WordPress export (WXR: RSS 2.0 with the `wp:` namespace) read as a
 * stream with saxes: one item is held at a time, so an export of any size
 * is read in bounded memory. Comments (`wp:comment`) are skipped.
 */
import { createReadStream } from 'node:fs'
import { SaxesParser, type SaxesTagPlain } from 'saxes'
import { ImportError } from './import-error.ts'

/** One `<item>` as the export writes it: its fields by tag name, categories and post meta. */
export interface WxrItem {
  fields: Record<string, string>
  categories: { domain: string; nicename: string; name: string }[]
  meta: Record<string, string>
}

export interface WxrAuthor {
  login: string
  displayName: string
}

export type WxrEvent =
  | { kind: 'site'; link: string }
  | { kind: 'author'; author: WxrAuthor }
  | { kind: 'item'; item: WxrItem }

/** The export's channel link, authors and items, in file order. */
export async function* readWxr(file: string): AsyncGenerator<WxrEvent> {
  const parser = new SaxesParser({ xmlns: false, position: true })
  const queue: WxrEvent[] = []
  const stack: string[] = []
  let text = ''
  let item: WxrItem | undefined
  let author: Record<string, string> | undefined
  let meta: Record<string, string> | undefined
  let category: SaxesTagPlain | undefined
  let inComment = 0
  parser.on('opentag', (tag) => {
    stack.push(tag.name)
    text = ''
    if (tag.name === 'wp:comment') inComment++
    else if (tag.name === 'item') item = { fields: {}, categories: [], meta: {} }
    else if (tag.name === 'wp:author' && !item) author = {}
    else if (tag.name === 'wp:postmeta' && item && !inComment) meta = {}
    else if (tag.name === 'category' && item) category = tag
  })
  parser.on('text', (t) => (text += t))
  parser.on('cdata', (t) => (text += t))
  parser.on('closetag', (tag) => {
    stack.pop()
    const name = tag.name
    if (name === 'wp:comment') inComment--
    else if (inComment) return
    else if (name === 'item' && item) {
      queue.push({ kind: 'item', item })
      item = undefined
    } else if (item && meta) {
      if (name === 'wp:postmeta') {
        if (meta['wp:meta_key']) item.meta[meta['wp:meta_key']] = meta['wp:meta_value'] ?? ''
        meta = undefined
      } else meta[name] = text
    } else if (item && category && name === 'category') {
      const attr = (key: string) => String(category?.attributes[key] ?? '')
      item.categories.push({ domain: attr('domain'), nicename: attr('nicename'), name: text.trim() })
      category = undefined
    } else if (item && stack.at(-1) === 'item') item.fields[name] = text
    else if (author) {
      if (name === 'wp:author') {
        queue.push({
          kind: 'author',
          author: { login: author['wp:author_login'] ?? '', displayName: author['wp:author_display_name'] ?? '' },
        })
        author = undefined
      } else author[name] = text.trim()
    } else if (name === 'link' && stack.at(-1) === 'channel') queue.push({ kind: 'site', link: text.trim() })
  })
  let failure: Error | undefined
  parser.on('error', (error) => {
    failure ??= error
  })
  for await (const chunk of createReadStream(file, { encoding: 'utf8' })) {
    parser.write(chunk as string)
    if (failure) throw xmlError(file, failure)
    yield* queue.splice(0)
  }
  parser.close()
  if (failure) throw xmlError(file, failure)
  yield* queue.splice(0)
}

/** saxes says `file:line:col: message`; ours names the file as given. */
function xmlError(file: string, error: Error): ImportError {
  const [, line, column, message] = /^(?:.*?:)?(\d+):(\d+): (.*)$/s.exec(error.message) ?? []
  return new ImportError(
    line ? `${file}:${line}:${column} is not a WordPress export: ${message}` : `${file}: ${error.message}`,
  )
}
