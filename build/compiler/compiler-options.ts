/** What the compiler is opened with, and the states it hands out (compiler.ts). */
import type { ApiOrigin } from '../../contract/api-origin.ts'
import type { ContentErrors } from '../core/errors.ts'
import type { BuiltContent } from '../emit/types.ts'
import type { MediaSettings } from '../media/recipes.ts'

export interface CompilerOptions {
  /** Project root holding content/. */
  root: string
  /** Keep rendered bodies in `<root>/.cache` between runs (default true). */
  cache?: boolean
  /** Threads rendering Markdown in a large build (BUILD_THREADS); default one per core. */
  threads?: number
  /** Run the search index on a worker thread for large content (default true). */
  offThread?: boolean
  /** Process local images (default true); `npm run check` only checks them. */
  processMedia?: boolean
  /** What images are processed with (default: this code's, build/media/recipes.ts). */
  mediaSettings?: MediaSettings
  /** The build's clock in milliseconds (default BUILD_TIME, else the time): what is scheduled and expired. */
  clock?: () => number
  /** Ask git for content/'s history before compiling, for the first full emit (a build's; default false). */
  readHistoryEarly?: boolean
  /** The origin the records' URLs name (contract/api-origin.ts); default site.yaml's `api_url`. */
  apiOrigin?: ApiOrigin
}

/** The content as last compiled: published and ready to emit, or the errors that stop it. */
export type CompileState = { ok: true; content: BuiltContent } | { ok: false; errors: ContentErrors }

/** What `update` did: the files whose content changed, and the state after. */
export interface Update {
  files: string[]
  state: CompileState
}
