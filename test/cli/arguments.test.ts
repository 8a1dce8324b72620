/**
 * Every command a user runs takes `--help` and refuses what it does not
 * understand (contract/cli-args.ts). Each npm script is run as npm runs it,
 * from its line in package.json (`start`'s through build/start.sh), in an empty
 * folder: `--help` exits 0 with the usage on stdout and nothing else done
 * (nothing built, served or written); an unknown option exits 2 with one line
 * naming it and, when one is close, the command's own option it meant. None
 * of them builds the site, so the table runs in seconds.
 */
import { spawn } from 'node:child_process'
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REPO_ROOT, SITE_YAML } from '../helpers/project.ts'

interface Run {
  code: number | null
  stdout: string
  /** Without the line of a first run that bundles the commands (build/run.mjs). */
  stderr: string
  /** What the command left in its working folder. */
  left: string[]
}

/** The scripts that are the project's own tooling, not commands its users run. */
const TOOLING = ['test', 'lint', 'format', 'typecheck']

const scripts = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>

/** The commands of a script's line, as argv: `a && exec b` is two; `node` is this Node, `tsx` the project's. */
function commandsOf(script: string): string[][] {
  return scripts[script]!.split('&&').map((part) =>
    part
      .trim()
      .replace(/^exec /, '')
      .split(/\s+/)
      .map((word, i) => {
        if (i === 0)
          return word === 'node'
            ? process.execPath
            : word === 'sh'
              ? '/bin/sh'
              : join(REPO_ROOT, 'node_modules/.bin', word)
        return /\.(m?js|ts|sh)$/.test(word) ? join(REPO_ROOT, word) : word
      }),
  )
}

let base: string
beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'cli-arguments-'))
})
afterAll(() => rm(base, { recursive: true, force: true }))

/** A command still running by then has done what it was asked not to (a build, a server): it is stopped. */
const STILL_RUNNING_MS = 60_000

let runs = 0
/** Run `argv` in a folder of its own (with `files` in it), and collect what it printed and left there. */
async function run(argv: string[], files: Record<string, string> = {}): Promise<Run> {
  const cwd = join(base, String(runs++))
  await mkdir(cwd)
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(cwd, path, '..'), { recursive: true })
    await writeFile(join(cwd, path), text)
  }
  const before = await readdir(cwd, { recursive: true })
  const { npm_lifecycle_event: _npm, ...env } = process.env
  return new Promise((resolve) => {
    // In a process group of its own: a command that ignored --help and started a server goes with its children.
    const child = spawn(argv[0]!, argv.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    const stop = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), STILL_RUNNING_MS)
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    child.on('close', async (code) => {
      clearTimeout(stop)
      const after = await readdir(cwd, { recursive: true })
      resolve({
        code,
        stdout,
        stderr: stderr.replace(/^✓ bundled the commands into .*\n/m, ''),
        left: after.filter((f) => !before.includes(f)),
      })
    })
  })
}

/** Run every job, a few at a time: enough to overlap their starts, few enough for two cores. */
async function pool<T>(items: readonly T[], job: (item: T) => Promise<void>, width = 4): Promise<void> {
  let next = 0
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) await job(items[i]!)
  }
  await Promise.all(Array.from({ length: width }, worker))
}

interface Case {
  /** The npm script, and for `start` which of its commands. */
  script: string
  part?: number
  /** Arguments before the ones tested: a subcommand of `keys`. */
  sub?: string[]
  /** The command as its messages name it, and the start of its usage line. */
  name: string
  usage: string
  /** An unknown option, and the command's own one it should suggest (none: the help is pointed at). */
  bad: string
  near?: string
}

const KEYS = (sub: string[], usage: string, bad: string, near?: string): Case => ({
  script: 'keys',
  sub,
  name: sub[0] === 'webhook' ? 'npm run keys -- webhook' : 'npm run keys',
  usage: `usage: npm run keys -- ${usage}`,
  bad,
  ...(near && { near }),
})

