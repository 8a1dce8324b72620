/**
 * The watch mode as `npm run dev` runs it, for the edit → served benchmark:
 * `node --import tsx bench/servers/dev.ts <root>`; prints `{"url": …}` on
 * stdout once the first build is served. dist/ is not written (in-memory
 * only), so the background write never overlaps the next measured edit.
 */
import { startDev } from '../../gateway/dev-server.ts'

const dev = await startDev({
  root: process.argv[2]!,
  host: '127.0.0.1',
  port: 0,
  distDir: false,
  print: (line) => process.stderr.write(`${line}\n`),
})
process.stdout.write(`${JSON.stringify({ url: dev.url })}\n`)
process.once('SIGTERM', () => void dev.close().then(() => process.exit(0)))
