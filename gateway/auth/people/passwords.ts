/**
 * Password hashing with scrypt (node:crypto; RFC 7914). The stored form
 * names its parameters, `scrypt$N$r$p$salt$hash`, so they can be raised
 * later without breaking existing hashes. Comparison is constant-time, and
 * an unknown account is checked against a dummy hash so both take as long.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto'

/** OWASP's scrypt minimum (N=2^17, r=8, p=1) costs 128 MiB per check; 2^15 keeps a login affordable on a small server. */
const COST = { N: 2 ** 15, r: 8, p: 1 } as const
const KEY_LENGTH = 32
const SALT_BYTES = 16

export const MIN_PASSWORD_LENGTH = 10
export const MAX_PASSWORD_LENGTH = 256

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  const maxmem = 128 * (options.N ?? 0) * (options.r ?? 0) * 2
  return new Promise((done, fail) =>
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { ...options, maxmem }, (error, key) =>
      error ? fail(error) : done(key),
    ),
  )
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES)
  const key = await derive(password, salt, COST)
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$')
}

/** A hash of nothing anyone knows, verified against when the account does not exist. */
let dummy: Promise<string> | undefined

/** True when `password` matches `stored`; `stored` undefined spends the same time and says false. */
export async function verifyPassword(password: string, stored: string | undefined): Promise<boolean> {
  const hash = stored ?? (await (dummy ??= hashPassword(randomBytes(16).toString('hex'))))
  const parts = hash.split('$')
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number]
  const expected = Buffer.from(parts[5]!, 'base64url')
  if (!Number.isInteger(N) || !Number.isInteger(r) || !Number.isInteger(p) || expected.length !== KEY_LENGTH)
    return false
  const actual = await derive(password, Buffer.from(parts[4]!, 'base64url'), { N, r, p })
  return timingSafeEqual(actual, expected) && stored !== undefined
}

/** Why a new password is refused, or undefined when it is acceptable. */
export function passwordProblem(password: string): string | undefined {
  const length = [...password].length
  if (length < MIN_PASSWORD_LENGTH) return `the password must be at least ${MIN_PASSWORD_LENGTH} characters long`
  if (length > MAX_PASSWORD_LENGTH) return `the password must be at most ${MAX_PASSWORD_LENGTH} characters long`
  return undefined
}
