/**
 * A Netlify site's environment as its production functions get it, from the
 * Netlify API's listings of environment variables (`netlify api getEnvVars`
 * for the team's shared ones, `netlify api getSiteEnvVars` for the site's):
 * each variable with its scopes, its value per deploy context, and whether it
 * is a secret. A secret's value is write-only (only code running on Netlify
 * reads it; the API gives it masked or not at all), so for a secret what can be
 * known is that it is set, for which contexts and scopes — never its value.
 */
import { UsageError } from '../../contract/errors.ts'

/** The production functions' environment. */
export interface FunctionEnvironment {
  /** The variables they get whose values can be read. */
  readable: Record<string, string>
  /** The variables they get whose values cannot be read (secrets). */
  hidden: Set<string>
  /** Variables set on the site but not for them: where they are set instead. */
  elsewhere: Map<string, string>
}

interface Variable {
  key: string
  scopes?: string[]
  values?: { context?: string; context_parameter?: string; value?: unknown }[]
  is_secret?: boolean
}

const EXPECTED =
  'expected the JSON of `netlify api getEnvVars` or `netlify api getSiteEnvVars` (a list of environment variables)'

/** Parse one listing; a UsageError when it is not one. */
export function parseListing(text: string): Variable[] {
  let listing: unknown
  try {
    listing = JSON.parse(text)
  } catch {
    throw new UsageError(EXPECTED)
  }
  const isVariable = (v: unknown): v is Variable =>
    typeof v === 'object' && v !== null && typeof (v as Variable).key === 'string'
  if (!Array.isArray(listing) || !listing.every(isVariable)) throw new UsageError(EXPECTED)
  return listing
}

/**
 * What the production functions get from `listings`, in ascending precedence (the team's shared
 * variables, then the site's): a variable counts where a value of it is for the production context
 * (`production` or `all`) and its scopes include `functions`, as Netlify resolves it for them.
 */
export function productionFunctionEnv(listings: readonly Variable[][]): FunctionEnvironment {
  const env: FunctionEnvironment = { readable: {}, hidden: new Set(), elsewhere: new Map() }
  for (const listing of listings)
    for (const variable of listing) {
      const values = variable.values ?? []
      const production = values.find((v) => v.context === 'production') ?? values.find((v) => v.context === 'all')
      // No scopes listed: the API's default, every scope.
      const forFunctions = variable.scopes === undefined || variable.scopes.includes('functions')
      if (!production || !forFunctions) {
        if (!Object.hasOwn(env.readable, variable.key) && !env.hidden.has(variable.key))
          env.elsewhere.set(variable.key, whereSet(variable))
        continue
      }
      env.elsewhere.delete(variable.key)
      if (variable.is_secret === true || typeof production.value !== 'string') {
        env.hidden.add(variable.key)
        delete env.readable[variable.key]
      } else {
        env.readable[variable.key] = production.value
        env.hidden.delete(variable.key)
      }
    }
  return env
}

function whereSet(variable: Variable): string {
  const contexts = (variable.values ?? []).map((v) =>
    v.context === 'branch' && v.context_parameter ? `branch ${v.context_parameter}` : (v.context ?? '?'),
  )
  return `contexts: ${contexts.join(', ') || 'none'}; scopes: ${variable.scopes?.join(', ') || 'none'}`
}
