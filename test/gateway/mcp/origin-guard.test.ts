import { describe, expect, it } from 'vitest'
import { createOriginGuard, isLoopbackHostname, isLoopbackRequest } from '../../../gateway/mcp/origin-guard.ts'

const headers = (host: string, origin?: string) => new Headers(origin === undefined ? { host } : { host, origin })

describe('the origin guard of /mcp (DNS-rebinding protection)', () => {
  const guard = createOriginGuard({ publicUrl: 'https://api.example.com', allowedOrigins: ['https://app.example.com'] })

  it('accepts loopback and the public host, with no Origin (not a browser) or an allowed one', () => {
    expect(guard(headers('127.0.0.1:8787'))).toEqual({ ok: true })
    expect(guard(headers('api.example.com'))).toEqual({ ok: true })
    expect(guard(headers('api.example.com', 'https://app.example.com'))).toEqual({ ok: true })
    expect(guard(headers('localhost:8787', 'http://localhost:3000'))).toEqual({ ok: true })
  })

  it('refuses another host (a rebound name) and another origin, saying which', () => {
    expect(guard(headers('evil.example'))).toMatchObject({
      ok: false,
      reason: expect.stringContaining('"evil.example"'),
    })
    expect(guard(headers('127.0.0.1:8787', 'http://evil.example'))).toMatchObject({
      ok: false,
      reason: expect.stringContaining('"http://evil.example"'),
    })
    expect(guard(headers('127.0.0.1:8787', 'null'))).toMatchObject({ ok: false })
  })

  it('follows a public URL known only once listening', () => {
    let url: string | undefined
    const late = createOriginGuard({ publicUrl: () => url })
    expect(late(headers('gw.example:9000')).ok).toBe(false)
    url = 'http://gw.example:9000'
    expect(late(headers('gw.example:9000')).ok).toBe(true)
  })
})

describe('loopback', () => {
  it.each(['localhost', '127.0.0.1', '127.255.0.9', '::1', '[::1]', 'a.localhost', 'LOCALHOST.'])(
    '%s is loopback',
    (name) => expect(isLoopbackHostname(name)).toBe(true),
  )
  it.each(['128.0.0.1', '127.0.0.256', '0.0.0.0', 'localhost.example', '10.0.0.1'])('%s is not', (name) =>
    expect(isLoopbackHostname(name)).toBe(false),
  )

  it('a request is loopback only when its Host and Origin both are', () => {
    expect(isLoopbackRequest(headers('127.0.0.1:1'))).toBe(true)
    expect(isLoopbackRequest(headers('127.0.0.1:1', 'https://evil.example'))).toBe(false)
    expect(isLoopbackRequest(headers('api.example.com'))).toBe(false)
  })
})
