import { mkdtemp, readdir, readFile, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadSigningKey } from '../../../gateway/auth/issuer/signing-key.ts'
import { createDurably } from '../../../gateway/auth/store/durable-file.ts'
import { loadSecretsKey } from '../../../gateway/webhooks/secrets.ts'

/** Runtime keys made on first start: every racing starter must end with the one key that was kept. */
describe('a key file made on first use', () => {
  it('gives racing webhook secrets keys one value, never a half-written file', async () => {
    for (let round = 0; round < 3; round++) {
      const file = join(await mkdtemp(join(tmpdir(), 'create-once-')), 'keys', 'webhook-secrets.key')
      const keys = await Promise.all(Array.from({ length: 16 }, () => loadSecretsKey({ file })))
      expect(new Set(keys.map((k) => k.kid)).size).toBe(1)
      expect((await loadSecretsKey({ file })).kid).toBe(keys[0]!.kid)
    }
  })

  it('gives racing OAuth signing keys one kid', async () => {
    for (let round = 0; round < 3; round++) {
      const file = join(await mkdtemp(join(tmpdir(), 'create-once-')), 'keys', 'oauth-signing-key.json')
      const keys = await Promise.all(Array.from({ length: 16 }, () => loadSigningKey({ file })))
      expect(new Set(keys.map((k) => k.kid)).size).toBe(1)
    }
  })

  it('keeps the first text, owner-only, and leaves no temporary file', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'create-once-'))
    const file = join(folder, 'secret')
    expect(await createDurably(file, 'first\n')).toBe(true)
    expect(await createDurably(file, 'second\n')).toBe(false)
    expect(await readFile(file, 'utf8')).toBe('first\n')
    expect((await stat(file)).mode & 0o777).toBe(0o600)
    expect(await readdir(folder)).toEqual(['secret'])
  })

  it('is never seen half-written by a reader', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'create-once-')), 'large')
    const text = 'x'.repeat(32 * 1024 * 1024)
    let done = false
    const creating = createDurably(file, text).finally(() => (done = true))
    const seen = new Set<number>()
    while (!done) {
      const read = await readFile(file, 'utf8').catch(() => undefined)
      if (read !== undefined) seen.add(read.length)
    }
    expect(await creating).toBe(true)
    expect([...seen].every((length) => length === text.length)).toBe(true)
  })
})
