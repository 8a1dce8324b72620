/** Types of backends.js (plain browser ESM, copied into dist/admin/ as it is). */
// biome-ignore lint/suspicious/noExplicitAny: Decap's implementations are untyped JavaScript objects.
export type Implementation = Record<string, any>
export type Wrapper = (implementation: Implementation) => Implementation
export function wrapBackends(CMS: unknown, wrappers: readonly Wrapper[]): void
export function around(
  implementation: Implementation,
  name: string,
  // biome-ignore lint/suspicious/noExplicitAny: the arguments of any method of an implementation.
  replacement: (original: (...args: any[]) => any, ...args: any[]) => any,
): void
