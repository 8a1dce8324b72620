/**
 * `include_drafts: true` of the content tools: the preview (drafts,
 * scheduled and expired items with their state, gateway/preview/) instead of
 * what is published, for a credential with the `content.preview.read` scope
 * beside `mcp.tools.invoke`. Without it the tool refuses with an error that
 * says what is missing; without the argument nothing changes.
 */
import { z } from 'zod'
import { PREVIEW_SCOPE } from '../../contract/preview.ts'
import type { Preview } from '../preview/artifact.ts'
import { toolError } from './schemas.ts'

/** What one MCP request may see of the preview. */
export interface DraftAccess {
  /** Whether the request's credential has the preview scope. */
  allowed: boolean
  preview(): Promise<Preview>
}

export const includeDraftsArg = z
  .boolean()
  .optional()
  .describe(
    'Also drafts, scheduled and expired items, each with its state (draft, scheduled with release_at, published, expired): for reviewing what is not published yet. Needs the content.preview.read scope.',
  )

/** The preview, or the tool error of a credential without the scope (or a gateway without a preview). */
export async function previewFor(drafts: DraftAccess | undefined): Promise<Preview | ReturnType<typeof toolError>> {
  if (!drafts?.allowed)
    return toolError(
      `include_drafts needs the ${PREVIEW_SCOPE} scope, which this credential lacks: ask for a token with it (beside mcp.tools.invoke), or leave include_drafts out to read what is published.`,
    )
  try {
    return await drafts.preview()
  } catch (error) {
    return toolError(`The preview is not available now (${(error as Error).message}); retry later.`)
  }
}

/** Whether `previewFor` answered with its refusal. */
export function isRefusal(value: Preview | ReturnType<typeof toolError>): value is ReturnType<typeof toolError> {
  return 'isError' in value
}
