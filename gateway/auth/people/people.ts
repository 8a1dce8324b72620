/**
 * People who sign in to the embedded authorization server (and the agent
 * hosts acting for them): email, name, the scopes they may grant, and a
 * scrypt password hash — never the password. Kept in the state store, so
 * `npm run keys -- user …` reaches a running gateway, on Netlify too.
 */
import { createHash, randomBytes } from 'node:crypto'
import { z } from 'zod'
import { isScope, type Scope } from '../../../contract/scopes.ts'
import type { StateStore } from '../store/state-store.ts'
import { hashPassword, passwordProblem, verifyPassword } from './passwords.ts'
import { AppError } from '../../../contract/errors.ts'

const PersonRecord = z.strictObject({
  id: z.string().regex(/^usr_[0-9a-f]{16}$/),
  email: z.string().min(3).max(254),
  name: z.string().min(1).max(200),
  scopes: z.array(z.string().refine((s): s is Scope => isScope(s), 'unknown scope')),
  password_hash: z.string().startsWith('scrypt$'),
  created_at: z.iso.datetime({ offset: true }),
  disabled_at: z.iso.datetime({ offset: true }).nullable(),
})
export type Person = z.infer<typeof PersonRecord>

/** A person as shown to operators: everything but the hash. */
export type PersonSummary = Omit<Person, 'password_hash'>

export class PeopleError extends AppError {
  /** An invalid value is a usage error of the CLI (exit 2); the rest are refusals (exit 1). */
  override readonly exitCode: 1 | 2

  constructor(
    message: string,
    readonly code: 'PERSON_INVALID' | 'PERSON_EXISTS' | 'PERSON_NOT_FOUND',
  ) {
    super(message)
    this.exitCode = code === 'PERSON_INVALID' ? 2 : 1
  }
}

/** One address per account, compared without case. A deliberately loose check: the address is a login name here. */
const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]+$/
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase()
}

const personKey = (id: string) => `people/${id}`
const emailKey = (email: string) =>
  `people-by-email/${createHash('sha256').update(normalizeEmail(email)).digest('hex')}`

export interface NewPerson {
  email: string
  name: string
  password: string
  scopes: readonly Scope[]
}

export interface People {
  create(input: NewPerson, now?: Date): Promise<PersonSummary>
  list(): Promise<PersonSummary[]>
  disable(id: string, now?: Date): Promise<PersonSummary>
  /** Anyone with this id, active or disabled. */
  find(id: string): Promise<Person | undefined>
  /** The active person with this email and password; as slow for unknown emails as for known ones. */
  authenticate(email: string, password: string): Promise<Person | undefined>
}

export function openPeople(store: StateStore): People {
  async function find(id: string): Promise<Person | undefined> {
    if (!/^usr_[0-9a-f]{16}$/.test(id)) return undefined
    const parsed = PersonRecord.safeParse(await store.get(personKey(id)))
    return parsed.success ? parsed.data : undefined
  }
  async function findByEmail(email: string): Promise<Person | undefined> {
    const id = await store.get<string>(emailKey(email))
    return typeof id === 'string' ? find(id) : undefined
  }
  const summary = ({ password_hash: _hash, ...rest }: Person): PersonSummary => rest

  return {
    find,
    async create(input, now = new Date()) {
      const email = normalizeEmail(input.email)
      if (!EMAIL.test(email) || email.length > 254)
        throw new PeopleError(`"${input.email.slice(0, 100)}" is not an email address`, 'PERSON_INVALID')
      const name = input.name.trim()
      if (!name || name.length > 200) throw new PeopleError('the name must be 1 to 200 characters', 'PERSON_INVALID')
      const weak = passwordProblem(input.password)
      if (weak) throw new PeopleError(weak, 'PERSON_INVALID')
      const person: Person = {
        id: `usr_${randomBytes(8).toString('hex')}`,
        email,
        name,
        scopes: [...new Set(input.scopes)],
        password_hash: await hashPassword(input.password),
        created_at: now.toISOString(),
        disabled_at: null,
      }
      // The email is claimed first, as one step: of two creating the same address at once, one wins. A claim
      // whose person was never written (a process that died between the two) is taken over.
      await store.update<string>(emailKey(email), async (holder) => {
        if (holder !== undefined && holder !== person.id && (await find(holder)))
          throw new PeopleError(`someone with the email ${email} already exists`, 'PERSON_EXISTS')
        return person.id
      })
      await store.set(personKey(person.id), PersonRecord.parse(person))
      return summary(person)
    },
    async list() {
      const people = await Promise.all((await store.list('people/')).map((key) => find(key.slice('people/'.length))))
      return people
        .filter((p): p is Person => p !== undefined)
        .map(summary)
        .sort((a, b) => a.created_at.localeCompare(b.created_at))
    },
    async disable(id, now = new Date()) {
      if (!(await find(id))) throw new PeopleError(`no person with id ${id}`, 'PERSON_NOT_FOUND')
      const person = await store.update<Person>(personKey(id), (current) => {
        const parsed = PersonRecord.safeParse(current)
        if (!parsed.success) throw new PeopleError(`no person with id ${id}`, 'PERSON_NOT_FOUND')
        return { ...parsed.data, disabled_at: parsed.data.disabled_at ?? now.toISOString() }
      })
      return summary(person!)
    },
    async authenticate(email, password) {
      const person = await findByEmail(email)
      const ok = await verifyPassword(password, person?.password_hash)
      return ok && person && !person.disabled_at ? person : undefined
    },
  }
}
