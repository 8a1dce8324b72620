/**
 * The deploy job checks the site's environment against the settings schema
 * before it deploys: the workflow's own step, run as the job runs it, against a
 * stand-in for the Netlify CLI that prints what the real one prints for the
 * commands the step runs (the API's listings of environment variables, and
 * `env:list --json` as its source builds it: values by key, a value the API
 * does not give left out). A secret's value is write-only on Netlify, so a
 * secret is checked for being set where the production function reads it
 * (the production context, the functions scope), and a readable value is validated.
 */
import { spawn } from 'node:child_process'
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { REPO_ROOT } from '../helpers/project.ts'

const SITE = 'site-0a1b2c'
const TEAM = 'tidewater-team'

/** The Netlify CLI's commands the step runs, answered from $FAKE_NETLIFY/{shared,site}.json. */
const FAKE_NETLIFY = `#!/usr/bin/env node
const { readFileSync } = require('node:fs')
const argv = process.argv.slice(2)
const data = argv.includes('--data') ? JSON.parse(argv[argv.indexOf('--data') + 1]) : {}
const listing = (name) => JSON.parse(readFileSync(process.env.FAKE_NETLIFY + '/' + name + '.json', 'utf8'))
const print = (value) => console.log(JSON.stringify(value, null, 2))
const [command, method] = argv
if (command === 'api' && method === 'getSite' && data.site_id === '${SITE}') print({ id: '${SITE}', account_slug: '${TEAM}' })
else if (command === 'api' && method === 'getEnvVars' && data.account_id === '${TEAM}' && !data.site_id) print(listing('shared'))
else if (command === 'api' && method === 'getSiteEnvVars' && data.site_id === '${SITE}') print(listing('site'))
else if (command === 'env:list' && argv.includes('--json')) {
  // netlify-cli's env-list.js: the shared variables, then the site's, each with its value for the context.
  const context = argv[argv.indexOf('--context') + 1]
  const env = {}
  for (const variable of [...listing('shared'), ...listing('site')]) {
    const value = variable.values.find((v) => v.context === 'all' || v.context === context)
    if (value) env[variable.key] = value.value
  }
  print(env)
} else {
  console.error('netlify: not a command of this stand-in: ' + argv.join(' '))
  process.exit(1)
}
`

interface Variable {
  key: string
  scopes: string[]
  values: { context: string; value?: string }[]
  is_secret: boolean
}
const ALL_SCOPES = ['builds', 'functions', 'runtime', 'post-processing']
const plain = (key: string, value: string): Variable => ({
  key,
  scopes: ALL_SCOPES,
  values: [{ context: 'all', value }],
  is_secret: false,
})
/** A secret as the API lists it: its values' contexts, no readable value (or a mask). */
const secret = (
  key: string,
  contexts = ['production'],
  scopes = ['builds', 'functions', 'runtime'],
  mask?: string,
) => ({
  key,
  scopes,
  values: contexts.map((context) => ({ context, ...(mask === undefined ? {} : { value: mask }) })),
  is_secret: true,
})

const SIGNING_KEY = '{"kty":"EC","d":"a-secret-value"}'
const WEBHOOKS_KEY = 'k'.repeat(43)
const PUBLIC_URL = plain('PUBLIC_URL', 'https://content.example.com')

let dir: string
let step: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'deploy-settings-'))
  await mkdir(join(dir, 'bin'))
  await writeFile(join(dir, 'bin', 'netlify'), FAKE_NETLIFY)
  await chmod(join(dir, 'bin', 'netlify'), 0o755)
  const workflow = parse(await readFile(join(REPO_ROOT, '.github/workflows/ci.yml'), 'utf8')) as {
    jobs: { deploy: { steps: { name?: string; run?: string }[] } }
  }
  const steps = workflow.jobs.deploy.steps
  const at = steps.findIndex((s) => s.name === "Check the site's settings")
  // Before the deploy, which would otherwise ship a function that cannot start.
  expect(at).toBeGreaterThan(0)
  expect(at).toBeLessThan(steps.findIndex((s) => /\bnetlify deploy\b/.test(s.run ?? '')))
  step = steps[at]!.run!
})
afterAll(() => (dir ? rm(dir, { recursive: true, force: true }) : undefined))

/** The step, as the job runs it (bash -eo pipefail), with the site's variables: the team's shared ones, then its own. */
async function check(site: Variable[], options: { shared?: Variable[]; actions?: boolean } = {}) {
  await writeFile(join(dir, 'shared.json'), JSON.stringify(options.shared ?? []))
  await writeFile(join(dir, 'site.json'), JSON.stringify(site))
  const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PATH: [join(dir, 'bin'), process.env.PATH].join(delimiter),
      FAKE_NETLIFY: dir,
      RUNNER_TEMP: dir,
      NETLIFY_AUTH_TOKEN: 'a-token',
      NETLIFY_SITE_ID: SITE,
      GITHUB_ACTIONS: options.actions ? 'true' : '',
    },
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d) => (stdout += d))
  child.stderr.on('data', (d) => (stderr += d))
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
  return { code, stdout, lines: stderr.split('\n').filter(Boolean) }
}

