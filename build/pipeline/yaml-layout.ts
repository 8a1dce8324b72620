/**
 * The layout mistakes of block YAML, line by line, as an author makes them:
 * a key indented more than the key above it (one extra space), a key between
 * two levels, `title:Launch` without its space, a quote never closed. The
 * YAML parser reports those where its grammar gives up, which is rarely the
 * line the author got wrong (`published_at: 2026-12-01` then ` authors:` is,
 * to YAML, a date that goes on to the next line, and a nested mapping inside
 * it), with advice about its grammar. Read only when the parser has refused
 * the frontmatter (load.ts): each mistake found here names the line to
 * change and how, and `fixed` is the text with every such change made, for
 * the parser to say what else is wrong once they are.
 */

export interface LayoutProblem {
  /** Offset in the frontmatter of what to change (a key's first character, a quote). */
  offset: number
  /** The key of the line, or `frontmatter`. */
  field: string
  detail: string
}

/** A block the lines are in: a mapping whose keys start at `col`, or a list whose `-` do. */
interface Level {
  col: number
  kind: 'map' | 'seq'
  /** The dotted path of what it holds (`authors[0]`), '' for the frontmatter itself. */
  path: string
  /** A list's items so far. */
  items: number
}

/** `key:` or `key: value` (the key plain or quoted), the value with any comment. */
const KEY = /^([A-Za-z_][\w-]*|"[^"\n]*"|'[^'\n]*')[ \t]*:(?:[ \t]+(.*?))?[ \t]*$/
/** `key:value`: a colon with no space after it, which YAML reads as part of one word. */
const NO_SPACE = /^([A-Za-z_][\w-]*):([^\s/:].*)$/
const ITEM = /^-(?:[ \t]+|$)/

