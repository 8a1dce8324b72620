/** commonmark-spec ships no types: its examples, as its index.js reads them from spec.txt. */
declare module 'commonmark-spec' {
  export const tests: { markdown: string; html: string; section: string; number: number }[]
}
