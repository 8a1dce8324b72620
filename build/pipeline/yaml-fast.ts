/**
 * Frontmatter read the quick way: js-yaml with `yaml`'s own core schema (YAML
 * 1.2: the same nulls, booleans, integers and floats, dates kept as strings,
 * no merge keys), faster than `yaml`'s parseDocument (BENCHMARKS.md), which
 * builds a document of nodes with source positions for every value. Those
 * positions are only needed for an error message, so load.ts parses with
 * `yaml` only when asked where something is, or when this declines: any
 * anchor, alias, tag or complex key (frontmatter has no use for them, and
 * load.ts reports them), and any input js-yaml refuses, so every syntax
 * error keeps `yaml`'s message and position. The two read every input this
 * takes alike (test/build/pipeline/yaml-fast.test.ts).
 */
import { FAILSAFE_SCHEMA, load, Type } from 'js-yaml'

/** One js-yaml type per tag (js-yaml keeps only the last type of a tag), trying `yaml`'s forms of it in turn. */
function scalar(tag: string, forms: [test: RegExp, construct: (text: string) => unknown][]): Type {
  const formOf = (text: string) => forms.find(([test]) => test.test(text))
  return new Type(`tag:yaml.org,2002:${tag}`, {
    kind: 'scalar',
    resolve: (text: string) => formOf(text) !== undefined,
    construct: (text: string) => formOf(text)![1](text),
  })
}

/** node_modules/yaml/dist/schema/core/*.js, as js-yaml types. */
const CORE_SCHEMA = FAILSAFE_SCHEMA.extend({
  implicit: [
    scalar('null', [[/^(?:~|[Nn]ull|NULL)?$/, () => null]]),
    scalar('bool', [[/^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/, (text) => text[0] === 't' || text[0] === 'T']]),
    scalar('int', [
      [/^0o[0-7]+$/, (text) => Number.parseInt(text.slice(2), 8)],
      [/^[-+]?[0-9]+$/, (text) => Number.parseInt(text, 10)],
      [/^0x[0-9a-fA-F]+$/, (text) => Number.parseInt(text.slice(2), 16)],
    ]),
    scalar('float', [
      [
        /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/,
        (text) => (text.slice(-3).toLowerCase() === 'nan' ? Number.NaN : text[0] === '-' ? -Infinity : Infinity),
      ],
      [/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/, Number.parseFloat],
      [/^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/, Number.parseFloat],
    ]),
  ],
})

/**
 * What `yaml` reads instead. Anchors, aliases and tags (`&a`, `*a`, `!t`)
 * where a node may start: a line's start, after `- `, `? ` or `: `, after
 * `[`, `{` or `,` (in the middle of a plain scalar, `Cobalt & Pine`, they are
 * text); complex keys (`? k`), merge keys and directives. Then the corners
 * where js-yaml and `yaml` read alike-looking text differently (found by
 * test/build/pipeline/yaml-fast.test.ts): a null or empty key (`~: x`:
 * "null" to one, "" to the other) and any flow mapping (`{a}`: the same), as
 * frontmatter writes mappings as blocks; an escaped line break in a double-quoted
 * string; a quoted string or a flow collection over several lines, or a
 * comment right after one (`"a"#b`, `[a]#b`); a comment line between a key
 * and its value; a document marker (`---`) in a line; tabs in an
 * indentation; an empty sequence entry (`-` alone); a first line indented.
 */
const DECLINE =
  /^[ ]*\t|:[ \t]*\n[ \t]*#|^[ \t]*(?:---|\.\.\.)|(?:^|[ \t])-[ \t]*(?:#.*)?$|[\]}]#|(?:^[ \t]*|[-?:][ \t]+|[[{,][ \t]*)(?:[&*!]|\?(?:[ \t]|$))|(?:^|[\s[{,])(?:~|[Nn]ull|NULL)?[ \t]*:(?:[ \t]|$)|(?:^[ \t]*|[-?:][ \t]+|[[,][ \t]*)\{|<<[ \t]*:|^%|\\\n/m

/** The first line with content is indented: js-yaml then takes later lines indented less, `yaml` refuses them. */
const FIRST_LINE_INDENTED = /^(?:[ \t]*(?:#.*)?\n)*[ \t]+[^\s#]/

/** Where a quoted scalar may start: as a node, like the indicators above. */
const QUOTE_START = /(?:^[ \t]*|[-?:][ \t]+|[[{,][ \t]*)(['"])/g

/**
 * Whether a quoted scalar of `line` goes on to the next line (`yaml` wants
 * its following lines indented, js-yaml takes them as they come), or a
 * comment follows it without a space.
 */
function quoteGoesOn(line: string): boolean {
  QUOTE_START.lastIndex = 0
  for (let start = QUOTE_START.exec(line); start; start = QUOTE_START.exec(line)) {
    const quote = start[1]
    let at = QUOTE_START.lastIndex
    for (; at < line.length; at++) {
      if (quote === '"' && line[at] === '\\') at++
      else if (line[at] === quote && !(quote === "'" && line[at + 1] === "'")) break
      else if (quote === "'" && line[at] === "'") at++
    }
    // Unclosed, or closed right against a comment (`"a"#b`: an error to `yaml`, a comment to js-yaml).
    if (at >= line.length || line[at + 1] === '#') return true
    QUOTE_START.lastIndex = at + 1
  }
  return false
}

/** Where a flow collection may start. */
const FLOW_START = /(?:^[ \t]*|[-?:][ \t]+)[[{]/

/** Whether a flow collection (`[a, b]`) starts on `line` and goes on to the next: both read such lines differently. */
function flowGoesOn(line: string): boolean {
  if (!FLOW_START.test(line)) return false
  let depth = 0
  for (const c of line) depth += c === '[' || c === '{' ? 1 : c === ']' || c === '}' ? -1 : 0
  return depth > 0
}

/** The frontmatter's data, or undefined when `yaml` must read it. */
export function loadFrontmatter(text: string): { data: unknown } | undefined {
  if (DECLINE.test(text) || FIRST_LINE_INDENTED.test(text)) return undefined
  if (text.split('\n').some((line) => quoteGoesOn(line) || flowGoesOn(line))) return undefined
  try {
    return { data: load(text, { schema: CORE_SCHEMA }) }
  } catch {
    return undefined
  }
}