const OK = "✓ the site's environment has what the Netlify function needs"
const hiddenLine = (name: string) =>
  `✓ ${name} is set for production's functions as a secret: Netlify does not show its value, so that it is set was checked, not the value`

// Each check is a bash step and a tsx process or two: seconds each on a loaded machine.
describe("the deploy job's check of the site's settings", { timeout: 120_000 }, () => {
  it('passes readable values that the schema accepts', async () => {
    const result = await check([
      PUBLIC_URL,
      plain('OAUTH_SIGNING_KEY', SIGNING_KEY),
      plain('WEBHOOK_SECRETS_KEY', WEBHOOKS_KEY),
    ])
    expect(result).toEqual({ code: 0, stdout: '', lines: [OK] })
  })

  it('passes secrets the API does not show, set for the production context and the functions scope', async () => {
    // The signing key's value left out, the webhook key's masked: neither is a value to check.
    const result = await check([
      PUBLIC_URL,
      secret('OAUTH_SIGNING_KEY'),
      secret('WEBHOOK_SECRETS_KEY', ['production', 'deploy-preview'], ['functions'], '••••••••'),
    ])
    expect(result).toEqual({
      code: 0,
      stdout: '',
      lines: [hiddenLine('OAUTH_SIGNING_KEY'), hiddenLine('WEBHOOK_SECRETS_KEY'), OK],
    })
    // A secret the team shares with all its sites counts as well.
    expect(
      await check([PUBLIC_URL], { shared: [secret('OAUTH_SIGNING_KEY'), plain('WEBHOOK_SECRETS_KEY', WEBHOOKS_KEY)] }),
    ).toEqual({ code: 0, stdout: '', lines: [hiddenLine('OAUTH_SIGNING_KEY'), OK] })
  })

  it('fails a missing signing key, and a secret one set where the production function does not read it, saying where it is', async () => {
    const missing = await check([PUBLIC_URL])
    expect(missing.code).toBe(1)
    expect(missing.lines).toHaveLength(1)
    expect(missing.lines[0]).toMatch(/^✗ OAUTH_SIGNING_KEY must be set on Netlify/)
    const preview = await check([PUBLIC_URL, secret('OAUTH_SIGNING_KEY', ['deploy-preview', 'branch-deploy'])])
    expect(preview.code).toBe(1)
    expect(preview.lines).toHaveLength(1)
    expect(preview.lines[0]).toMatch(
      /^✗ OAUTH_SIGNING_KEY must be set on Netlify .*\. It is set on the site, but not for the production context with the functions scope \(contexts: deploy-preview, branch-deploy; scopes: builds, functions, runtime\)$/,
    )
    const buildsOnly = await check([PUBLIC_URL, secret('OAUTH_SIGNING_KEY', ['production'], ['builds'])])
    expect(buildsOnly.code).toBe(1)
    expect(buildsOnly.lines[0]).toMatch(/\(contexts: production; scopes: builds\)$/)
  })

  it('says in a line (and an annotation under GitHub Actions) that webhooks are off without their key', async () => {
    const off = await check([PUBLIC_URL, secret('OAUTH_SIGNING_KEY')], { actions: true })
    expect(off.code).toBe(0)
    const line = off.lines[1]!
    expect(line).toMatch(
      /^! WEBHOOK_SECRETS_KEY is not set: webhooks are off on this site .*`npm run keys -- webhook secrets-key`/,
    )
    expect(off.lines).toEqual([hiddenLine('OAUTH_SIGNING_KEY'), line, OK])
    expect(off.stdout).toBe(`::warning title=WEBHOOK_SECRETS_KEY::${line.slice(2)}\n`)
  })

  it('fails a readable value the schema refuses, never showing a secret', async () => {
    const badKey = await check([
      plain('OAUTH_SIGNING_KEY', SIGNING_KEY),
      plain('WEBHOOK_SECRETS_KEY', 'a-secret-but-not-a-key'),
    ])
    expect(badKey).toEqual({
      code: 1,
      stdout: '',
      lines: ['✗ WEBHOOK_SECRETS_KEY must be 32 random bytes in base64url (43 characters); its value is not shown'],
    })
    const bad = await check([plain('OAUTH_SIGNING_KEY', SIGNING_KEY), plain('OAUTH_TOKEN_TTL', '5')])
    expect(bad.code).toBe(1)
    expect(bad.lines).toEqual(['✗ OAUTH_TOKEN_TTL must be an integer from 60 to 86400; got "5"'])
    expect(JSON.stringify(bad)).not.toContain('a-secret-value')
  })

  it('refuses what is not a listing of the API, with its usage', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'build/deploy/netlify-settings.ts')], {
      cwd: REPO_ROOT,
    })
    let stderr = ''
    child.stderr.on('data', (d) => (stderr += d))
    // What `netlify env:list --json` prints: values by key, without a secret's.
    child.stdin.end(JSON.stringify({ PUBLIC_URL: 'https://content.example.com' }))
    expect(await new Promise((resolve) => child.on('exit', resolve))).toBe(2)
    expect(stderr).toBe(
      '✗ expected the JSON of `netlify api getEnvVars` or `netlify api getSiteEnvVars` (a list of environment variables)\n',
    )
  })
})
