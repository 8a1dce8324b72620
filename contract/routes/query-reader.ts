/**
 * The gateway's reader of query parameters, compiled from their declarations
 * (route.ts, QueryParameter): each parameter once, its value decoded as the
 * document says (an integer, one string, or a comma-separated list) and
 * checked against its JSON Schema, each bad one an error naming it. What the
 * lists, search, the change feed and the MCP tools parse a request with, so
 * the document's bounds are the enforced ones by construction.
 *
 * A route's parameters are compiled once, on first use, into closures
 * (query-checks.ts): a request costs one pass over what it sent and the
 * checks of the parameters it gave; messages of a parameter declared without
 * its own: query-messages.ts.
 */
import type { ParameterError } from '../query-values.ts'
import { integerBounds, listCheck, stringCheck } from './query-checks.ts'
import { defaultMessage } from './query-messages.ts'
import type { Failure, Parameter, QueryParameter } from './route.ts'

/** The parsed query: each parameter's value by its key, defaults filled in. */
export type QueryValues = Record<string, unknown>

/** One parameter's reading: its value as sent (or REPEATED), into the parsed query or an error. */
interface Compiled {
  name: string
  read: (raw: string | typeof REPEATED, values: QueryValues, errors: ParameterError[]) => void
  missing: (values: QueryValues, errors: ParameterError[]) => void
}
type QueryReader = (params: URLSearchParams, errors: ParameterError[]) => QueryValues

const REPEATED = Symbol('repeated')
/** Up to this many parameters, each is looked up in the query; more, and the query is gone through once. */
const FEW = 2
const INTEGER = /^-?(?:0|[1-9][0-9]{0,15})$/

const readers = new WeakMap<readonly Parameter[], QueryReader>()
const alone = new WeakMap<Parameter, readonly Parameter[]>()

/**
 * The reader of `parameters`' query ones, compiled now: it reads them from a
 * query, bad ones into `errors` in the order declared, and ignores unknown
 * parameters. Made once per route (or tool) and kept.
 */
export function queryReader(parameters: readonly Parameter[]): QueryReader {
  return compileAll(parameters)
}

/** Read with the reader of `parameters`, compiled the first time this array is seen. */
export function readQuery(
  parameters: readonly Parameter[],
  params: URLSearchParams,
  errors: ParameterError[],
): QueryValues {
  let reader = readers.get(parameters)
  if (!reader) readers.set(parameters, (reader = compileAll(parameters)))
  return reader(params, errors)
}

/** Read one query parameter's value (undefined when it is not given and has no default). */
export function readParameter(parameter: Parameter, params: URLSearchParams, errors: ParameterError[]): unknown {
  let parameters = alone.get(parameter)
  if (!parameters) alone.set(parameter, (parameters = [parameter]))
  const values = readQuery(parameters, params, errors)
  return values[(parameter as QueryParameter).key ?? parameter.name]
}

function compileAll(parameters: readonly Parameter[]): QueryReader {
  const compiled = parameters
    .filter((p): p is QueryParameter => p.in === 'query' && !(p as QueryParameter).readElsewhere)
    .map(compile)
  if (compiled.length <= FEW)
    return (params, errors) => {
      const values: QueryValues = {}
      for (let i = 0; i < compiled.length; i++) {
        const c = compiled[i]!
        const given = params.getAll(c.name)
        if (given.length === 0) c.missing(values, errors)
        else c.read(given.length === 1 ? given[0]! : REPEATED, values, errors)
      }
      return values
    }
  const index = new Map(compiled.map((c, i) => [c.name, i]))
  return (params, errors) => {
    const values: QueryValues = {}
    // One pass over what was sent, then each parameter in the declared order.
    let given: (string | typeof REPEATED | undefined)[] | undefined
    for (const [name, value] of params) {
      const i = index.get(name)
      if (i === undefined) continue
      given ??= new Array(compiled.length)
      given[i] = given[i] === undefined ? value : REPEATED
    }
    for (let i = 0; i < compiled.length; i++) {
      const raw = given?.[i]
      if (raw === undefined) compiled[i]!.missing(values, errors)
      else compiled[i]!.read(raw, values, errors)
    }
    return values
  }
}

function compile(p: QueryParameter): Compiled {
  const { name, schema, refused } = p
  const key = p.key ?? name
  const fallback = schema.default as unknown
  const generic = defaultMessage(schema)
  const invalid = p.invalid ?? generic
  const decode = decoder(p)
  return {
    name,
    missing: (values, errors) => {
      if (p.required) errors.push({ parameter: name, message: invalid({ keyword: 'required', raw: '' }) })
      else if (fallback !== undefined) values[key] = fallback
    },
    read: (raw, values, errors) => {
      if (raw === REPEATED) errors.push({ parameter: name, message: generic({ keyword: 'repeated', raw: '' }) })
      else if (refused) errors.push({ parameter: name, message: refused })
      else {
        const value = decode(raw)
        if (value instanceof Bad) errors.push({ parameter: name, message: invalid(value.failure) })
        else values[key] = value
      }
    },
  }
}

/** A value that failed its checks: made only then, so a valid value costs no allocation of its own. */
class Bad {
  constructor(readonly failure: Failure) {}
}

function decoder(p: QueryParameter): (raw: string) => unknown {
  const { schema } = p
  const where = `query parameter ${p.name}`
  if (schema.type === 'integer') {
    const { minimum, maximum } = integerBounds(schema, where)
    return (raw) => {
      if (!INTEGER.test(raw)) return new Bad({ keyword: 'type', raw })
      const value = Number(raw)
      if (value < minimum) return new Bad({ keyword: 'minimum', raw })
      return value > maximum ? new Bad({ keyword: 'maximum', raw }) : value
    }
  }
  if (schema.type === 'array') {
    if (!p.commaSeparated) throw new Error(`${where}: an array is read only comma-separated`)
    const list = listCheck(schema, where, p.rule)
    const { readItems } = p
    return (raw) => {
      const items = raw.split(',')
      const failure = list(items, raw)
      if (failure) return new Bad(failure)
      return readItems ? readItems(items) : items
    }
  }
  const check = stringCheck(schema, where)
  const { read } = p
  return (raw) => {
    const keyword = check(raw)
    if (keyword !== undefined) return new Bad({ keyword, raw })
    return read ? read(raw) : raw
  }
}
