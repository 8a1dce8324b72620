/** Types of bounds.js (plain browser ESM, copied into dist/admin/ as it is). */
/** `bounds`: a field of the editor's configuration, with `min_length` and `max_length` if it has them. */
export function lengthProblem(bounds: object, value: unknown): string | undefined
export function registerLengthBounds(CMS: unknown): void
