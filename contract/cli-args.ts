/**
 * Every command's arguments, read one way: node's `parseArgs` in strict mode
 * over a table the command declares once, which also writes its `--help`.
 * Anything the table does not name is a usage error (exit 2, one line, no
 * stack trace) that names it and, when one is close, the command's own option
 * it was probably meant to be. `--help` (`-h`) is every command's, and wins
 * over any other argument, so asking for help never does anything else.
 *
 * @example
 * const BUILD = defineCommand({ name: 'npm run build', summary: 'compile content/ into dist/',
 *   options: { force: { type: 'boolean', help: 'build everything again' } } })
 * const args = parseCommand(BUILD, process.argv.slice(2))
 * if (args.help) return printHelp(BUILD)
 */
import { parseArgs } from 'node:util'
import { report } from './cli.ts'
import { closest } from './did-you-mean.ts'
import { UsageError } from './errors.ts'

export interface OptionSpec {
  readonly type: 'string' | 'boolean'
  readonly short?: string
  /** A string option given more than once keeps every value. */
  readonly multiple?: boolean
  /** The value's name in the help: DIR, YYYY-MM-DD. */
  readonly value?: string
  /** What it does, for the help; an option without one is left out of it. */
  readonly help?: string
}

export type OptionTable = Readonly<Record<string, OptionSpec>>

export interface CommandSpec<O extends OptionTable = OptionTable> {
  /** How a user runs it: `npm run build`, `npm run keys -- webhook`. */
  readonly name: string
  /** What it does, one line. */
  readonly summary: string
  /** Its positional arguments as the help writes them: `<collection> "Title"`. */
  readonly operands?: string
  /** How many positional arguments it takes at most (none unless said). */
  readonly positionals?: number
  readonly options: O
  /** Lines the help ends with: other forms of the command, the settings it reads. */
  readonly more?: string
}

/** An option's value as its declaration types it (any value for a table typed only as OptionTable). */
type ValueOf<S extends OptionSpec> = S['type'] extends 'boolean'
  ? boolean
  : S['type'] extends 'string'
    ? S['multiple'] extends true
      ? string[]
      : string
    : boolean | string | string[]

export interface ParsedArgs<O extends OptionTable> {
  /** `--help` or `-h` was given: print the help and do nothing else. */
  help: boolean
  values: { [K in keyof O]?: ValueOf<O[K]> }
  positionals: string[]
}

const HELP: OptionSpec = { type: 'boolean', short: 'h', help: 'print this help and do nothing else' }

/** A command's declaration, typed as written (so its values are typed by its table). */
export function defineCommand<const O extends OptionTable>(spec: CommandSpec<O>): CommandSpec<O> {
  return spec
}