const CASES: Case[] = [
  {
    script: 'build',
    name: 'npm run build',
    usage: 'usage: npm run build -- [options]',
    bad: '--forse',
    near: '--force',
  },
  { script: 'check', name: 'npm run check', usage: 'usage: npm run check -- [options]', bad: '--bogus' },
  // build/start.sh: any argument goes to the server's parser before anything is built.
  { script: 'start', name: 'npm start', usage: 'usage: npm start', bad: '--port' },
  { script: 'dev', name: 'npm run dev', usage: 'usage: npm run dev -- [options]', bad: '--rot', near: '--root' },
  {
    script: 'new',
    name: 'npm run new',
    usage: 'usage: npm run new -- <collection> "Title" [options]',
    bad: '--slugs',
    near: '--slug',
  },
  {
    script: 'import',
    name: 'npm run import',
    usage: 'usage: npm run import -- <wordpress|ghost> <export file> [options]',
    bad: '--dry',
    near: '--dry-run',
  },
  { script: 'api:check', name: 'npm run api:check', usage: 'usage: npm run api:check', bad: '--bogus' },
  {
    script: 'api:release',
    name: 'npm run api:release',
    usage: 'usage: npm run api:release -- [options]',
    bad: '--amen',
    near: '--amend',
  },
  { script: 'api:types', name: 'npm run api:types', usage: 'usage: npm run api:types', bad: '--bogus' },
  {
    script: 'bench',
    name: 'npm run bench',
    usage: 'usage: npm run bench -- [options]',
    bad: '--smok',
    near: '--smoke',
  },
  {
    script: 'bench:smoke',
    name: 'npm run bench',
    usage: 'usage: npm run bench -- [options]',
    bad: '--recrd',
    near: '--record',
  },
  { script: 'soak', name: 'npm run soak', usage: 'usage: npm run soak -- [options]', bad: '--recod', near: '--record' },
  { script: 'nginx', name: 'npm run nginx', usage: 'usage: npm run nginx', bad: '--upstreams', near: '--upstream' },
  { script: 'docs:settings', name: 'npm run docs:settings', usage: 'usage: npm run docs:settings', bad: '--bogus' },
  { script: 'build:netlify', name: 'npm run build:netlify', usage: 'usage: npm run build:netlify', bad: '--bogus' },
  KEYS([], '<command>', '--bogus'),
  KEYS(['create'], 'create --role', '--rol', '--role'),
  KEYS(['list'], 'list', '--fil', '--file'),
  KEYS(['revoke'], 'revoke <key id>', '--bogus'),
  KEYS(['client'], 'client create', '--scope', '--scopes'),
  KEYS(['client', 'create'], 'client create --id', '--labl', '--label'),
  KEYS(['client', 'list'], 'client list', '--bogus'),
  KEYS(['client', 'revoke'], 'client revoke', '--bogus'),
  KEYS(['user'], 'user create', '--emal', '--email'),
  KEYS(['user', 'create'], 'user create', '--password', '--password-stdin'),
  KEYS(['user', 'list'], 'user create', '--bogus'),
  KEYS(['user', 'disable'], 'user create', '--bogus'),
  KEYS(['signing-key'], 'signing-key', '--bogus'),
  KEYS(['audit'], 'audit [--type', '--sinse', '--since'),
  ...['create', 'list', 'pause', 'resume', 'remove', 'rotate', 'deliveries', 'redeliver', 'secrets-key'].map(
    (command) => KEYS(['webhook', command], `webhook ${command}`, '--evnts', '--events'),
  ),
  KEYS(['webhook'], 'webhook <command>', '--bogus'),
]

const title = (c: Case) =>
  [c.script, ...(c.part === undefined ? [] : [`(command ${c.part + 1})`]), ...(c.sub ?? [])].join(' ')
const argvOf = (c: Case, ...args: string[]) => [...commandsOf(c.script)[c.part ?? 0]!, ...(c.sub ?? []), ...args]

