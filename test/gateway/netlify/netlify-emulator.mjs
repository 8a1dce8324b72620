// Netlify's own local emulation (@netlify/dev) of a built project, as an HTTP
// server on 127.0.0.1 with an ephemeral port: static files from the publish
// folder, _redirects and _headers, the functions and Netlify Blobs, all offline
// (no linked site, no account). @netlify/dev needs Node 22 or later, so the test runs this
// file in a child process: `<Node> test/gateway/netlify/netlify-emulator.mjs <project>`, the Node
// test/helpers/supported-node.ts finds (the pinned one the tests run on).
// Prints one JSON line {"url": …, "blobsContext": …} when ready (the context lets a
// test read and write the emulated Blobs); stops on SIGTERM or when stdin closes.
import { createServer } from 'node:http'
import { NetlifyDev } from '@netlify/dev'
import { FunctionsHandler } from '@netlify/functions-dev'

const projectRoot = process.argv[2]
if (!projectRoot) {
  console.error('usage: netlify-emulator.mjs <project root> [--no-reload]')
  process.exit(2)
}
const noReload = process.argv.includes('--no-reload')

const off = { enabled: false }
const netlify = new NetlifyDev({
  projectRoot,
  skipGitignore: true,
  aiGateway: off,
  blobs: { enabled: true },
  database: off,
  edgeFunctions: off,
  geolocation: off,
  images: off,
  environmentVariables: { enabled: true },
  functions: { enabled: true },
  headers: { enabled: true },
  redirects: { enabled: true },
  staticFiles: { enabled: true },
  serverAddress: null,
  logger: {
    log: (...a) => console.error(...a),
    warn: (...a) => console.error(...a),
    error: (...a) => console.error(...a),
  },
})
// For `netlify dev`'s live reload, the emulation rebuilds a function before every call
// (zip-it-and-ship-it parses and traces the whole bundle and copies its included files:
// seconds a call), into the folder it was given or its global one. A deploy builds it once:
// without a folder to build into, a call uses the build made when the function was found.
const invoke = FunctionsHandler.prototype.invoke
FunctionsHandler.prototype.invoke = function (request, route, func) {
  this.globalBuildDirectory = undefined
  return invoke.call(this, request, route, func, undefined)
}
// With --no-reload, a function is not built again when a file it includes changes (a new build
// in dist/). The emulation rebuilds every function that includes dist/ files then, on a watcher's
// own time: minutes of this process on a loaded machine, which a call made meanwhile either
// waits for or runs beside, stalled. A function that reads the build from the project (the
// working folder, as DIST_DIR resolves there) and runs in a fresh worker each call sees each
// new build without it, as a deploy's functions see theirs. The first build (`firstLoad`) stays.
if (noReload) {
  const match = FunctionsHandler.prototype.match
  FunctionsHandler.prototype.match = function (...args) {
    const registry = this.registry
    if (!registry.reloadsOff) {
      const build = registry.buildFunctionAndWatchFiles
      registry.buildFunctionAndWatchFiles = function (func, firstLoad) {
        return firstLoad ? build.call(this, func, firstLoad) : Promise.resolve()
      }
      registry.reloadsOff = true
    }
    return match.apply(this, args)
  }
}

// @netlify/dev hands its functions handler the resolved configuration whole ({ config, … }), and the
// handler reads `functions` at its top: netlify.toml's [functions] sections (node_bundler,
// included_files) never reach a function's build, which a deploy's build does read. Given here
// where the handler looks, so the emulation builds each function as Netlify's build does.
const getConfig = netlify.getConfig.bind(netlify)
netlify.getConfig = async () => {
  const config = await getConfig()
  return config.functions === undefined && config.config?.functions
    ? { ...config, functions: config.config.functions }
    : config
}

await netlify.start()

// `handle()` would build the function into a fresh folder for every request.
async function answer(req) {
  const url = `http://${req.headers.host ?? '127.0.0.1'}${req.url}`
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value)
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD'
  const body = hasBody ? Buffer.concat(await Array.fromAsync(req)) : undefined
  const readRequest = new Request(url, { method: req.method, headers })
  const getWriteRequest = () => new Request(url, { method: req.method, headers, body })
  return netlify.handleInEphemeralDirectory(readRequest, getWriteRequest, undefined, {})
}

const server = createServer(async (req, res) => {
  try {
    const result = await answer(req)
    const response =
      result?.response ?? new Response('Not found', { status: 404, headers: { 'x-emulator': 'no-match' } })
    const headers = {}
    for (const [name, value] of response.headers) headers[name] = value
    // Several Set-Cookie headers must stay several (one object key would keep the last).
    const cookies = response.headers.getSetCookie()
    if (cookies.length) headers['set-cookie'] = cookies
    if (result?.type) headers['x-emulator-type'] = result.type
    res.writeHead(response.status, headers)
    res.end(req.method === 'HEAD' ? undefined : Buffer.from(await response.arrayBuffer()))
  } catch (error) {
    console.error(error)
    res.writeHead(599, { 'content-type': 'text/plain' })
    res.end(`emulator error: ${error instanceof Error ? error.message : String(error)}`)
  }
})
// A client reuses an idle connection until shortly before the server's keep-alive
// timeout; on a loaded machine that race resets requests made after a pause (a test's
// rebuild). Tests stop the emulation explicitly, so idle connections may live long.
server.keepAliveTimeout = 120_000
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address()
  process.stdout.write(
    `${JSON.stringify({ url: `http://127.0.0.1:${port}`, blobsContext: process.env.NETLIFY_BLOBS_CONTEXT ?? null })}\n`,
  )
})

const stop = async () => {
  server.close()
  await netlify.stop()
  process.exit(0)
}
process.once('SIGTERM', stop)
process.stdin.on('end', stop)
process.stdin.resume()
