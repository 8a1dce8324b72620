/** The machine and tool versions a result was measured with. */
import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { cpus, loadavg, release, totalmem } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { REPO_ROOT } from './paths.ts'

const run = promisify(execFile)

export interface MachineInfo {
  cpus: number
  cpu_model: string
  memory_gb: number
  os: string
  load_average: number[]
  node: string
  versions: Record<string, string>
  commit: string
}

async function packageVersion(name: string): Promise<string> {
  const text = await readFile(join(REPO_ROOT, 'node_modules', name, 'package.json'), 'utf8').catch(() => '{}')
  return (JSON.parse(text) as { version?: string }).version ?? 'missing'
}

async function output(cmd: string, args: string[]): Promise<string> {
  return run(cmd, args, { cwd: REPO_ROOT }).then(
    (r) => r.stdout.trim(),
    () => 'missing',
  )
}

export async function machineInfo(): Promise<MachineInfo> {
  const hugo = await output('hugo', ['version'])
  const list = cpus()
  return {
    cpus: list.length,
    cpu_model: list[0]?.model ?? 'unknown',
    memory_gb: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    os: `${process.platform} ${release()}`,
    load_average: loadavg().map((l) => Math.round(l * 100) / 100),
    node: process.version,
    versions: {
      hugo: /v[\d.]+\S*/.exec(hugo)?.[0] ?? hugo,
      velite: await packageVersion('velite'),
      autocannon: await packageVersion('autocannon'),
      h3: await packageVersion('h3'),
      unified: await packageVersion('unified'),
    },
    commit: await output('git', ['rev-parse', '--short', 'HEAD']),
  }
}
