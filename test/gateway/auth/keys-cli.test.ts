/**
 * `npm run keys` as an operator meets it: every command's help,
 * `--expires` taking only durations and future dates and saying what it
 * understood, and output into a pipe whose reader goes away (`… | head -1`).
 * The real command line, and the same function in-process for the many
 * small cases.
 */
import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runKeysCli, USAGE } from '../../../gateway/auth/keys-cli.ts'
import { WEBHOOK_USAGE } from '../../../gateway/webhooks/cli.ts'
import { generateSecretsKey } from '../../../gateway/webhooks/secrets.ts'
import { openQueue } from '../../../gateway/webhooks/queue.ts'
import { openFileStore } from '../../../gateway/auth/store/file-store.ts'
import { commandArgs, runCommand } from '../../helpers/commands.ts'
import { REPO_ROOT } from '../../helpers/project.ts'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'keys-cli-'))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

const NOW = new Date('2026-11-25T10:00:00Z')

async function keys(...args: string[]) {
  const out: string[] = []
  const err: string[] = []
  const code = await runKeysCli([...args, '--file', join(dir, 'keys.json')], {
    env: {},
    cwd: dir,
    now: () => NOW,
    out: (l) => out.push(l),
    err: (l) => err.push(l),
  })
  return { code, out: out.join('\n'), err: err.join('\n') }
}

describe('npm run keys -- --help', () => {
  it('prints the usage and exits 0, as --help, -h and help', async () => {
    for (const args of [['--help'], ['-h'], ['help']]) {
      const result = await runCommand('keys', args)
      expect(result.code, args.join(' ')).toBe(0)
      expect(result.stdout.trim(), args.join(' ')).toBe(USAGE)
      expect(result.stderr, args.join(' ')).toBe('')
    }
  })

  it("prints each command's own usage", async () => {
    const cases: [string[], RegExp][] = [
      [['create', '--help'], /^usage: npm run keys -- create --role/],
      [['list', '-h'], /^usage: npm run keys -- list/],
      [['revoke', '--help'], /^usage: npm run keys -- revoke <key id>/],
      [['client', '--help'], /^usage: npm run keys -- client create .*\n.*client list.*\n.*client revoke/],
      [['client', 'create', '-h'], /^usage: npm run keys -- client create --id/],
      [['user', '--help'], /^usage: npm run keys -- user create --email/],
      [['user', 'create', '--help'], /^usage: npm run keys -- user create --email/],
      [['signing-key', '--help'], /^usage: npm run keys -- signing-key/],
      [['audit', '--help'], /^usage: npm run keys -- audit \[--type /],
    ]
    for (const [args, usage] of cases) {
      const result = await keys(...args)
      expect(result.code, args.join(' ')).toBe(0)
      expect(result.out, args.join(' ')).toMatch(usage)
    }
  })

  it('webhook --help prints the webhook usage; each webhook command --help prints its own', async () => {
    const whole = await runCommand('keys', ['webhook', '--help'])
    expect(whole.code).toBe(0)
    expect(whole.stdout.trim()).toBe(WEBHOOK_USAGE)
    const commands = ['create', 'list', 'pause', 'resume', 'remove', 'rotate', 'deliveries', 'redeliver', 'secrets-key']
    // Each command the whole usage lists, and no other.
    expect(WEBHOOK_USAGE.match(/^ {2}[\w-]+/gm)?.map((c) => c.trim())).toEqual(commands)
    for (const command of commands) {
      for (const help of ['--help', '-h']) {
        const out: string[] = []
        const code = await runKeysCli(['webhook', command, help], {
          env: {},
          cwd: dir,
          out: (l) => out.push(l),
          err: () => undefined,
        })
        const usage = out.join('\n')
        expect(code, `${command} ${help}`).toBe(0)
        expect(usage, `${command} ${help}`).toMatch(
          new RegExp(`^usage: npm run keys -- webhook ${command}\\b[^\\n]*\\n {2}\\S`),
        )
        expect(usage.split('\n'), `${command} ${help}`).toHaveLength(2)
      }
    }
    // A command's mistake shows that command's usage.
    const missing: string[] = []
    await runKeysCli(['webhook', 'create', '--events', 'all'], {
      env: {},
      cwd: dir,
      out: () => undefined,
      err: (l) => missing.push(l),
    })
    expect(missing.join('\n')).toMatch(/^✗ --url is required\nusage: npm run keys -- webhook create --url/)
  })

  it('answers an unknown command or option with the usage and exit 2', async () => {
    const unknown = await keys('frobnicate')
    expect(unknown.code).toBe(2)
    expect(unknown.err).toContain('✗ unknown command "frobnicate"')
    expect(unknown.err).toContain(USAGE)
    const option = await keys('list', '--colour')
    expect(option.code).toBe(2)
    expect(option.err).toBe('✗ unknown option --colour for npm run keys; `npm run keys -- --help` lists what it takes')
  })
})

describe('keys create --expires', () => {
  it.each([
    ['90', '✗ --expires 90 is neither a date nor a duration: write 90d for 90 days'],
    ['1', '✗ --expires 1 is neither a date nor a duration: write 1d for 1 day'],
    ['0d', '✗ --expires 0d would expire the key at once: give at least 1d'],
    [
      '2020-01-01',
      '✗ --expires 2020-01-01 is not in the future (it is now 2026-11-25T10:00:00Z): give a later date or a number of days like 90d',
    ],
    [
      '2026-11-25T09:00:00Z',
      '✗ --expires 2026-11-25T09:00:00Z is not in the future (it is now 2026-11-25T10:00:00Z): give a later date or a number of days like 90d',
    ],
    [
      'next week',
      '✗ --expires must be a number of days like 90d or hours like 72h, a date like 2027-06-30 or a date-time like 2027-06-30T12:00:00Z; got "next week"',
    ],
    [
      '2027-02-30',
      '✗ --expires must be a number of days like 90d or hours like 72h, a date like 2027-06-30 or a date-time like 2027-06-30T12:00:00Z; got "2027-02-30"',
    ],
  ])('refuses %s and writes nothing', async (value, message) => {
    const result = await keys('create', '--role', 'agent.mcp', '--label', 'x', '--expires', value)
    expect(result.code).toBe(2)
    expect(result.err.split('\n')[0]).toBe(message)
    expect(result.out).toBe('')
    await expect(readFile(join(dir, 'keys.json'))).rejects.toThrow()
  })

  it.each([
    ['90d', 'expires in 90 days (2027-02-23T10:00:00Z)', '2027-02-23T10:00:00Z'],
    ['2027-06-30', 'expires in 217 days (2027-06-30T00:00:00Z)', '2027-06-30T00:00:00Z'],
    ['2027-06-30T12:00:00+02:00', 'expires in 217 days (2027-06-30T10:00:00Z)', '2027-06-30T10:00:00Z'],
  ])('takes %s and says what it understood', async (value, said, stored) => {
    const result = await keys('create', '--role', 'agent.mcp', '--label', 'x', '--expires', value)
    expect(result.code, result.err).toBe(0)
    expect(result.err).toContain(`(agent.mcp, ${said})`)
    const file = JSON.parse(await readFile(join(dir, 'keys.json'), 'utf8')) as { keys: { expires_at: string }[] }
    expect(file.keys.at(-1)!.expires_at).toBe(stored)
    await rm(join(dir, 'keys.json'))
  })

  it('refuses a bare number on the real command line too', async () => {
    const result = await runCommand('keys', [
      'create',
      '--role',
      'agent.mcp',
      '--label',
      'x',
      '--expires',
      '90',
      '--file',
      join(dir, 'real.json'),
    ])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/^✗ --expires 90 is neither a date nor a duration: write 90d for 90 days\n/)
    expect(result.stdout).toBe('')
  })
})

