/** The built artifacts cannot be served: no build, an unreadable manifest, or a file that is gone or differs. */
import { AppError } from '../../contract/errors.ts'

export class ArtifactError extends AppError {
  readonly code = 'ARTIFACTS_UNAVAILABLE'
}