/** The mistakes of `yaml` (frontmatter text) and the text with them fixed; undefined when none is found. */
export function layoutProblems(yaml: string): { problems: LayoutProblem[]; fixed: string } | undefined {
  const lines = yaml.split('\n')
  const problems: LayoutProblem[] = []
  const stack: Level[] = [{ col: 0, kind: 'map', path: '', items: 0 }]
  const top = () => stack.at(-1)!
  /** The key of the line before, when it has no value: the lines after it indented more are its value. */
  let open: { col: number; path: string } | undefined
  /** The column of a key whose value is a block scalar (`|`, `>`): lines indented more are its text. */
  let block: number | undefined
  let lineStart = -1
  for (let i = 0; i < lines.length; i++) {
    lineStart += i === 0 ? 1 : lines[i - 1]!.length + 1
    const line = lines[i]!
    if (line.trim() === '' || /^[ \t]*#/.test(line)) continue
    // Tabs and document markers have messages of their own (yaml-messages.ts).
    if (/^ *\t/.test(line) || /^(?:---|\.\.\.)(?:\s|$)/.test(line)) return undefined
    const written = line.length - line.trimStart().length
    if (block !== undefined) {
      if (written > block) continue
      block = undefined
    }
    const content = line.slice(written)
    /** Where a character of the line's content is in the frontmatter as written. */
    const at = (index: number) => lineStart + written + index
    const item = ITEM.exec(content)
    const rest = item ? content.slice(item[0].length) : content
    const key = KEY.exec(rest)
    let n = written
    if (open && (n > open.col || (item && n === open.col))) {
      const parent = open
      open = undefined
      // A value on the line after its key: text, which may go on over the lines indented as much.
      if (!item && !key) {
        block = parent.col
        continue
      }
      stack.push({ col: n, kind: item ? 'seq' : 'map', path: parent.path, items: 0 })
    } else {
      open = undefined
      const popped: Level[] = []
      while (stack.length > 1 && top().col > n) popped.push(stack.pop()!)
      // A key in the column of a list ends the list: the key belongs to the mapping around it.
      if (!item && top().kind === 'seq' && top().col === n) popped.push(stack.pop()!)
      if (top().col !== n) {
        const inner = popped.findLast((l) => l.kind === (item ? 'seq' : 'map') && l.col > n)
        // Deeper, not a key: more of a plain value, which YAML lets go on to lines indented more.
        if (!key && !item) {
          if (popped.length) return undefined
          continue
        }
        const outer = top()
        const to = inner && inner.col - n <= n - outer.col ? inner : outer
        problems.push({
          offset: at(0),
          field: key ? unquoted(key[1]!) : 'frontmatter',
          detail: inner ? between(n, outer, inner, Boolean(item)) : tooDeep(outer, Boolean(item)),
        })
        if (to === inner) for (let j = popped.length - 1; j >= popped.indexOf(inner); j--) stack.push(popped[j]!)
        n = to.col
        lines[i] = ' '.repeat(n) + content
      }
    }
    const level = top()
    if (item ? level.kind !== 'seq' : level.kind !== 'map') return undefined
    let path = level.path
    /** Where the key starts in the line's content. */
    let keyAt = 0
    if (item) {
      path = `${level.path}[${level.items++}]`
      keyAt = item[0].length
      if (!key) {
        if (rest === '' || unclosed(rest) || opensFlow(rest)) return undefined
        continue
      }
      stack.push({ col: n + keyAt, kind: 'map', path, items: 0 })
    }
    if (!key) {
      const joined = NO_SPACE.exec(rest)
      if (!joined) return undefined
      problems.push({
        offset: at(keyAt),
        field: joined[1]!,
        detail: `a colon needs a space after it, else YAML reads "${rest}" as one word: write ${joined[1]}: ${joined[2]}`,
      })
      lines[i] = `${' '.repeat(n)}${joined[1]}: ${joined[2]}`
      continue
    }
    const name = unquoted(key[1]!)
    const keyPath = path ? `${path}.${name}` : name
    const raw = key[2] ?? ''
    const value = raw.replace(/(?:^|[ \t])#.*$/, '')
    if (value === '') open = { col: n + keyAt, path: keyPath }
    else if (/^[|>]/.test(value)) block = n + keyAt
    else if (opensFlow(value)) return undefined
    else {
      const quote = unclosed(raw)
      if (quote === undefined) continue
      // A quoted value may go on over lines; closed nowhere after, it was meant to end on this one.
      if (closesLater(yaml, lineStart + line.length, quote)) return undefined
      problems.push({
        offset: at(keyAt + rest.indexOf(raw, key[1]!.length)),
        field: name,
        detail: `the value opened with ${quote} is never closed: end it with ${quote} on its line, like ${name}: ${raw.trimEnd()}${quote}`,
      })
      lines[i] = `${lines[i]!.trimEnd()}${quote}`
    }
  }
  return problems.length ? { problems, fixed: lines.join('\n') } : undefined
}

/** The advice for a key (or item) indented more than the block it is in allows. */
function tooDeep(level: Level, item: boolean): string {
  const what = item ? 'this list item' : 'this key'
  const where = level.path
    ? `the ${level.kind === 'seq' ? 'items' : 'keys'} of ${level.path} start at column ${level.col + 1}`
    : 'keys of the frontmatter start at column 1'
  return `${what} is indented more than the ${item ? 'line' : 'key'} above it; ${where}`
}

/** The advice for a key (or item) between the columns of two blocks. */
function between(n: number, outer: Level, inner: Level, item: boolean): string {
  const of = (level: Level) =>
    level.path ? `a ${level.kind === 'seq' ? 'list item' : 'field'} of ${level.path}` : 'a field of the frontmatter'
  return `${item ? 'this list item' : 'this key'} is in column ${n + 1}, in line with no ${item ? 'item' : 'key'} above it: start it at column ${inner.col + 1} for ${of(inner)}, or at column ${outer.col + 1} for ${of(outer)}`
}

function unquoted(key: string): string {
  return /^["']/.test(key) ? key.slice(1, -1) : key
}

/** The quote a value opens and does not close on its line, if any. */
function unclosed(value: string): '"' | "'" | undefined {
  const quote = value[0]
  if (quote !== '"' && quote !== "'") return undefined
  for (let at = 1; at < value.length; at++) {
    if (quote === '"' && value[at] === '\\') at++
    else if (value[at] === quote) {
      if (quote === "'" && value[at + 1] === "'") at++
      else return undefined
    }
  }
  return quote
}

/** Whether `value` opens a flow collection (`[a, b`) it does not close on its line: it goes on to the next. */
function opensFlow(value: string): boolean {
  if (!/^[[{]/.test(value)) return false
  let depth = 0
  for (const c of value) depth += c === '[' || c === '{' ? 1 : c === ']' || c === '}' ? -1 : 0
  return depth > 0
}

/** Whether `quote` occurs in `text` after `from` (a closing quote on a later line). */
function closesLater(text: string, from: number, quote: string): boolean {
  for (let at = from; at < text.length; at++) {
    if (quote === '"' && text[at] === '\\') at++
    else if (text[at] === quote) return true
  }
  return false
}
