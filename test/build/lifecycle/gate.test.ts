/**
 * The breaking-change gate on real documents: this checkout's against the
 * released one (the check CI runs), and the released one against copies
 * changed the ways integrators feel — a removed field, a narrowed parameter,
 * a required one — and the ways they do not — an added optional field.
 */
import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { API_VERSION } from '../../../contract/lifecycle.ts'
import { clientTypes } from '../../../build/lifecycle/client-types.ts'
import { gate } from '../../../build/lifecycle/gate.ts'
import {
  CLIENT_TYPES_FILE,
  currentDocument,
  readChangelog,
  releasedDocument,
  type ApiDocument,
} from '../../../build/lifecycle/released.ts'
import { REPO_ROOT } from '../../helpers/project.ts'
import { runTsx } from '../../helpers/run-tsx.ts'

type Json = Record<string, unknown>

/** The object at `keys` inside `doc`. */
const at = (doc: Json, ...keys: string[]): Json => keys.reduce((node, key) => node[key] as Json, doc)

const released = await releasedDocument()
/** The released document changed by `edit`, at `version`. */
function changed(edit: (doc: Json) => void, version = released.info.version): ApiDocument {
  const doc = structuredClone(released) as Json
  edit(doc)
  at(doc, 'info').version = version
  return doc as ApiDocument
}

describe('the breaking-change gate', () => {
  it('passes this checkout: nothing breaks the released API, whose version is not above ours', async () => {
    const result = gate(released, await currentDocument(REPO_ROOT))
    expect(result.lines.join('\n')).not.toMatch(/breaking change/)
    expect(result.ok).toBe(true)
    expect(released.info.version).toBe(readChangelog().releases[0]!.version)
  }, 60_000)

  it('fails on a removed field, naming the operations and the field', () => {
    const result = gate(
      released,
      changed((doc) => {
        const post = at(doc, 'components', 'schemas', 'BlogPostSummary')
        delete at(post, 'properties').title
        post.required = (post.required as string[]).filter((name) => name !== 'title')
      }),
    )
    expect(result.ok).toBe(false)
    expect(result.lines[0]).toMatch(/^\d+ breaking changes? to the API since 1\.0\.0, without a new major version:$/)
    expect(result.lines).toContain(
      '  GET /api/blog-posts: [Removed] property `title` from `data[]` in Response 200 content (application/json) (breaking)',
    )
    expect(result.lines.at(-1)).toContain('raise API_VERSION to 2.0.0 in contract/lifecycle.ts')
  })

  it('fails on a narrowed parameter and on a parameter made required', () => {
    const narrowed = gate(
      released,
      changed((doc) => {
        at(doc, 'components', 'parameters', 'limit', 'schema').maximum = 50
      }),
    )
    expect(narrowed.ok).toBe(false)
    expect(narrowed.lines.some((l) => l.includes('GET /api/events') && l.includes('limit'))).toBe(true)
    const required = gate(
      released,
      changed((doc) => {
        at(doc, 'components', 'parameters', 'tag').required = true
      }),
    )
    expect(required.ok).toBe(false)
    expect(required.lines.join('\n')).toContain('GET /api/webinars')
  })

  it('fails on a removed operation', () => {
    const result = gate(
      released,
      changed((doc) => {
        delete at(doc, 'paths')['/api/search']
      }),
    )
    expect(result.ok).toBe(false)
    expect(result.lines.join('\n')).toContain('GET /api/search')
  })

  it('passes an added optional field, listing it as waiting for a release', () => {
    const result = gate(
      released,
      changed((doc) => {
        at(doc, 'components', 'schemas', 'BlogPostSummary', 'properties').reading_level = {
          type: 'string',
          maxLength: 20,
        }
      }),
    )
    expect(result.ok).toBe(true)
    expect(result.comparison.changes.every((c) => c.kind === 'added' && !c.breaking)).toBe(true)
    expect(result.lines[0]).toMatch(/change.* since 1\.0\.0, none breaking; npm run api:release records them:/)
  })

  it('passes a breaking change once the major version was raised, and fails a version that went down', () => {
    const removal = (doc: Json) => {
      delete at(doc, 'paths')['/api/search']
    }
    expect(gate(released, changed(removal, '2.0.0')).ok).toBe(true)
    expect(gate(released, changed(removal, '1.9.0')).ok).toBe(false)
    const lower = gate(
      changed(() => undefined, '1.2.0'),
      changed(() => undefined, '1.1.0'),
    )
    expect(lower.ok).toBe(false)
    expect(lower.lines[0]).toContain('lower than the released 1.2.0')
  })

  it('npm run api:check exits 0 here and prints its verdict', async () => {
    const run = await runTsx(['build/lifecycle/check.ts'])
    expect(run.stderr).toMatch(/^✓ /)
    expect(run.code).toBe(0)
  }, 60_000)
})

describe('the released files', () => {
  it('the client types are what openapi-typescript makes of the released document', async () => {
    expect(await readFile(CLIENT_TYPES_FILE, 'utf8')).toBe(await clientTypes(released))
  }, 60_000)

  it('the version in contract/lifecycle.ts is the released one or above', () => {
    expect(
      gate(
        released,
        changed(() => undefined, API_VERSION),
      ).ok,
    ).toBe(true)
  })
})
