/**
 * The answers of the gateway's one body limit, on every operation that reads
 * a body (contract/body-routes.ts): 413 and 415 problems. Added where
 * an operation does not describe them itself, so the document cannot miss a
 * route the limit guards.
 */
import { bodyRouteOf } from '../../contract/body-routes.ts'
import { problemResponseName, responseRef } from './components.ts'

type Json = Record<string, unknown>

export function withBodyResponses<T extends Record<string, Record<string, unknown>>>(paths: T): T {
  for (const [path, item] of Object.entries(paths)) {
    if (!bodyRouteOf(path)) continue
    for (const method of ['post', 'put', 'patch']) {
      const operation = item[method] as Json | undefined
      if (!operation) continue
      const responses = (operation.responses ?? {}) as Json
      for (const status of [413, 415]) responses[String(status)] ??= responseRef(problemResponseName(status))
      operation.responses = responses
    }
  }
  return paths
}
