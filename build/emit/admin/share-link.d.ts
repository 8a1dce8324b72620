/** Types of share-link.js (plain browser ESM, copied into dist/admin/ as it is). */

/** What the button says when no preview key was given. */
export const NO_KEY: string
/** The React class of the "Share preview link" bar, asking the preview API at `previewApi`. */
export function shareLinkClass(previewApi: string): unknown