/** `argv` read by `spec`'s table; a UsageError naming the first argument it does not take. */
export function parseCommand<O extends OptionTable>(spec: CommandSpec<O>, argv: readonly string[]): ParsedArgs<O> {
  const options = { ...spec.options, help: HELP }
  const max = spec.positionals ?? 0
  // A first, lenient pass finds --help and the unknown options, which strict mode only reports in its own words.
  const { tokens } = parseArgs({ args: [...argv], options, strict: false, allowPositionals: true, tokens: true })
  // The positionals go with it: a command with subcommands prints the help of the one named.
  if (tokens.some((t) => t.kind === 'option' && t.name === 'help'))
    return { help: true, values: {}, positionals: tokens.flatMap((t) => (t.kind === 'positional' ? [t.value] : [])) }
  for (const token of tokens)
    if (token.kind === 'option' && !Object.hasOwn(options, token.name) && !isShortOf(options, token.name))
      throw new UsageError(`unknown option ${token.rawName} for ${spec.name}${suggestion(token.name, options, spec)}`)
  let parsed: ReturnType<typeof parseArgs>
  try {
    parsed = parseArgs({ args: [...argv], options, strict: true, allowPositionals: true })
  } catch (error) {
    if (!(error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS_')) throw error
    throw new UsageError(valueMistake(tokens, options, spec) ?? `${spec.name}: ${(error as Error).message}`)
  }
  if (parsed.positionals.length > max) {
    const extra = parsed.positionals[max]!
    const takes = max === 0 ? 'takes no arguments' : `takes ${spec.operands ?? `${max} arguments`}`
    throw new UsageError(`unexpected argument "${extra}": ${spec.name} ${takes} (${helpHint(spec)})`)
  }
  return { help: false, values: parsed.values as ParsedArgs<O>['values'], positionals: parsed.positionals }
}

/** The help `--help` prints: usage, what it does, every option the table describes. */
export function helpOf(spec: CommandSpec): string {
  const described = Object.entries({ ...spec.options, help: HELP }).filter(([, o]) => o.help)
  const rows = described.map(([name, o]) => {
    const flag = `${o.short ? `-${o.short}, ` : '    '}--${name}${o.type === 'string' ? ` ${o.value ?? 'VALUE'}` : ''}`
    return [flag, `${o.help}${o.multiple ? ' (may be given more than once)' : ''}`] as const
  })
  const width = Math.max(...rows.map(([flag]) => flag.length)) + 2
  const takesOptions = described.length > 1
  const args = [spec.operands, takesOptions ? '[options]' : ''].filter(Boolean).join(' ')
  return [
    `usage: ${spec.name}${args ? `${separator(spec)}${args}` : ''}`,
    '',
    `${spec.summary}`,
    '',
    'options:',
    ...rows.map(([flag, help]) => `  ${flag.padEnd(width)}${help}`),
    ...(spec.more ? ['', spec.more] : []),
  ].join('\n')
}

/** The help's first line: `usage: npm run new -- <collection> "Title" [options]`. */
export function usageOf(spec: CommandSpec): string {
  return helpOf(spec).split('\n', 1)[0]!
}

/** Print the help on stdout; the exit code of having done so. */
export function printHelp(spec: CommandSpec, out: (text: string) => void = (text) => console.log(text)): 0 {
  out(helpOf(spec))
  return 0
}

/**
 * For a script that reads its arguments at its top level (bench/): its
 * arguments, or the process ends, with 0 once the help is printed and with 2
 * after a usage error's one line.
 */
export function commandArgs<O extends OptionTable>(spec: CommandSpec<O>, argv: readonly string[]): ParsedArgs<O> {
  let args: ParsedArgs<O>
  try {
    args = parseCommand(spec, argv)
  } catch (error) {
    process.exit(report(error))
  }
  if (args.help) process.exit(printHelp(spec))
  return args
}

/** `(did you mean x?)` for a name among `names`, or nothing when none is close. */
export function didYouMean(name: string, names: readonly string[], prefix = ''): string {
  const near = names.find((n) => name.length > 2 && n.startsWith(name)) ?? closest(name, names, name.length > 4 ? 2 : 1)
  return near ? ` (did you mean ${prefix}${near}?)` : ''
}

/** What goes between the command and its arguments: npm's `--`, once. */
const separator = (spec: CommandSpec) => (spec.name.includes(' -- ') ? ' ' : ' -- ')

const helpHint = (spec: CommandSpec) => `\`${spec.name}${separator(spec)}--help\` lists what it takes`

function isShortOf(options: OptionTable, name: string): boolean {
  return Object.values(options).some((o) => o.short === name)
}

function suggestion(name: string, options: OptionTable, spec: CommandSpec): string {
  const near = didYouMean(name, Object.keys(options), '--')
  return near || `; ${helpHint(spec)}`
}

type Token = NonNullable<ReturnType<typeof parseArgs>['tokens']>[number]

/** Strict mode's refusal of a value, said as the option's help would say it. */
function valueMistake(tokens: readonly Token[], options: OptionTable, spec: CommandSpec): string | undefined {
  for (const token of tokens) {
    if (token.kind !== 'option') continue
    const [long, option] = Object.entries(options).find(([n, o]) => n === token.name || o.short === token.name) ?? []
    if (!option) continue
    const named = `--${long} ${option.value ?? 'VALUE'}`
    if (option.type === 'boolean' && token.value !== undefined) return `${token.rawName} takes no value (${spec.name})`
    if (option.type === 'string' && token.value === undefined) return `${token.rawName} needs a value: ${named}`
    if (option.type === 'string' && !token.inlineValue && token.value?.startsWith('-'))
      return `${token.rawName} needs a value, not the option ${token.value}: ${named} (a value that starts with "-" as --${long}=${token.value})`
  }
  return undefined
}
