/**
 * The document's paths, written from the route table (contract/routes/):
 * each documented route's operations with its parameters and body, and what
 * follows from the route itself — the 413 and 415 of its body limit, the 429
 * and RateLimit fields of its budgets, the deprecation marks. Parameters
 * marked as components are written once, under components/parameters.
 */
import { BUDGETS } from '../../contract/budgets.ts'
import type { ContentModel } from '../../contract/model/model.ts'
import { documentedPaths, parametersOf, ROUTES } from '../../contract/routes/index.ts'
import type { Operation, Operations, Parameter, Route } from '../../contract/routes/route.ts'
import { headerRef, responseRef, type Json } from '../../contract/routes/schema.ts'
import { checkDeprecation, DEPRECATION_EXTENSION, deprecationSentence } from '../../contract/routes/deprecation.ts'

const BODY_METHODS = new Set(['post', 'put', 'patch'])

export interface DocumentPaths {
  paths: Record<string, Json>
  /** components/parameters: the shared parameters the paths refer to. */
  parameters: Record<string, Json>
}

/** The paths of the route table for the content model's collections. */
export function documentPaths(model: ContentModel): DocumentPaths {
  const parameters: Record<string, Json> = {}
  const paths: Record<string, Json> = {}
  for (const route of Object.values(ROUTES) as Route[]) {
    if (!('operations' in route)) continue
    for (const { path, value } of documentedPaths(route, model)) {
      const operations: Operations =
        typeof route.operations === 'function' ? route.operations(value!, model) : route.operations
      const item: Json = {}
      for (const [method, op] of Object.entries(operations) as [string, Operation][])
        item[method] = operationOf(route, model, value, method, op, parameters)
      paths[path] = item
    }
  }
  return { paths, parameters }
}

function operationOf(
  route: Route,
  model: ContentModel,
  value: string | undefined,
  method: string,
  op: Operation,
  components: Record<string, Json>,
): Json {
  const own = parametersOf(route, model, value).filter(
    (p) => !p.refused && !(p.in === 'path' && p.name === route.each?.parameter),
  )
  const parameters = own.map((p) => parameterOf(p, components))
  const content = BODY_METHODS.has(method) ? route.body?.content : undefined
  return {
    operationId: op.operationId,
    tags: op.tags,
    summary: op.summary,
    description: describe(route, op),
    security: op.security,
    ...(parameters.length > 0 && { parameters }),
    ...(content && {
      requestBody: {
        required: true,
        content: Object.fromEntries(Object.entries(content).map(([type, schema]) => [type, { schema }])),
      },
    }),
    responses: responsesOf(route, method, op),
    ...(route.deprecated && { deprecated: true, [DEPRECATION_EXTENSION]: route.deprecated }),
  }
}

/** The operation's description, and what its budgets and deprecation add to it. */
function describe(route: Route, op: Operation): string {
  const notes = (route.budgets ?? []).map((name) => `Rate limited: ${BUDGETS[name].description}`)
  if (route.deprecated) {
    checkDeprecation(`${route.path} (${op.operationId})`, route.deprecated)
    notes.push(deprecationSentence(route.deprecated))
  }
  return [op.description, ...notes].join(' ')
}

function responsesOf(route: Route, method: string, op: Operation): Json {
  const responses: Json = {}
  // A copy: the table's response objects are shared between operations.
  for (const [status, response] of Object.entries(op.responses))
    responses[status] = '$ref' in response ? response : { ...response }
  if (route.body && BODY_METHODS.has(method))
    for (const status of ['413', '415']) responses[status] ??= responseRef(`Problem${status}`)
  if (route.budgets?.length) {
    responses['429'] ??= responseRef('Problem429')
    for (const response of Object.values(responses) as Json[]) {
      if ('$ref' in response) continue
      // The budget's fields come with every answer of the route (the shared problem answers carry them already).
      response.headers = {
        ...(response.headers as Json | undefined),
        RateLimit: headerRef('RateLimit'),
        'RateLimit-Policy': headerRef('RateLimit-Policy'),
      }
    }
  }
  return responses
}

function parameterOf(p: Parameter, components: Record<string, Json>): Json {
  const object = openApiParameter(p)
  if (!p.component) return object
  const known = components[p.component]
  if (known && JSON.stringify(known) !== JSON.stringify(object))
    throw new Error(`two parameters of the route table share the component name ${p.component}`)
  components[p.component] = object
  return { $ref: `#/components/parameters/${p.component}` }
}

/** The document's Parameter Object of a declaration: its description with what HTTP callers alone are told. */
export function openApiParameter(p: Parameter): Json {
  if (p.deprecated) checkDeprecation(`parameter ${p.name}`, p.deprecated)
  const description = [p.description, p.http, p.deprecated && deprecationSentence(p.deprecated)]
    .filter(Boolean)
    .join(' ')
  return {
    name: p.name,
    in: p.in,
    required: p.required,
    ...(description && { description }),
    ...(p.commaSeparated && { style: 'form', explode: false }),
    schema: p.schema,
    ...(p.deprecated && { deprecated: true, [DEPRECATION_EXTENSION]: p.deprecated }),
  }
}