describe('every command', () => {
  it('covers every npm script a user runs, and every command of each', () => {
    const users = Object.keys(scripts).filter((s) => !TOOLING.includes(s))
    expect([...new Set(CASES.map((c) => c.script))].sort()).toEqual(users.sort())
    for (const script of users)
      expect(new Set(CASES.filter((c) => c.script === script).map((c) => c.part ?? 0)).size, script).toBe(
        commandsOf(script).length,
      )
  })

  // Every run of the table, a few at a time; its rows are then checked one by one. `-h` too where the
  // command is prebuilt (build/run.mjs: it starts at once); the scripts run by tsx read it from the same table.
  const results = new Map<Case, Partial<Record<'--help' | '-h' | 'bad', Run>>>()
  beforeAll(async () => {
    const jobs = CASES.flatMap((c) => {
      const prebuilt = commandsOf(c.script)[c.part ?? 0]![0] === process.execPath
      return (['--help', ...(prebuilt ? ['-h'] : []), 'bad'] as const).map((kind) => ({ c, kind }))
    })
    await pool(jobs, async ({ c, kind }) => {
      const result = await run(argvOf(c, kind === 'bad' ? c.bad : kind))
      results.set(c, { ...results.get(c), [kind]: result })
    })
  }, 180_000)

  it.each(CASES.map((c) => [title(c), c] as const))('%s --help: the usage, exit 0, nothing done', (_, c) => {
    const runs = results.get(c)!
    for (const flag of ['--help', '-h'] as const) {
      const result = runs[flag]
      if (!result) continue
      expect(result.stdout.slice(0, c.usage.length), `${flag}: ${result.stderr}`).toBe(c.usage)
      expect(result.code, flag).toBe(0)
      // Nothing else said (no build's ✓, no server's address), nothing written.
      expect(result.stderr, flag).toBe('')
      expect(result.left, flag).toEqual([])
    }
  })

  it.each(CASES.map((c) => [title(c), c] as const))('%s with an unknown option: one line, exit 2', (_, c) => {
    const bad = results.get(c)!.bad!
    const help = `${c.name}${c.name.includes(' -- ') ? ' ' : ' -- '}--help`
    const hint = c.near ? ` (did you mean ${c.near}?)` : `; \`${help}\` lists what it takes`
    expect(bad.stderr).toBe(`✗ unknown option ${c.bad} for ${c.name}${hint}\n`)
    expect(bad.code).toBe(2)
    expect(bad.stdout).toBe('')
    expect(bad.left).toEqual([])
  })
})

describe('names a command does not know', () => {
  const NEW = commandsOf('new')[0]!
  const KEYS_CLI = commandsOf('keys')[0]!

  it('npm run new offers the collection meant, and writes nothing', async () => {
    // The collections are the project's: its content/site.yaml declares them.
    const result = await run([...NEW, 'blog-post', 'A first post'], { 'content/site.yaml': SITE_YAML })
    expect(result.stderr.split('\n')[0]).toBe(
      '✗ unknown collection "blog-post" (did you mean blog-posts?); use one of blog-posts, case-studies, webinars, events',
    )
    expect(result.code).toBe(2)
    expect(result.left).toEqual([])
  })

  it('npm run new answers a slug taken with --slug and one that is free', async () => {
    const mine = '---\ntitle: Mine\n---\n'
    const files = {
      'content/site.yaml': SITE_YAML,
      'content/blog-posts/hello-world.md': mine,
      'content/blog-posts/hello-world-2.md': mine,
    }
    const result = await run([...NEW, 'blog-posts', 'Hello world'], files)
    expect(result.stderr).toBe(
      '✗ content/blog-posts/hello-world.md already exists; nothing was written (give the new item another slug with --slug, like --slug hello-world-3)\n',
    )
    expect(result.code).toBe(1)
    expect(result.left).toEqual([])
  })

  it.each([
    [['lst'], '✗ unknown command "lst" (did you mean list?)'],
    [['client', 'revok'], '✗ unknown command "client revok" (did you mean revoke?)'],
    [['user', 'creat'], '✗ unknown command "user creat" (did you mean create?)'],
    [['webhook', 'rotat'], '✗ unknown webhook command "rotat" (did you mean rotate?)'],
  ])('npm run keys -- %j offers the command meant', async (args, line) => {
    const result = await run([...KEYS_CLI, ...args])
    expect(result.stderr.split('\n')[0]).toBe(line)
    expect(result.code).toBe(2)
    expect(result.left).toEqual([])
  })
})

describe('values an option does not take', () => {
  const BUILD = commandsOf('build')[0]!
  it.each([
    [['--root'], '✗ --root needs a value: --root DIR'],
    [
      ['--root', '--force'],
      '✗ --root needs a value, not the option --force: --root DIR (a value that starts with "-" as --root=--force)',
    ],
    [['--force=yes'], '✗ --force takes no value (npm run build)'],
    [
      ['content'],
      '✗ unexpected argument "content": npm run build takes no arguments (`npm run build -- --help` lists what it takes)',
    ],
  ])('npm run build -- %j: one line, exit 2, nothing built', async (args, line) => {
    const result = await run([...BUILD, ...args])
    expect(result.stderr).toBe(`${line}\n`)
    expect(result.code).toBe(2)
    expect(result.left).toEqual([])
  })
})
