/**
 * The project's commands in processes of their own, as its npm scripts start
 * them: `node build/run.mjs <command> …`, the prebuilt JavaScript bundled from
 * the sources (build/bundle/prebuilt.ts), with no TypeScript compiled at start.
 * test/build/bundle/prebuilt.test.ts checks the bundle against the TypeScript sources.
 */
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type { COMMANDS } from '../../build/bundle/prebuilt.ts'
import { REPO_ROOT } from './project.ts'

export type Command = keyof typeof COMMANDS

/** build/run.mjs, the launcher of the prebuilt commands. */
export const RUN_MJS = join(REPO_ROOT, 'build', 'run.mjs')

/** Node's arguments for `command` with `args`: `npm run build` is `commandArgs('cli', 'build')`. */
export const commandArgs = (command: Command, ...args: string[]): string[] => [RUN_MJS, command, ...args]

export interface CommandResult {
  code: number
  stdout: string
  stderr: string
}

/** Run `command` to its end from the repository root, with `env` over this process's environment. */
export async function runCommand(
  command: Command,
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<CommandResult> {
  return promisify(execFile)(process.execPath, commandArgs(command, ...args), {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    maxBuffer: 16 * 1024 * 1024,
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  )
}