describe('npm run keys into a pipe whose reader goes away', () => {
  it('ends quietly with status 0 on EPIPE, whatever the command prints', async () => {
    const env = { OAUTH_STORE_DIR: join(dir, 'pipe-state'), WEBHOOK_SECRETS_KEY: generateSecretsKey() }
    const out: string[] = []
    const io = { env, cwd: dir, out: (l: string) => out.push(l), err: () => undefined }
    expect(await runKeysCli(['webhook', 'create', '--url', 'http://127.0.0.1:9/hook', '--events', 'all'], io)).toBe(0)
    expect(
      await runKeysCli(['create', '--role', 'agent.mcp', '--label', 'piped', '--file', join(dir, 'pipe.json')], io),
    ).toBe(0)
    const [subscription] = (await openFileStore(env.OAUTH_STORE_DIR).list('webhooks/subscriptions/')).map(
      (k) => k.split('/').at(-1)!,
    )
    const queue = openQueue(openFileStore(env.OAUTH_STORE_DIR))
    for (let i = 0; i < 30; i++)
      await queue.log(subscription!, {
        at: new Date(Date.UTC(2026, 10, 1, 0, i)).toISOString(),
        msg_id: `msg_${i}`,
        type: 'content.published',
        cursor: '',
        status: 500,
        ok: false,
        latency_ms: 3,
        error: 'HTTP 500',
        payload: '{}',
        redelivery: false,
      })
    const commands = [
      ['webhook', 'deliveries', subscription!],
      ['webhook', 'list'],
      ['list', '--file', join(dir, 'pipe.json')],
      ['audit'],
      ['signing-key'],
    ]
    for (const args of commands) {
      const child = spawn(process.execPath, commandArgs('keys', ...args), {
        cwd: REPO_ROOT,
        env: { ...process.env, ...env },
      })
      // `| head -0`: the reader is gone before the first line is written.
      child.stdout.destroy()
      let stderr = ''
      child.stderr.on('data', (d) => (stderr += d))
      const code = await new Promise((resolve) => child.on('close', resolve))
      expect(code, `${args.join(' ')}: ${stderr}`).toBe(0)
      expect(stderr, args.join(' ')).not.toMatch(/EPIPE|Error|\n\s+at /)
    }
  }, 60_000)
})
