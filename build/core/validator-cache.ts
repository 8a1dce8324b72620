/**
 * Validators compiled to code and kept, by the hash of their schemas. ajv
 * takes a tenth of a second or more to compile a model's schemas, every
 * build process; its standalone code (ajv/dist/standalone) of the same
 * schemas is the same functions. Where the commands run prebuilt (build/run.mjs),
 * the code is written beside the bundle (`validators/<hash>.cjs`, made
 * by the same ajv and settings as the bundle, whose folder is keyed by its
 * sources and lockfile) and a later process reads it back instead of
 * compiling; elsewhere (tsx, the tests) it lives for the process. Either
 * way the validators are the code's, so both paths give the same errors.
 */
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Ajv, SchemaObject, ValidateFunction } from 'ajv'
import standaloneCode from 'ajv/dist/standalone/index.js'
import { fullFormats } from 'ajv-formats/dist/formats.js'
import { isTimeZone } from './time-zone.ts'

const HERE = fileURLToPath(import.meta.url)
/** The bundle's folder when this module runs prebuilt (`.cache/bin/<key>/`), else none. */
const CACHE = HERE.includes(`${sep}.cache${sep}bin${sep}`) ? join(dirname(HERE), 'validators') : undefined
/** The formats the code refers to (`formats.date`), as createAjv adds them. */
const FORMATS = { ...fullFormats, 'iana-timezone': { type: 'string', validate: isTimeZone } }
/** The only modules standalone code requires: ajv's runtime helpers. */
const RUNTIME = /^ajv\/dist\/runtime\/[a-z0-9]+$/
const runtimeRequire = createRequire(import.meta.url)

const compiled = new Map<string, ValidateFunction[]>()

/** Validators of `schemas`: this process's, the bundle's kept code, or compiled now by `createAjv`'s ajv (and kept). */
export function cachedValidators(schemas: readonly SchemaObject[], createAjv: () => Ajv): ValidateFunction[] {
  const key = createHash('sha256').update(JSON.stringify(schemas)).digest('hex').slice(0, 32)
  let validators = compiled.get(key)
  if (validators) return validators
  const file = CACHE && join(CACHE, `${key}.cjs`)
  const kept = file && readCachedCode(file)
  validators = kept ? evaluate(kept, schemas.length) : compile(schemas, createAjv, file)
  compiled.set(key, validators)
  return validators
}

function readCachedCode(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return undefined
  }
}

function compile(schemas: readonly SchemaObject[], createAjv: () => Ajv, file: string | undefined): ValidateFunction[] {
  const ajv = createAjv()
  const exports: Record<string, string> = {}
  for (const [i, schema] of schemas.entries()) {
    // Each under a key of its own: two models of one process may give a collection's schema the same $id.
    const { $id: _id, ...rest } = schema
    ajv.addSchema(rest, `s${i}`)
    exports[`v${i}`] = `s${i}`
  }
  const code = standaloneCode.default(ajv, exports)
  const validators = evaluate(code, schemas.length)
  if (file) keep(file, code)
  return validators
}

/** The validators of standalone code (CommonJS, `exports.v0 = …`). */
function evaluate(code: string, count: number): ValidateFunction[] {
  const exports: Record<string, ValidateFunction> = {}
  const require = (id: string) => {
    if (!RUNTIME.test(id)) throw new Error(`standalone validators need ${id}`)
    return runtimeRequire(id)
  }
  new Function('exports', 'require', 'formats', code)(exports, require, FORMATS)
  return Array.from({ length: count }, (_, i) => exports[`v${i}`]!)
}

/** Written whole or not at all: a process reading it meanwhile finds the old file or none. */
function keep(file: string, code: string): void {
  try {
    mkdirSync(dirname(file), { recursive: true })
    const tmp = `${file}.${process.pid}.tmp`
    writeFileSync(tmp, code)
    renameSync(tmp, file)
  } catch {
    // A cache that cannot be written only costs the next build the compile.
  }
}
