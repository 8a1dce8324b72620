/**
 * A Node the tools that need 22 or later accept (the MCP Inspector, @netlify/dev,
 * `node` on a .ts file): the tests' own, the Node 24 the npm scripts pin; else
 * npm's `node@22` package, located once per test process with `npx -y -p node@22`
 * and then run directly, rather than paying npx's package resolution (a second
 * or more of a loaded machine) on every run.
 */
import { execFile } from 'node:child_process'
import { delimiter, dirname } from 'node:path'

export interface SupportedNode {
  /** The node executable. */
  execPath: string
  /** The environment npx would give it: its bin folder first on PATH, so a `node` it spawns is the same. */
  env(extra?: NodeJS.ProcessEnv): NodeJS.ProcessEnv
}

let located: Promise<SupportedNode> | undefined

export function supportedNode(): Promise<SupportedNode> {
  // The npm scripts run on the Node package.json pins: the tests' own Node is the one.
  if (!located && Number(process.versions.node.split('.')[0]) >= 22) located = Promise.resolve(around(process.execPath))
  located ??= new Promise<SupportedNode>((resolve, reject) => {
    execFile('npx', ['-y', '-p', 'node@22', 'node', '-p', 'process.execPath'], (error, stdout, stderr) => {
      const execPath = stdout.trim().split('\n').pop() ?? ''
      if (error || !execPath) {
        located = undefined
        reject(new Error(`Node 22 could not be found with npx -y -p node@22: ${error?.message ?? ''}\n${stderr}`))
        return
      }
      resolve(around(execPath))
    })
  })
  return located
}

function around(execPath: string): SupportedNode {
  const bin = dirname(execPath)
  return {
    execPath,
    env: (extra = {}) => {
      const env = { ...process.env, ...extra }
      return { ...env, PATH: [bin, env.PATH].filter(Boolean).join(delimiter) }
    },
  }
}
