/**
 * JSON-shaped data as block YAML, fast: the editor's configuration lists every
 * published item (the `related` choices), and `yaml`'s stringify, which builds
 * a document of nodes first, took a third of a small build's whole-content
 * outputs to write it. Strings are plain where no YAML reader could take them
 * for anything else, else double-quoted (JSON's escapes are YAML's, and the
 * few characters YAML may not hold raw are escaped too); `parse(toYaml(v))`
 * equals `v` for any JSON value (test/contract/yaml-text.test.ts).
 *
 * @example toYaml({ a: [1, 'b'] }) // 'a:\n  - 1\n  - b\n'
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

export function toYaml(value: unknown): string {
  const out: string[] = []
  block(value as Json, '', out)
  return out.join('')
}

/** Writes `value` as the content after a key or a dash: inline scalars and empty collections, else nested lines. */
function block(value: Json, indent: string, out: string[]): void {
  if (Array.isArray(value)) {
    if (value.length === 0) return void out.push(' []\n')
    if (indent !== '' || out.length) out.push('\n')
    for (const item of value) {
      out.push(`${indent}-`)
      if (isMapping(item) && Object.keys(item).length) mappingAfterDash(item, `${indent}  `, out)
      else block(item, `${indent}  `, out)
    }
  } else if (isMapping(value)) {
    const keys = Object.keys(value)
    if (keys.length === 0) return void out.push(' {}\n')
    if (indent !== '' || out.length) out.push('\n')
    for (const key of keys) {
      out.push(`${indent}${scalar(key)}:`)
      block(value[key]!, `${indent}  `, out)
    }
  } else out.push(` ${scalar(value)}\n`)
}

/** A mapping as a sequence item: its first key on the dash's line (`- name: x`), the others below. */
function mappingAfterDash(value: { [key: string]: Json }, indent: string, out: string[]): void {
  for (const [i, key] of Object.keys(value).entries()) {
    out.push(`${i === 0 ? ' ' : indent}${scalar(key)}:`)
    block(value[key]!, `${indent}  `, out)
  }
}

function isMapping(value: Json): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Plain text that YAML 1.1 and 1.2 readers both read back as this string. */
const PLAIN = /^[A-Za-z_/][\w ./()'-]*$/
/** Words some YAML readers take for booleans or null. */
const RESERVED = /^(?:true|false|null|yes|no|on|off|y|n|~)$/i
/** What YAML may not hold raw in a double-quoted string (outside c-printable), and line separators (JSON.stringify escapes lone surrogates itself). */
const NOT_PRINTABLE = /[\u007f-\u0084\u0086-\u009f\u2028\u2029\ufffe\uffff]/g

function scalar(value: Json): string {
  if (typeof value !== 'string') return JSON.stringify(value)
  if (PLAIN.test(value) && !value.endsWith(' ') && !RESERVED.test(value)) return value
  return JSON.stringify(value).replace(NOT_PRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}
