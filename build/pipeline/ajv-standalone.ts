/**
 * The frontmatter validators compiled to code, for the prebuilt commands:
 * build/prebuilt.ts puts this module in the bundle in place of ajv.ts, so a
 * build loads four functions instead of ajv compiling four schemas (a
 * quarter of a second of every cold start). The same ajv settings as
 * ajv.ts, so the same checks and the same messages
 * (test/build/prebuilt.test.ts compares them).
 */
import standaloneCode from 'ajv/dist/standalone/index.js'
import { COLLECTION_NAMES, COLLECTIONS } from '../../contract/collections.ts'
import { createAjv } from './ajv.ts'

/** ES module source exporting `frontmatterValidators()`, as ajv.ts does; it imports from this folder. */
export function standaloneValidators(): string {
  const ajv = createAjv({ source: true })
  const exports: Record<string, string> = {}
  for (const [i, name] of COLLECTION_NAMES.entries()) {
    ajv.addSchema(COLLECTIONS[name].schema, name)
    exports[`v${i}`] = name
  }
  const code = standaloneCode.default(ajv, exports)
  const unknown = code.match(/require\("[^"]+"\)/g)?.filter((r) => r !== 'require("ajv/dist/runtime/ucs2length")')
  if (unknown?.length) throw new Error(`standalone validators need ${unknown.join(', ')}`)
  return [
    "import { fullFormats } from 'ajv-formats/dist/formats.js'",
    "import * as ucs2length from 'ajv/dist/runtime/ucs2length.js'",
    "import { isTimeZone } from './time-zone.ts'",
    "const formats = { ...fullFormats, 'iana-timezone': { type: 'string', validate: isTimeZone } }",
    code.replaceAll('require("ajv/dist/runtime/ucs2length")', 'ucs2length'),
    `const validators = { ${COLLECTION_NAMES.map((name, i) => `${JSON.stringify(name)}: v${i}`).join(', ')} }`,
    'export function frontmatterValidators() { return validators }',
  ].join('\n')
}
