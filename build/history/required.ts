/**
 * REQUIRE_HISTORY=on, as in CI and on Netlify: a build (or check) that cannot
 * read content/'s whole git history fails instead of publishing a change feed
 * without deletions and with other cursors than the last deploy's.
 */
import { AppError } from '../../contract/errors.ts'
import type { CommittedHistory } from './types.ts'

export class HistoryRequiredError extends AppError {
  readonly code = 'HISTORY_REQUIRED'
}

/** Throws HistoryRequiredError unless `history` is complete (read from git, not shallow). */
export function assertCompleteHistory(history: CommittedHistory): void {
  if (history.source === 'git') return
  throw new HistoryRequiredError(
    `REQUIRE_HISTORY is on, but ${history.detail ?? history.warning}. Build from a full clone (fetch-depth: 0) that git trusts, or set REQUIRE_HISTORY=off to build without the history`,
  )
}
